/**
 * CQL credentials and TLS settings from the places operators keep them, all trusted (the user's own environment
 * and files), never from an MCP argument:
 * 1. the environment: CQL_TUNER_CQL_USERNAME, CQL_TUNER_CQL_PASSWORD or CQL_TUNER_CQL_PASSWORD_FILE, CQL_TUNER_CQL_TLS,
 *    CQL_TUNER_CQL_CA_FILE, CQL_TUNER_CQL_CLIENT_KEY / _CERT, CQL_TUNER_CQL_TLS_INSECURE;
 * 2. cqlshrc: CQL_TUNER_CQLSHRC=<path>, else ~/.cassandra/cqlshrc when it exists ([authentication], [connection] ssl,
 *    [ssl] certfile / validate / userkey / usercert, and the [authentication] credentials file).
 * The environment wins key by key. Passwords are returned for the driver only, and listed in `secrets` so any text
 * that could echo them is scrubbed.
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parseCqlshCredentials, parseCqlshrc, type CqlshrcSettings } from '../core/cqlshrc.js';
import { OpError } from '../core/errors.js';
import { readNamedFile } from './safe-file.js';

export const CQLSHRC_VAR = 'CQL_TUNER_CQLSHRC';
const MAX_FILE_BYTES = 1024 * 1024;

export interface CqlTlsOptions {
  ca?: Buffer[];
  key?: Buffer;
  cert?: Buffer;
  rejectUnauthorized: boolean;
}

export interface CqlCredentials {
  username?: string;
  password?: string;
  tls: boolean;
  sslOptions?: CqlTlsOptions;
  /** Where the username came from (for error messages; never the value of a password). */
  credentialSource: string | null;
  caSource: string | null;
  /** The paths behind sslOptions, for tools that read the files themselves (latte --ssl-ca/--ssl-cert/--ssl-key). */
  tlsFiles?: { ca?: string; key?: string; cert?: string };
  /** The cqlshrc read, or null. */
  cqlshrc: string | null;
  /** Things to tell the user (unreadable lines, ignored values), never holding a secret. */
  warnings: string[];
  secrets: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

function set(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

function envBool(env: Env, name: string): boolean | undefined {
  const v = set(env[name])?.trim().toLowerCase();
  if (v === undefined) return undefined;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new OpError('BAD_SETTING', `${name} must be 1/true or 0/false`, `Fix or unset ${name} in the environment of cql-tuner.`);
}

/** ~ and paths relative to the cqlshrc (cqlsh expands ~; relative paths are taken from the file's folder). */
function expand(path: string, base: string | null, home: string): string {
  if (path === '~' || path.startsWith('~/')) return join(home, path.slice(1));
  if (isAbsolute(path)) return path;
  return base ? resolve(dirname(base), path) : resolve(path);
}

async function readTrusted(path: string, what: string, fixVar: string): Promise<string> {
  const r = await readNamedFile(path, { maxBytes: MAX_FILE_BYTES });
  if (!r.ok) throw new OpError('CQL_SETTINGS_UNREADABLE', `${what} ${path}: ${r.reason}`, `Fix the path in ${fixVar}, or the file's permissions.`);
  return r.text;
}

async function readBytes(path: string, what: string, fixVar: string): Promise<Buffer> {
  return Buffer.from(await readTrusted(path, what, fixVar), 'utf8');
}

async function loadCqlshrc(env: Env, home: string): Promise<{ path: string; settings: CqlshrcSettings } | null> {
  const given = set(env[CQLSHRC_VAR]);
  const path = given ? expand(given, null, home) : join(home, '.cassandra', 'cqlshrc');
  const r = await readNamedFile(path, { maxBytes: MAX_FILE_BYTES });
  if (!r.ok) {
    if (!given && r.code === 'NOT_FOUND') return null;
    const fix = given ? `Fix the path given with --cqlshrc or ${CQLSHRC_VAR}, or unset it.` : `Fix or move ${path}.`;
    throw new OpError('CQL_SETTINGS_UNREADABLE', `cqlshrc ${path}: ${r.reason}`, fix);
  }
  return { path, settings: parseCqlshrc(r.text) };
}

export async function cqlCredentialsFromEnv(env: Env = process.env, home: string = homedir()): Promise<CqlCredentials> {
  const rc = await loadCqlshrc(env, home);
  const s = rc?.settings;
  const rcName = rc ? `cqlshrc ${rc.path}` : null;
  const warnings = (s?.warnings ?? []).map((w) => `${rcName}: ${w}`);
  const secrets: string[] = [];

  let username = set(env['CQL_TUNER_CQL_USERNAME']);
  let password = env['CQL_TUNER_CQL_PASSWORD'];
  let credentialSource: string | null = username ? 'CQL_TUNER_CQL_USERNAME' : null;
  const pwFile = set(env['CQL_TUNER_CQL_PASSWORD_FILE']);
  if (username && password === undefined && pwFile) {
    // The whole file, less one trailing newline: a password may end in spaces.
    password = (await readTrusted(expand(pwFile, null, home), 'CQL password file', 'CQL_TUNER_CQL_PASSWORD_FILE')).replace(/\r?\n$/, '');
    credentialSource = 'CQL_TUNER_CQL_USERNAME and CQL_TUNER_CQL_PASSWORD_FILE';
  }
  if (!username && s?.username) {
    username = s.username;
    password = s.password;
    credentialSource = rcName;
  }
  if (!username && s?.credentialsFile && rc) {
    const path = expand(s.credentialsFile, rc.path, home);
    const c = parseCqlshCredentials(await readTrusted(path, 'cqlsh credentials file', CQLSHRC_VAR));
    warnings.push(...c.warnings.map((w) => `credentials file ${path}: ${w}`));
    if (c.username) {
      username = c.username;
      password = c.password;
      credentialSource = `credentials file ${path} (named by ${rcName})`;
    }
  }
  if (password) secrets.push(password);

  const tls = envBool(env, 'CQL_TUNER_CQL_TLS') ?? s?.ssl ?? false;
  const insecure = envBool(env, 'CQL_TUNER_CQL_TLS_INSECURE');
  let caSource: string | null = null;
  let sslOptions: CqlTlsOptions | undefined;
  let tlsFiles: CqlCredentials['tlsFiles'];
  if (tls) {
    const caEnv = set(env['CQL_TUNER_CQL_CA_FILE']);
    const caPath = caEnv ? expand(caEnv, null, home) : s?.certfile && rc ? expand(s.certfile, rc.path, home) : undefined;
    caSource = caEnv ? `CQL_TUNER_CQL_CA_FILE ${caPath}` : caPath ? `${rcName} [ssl] certfile ${caPath}` : null;
    const keyEnv = set(env['CQL_TUNER_CQL_CLIENT_KEY']);
    const certEnv = set(env['CQL_TUNER_CQL_CLIENT_CERT']);
    const keyPath = keyEnv ? expand(keyEnv, null, home) : s?.userkey && rc ? expand(s.userkey, rc.path, home) : undefined;
    const certPath = certEnv ? expand(certEnv, null, home) : s?.usercert && rc ? expand(s.usercert, rc.path, home) : undefined;
    if (!!keyPath !== !!certPath) {
      throw new OpError(
        'CQL_SETTINGS_INCOMPLETE',
        `a client ${keyPath ? 'key' : 'certificate'} is configured without its ${keyPath ? 'certificate' : 'key'}`,
        'Give both: userkey and usercert under [ssl] in cqlshrc, or CQL_TUNER_CQL_CLIENT_KEY and CQL_TUNER_CQL_CLIENT_CERT.',
      );
    }
    tlsFiles = { ...(caPath ? { ca: caPath } : {}), ...(keyPath && certPath ? { key: keyPath, cert: certPath } : {}) };
    sslOptions = {
      ...(caPath ? { ca: [await readBytes(caPath, 'CA file', caEnv ? 'CQL_TUNER_CQL_CA_FILE' : CQLSHRC_VAR)] } : {}),
      ...(keyPath && certPath
        ? {
            key: await readBytes(keyPath, 'client key', keyEnv ? 'CQL_TUNER_CQL_CLIENT_KEY' : CQLSHRC_VAR),
            cert: await readBytes(certPath, 'client certificate', certEnv ? 'CQL_TUNER_CQL_CLIENT_CERT' : CQLSHRC_VAR),
          }
        : {}),
      // cqlsh validates unless told not to; CQL_TUNER_CQL_TLS_INSECURE=1 wins either way.
      rejectUnauthorized: insecure === undefined ? s?.validate !== false : !insecure,
    };
  }
  return {
    ...(username ? { username } : {}),
    ...(username && password !== undefined ? { password } : {}),
    tls,
    ...(sslOptions ? { sslOptions } : {}),
    ...(tlsFiles ? { tlsFiles } : {}),
    credentialSource,
    caSource,
    cqlshrc: rc?.path ?? null,
    warnings,
    secrets,
  };
}
