/**
 * CQL_TUNER_CREDENTIAL_HOSTS: the hosts the user lets cql-tuner send CQL and JMX credentials to. Pure parsing
 * and matching; collect/credential-hosts.ts reads the variable and resolves host names.
 *
 * Syntax (the one place it is written down): a comma-separated list of entries, each optionally followed by
 * ":port" (then only that port gets credentials; without it every port of that host does):
 *   10.0.0.0/24          an IPv4 CIDR block            10.0.0.0/24:9042
 *   fd00::/8             an IPv6 CIDR block            [fd00::/8]:9042
 *   10.0.0.7             one IPv4 address              10.0.0.7:7199
 *   fd00::7              one IPv6 address              [fd00::7]:9042
 *   db1.example.com      one host name (allowed by the addresses it resolves to when the session starts)
 *   *.db.example.com     names under that domain, as given in hosts / contact points (not the domain itself)
 * Peers the driver discovers from system.peers are IP addresses: list them by CIDR or address.
 * Whitespace around entries is ignored; an empty variable allows no host.
 */

export const CREDENTIAL_HOSTS_VAR = 'CQL_TUNER_CREDENTIAL_HOSTS';

export type CredentialHostEntry =
  | { kind: 'cidr'; text: string; family: 4 | 6; network: bigint; prefix: number; port: number | null }
  | { kind: 'name'; text: string; name: string; port: number | null }
  | { kind: 'pattern'; text: string; suffix: string; port: number | null };

export interface ParsedCredentialHosts {
  entries: CredentialHostEntry[];
  /** Entries that could not be read, with why: they allow nothing. */
  errors: string[];
}

export interface IpValue {
  family: 4 | 6;
  value: bigint;
}

const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);

function v4Value(s: string): bigint | null {
  if (!V4.test(s)) return null;
  return s.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v6Value(s: string): bigint | null {
  if (s.length < 2 || s.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(s)) return null;
  let text = s;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // An IPv4 tail ("::ffff:10.0.0.1") stands for the last two groups: rewrite it as them.
    const v4 = v4Value(last);
    if (v4 === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groupsOf(halves[0]!);
  const rest = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const groups = [...head, ...Array<string>(8 - known).fill('0'), ...rest].map((g) => BigInt(parseInt(g, 16)));
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** An IPv4 or IPv6 literal (no zone id) as a number; an IPv4-mapped IPv6 address reads as its IPv4 address. */
export function parseIp(s: string): IpValue | null {
  const v4 = v4Value(s);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = v6Value(s);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

/** Loopback (127.0.0.0/8, ::1): a connection that does not leave the machine. */
export function isLoopback(ip: string): boolean {
  const v = parseIp(ip);
  if (!v) return ip === 'localhost';
  return v.family === 4 ? v.value >> 24n === 127n : v.value === 1n;
}

function parsePort(s: string): number | null {
  if (!/^\d{1,5}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= 65535 ? n : null;
}

/** Splits "host:port", "[v6]:port", "[v6/len]:port", "v4/len:port"; a bare IPv6 literal has no port. */
function splitPort(raw: string): { host: string; port: number | null } | string {
  const bracket = /^\[([^\]]+)\](?::(.*))?$/.exec(raw);
  if (bracket) {
    if (bracket[2] === undefined) return { host: bracket[1]!, port: null };
    const port = parsePort(bracket[2]);
    return port === null ? `port ${JSON.stringify(bracket[2])} is not 1–65535` : { host: bracket[1]!, port };
  }
  const colons = raw.split(':').length - 1;
  if (colons === 1) {
    const [host, p] = raw.split(':') as [string, string];
    const port = parsePort(p);
    return port === null ? `port ${JSON.stringify(p)} is not 1–65535` : { host, port };
  }
  return { host: raw, port: null };
}

function parseEntry(raw: string): CredentialHostEntry | string {
  const split = splitPort(raw);
  if (typeof split === 'string') return split;
  const { host, port } = split;
  const slash = host.indexOf('/');
  if (slash >= 0) {
    const ip = parseIp(host.slice(0, slash));
    const len = host.slice(slash + 1);
    const max = ip?.family === 4 ? 32 : 128;
    if (!ip || !/^\d{1,3}$/.test(len) || Number(len) > max) return 'not a CIDR block (address/prefix length)';
    const prefix = Number(len);
    const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(max - prefix);
    return { kind: 'cidr', text: raw, family: ip.family, network: ip.value & mask, prefix, port };
  }
  const ip = parseIp(host);
  if (ip) return { kind: 'cidr', text: raw, family: ip.family, network: ip.value, prefix: ip.family === 4 ? 32 : 128, port };
  if (host.startsWith('*.')) {
    const suffix = host.slice(2).toLowerCase();
    // A pattern needs a real domain under it: "*.com" or "*" would hand credentials to most of the internet.
    if (!NAME.test(suffix) || !suffix.includes('.')) return 'a name pattern is *.<domain with at least two labels>, e.g. *.db.example.com';
    return { kind: 'pattern', text: raw, suffix: `.${suffix}`, port };
  }
  if (NAME.test(host) && !/^\d+$/.test(host.split('.').pop()!)) return { kind: 'name', text: raw, name: host.toLowerCase().replace(/\.$/, ''), port };
  return 'not an IP address, CIDR block, host name or *.domain pattern';
}

/** Reads the variable's value; bad entries are reported, never widened into something that matches more. */
export function parseCredentialHosts(text: string | undefined): ParsedCredentialHosts {
  const entries: CredentialHostEntry[] = [];
  const errors: string[] = [];
  for (const raw of (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const e = parseEntry(raw);
    if (typeof e === 'string') errors.push(`${CREDENTIAL_HOSTS_VAR} entry ${JSON.stringify(raw.slice(0, 80))}: ${e}`);
    else entries.push(e);
  }
  return { entries, errors };
}

const portOk = (e: CredentialHostEntry, port: number) => e.port === null || e.port === port;

/** The CIDR/address entry that allows ip:port, if any. */
export function matchIp(entries: readonly CredentialHostEntry[], ip: string, port: number): CredentialHostEntry | null {
  const v = parseIp(ip);
  if (!v) return null;
  for (const e of entries) {
    if (e.kind !== 'cidr' || e.family !== v.family || !portOk(e, port)) continue;
    const max = e.family === 4 ? 32 : 128;
    const mask = e.prefix === 0 ? 0n : ((1n << BigInt(e.prefix)) - 1n) << BigInt(max - e.prefix);
    if ((v.value & mask) === e.network) return e;
  }
  return null;
}

/** The name or pattern entry that allows name:port, if any (names compare case-insensitively). */
export function matchName(entries: readonly CredentialHostEntry[], name: string, port: number): CredentialHostEntry | null {
  const n = name.toLowerCase().replace(/\.$/, '');
  if (parseIp(n)) return null;
  for (const e of entries) {
    if (!portOk(e, port)) continue;
    if (e.kind === 'name' && e.name === n) return e;
    if (e.kind === 'pattern' && n.endsWith(e.suffix) && n.length > e.suffix.length) return e;
  }
  return null;
}

/** "host:port" as the driver writes an endpoint (IPv6 without brackets: the port is after the last colon). */
export function splitEndpoint(endpoint: string): { host: string; port: number } | null {
  const i = endpoint.lastIndexOf(':');
  if (i <= 0) return null;
  const port = parsePort(endpoint.slice(i + 1));
  const host = endpoint.slice(0, i).replace(/^\[(.*)\]$/, '$1');
  return port === null ? null : { host, port };
}

/** How to allow one more host, for error messages: the entry to add. */
export function entryFor(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
