/** Validators for values that end up in an argv: they accept only plain literals, never option-like strings. */

export type Check = { ok: true } | { ok: false; reason: string };

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;

/** A host name or IP literal; rejects anything starting with "-" or holding shell/option characters. */
export function checkHost(host: string): Check {
  if (typeof host !== 'string' || host.length === 0) return { ok: false, reason: 'host is empty' };
  if (host.length > 253) return { ok: false, reason: 'host is longer than 253 characters' };
  if (IPV4.test(host) || HOSTNAME.test(host)) return { ok: true };
  if (host.includes(':') && IPV6.test(host)) return { ok: true };
  return {
    ok: false,
    reason: `host ${JSON.stringify(host.slice(0, 80))} is not a host name or IP address (letters, digits, "-" and "." only, not starting with "-")`,
  };
}

/** An IPv6 literal as printed by Java/ScyllaDB: eight hex groups, "::" at most once, an IPv4 tail allowed; no zone id. */
export function isIpv6Literal(s: string): boolean {
  if (typeof s !== 'string' || s.length < 2 || s.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  let groups = s.split(':');
  let extra = 0;
  const last = groups[groups.length - 1]!;
  if (last.includes('.')) {
    // An IPv4 tail ("::ffff:10.0.0.1") stands for two groups.
    if (!IPV4.test(last)) return false;
    groups = groups.slice(0, -1).concat(['0']);
    extra = 1;
  }
  const halves = groups.join(':').split('::');
  if (halves.length > 2) return false;
  const parts = halves.map((h) => (h === '' ? [] : h.split(':')));
  if (parts.some((p) => p.some((g) => !/^[0-9A-Fa-f]{1,4}$/.test(g)))) return false;
  const count = parts.reduce((n, p) => n + p.length, 0) + extra;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/**
 * A node address read from a cluster, a bundle or a paste, before it may become a target host, a JMX host or
 * a pod name: an IPv4 or IPv6 literal, or a DNS host name. A dotted name whose first or last label is all
 * digits reads as an IPv4 address and must be one, so an anonymised "172.0.XYZ.WZY" or a "10.0.0.256" is no
 * host. Everything else (option-like text, "?query", "/", "@", spaces) is refused.
 */
export function checkNodeAddress(address: string): Check {
  const bad = (why: string): Check => ({ ok: false, reason: `node address ${JSON.stringify(String(address).slice(0, 80))} ${why}` });
  if (typeof address !== 'string' || address.length === 0) return bad('is empty');
  if (IPV4.test(address) || isIpv6Literal(address)) return { ok: true };
  if (!HOSTNAME.test(address)) return bad('is not an IP address or host name (letters, digits, "-" and "." only)');
  const labels = address.split('.');
  if (labels.length > 1 && (/^\d+$/.test(labels[0]!) || /^\d+$/.test(labels[labels.length - 1]!))) {
    return bad('looks like an IPv4 address but is not one (anonymised or cut?)');
  }
  return { ok: true };
}

export function checkPort(port: number): Check {
  if (Number.isInteger(port) && port >= 1 && port <= 65535) return { ok: true };
  return { ok: false, reason: `port ${String(port)} is not an integer between 1 and 65535` };
}

/**
 * Keyspace and table names as Cassandra accepts them: ASCII word characters only
 * (SchemaConstants.PATTERN_WORD_CHARS = \w+). Case is kept as given: nodetool takes names unquoted.
 * 222 is the longest table name Cassandra allows; keyspaces are shorter, the server reports that.
 */
export function checkCqlIdentifier(what: 'keyspace' | 'table', name: string): Check {
  // eslint-disable-next-line no-control-regex -- ASCII-only: the range starts at NUL on purpose
  if (typeof name === 'string' && /^\w{1,222}$/.test(name) && /^[\x00-\x7f]+$/.test(name)) return { ok: true };
  return {
    ok: false,
    reason: `${what} ${JSON.stringify(String(name).slice(0, 80))} is not a CQL identifier (1–222 characters of A–Z, a–z, 0–9 and _)`,
  };
}
