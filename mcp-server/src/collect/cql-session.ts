import { connect as tlsConnect } from 'node:tls';
import type cassandra from 'cassandra-driver';
import { checkHost, checkPort } from '../core/validate.js';
import { entryFor } from '../core/credential-hosts.js';
import { diagnoseCqlConnect, grantForUnauthorized } from '../core/cql-connect-errors.js';
import { OpError } from '../core/errors.js';
import { boundAuthProvider, WITHHELD_MARK, type CredentialLedger } from './cql-auth.js';
import { loadDriver } from './cql-driver.js';
import { allowHostFix, loadCredentialHosts } from './credential-hosts.js';
import { cqlCredentialsFromEnv, type CqlCredentials } from './cql-credentials.js';
import { localDcFirstPolicy } from './cql-load-balancing.js';

/**
 * One driver session for a whole sweep. Virtual tables are node-local, so every query is pinned to one
 * host (QueryOptions.host); the round-robin policy connects to every node in every DC without needing a
 * local DC up front. Credentials and TLS come from the environment only, and the password goes only to hosts
 * CQL_TUNER_CREDENTIAL_HOSTS (or the command line) allows, checked per connection (collect/cql-auth.ts).
 */
export interface CqlConnectOptions {
  contactPoints: string[];
  port?: number;
  localDataCenter?: string;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface CqlHostInfo {
  address: string;
  port: number;
  datacenter: string | null;
  rack: string | null;
  hostId: string | null;
  releaseVersion: string | null;
  up: boolean;
}

export interface CqlRows {
  columns: string[];
  rows: (string | null)[][];
  ms: number;
}

type DriverClient = InstanceType<typeof cassandra.Client>;
type DriverHost = ReturnType<DriverClient['hosts']['values']>[number];

/** Driver values → text, so every result can be stored as TSV and parsed by the same code offline. */
export function cellText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
  if (v instanceof Map) return JSON.stringify(Object.fromEntries([...v].map(([k, x]) => [cellText(k) ?? '', cellText(x)])));
  if (v instanceof Set || Array.isArray(v)) return JSON.stringify([...(v as Iterable<unknown>)].map(cellText));
  const s = (v as { toString(): string }).toString();
  if (s === '[object Object]') return JSON.stringify(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cellText(x)])));
  return s;
}

function splitHostPort(cp: string, defaultPort: number): { host: string; port: number } {
  // Brackets are for IPv6 literals only: "[a-z]" stays as written and is refused by checkHost.
  const m = /^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$/.exec(cp) ?? /^([^:]+)(?::(\d+))?$/.exec(cp);
  const host = m ? m[1]! : cp;
  const port = m?.[2] ? Number(m[2]) : defaultPort;
  return { host, port };
}

export class CqlSession {
  private constructor(
    private readonly client: DriverClient,
    readonly port: number,
    private readonly requestTimeoutMs: number,
    private readonly ledger: CredentialLedger,
  ) {}

  static async connect(opts: CqlConnectOptions, signal?: AbortSignal): Promise<CqlSession> {
    const env = opts.env ?? process.env;
    const port = opts.port ?? 9042;
    const portCheck = checkPort(port);
    if (!portCheck.ok) throw new OpError('BAD_PORT', portCheck.reason, 'Give the native transport port (default 9042).');
    if (!opts.contactPoints.length) throw new OpError('NO_CONTACT_POINTS', 'no contact points given', 'Give at least one node address, e.g. --hosts 10.0.0.1.');
    const points = opts.contactPoints.map((cp) => splitHostPort(cp, port));
    for (const p of points) {
      const c = checkHost(p.host);
      if (!c.ok) throw new OpError('BAD_HOST', c.reason, 'Give node addresses as host or host:port.');
    }
    // Environment first, then cqlshrc (collect/cql-credentials.ts); never from a tool argument.
    const creds = await cqlCredentialsFromEnv(env);
    const { username, password, sslOptions } = creds;
    const tlsOn = creds.tls;
    const driver = await loadDriver();
    const { Client, policies } = driver;
    const ledger: CredentialLedger = { withheld: new Map(), warnings: new Set(creds.warnings) };
    const hosts = username ? await loadCredentialHosts(env, opts.contactPoints) : null;
    for (const p of hosts?.problems ?? []) ledger.warnings.add(p);
    const connectTimeoutMs = opts.connectTimeoutMs ?? 5000;
    const requestTimeoutMs = opts.requestTimeoutMs ?? 10_000;
    const client = new Client({
      contactPoints: points.map((p) => (p.host.includes(':') ? `[${p.host}]:${p.port}` : `${p.host}:${p.port}`)),
      protocolOptions: { port },
      ...(opts.localDataCenter ? { localDataCenter: opts.localDataCenter } : {}),
      socketOptions: { connectTimeout: connectTimeoutMs, readTimeout: requestTimeoutMs },
      // Schema metadata is not needed for diagnostics and is slow on clusters with thousands of tables.
      isMetadataSyncEnabled: false,
      pooling: { warmup: true, coreConnectionsPerHost: { 0: 1, 1: 1, 2: 1 } },
      policies: {
        loadBalancing: opts.localDataCenter ? await localDcFirstPolicy(opts.localDataCenter) : new policies.loadBalancing.RoundRobinPolicy(),
        reconnection: new policies.reconnection.ConstantReconnectionPolicy(60_000),
        retry: new policies.retry.FallthroughRetryPolicy(),
      },
      ...(username && hosts ? { authProvider: boundAuthProvider(driver, { username, password: password ?? '', hosts, tls: tlsOn, ledger }) } : {}),
      ...(sslOptions ? { sslOptions } : {}),
    });
    const onAbort = () => void client.shutdown().catch(() => {});
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await client.connect();
    } catch (e) {
      await client.shutdown().catch(() => {});
      throw await classifyConnectError(e, points, opts.contactPoints, port, creds, ledger);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return new CqlSession(client, port, requestTimeoutMs, ledger);
  }

  /** What the result must say about credentials: hosts refused the password, a password sent without TLS. */
  warnings(): string[] {
    const refused = [...this.ledger.withheld.values()].map((h) => {
      const where = entryFor(h.host, h.port);
      return `the CQL password was not sent to ${where}, which asked for it (not in CQL_TUNER_CREDENTIAL_HOSTS). ${allowHostFix(h.host, h.port)}`;
    });
    return [...this.ledger.warnings, ...refused];
  }

  hosts(): CqlHostInfo[] {
    return this.client.hosts.values().map((h: DriverHost) => ({
      address: splitHostPort(h.address, this.port).host,
      port: splitHostPort(h.address, this.port).port,
      datacenter: h.datacenter ?? null,
      rack: h.rack ?? null,
      hostId: h.hostId ? h.hostId.toString() : null,
      releaseVersion: h.cassandraVersion ?? null,
      up: h.isUp(),
    }));
  }

  private hostFor(address: string): DriverHost | undefined {
    return this.client.hosts.values().find((h: DriverHost) => splitHostPort(h.address, this.port).host === address);
  }

  /** Runs one query on one node (never another node answering for it); all values as text. */
  async query(address: string, cql: string, params: unknown[] = [], timeoutMs?: number): Promise<CqlRows> {
    const host = this.hostFor(address);
    if (!host)
      throw new OpError(
        'UNKNOWN_NODE',
        `${address} is not a node of this cluster as the driver sees it`,
        'Check the address against system.peers / nodetool status.',
      );
    const started = performance.now();
    const withheld = this.ledger.withheld.get(entryFor(address, splitHostPort(host.address, this.port).port));
    if (withheld) throw withheldError(withheld.host, withheld.port);
    let rs;
    try {
      const readTimeout = timeoutMs ?? this.requestTimeoutMs;
      rs = await this.client.execute(cql, params, { host, prepare: params.length > 0, readTimeout, isIdempotent: true, fetchSize: 5000 });
    } catch (e) {
      throw unauthorizedError(e, address) ?? e;
    }
    const columns = (rs.columns ?? []).map((c) => c.name);
    const rows = rs.rows.map((r) => columns.map((c) => cellText(r.get(c))));
    return { columns, rows, ms: Math.round(performance.now() - started) };
  }

  async close(): Promise<void> {
    await this.client.shutdown().catch(() => {});
  }
}

function withheldError(host: string, port: number): OpError {
  const why = `${entryFor(host, port)} asks for a password, and cql-tuner does not send it there: it is not in CQL_TUNER_CREDENTIAL_HOSTS`;
  return new OpError('CQL_CREDENTIALS_NOT_ALLOWED', why, allowHostFix(host, port));
}

/** 0x2100, the native protocol's Unauthorized: a missing grant, said as the GRANT that would allow the query. */
function unauthorizedError(e: unknown, address: string): OpError | null {
  const code = (e as { code?: unknown }).code;
  const msg = e instanceof Error ? e.message : String(e);
  if (code !== 0x2100 && !/has no \w+ permission on/i.test(msg)) return null;
  const g = grantForUnauthorized(msg);
  return new OpError(
    'CQL_UNAUTHORIZED',
    `${address}: ${msg}${g ? ` (missing grant: ${g.grant})` : ''}`,
    g ? `As a superuser: ${g.grant}; (see "Point it at a secured cluster" in the README for the minimal role)` : 'Grant the role SELECT on the keyspace named.',
  );
}

/** Does the first contact point complete a TLS handshake? Asked only when plain CQL failed, to name "TLS required". */
function speaksTls(host: string, port: number, timeoutMs = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, rejectUnauthorized: false, ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }) });
    const done = (ok: boolean): void => {
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function errorCodes(e: unknown, inner: Record<string, unknown> | undefined): string[] {
  const codes: string[] = [];
  const add = (x: unknown) => {
    const c = (x as { code?: unknown } | null)?.code;
    if (typeof c === 'string') codes.push(c);
    const cause = (x as { cause?: unknown } | null)?.cause;
    const cc = (cause as { code?: unknown } | null)?.code;
    if (typeof cc === 'string') codes.push(cc);
  };
  add(e);
  for (const v of Object.values(inner ?? {})) add(v);
  return codes;
}

async function classifyConnectError(
  e: unknown,
  hostPorts: { host: string; port: number }[],
  points: string[],
  port: number,
  creds: CqlCredentials,
  ledger: CredentialLedger,
): Promise<OpError> {
  const scrub = (t: string) => creds.secrets.reduce((acc, sec) => (sec ? acc.split(sec).join('***') : acc), t);
  const msg = scrub(e instanceof Error ? e.message : String(e));
  const inner = (e as { innerErrors?: Record<string, unknown> }).innerErrors;
  const detail = scrub(
    inner
      ? Object.entries(inner)
          .map(([h, err]) => `${h}: ${err instanceof Error ? err.message : String(err)}`)
          .join('; ')
      : '',
  );
  // Every contact point that answered wanted a password it was not given: say which and how to allow it.
  if (ledger.withheld.size && (msg + detail).includes(WITHHELD_MARK)) {
    const first = [...ledger.withheld.values()][0]!;
    const all = [...ledger.withheld.keys()].join(', ');
    const why = `${all} ask${ledger.withheld.size === 1 ? 's' : ''} for a password, and cql-tuner does not send it there: not in CQL_TUNER_CREDENTIAL_HOSTS`;
    return new OpError('CQL_CREDENTIALS_NOT_ALLOWED', why, allowHostFix(first.host, first.port));
  }
  const failure = {
    points,
    port,
    message: msg,
    detail,
    errorCodes: errorCodes(e, inner),
    tls: creds.tls,
    credentialSource: creds.credentialSource,
    caSource: creds.caSource,
  };
  let d = diagnoseCqlConnect(failure);
  // Plain CQL to a TLS-only port ends in a closed socket or a timeout: a handshake tells it apart from a dead node.
  if (d.code === 'CQL_UNREACHABLE' && !creds.tls && hostPorts[0] && (await speaksTls(hostPorts[0].host, hostPorts[0].port))) {
    d = diagnoseCqlConnect({ ...failure, serverSpeaksTls: true });
  }
  // A password sent without TLS is worth saying even when the login failed.
  const notes = d.code === 'CQL_AUTH' ? [...ledger.warnings].map((w) => ` (${w})`).join('') : '';
  return new OpError(d.code, `${d.message}${notes}`, d.fix);
}
