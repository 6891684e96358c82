import { AsyncLocalStorage } from 'node:async_hooks';
import { lookup, Resolver } from 'node:dns/promises';
import { CREDENTIAL_HOSTS_VAR, entryFor, isLoopback, matchIp, matchName, parseCredentialHosts, parseIp } from '../core/credential-hosts.js';
import { readFile } from 'node:fs/promises';
import { storedLabNodes } from '../core/lab-node-record.js';
import { labJsonPath, labStateDir } from './data-home.js';
import { pidAlive } from './pid-alive.js';

/**
 * Where CQL and JMX credentials may go: the hosts in CQL_TUNER_CREDENTIAL_HOSTS (syntax in
 * core/credential-hosts.ts), plus the hosts the user typed on the command line for this run. Hosts named in
 * MCP tool arguments, and peers a cluster reports, are not trusted by being named: they get credentials only
 * when the list allows them.
 */

/**
 * Hosts from the user's own command-line flags, for the CLI verb running now. Kept in an async context set by
 * the CLI adapter rather than passed through ops: ops inputs are shared with MCP tools, so nothing an MCP
 * argument carries can ever reach this.
 */
const commandLineHosts = new AsyncLocalStorage<readonly string[]>();

/** Runs fn with these command-line hosts (host, host:port or [v6]:port) allowed to receive credentials. */
export function withCommandLineHosts<T>(hosts: readonly (string | undefined)[], fn: () => Promise<T>): Promise<T> {
  const given = hosts.filter((h): h is string => typeof h === 'string' && h.length > 0).map(hostOf);
  return commandLineHosts.run([...(commandLineHosts.getStore() ?? []), ...given], fn);
}

function hostOf(hostPort: string): string {
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(hostPort);
  if (bracket) return bracket[1]!;
  return hostPort.split(':').length === 2 ? hostPort.split(':')[0]! : hostPort;
}

export interface CredentialHosts {
  /** Why host:port may receive credentials, or null when it may not. */
  allows(host: string, port: number): string | null;
  /** Problems with the list itself (bad entries, names that did not resolve): shown as warnings. */
  problems: string[];
}

const DNS_TIMEOUT_MS = 3000;
const MAX_NAMES = 64;

/** A name's addresses as the driver would find them (A/AAAA, then the system resolver), within a deadline. */
async function addressesOf(name: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 1 });
  const [v4, v6] = await Promise.all([resolver.resolve4(name).catch(() => []), resolver.resolve6(name).catch(() => [])]);
  if (v4.length || v6.length) return [...v4, ...v6];
  // getaddrinfo (hosts file) cannot be cancelled: stop waiting for it, it finishes on its own.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string[]>((resolve) => (timer = setTimeout(() => resolve([]), DNS_TIMEOUT_MS)));
  const found = lookup(name, { all: true }).then(
    (r) => r.map((a) => a.address),
    () => [] as string[],
  );
  return Promise.race([found, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The local lab's own nodes: started by cql-tuner (lab.json in the data home, a trusted file), still running, on
 * loopback, at the CQL and JMX ports the lab state names. Nothing else on loopback is implied.
 */
async function labEndpoints(env: NodeJS.ProcessEnv): Promise<{ host: string; port: number }[]> {
  const text = await readFile(labJsonPath(labStateDir(env)), 'utf8').catch(() => null);
  let nodes: ReturnType<typeof storedLabNodes> = null;
  try {
    nodes = text === null ? null : storedLabNodes(JSON.parse(text));
  } catch {
    nodes = null; // a corrupt lab.json is no lab, never trusted
  }
  const out: { host: string; port: number }[] = [];
  for (const n of nodes ?? []) {
    if (!isLoopback(n.host) || !parseIp(n.host) || !(await pidAlive(n.pid))) continue;
    // Every lab node's JMX listens on 127.0.0.1, at its own port.
    out.push({ host: n.host, port: n.cqlPort }, { host: '127.0.0.1', port: n.jmxPort });
  }
  return out;
}

/**
 * The allow-list for one session: CQL_TUNER_CREDENTIAL_HOSTS and the command-line hosts of this run.
 * contactPoints are the names a call will connect to: those a name or pattern entry allows are resolved here,
 * once, so the addresses the driver then connects to can be checked (a peer is always an address).
 */
export async function loadCredentialHosts(env: NodeJS.ProcessEnv = process.env, contactPoints: readonly string[] = []): Promise<CredentialHosts> {
  const parsed = parseCredentialHosts(env[CREDENTIAL_HOSTS_VAR]);
  const problems = [...parsed.errors];
  const cli = commandLineHosts.getStore() ?? [];
  // Resolved addresses: address → (port or null for any, why allowed).
  const resolved = new Map<string, { port: number | null; why: string }[]>();
  const add = (ip: string, port: number | null, why: string) => {
    const key = canonical(ip);
    resolved.set(key, [...(resolved.get(key) ?? []), { port, why }]);
  };
  const toResolve: { name: string; port: number | null; why: string }[] = [];
  for (const e of parsed.entries) if (e.kind === 'name') toResolve.push({ name: e.name, port: e.port, why: `${CREDENTIAL_HOSTS_VAR} entry ${e.text}` });
  for (const h of cli) if (!parseIp(h)) toResolve.push({ name: h, port: null, why: `${h} given on the command line` });
  for (const cp of contactPoints.map(hostOf)) {
    if (parseIp(cp)) continue;
    const e = parsed.entries.find((x) => x.kind === 'pattern' && matchName([x], cp, x.port ?? 0));
    if (e) toResolve.push({ name: cp, port: e.port, why: `${CREDENTIAL_HOSTS_VAR} entry ${e.text}` });
  }
  for (const l of await labEndpoints(env)) add(l.host, l.port, `a node of the running local lab (${entryFor(l.host, l.port)})`);
  const names = toResolve.slice(0, MAX_NAMES);
  if (toResolve.length > MAX_NAMES) {
    problems.push(`${CREDENTIAL_HOSTS_VAR}: only the first ${MAX_NAMES} host names are resolved; list the rest by address or CIDR`);
  }
  await Promise.all(
    names.map(async (n) => {
      const ips = await addressesOf(n.name);
      if (!ips.length) problems.push(`${n.why}: ${n.name} did not resolve, so no address of it gets credentials`);
      for (const ip of ips) add(ip, n.port, `${n.why} (${n.name} → ${ip})`);
    }),
  );
  return {
    problems,
    allows(host: string, port: number): string | null {
      const ip = parseIp(host);
      if (ip) {
        const e = matchIp(parsed.entries, host, port);
        if (e) return `${CREDENTIAL_HOSTS_VAR} entry ${e.text}`;
        const cliHit = cli.find((h) => parseIp(h) && canonical(h) === canonical(host));
        if (cliHit) return `${cliHit} given on the command line`;
        return resolved.get(canonical(host))?.find((r) => r.port === null || r.port === port)?.why ?? null;
      }
      // A name (a JMX host): it must be listed by name or pattern, never by what it resolves to now, since the
      // program that connects resolves it again and may get another answer.
      const e = matchName(parsed.entries, host, port);
      if (e) return `${CREDENTIAL_HOSTS_VAR} entry ${e.text}`;
      const cliHit = cli.find((h) => h.toLowerCase() === host.toLowerCase());
      return cliHit ? `${cliHit} given on the command line` : null;
    },
  };
}

function canonical(ip: string): string {
  const v = parseIp(ip);
  return v ? `${v.family}:${v.value.toString(16)}` : ip.toLowerCase();
}

/** The fix for a host that was refused credentials. */
export function allowHostFix(host: string, port: number): string {
  return (
    `If ${host} is yours, add it to ${CREDENTIAL_HOSTS_VAR} in the environment of cql-tuner (e.g. ${CREDENTIAL_HOSTS_VAR}=${entryFor(host, port)}, ` +
    'or a CIDR block such as 10.0.0.0/24 for the whole cluster), or give it with --hosts on the command line.'
  );
}

/** A credential that would cross the network in clear text: a warning for the result. */
export function clearTextWarning(what: string, host: string, port: number, tlsVar: string): string | null {
  if (isLoopback(host)) return null;
  return `${what} sent to ${entryFor(host, port)} without TLS: anyone on the network path can read it (set ${tlsVar}=1 to encrypt the connection)`;
}
