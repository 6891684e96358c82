/**
 * An endpoint as Cassandra prints it — `10.0.0.1:7000`, `[::1]:7000`, or Java's InetAddress form `/10.0.0.1:7000` —
 * split into its address and port. Anything else (a name, a masked "10.x.x.x") comes back whole as the host.
 */
export function splitHostPort(printed: string): { host: string; port?: number } {
  const text = printed.startsWith('/') ? printed.slice(1) : printed;
  const m = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(text) ?? /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(text);
  if (!m) return { host: text };
  if (m[2] === undefined) return { host: m[1]! };
  const port = Number(m[2]);
  return port >= 1 && port <= 65535 ? { host: m[1]!, port } : { host: text };
}
