/**
 * The environment a child process inherits: this process's own, without cql-tuner's credential variables
 * (CQL_TUNER_*PASSWORD, *SECRET, *TOKEN). A child gets a credential only when its caller adds it on purpose (latte's
 * CASSANDRA_PASSWORD for the stress role, nodetool's password file) — never by inheritance, so a JVM, a shell tool
 * or a crash dump of either never holds the Prometheus token or the CQL password it did not need.
 */
const OWN_SECRET = /^CQL_TUNER_.*(PASSWORD|SECRET|TOKEN)/i;

export function inheritedEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !OWN_SECRET.test(k)) out[k] = v;
  return out;
}
