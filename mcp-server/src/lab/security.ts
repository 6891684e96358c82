// The files a secured lab needs: passwords, a CA with node and client certificates made by the JDK's keytool,
// JMX password/access files, and a cqlshrc for the tool's role. All under <stateDir>/secrets (0700, files 0600),
// made once and reused by later starts, so a client configured against the lab keeps working across restarts.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { LabError } from './errors.js';
import { writeFileAtomic } from './fs-util.js';
import { findOnPath } from './preflight.js';

export interface LabSecurityOptions {
  /** PasswordAuthenticator + CassandraAuthorizer + CassandraRoleManager, a set-up superuser and the tool's role. */
  auth: boolean;
  /** Client TLS (and internode TLS on 3 nodes). */
  tls: boolean;
  /** With tls: the native port also requires a client certificate signed by the lab CA. */
  clientCertAuth: boolean;
  /** JMX password and access files. */
  jmxAuth: boolean;
  /** JMX over SSL (com.sun.management.jmxremote.ssl) with the node's keystore; nodetool then needs --ssl. */
  jmxSsl?: boolean;
}

export const NO_SECURITY: LabSecurityOptions = { auth: false, tls: false, clientCertAuth: false, jmxAuth: false };

export function isSecured(o: LabSecurityOptions | undefined): boolean {
  return !!o && (o.auth || o.tls || o.jmxAuth || o.jmxSsl === true);
}

/** The role the tools use (least privilege, see lab/auth-setup.ts) and the superuser that sets the lab up. */
export const LAB_TOOL_ROLE = 'cql_tuner';
export const LAB_ADMIN_ROLE = 'lab_admin';
/** The role stress runs use: the tool's role plus CREATE on all keyspaces (lab/auth-setup.ts BENCH_GRANTS). */
export const LAB_BENCH_ROLE = 'cql_tuner_bench';
/** JMX users: the tool's and the operator's. */
export const LAB_JMX_USER = 'cql_tuner_jmx';
export const LAB_JMX_ADMIN = 'lab_jmx_admin';

interface Passwords {
  store: string;
  admin: string;
  tool: string;
  bench: string;
  jmx: string;
  jmxAdmin: string;
}

const PASSWORD_KEYS = ['store', 'admin', 'tool', 'bench', 'jmx', 'jmxAdmin'] as const;

export interface LabSecrets {
  dir: string;
  passwords: Passwords;
  /** PEM of the lab CA (what a client trusts: cqlshrc [ssl] certfile, CQL_TUNER_CQL_CA_FILE). */
  caPem: string;
  truststore: string;
  nodeKeystore(index: number): string;
  /** PEM key and certificate of the tool's client certificate (CN=cql_tuner), when openssl could write them. */
  clientKeyPem: string;
  clientCertPem: string;
  /** cqlshrc for the tool's role: [authentication], [connection] ssl, [ssl] certfile/validate (+ userkey/usercert). */
  toolCqlshrc: string;
  /** cqlshrc for the superuser (set-up and tests that must act as an operator). */
  adminCqlshrc: string;
  /** cqlshrc for the stress role (cql_tuner_bench). */
  benchCqlshrc: string;
  jmxPasswordFile: string;
  jmxAccessFile: string;
  /** `user password` for nodetool -pwf / CQL_TUNER_JMX_PASSWORD_FILE (the tool's JMX user only). */
  jmxClientPasswordFile: string;
}

export function secretsDirFor(stateDir: string): string {
  return join(stateDir, 'secrets');
}

function secretsPaths(dir: string, passwords: Passwords): LabSecrets {
  return {
    dir,
    passwords,
    caPem: join(dir, 'ca.pem'),
    truststore: join(dir, 'truststore.p12'),
    nodeKeystore: (i) => join(dir, `node${i}.p12`),
    clientKeyPem: join(dir, 'client-key.pem'),
    clientCertPem: join(dir, 'client-cert.pem'),
    toolCqlshrc: join(dir, 'cqlshrc'),
    adminCqlshrc: join(dir, 'cqlshrc.admin'),
    benchCqlshrc: join(dir, 'cqlshrc.bench'),
    jmxPasswordFile: join(dir, 'jmxremote.password'),
    jmxAccessFile: join(dir, 'jmxremote.access'),
    jmxClientPasswordFile: join(dir, 'jmx-client.password'),
  };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** URL-safe random, so it can stand in a YAML value, a properties line and a cqlshrc without quoting. */
function newPassword(): string {
  return randomBytes(18).toString('base64url').replace(/[-_]/g, 'x');
}

async function writeSecret(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text);
  await chmod(path, 0o600);
}

async function loadPasswords(dir: string): Promise<Passwords> {
  const path = join(dir, 'passwords.json');
  const raw = await readFile(path, 'utf8').catch(() => null);
  let kept: Partial<Record<(typeof PASSWORD_KEYS)[number], unknown>> = {};
  if (raw !== null) {
    try {
      kept = JSON.parse(raw) as typeof kept;
    } catch {
      // rewritten below
    }
  }
  // Passwords already in use (by keystores and roles in the data) stay; only missing ones are made, so a
  // secrets folder from an older cql-tuner gains the bench password without breaking the others.
  const out = {} as Passwords;
  let changed = raw === null;
  for (const k of PASSWORD_KEYS) {
    const v = kept[k];
    if (typeof v === 'string' && v) out[k] = v;
    else {
      out[k] = newPassword();
      changed = true;
    }
  }
  if (changed) await writeSecret(path, `${JSON.stringify(out, null, 2)}\n`);
  return out;
}

async function keytoolPath(java: string): Promise<string> {
  const beside = join(dirname(java), 'keytool');
  if (await exists(beside)) return beside;
  const onPath = await findOnPath('keytool');
  if (onPath) return onPath;
  throw new LabError('SECURITY_SETUP_FAILED', `No keytool next to ${java} or on PATH.`, 'Install a full JDK 17 (keytool ships with it) for --tls.');
}

async function run(file: string, args: string[], what: string): Promise<void> {
  const r = await execa(file, args, { reject: false, timeout: 60_000, stdin: 'ignore' });
  if (r.exitCode !== 0) {
    const out = `${String(r.stderr)}\n${String(r.stdout)}`.trim().split('\n').slice(-5).join('\n');
    const msg = `${what} failed (${file} exit ${String(r.exitCode)}):\n${out}`;
    throw new LabError('SECURITY_SETUP_FAILED', msg, 'Delete the secrets folder of the lab and start again.');
  }
}

/**
 * A key pair in `store` signed by the lab CA, with the CA chain imported first. SAN = IP of the node, so clients
 * that verify the host name (Node's TLS does by default) and internode endpoint verification both pass.
 */
async function signedKeystore(kt: string, s: LabSecrets, store: string, alias: string, cn: string, san: string | null, eku: string): Promise<void> {
  const pw = s.passwords.store;
  const ca = join(s.dir, 'ca.p12');
  const csr = `${store}.csr`;
  const crt = `${store}.crt`;
  const common = ['-storepass', pw, '-keypass', pw, '-storetype', 'PKCS12'];
  const sanExt = san ? ['-ext', `san=${san}`] : [];
  const keyPair = ['-keyalg', 'RSA', '-keysize', '2048', '-validity', '3650', '-dname', `CN=${cn}, O=cql-tuner lab`];
  await run(kt, ['-genkeypair', '-alias', alias, ...keyPair, ...sanExt, '-keystore', store, ...common], `keytool -genkeypair ${alias}`);
  await run(kt, ['-certreq', '-alias', alias, '-keystore', store, '-file', csr, ...common], `keytool -certreq ${alias}`);
  await run(
    kt,
    [
      ...['-gencert', '-alias', 'ca', '-keystore', ca, '-storepass', pw, '-infile', csr, '-outfile', crt, '-rfc', '-validity', '3650'],
      ...sanExt,
      ...['-ext', 'ku:c=digitalSignature,keyEncipherment', '-ext', `eku=${eku}`],
    ],
    `keytool -gencert ${alias}`,
  );
  await run(kt, ['-importcert', '-noprompt', '-alias', 'ca', '-file', s.caPem, '-keystore', store, ...common], `keytool -importcert ca into ${alias}`);
  await run(kt, ['-importcert', '-noprompt', '-alias', alias, '-file', crt, '-keystore', store, ...common], `keytool -importcert ${alias}`);
  await chmod(store, 0o600);
}

async function ensureCertificates(java: string, s: LabSecrets, hosts: string[]): Promise<void> {
  const kt = await keytoolPath(java);
  const pw = s.passwords.store;
  const ca = join(s.dir, 'ca.p12');
  if (!(await exists(ca)) || !(await exists(s.caPem))) {
    // A new CA: everything it signed or is trusted by goes too, or a half-made folder (an interrupted start)
    // would pair new nodes with an old truststore, and keytool refuses to import a second "ca" alias.
    await removeCertificates(s.dir);
    await run(
      kt,
      [
        '-genkeypair',
        '-alias',
        'ca',
        '-keyalg',
        'RSA',
        '-keysize',
        '2048',
        '-validity',
        '3650',
        '-dname',
        'CN=cql-tuner lab CA, O=cql-tuner lab',
        '-ext',
        'bc:c',
        '-ext',
        'ku:c=keyCertSign,cRLSign',
        '-keystore',
        ca,
        '-storepass',
        pw,
        '-keypass',
        pw,
        '-storetype',
        'PKCS12',
      ],
      'keytool -genkeypair (lab CA)',
    );
    await run(kt, ['-exportcert', '-rfc', '-alias', 'ca', '-keystore', ca, '-storepass', pw, '-file', s.caPem], 'keytool -exportcert (lab CA)');
    const trust = ['-importcert', '-noprompt', '-alias', 'ca', '-file', s.caPem, '-keystore', s.truststore, '-storepass', pw, '-storetype', 'PKCS12'];
    await run(kt, trust, 'keytool truststore');
  }
  for (const [i, host] of hosts.entries()) {
    const store = s.nodeKeystore(i + 1);
    // A keystore made for another address (CQL_TUNER_LAB_NET changed) would fail host name checks: remade.
    const marker = `${store}.host`;
    if ((await exists(store)) && (await readFile(marker, 'utf8').catch(() => '')) === host) continue;
    await rmQuiet(store);
    await signedKeystore(kt, s, store, `node${i + 1}`, host, `ip:${host}`, 'serverAuth,clientAuth');
    await writeSecret(marker, host);
  }
  const clientStore = join(s.dir, 'client.p12');
  if (!(await exists(s.clientKeyPem)) || !(await exists(s.clientCertPem))) {
    await rmQuiet(clientStore);
    await signedKeystore(kt, s, clientStore, 'client', 'cql_tuner', null, 'clientAuth');
    // keytool cannot write a private key as PEM; cqlsh and the Node driver want PEM (userkey/usercert).
    const openssl = await findOnPath('openssl');
    if (openssl) {
      await run(openssl, ['pkcs12', '-in', clientStore, '-passin', `pass:${pw}`, '-nocerts', '-nodes', '-out', s.clientKeyPem], 'openssl pkcs12 (client key)');
      const certArgs = ['pkcs12', '-in', clientStore, '-passin', `pass:${pw}`, '-clcerts', '-nokeys', '-out', s.clientCertPem];
      await run(openssl, certArgs, 'openssl pkcs12 (client cert)');
      await chmod(s.clientKeyPem, 0o600);
    }
  }
}

/** Files made from the CA: the CA itself, the truststore, node and client key stores and their by-products. */
const CERT_FILE = /^(ca\.p12|ca\.pem|truststore\.p12|client(\.p12(\.csr|\.crt)?|-key\.pem|-cert\.pem)|node\d+\.p12(\.host|\.csr|\.crt)?)$/;

export async function removeCertificates(dir: string): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => CERT_FILE.test(n));
  for (const n of names) await rmQuiet(join(dir, n));
  return names;
}

async function rmQuiet(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** cqlshrc as cqlsh reads it ([authentication], [connection] ssl, [ssl]); what the lab hands to clients. */
export function renderCqlshrc(p: { username?: string; password?: string; caPem?: string; userKey?: string; userCert?: string; host?: string }): string {
  const lines = ['; Generated by cql-tuner for a lab; rewritten on every lab start.'];
  if (p.username) lines.push('[authentication]', `username = ${p.username}`, `password = ${p.password ?? ''}`, '');
  if (p.host) lines.push('[connection]', `hostname = ${p.host}`, 'port = 9042', ...(p.caPem ? ['ssl = true'] : []), '');
  if (p.caPem) {
    lines.push('[ssl]', `certfile = ${p.caPem}`, 'validate = true');
    if (p.userKey && p.userCert) lines.push(`userkey = ${p.userKey}`, `usercert = ${p.userCert}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** Everything the secured lab needs on disk, made or reused. `hosts` are the node addresses, node 1 first. */
export async function ensureLabSecrets(stateDir: string, java: string, hosts: string[], o: LabSecurityOptions): Promise<LabSecrets> {
  const dir = secretsDirFor(stateDir);
  await removeWipeLeftovers(stateDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const s = secretsPaths(dir, await loadPasswords(dir));
  if (o.tls || o.jmxSsl) await ensureCertificates(java, s, hosts);
  const haveClientPem = o.tls && (await exists(s.clientKeyPem)) && (await exists(s.clientCertPem));
  const tlsPart = o.tls ? { caPem: s.caPem, ...(haveClientPem ? { userKey: s.clientKeyPem, userCert: s.clientCertPem } : {}) } : {};
  const host = hosts[0];
  const rcFor = (username: string, password: string) => renderCqlshrc({ ...(o.auth ? { username, password } : {}), ...tlsPart, ...(host ? { host } : {}) });
  await writeSecret(s.toolCqlshrc, rcFor(LAB_TOOL_ROLE, s.passwords.tool));
  await writeSecret(s.adminCqlshrc, rcFor(LAB_ADMIN_ROLE, s.passwords.admin));
  await writeSecret(s.benchCqlshrc, rcFor(LAB_BENCH_ROLE, s.passwords.bench));
  if (o.jmxAuth) {
    // The JDK refuses a JMX password file that others can read; cassandra-env.sh documents chmod 400.
    await writeSecret(s.jmxPasswordFile, `${LAB_JMX_USER} ${s.passwords.jmx}\n${LAB_JMX_ADMIN} ${s.passwords.jmxAdmin}\n`);
    // readwrite for the tool too: the JDK access file has only readonly/readwrite, and nodetool status and
    // describecluster invoke MBean operations, which readonly refuses (measured: "Access denied! Invalid access level").
    await writeSecret(s.jmxAccessFile, `${LAB_JMX_USER} readwrite\n${LAB_JMX_ADMIN} readwrite\n`);
    await writeSecret(s.jmxClientPasswordFile, `${LAB_JMX_USER} ${s.passwords.jmx}\n`);
  }
  return s;
}

const WIPING_PREFIX = 'secrets.wiping-';

/**
 * Deletes the lab's secrets (CA, key stores, passwords, cqlshrc files) as one step: the folder is first renamed
 * aside (atomic), then removed, so a start never finds it half deleted; leftovers of an interrupted wipe go too.
 * Returns whether there was a secrets folder.
 */
export async function wipeLabSecrets(stateDir: string): Promise<boolean> {
  const dir = secretsDirFor(stateDir);
  const aside = join(stateDir, `${WIPING_PREFIX}${randomBytes(4).toString('hex')}`);
  const had = await rename(dir, aside).then(
    () => true,
    (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return false;
      const fix = `Check the permissions of ${stateDir}, then run the wipe again.`;
      throw new LabError('STOP_FAILED', `Could not move the lab secrets ${dir} aside: ${e.message}`, fix);
    },
  );
  await removeWipeLeftovers(stateDir);
  return had;
}

/** Secrets folders an interrupted wipe renamed aside and did not finish removing. */
export async function removeWipeLeftovers(stateDir: string): Promise<void> {
  const names = await readdir(stateDir).catch(() => [] as string[]);
  for (const n of names.filter((x) => x.startsWith(WIPING_PREFIX))) await rm(join(stateDir, n), { recursive: true, force: true });
}
