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
  if (typeof name === 'string' && /^\w{1,222}$/.test(name) && /^[\x00-\x7f]+$/.test(name)) return { ok: true };
  return {
    ok: false,
    reason: `${what} ${JSON.stringify(String(name).slice(0, 80))} is not a CQL identifier (1–222 characters of A–Z, a–z, 0–9 and _)`,
  };
}
