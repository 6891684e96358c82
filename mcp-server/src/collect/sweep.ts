import { SCYLLA_TABLES } from '../core/facts/from-scylla.js';
import { VTABLES_FOR_FACTS } from '../core/facts/from-vtables.js';
import { toTsv } from '../core/parse/tsv.js';
import { describeError } from '../ops/errors.js';
import { runNodetool } from '../ops/nodetool.js';
import { labPaths } from '../lab/paths.js';
import { mapBounded } from './bounded.js';
import { NodetoolBatchPool } from './nodetool-batch.js';
import { locateNodetool } from './nodetool-locate.js';
import type { CqlSession } from './cql-session.js';
import type { Target } from './target.js';

/** A node as the sweep addresses it: CQL on address:cqlPort, JMX (for nodetool) on jmxHost:jmxPort. */
export interface SweepNode {
  address: string;
  cqlPort: number;
  jmxHost: string;
  jmxPort: number;
  datacenter: string | null;
  rack: string | null;
  hostId: string | null;
  /** What the driver believes (gossip through the control connection). */
  upPerDriver: boolean;
}

export interface RawSourceResult {
  /** "cql:<keyspace>.<table>" or "nodetool:<subcommand>" (also the bundle file name). */
  name: string;
  via: 'cql' | 'nodetool';
  ok: boolean;
  ms: number;
  text?: string;
  rows?: number;
  error?: { code: string; message: string };
}

export interface NodeRaw {
  node: SweepNode;
  sources: RawSourceResult[];
  ms: number;
  /** CQL answered at all (system.local or the virtual schema). */
  cqlReachable: boolean;
  virtualTables: string[];
}

export interface SweepOptions {
  /** nodetool subcommands to add for what no table answers; empty = CQL only. */
  nodetool: readonly string[];
  nodetoolPath?: string;
  /** false (or env CQL_TUNER_NODETOOL_BATCH=0): one JVM per nodetool command even where they could share one. */
  batchNodetool?: boolean;
  /** Where nodetool runs (local by default). */
  target?: Target;
  nodeTimeoutMs: number;
  signal?: AbortSignal;
  /** Extra virtual tables to read beyond the ones facts use (e.g. all, for a bundle). */
  allVirtualTables?: boolean;
  /** Cluster-wide CQL reads to make on this node (schema is the same everywhere: one node is enough). */
  extraCql?: { keyspace: string; table: string; query: string }[];
}

/** What no virtual table answers: heap (info), GC (gcstats), dropped messages (tpstats). */
export const NODETOOL_FALLBACKS = ['info', 'gcstats', 'tpstats'] as const;
/** Without virtual tables (Cassandra 3.x) nodetool has to answer everything. */
export const NODETOOL_WITHOUT_VTABLES = ['info', 'gcstats', 'tpstats', 'compactionstats', 'tablestats'] as const;

function sourceError(e: unknown): { code: string; message: string } {
  const d = describeError(e);
  return { code: d.code, message: d.message };
}

/** Collects one node: CQL first (virtual schema, system.local, virtual tables), nodetool for the rest. */
export async function collectNode(session: CqlSession, node: SweepNode, opts: SweepOptions): Promise<NodeRaw> {
  const started = performance.now();
  const deadline = Date.now() + opts.nodeTimeoutMs;
  const remaining = () => Math.max(500, deadline - Date.now());
  const signal = AbortSignal.any([AbortSignal.timeout(opts.nodeTimeoutMs), ...(opts.signal ? [opts.signal] : [])]);
  const sources: RawSourceResult[] = [];

  const cql = async (keyspace: string, table: string, query?: string): Promise<RawSourceResult> => {
    const name = `cql:${keyspace}.${table}`;
    const t0 = performance.now();
    if (signal.aborted) return { name, via: 'cql', ok: false, ms: 0, error: { code: 'TIMEOUT', message: `node deadline of ${opts.nodeTimeoutMs} ms passed before this query` } };
    try {
      const r = await session.query(node.address, query ?? `SELECT * FROM ${keyspace}.${table}`, [], Math.min(remaining(), 10_000));
      return { name, via: 'cql', ok: true, ms: r.ms, text: toTsv(r.columns, r.rows), rows: r.rows.length };
    } catch (e) {
      return { name, via: 'cql', ok: false, ms: Math.round(performance.now() - t0), error: sourceError(e) };
    }
  };

  const vschema = await cql('system_virtual_schema', 'tables', 'SELECT keyspace_name, table_name FROM system_virtual_schema.tables');
  sources.push(vschema);
  const local = await cql('system', 'local');
  sources.push(local);
  const cqlReachable = vschema.ok || local.ok;
  let virtualTables: string[] = [];
  if (vschema.ok && vschema.text) {
    virtualTables = vschema.text
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split('\t').join('.'));
  }
  const wanted = virtualTables.filter((t) => opts.allVirtualTables || (t.startsWith('system_views.') && VTABLES_FOR_FACTS.includes(t.slice('system_views.'.length))));
  // ScyllaDB: no system_views; its node-local views live in `system`. Its system.local says so: the
  // release_version column is the emulated Cassandra 3.0.8 and system.versions exists.
  let scylla = false;
  if (local.ok && !virtualTables.some((t) => t.startsWith('system_views.'))) {
    const versions = await cql('system', 'versions');
    if (versions.ok) {
      scylla = true;
      sources.push(versions);
    }
  }
  const nodetoolSubs = opts.nodetool.length === 0 ? [] : cqlReachable && virtualTables.length > 0 ? opts.nodetool : [...new Set([...opts.nodetool, ...NODETOOL_WITHOUT_VTABLES])];
  // (ScyllaDB's nodetool talks to its REST API on port 10000, not JMX: the caller sets jmxPort.)

  for (const q of cqlReachable ? (opts.extraCql ?? []) : []) sources.push(await cql(q.keyspace, q.table, q.query));
  const tablesToRead = scylla ? SCYLLA_TABLES.filter((t) => t !== 'versions').map((t) => `system.${t}`) : wanted;
  const cqlJobs = cqlReachable
    ? mapBounded(tablesToRead, 4, (t) => {
        const [ks, tbl] = t.split('.') as [string, string];
        return cql(ks, tbl);
      })
    : Promise.resolve([]);
  const nodetoolJobs = nodetoolSources(node, nodetoolSubs, opts, signal, remaining);
  for (const settled of [...(await cqlJobs), ...(await nodetoolJobs)]) {
    if (settled.status === 'fulfilled') sources.push(settled.value);
  }
  return { node, sources, ms: Math.round(performance.now() - started), cqlReachable, virtualTables };
}

/** nodetool subcommands for one node as raw sources (never throws: failures become failed sources). */
async function nodetoolSources(node: SweepNode, subs: readonly string[], opts: SweepOptions, signal: AbortSignal, remaining: () => number) {
  // With the lab's java nodetool every command for this node shares one JVM: issue them together.
  const off = opts.batchNodetool === false || process.env['CQL_TUNER_NODETOOL_BATCH'] === '0';
  const batch = opts.target || off || !(await usesJavaNodetool(opts.nodetoolPath)) ? undefined : new NodetoolBatchPool(labPaths().cacheDir);
  return mapBounded(subs, batch ? subs.length : 3, async (sub): Promise<RawSourceResult> => {
    const name = `nodetool:${sub}`;
    const t0 = performance.now();
    try {
      const r = await runNodetool(
        { subcommand: sub, host: node.jmxHost, port: node.jmxPort, nodetoolPath: opts.nodetoolPath, timeoutMs: Math.max(1000, Math.min(remaining(), 600_000)), raw: true },
        { signal, ...(opts.target ? { target: opts.target } : {}), ...(batch ? { batch } : {}) },
      );
      if (r.ok) return { name, via: 'nodetool', ok: true, ms: r.durationMs, text: r.output.raw ?? '' };
      return { name, via: 'nodetool', ok: false, ms: r.durationMs, text: r.output.raw, error: r.error ? { code: r.error.code, message: r.error.message } : { code: 'NODETOOL_FAILED', message: 'failed' } };
    } catch (e) {
      return { name, via: 'nodetool', ok: false, ms: Math.round(performance.now() - t0), error: sourceError(e) };
    }
  });
}

/**
 * When no node answers CQL (native transport off, auth broken, driver blocked) the cluster can still be read
 * through JMX: nodetool for everything, on each node the ring lists.
 */
export async function collectNodeWithNodetoolOnly(node: SweepNode, subs: readonly string[], opts: SweepOptions): Promise<NodeRaw> {
  const started = performance.now();
  const deadline = Date.now() + opts.nodeTimeoutMs;
  const remaining = () => Math.max(500, deadline - Date.now());
  const signal = AbortSignal.any([AbortSignal.timeout(opts.nodeTimeoutMs), ...(opts.signal ? [opts.signal] : [])]);
  const sources: RawSourceResult[] = [];
  for (const settled of await nodetoolSources(node, subs, opts, signal, remaining)) if (settled.status === 'fulfilled') sources.push(settled.value);
  return { node, sources, ms: Math.round(performance.now() - started), cqlReachable: false, virtualTables: [] };
}

async function usesJavaNodetool(nodetoolPath: string | undefined): Promise<boolean> {
  try {
    return (await locateNodetool(nodetoolPath)).source === 'lab';
  } catch {
    return false;
  }
}
