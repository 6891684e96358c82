import { CLUSTER_CQL } from '../core/facts/from-cluster.js';
import { reaperKeyspaces, reaperQueries } from '../core/facts/reaper-runs.js';
import { SCYLLA_SYSTEM_TABLES_QUERY, scyllaTablesToRead } from '../core/facts/from-scylla.js';
import { VTABLES_FOR_FACTS } from '../core/facts/from-vtables.js';
import { parseTsv, toTsv } from '../core/parse/tsv.js';
import { describeError } from '../core/errors.js';
import { runNodetool } from './nodetool.js';
import { labPaths } from '../lab/paths.js';
import { mapBounded } from '../collect/bounded.js';
import { NodetoolBatchPool } from '../collect/nodetool-batch.js';
import { locateNodetool } from '../collect/nodetool-locate.js';
import type { CqlSession } from '../collect/cql-session.js';
import type { Target } from '../collect/target.js';
import type { NodeRaw, RawSourceResult, SweepNode } from '../core/reports/sweep.js';
import { labNodetoolArgv } from '../lab/index.js';
export type { NodeRaw, RawSourceResult, SweepNode } from '../core/reports/sweep.js';

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
/** Without virtual tables (Cassandra 3.x, ScyllaDB, CQL down) nodetool has to answer everything, version included. */
export const NODETOOL_WITHOUT_VTABLES = ['version', 'info', 'gcstats', 'tpstats', 'compactionstats', 'tablestats'] as const;

/** The probe that tells whether a node has virtual tables at all. */
export const VIRTUAL_SCHEMA_PROBE = 'cql:system_virtual_schema.tables';
/**
 * What a node without that keyspace answers: an Invalid error (8704) "Keyspace system_virtual_schema does not
 * exist" — Cassandra's KeyspaceNotDefinedException (its capitalisation differs between versions: matched
 * case-insensitively), and ScyllaDB's answer for a keyspace it lacks.
 */
const NO_VIRTUAL_SCHEMA = /\bKeyspace system_virtual_schema does not exist\b/i;

/**
 * A failed system_virtual_schema probe whose answer is "that keyspace does not exist" becomes a fact
 * (ok, absent): the node has no virtual tables, which is Cassandra < 4.0 or ScyllaDB, not a failed read.
 * Any other failure (timeout, auth, connection) stays an error. Pure; also applied to bundles written
 * before this distinction, so re-analysing them no longer marks the node partial.
 */
export function asAbsenceFact(s: RawSourceResult): RawSourceResult {
  if (s.ok || s.name !== VIRTUAL_SCHEMA_PROBE || !s.error || !NO_VIRTUAL_SCHEMA.test(s.error.message)) return s;
  const { error, text: _text, ...rest } = s;
  return { ...rest, ok: true, rows: 0, absent: `${error.message}: no virtual tables on this node (Cassandra before 4.0, or ScyllaDB)` };
}

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

  const cql = async (keyspace: string, table: string, query?: string, sourceName?: string): Promise<RawSourceResult> => {
    const name = sourceName ?? `cql:${keyspace}.${table}`;
    const t0 = performance.now();
    if (signal.aborted)
      return { name, via: 'cql', ok: false, ms: 0, error: { code: 'TIMEOUT', message: `node deadline of ${opts.nodeTimeoutMs} ms passed before this query` } };
    try {
      const r = await session.query(node.address, query ?? `SELECT * FROM ${keyspace}.${table}`, [], Math.min(remaining(), 10_000));
      return { name, via: 'cql', ok: true, ms: r.ms, text: toTsv(r.columns, r.rows), rows: r.rows.length };
    } catch (e) {
      return { name, via: 'cql', ok: false, ms: Math.round(performance.now() - t0), error: sourceError(e) };
    }
  };

  const vschema = asAbsenceFact(await cql('system_virtual_schema', 'tables', 'SELECT keyspace_name, table_name FROM system_virtual_schema.tables'));
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
  const wanted = virtualTables.filter(
    (t) => opts.allVirtualTables || (t.startsWith('system_views.') && VTABLES_FOR_FACTS.includes(t.slice('system_views.'.length))),
  );
  // ScyllaDB: no system_views; its node-local views live in `system`. Its system.local says so: the
  // release_version column is the emulated Cassandra 3.0.8 and system.versions exists.
  let scylla = false;
  let scyllaTables: string[] = [];
  if (local.ok && !virtualTables.some((t) => t.startsWith('system_views.'))) {
    const versions = await cql('system', 'versions');
    if (versions.ok) {
      scylla = true;
      sources.push(versions);
      // Which of the known system tables this release has: read only those (an older one lacks some).
      const listing = await cql('system_schema', 'tables', SCYLLA_SYSTEM_TABLES_QUERY, SCYLLA_LISTING_SOURCE);
      sources.push(listing);
      const parsed = listing.ok && listing.text ? parseTsv(listing.text) : null;
      scyllaTables = scyllaTablesToRead(parsed?.ok ? parsed.value : null).tables.map((t) => `system.${t}`);
    }
  }
  // Without virtual tables nodetool answers the rest; the version only when system.local did not already.
  const withoutVtables = local.ok ? NODETOOL_WITHOUT_VTABLES.filter((s) => s !== 'version') : NODETOOL_WITHOUT_VTABLES;
  const nodetoolSubs =
    opts.nodetool.length === 0 ? [] : cqlReachable && virtualTables.length > 0 ? opts.nodetool : [...new Set([...opts.nodetool, ...withoutVtables])];
  // (ScyllaDB's nodetool talks to its REST API on port 10000, not JMX: the caller sets jmxPort.)

  for (const q of cqlReachable ? (opts.extraCql ?? []) : []) sources.push(await cql(q.keyspace, q.table, q.query));
  // The node that makes the cluster-wide reads also reads replication, gc_grace, ring tokens and repair history
  // (core/facts/from-cluster.ts), each query bounded; a table this product or version lacks fails visibly.
  const clusterCql = cqlReachable && opts.extraCql?.length ? [...CLUSTER_CQL.common, ...(scylla ? CLUSTER_CQL.scylla : CLUSTER_CQL.cassandra)] : [];
  for (const q of clusterCql) sources.push(await cql(q.keyspace, q.table, q.query, 'sourceName' in q ? q.sourceName : undefined));
  // Cassandra Reaper's runs, where its tables live in this cluster (any keyspace holding both; read-only, bounded).
  const schemaRead = clusterCql.length ? sources.find((s) => s.name === 'cql:system_schema.tables#options') : undefined;
  const schemaTsv = schemaRead?.ok && schemaRead.text ? parseTsv(schemaRead.text) : null;
  for (const q of reaperKeyspaces(schemaTsv?.ok ? schemaTsv.value : undefined)
    .slice(0, 1)
    .flatMap(reaperQueries))
    sources.push(await cql(q.keyspace, q.table, q.query, q.sourceName));
  const tablesToRead = scylla ? scyllaTables : wanted;
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

/** The source name of a ScyllaDB node's listing of its `system` tables (not the cluster-wide schema read). */
export const SCYLLA_LISTING_SOURCE = 'cql:system_schema.tables#system';

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
        {
          subcommand: sub,
          host: node.jmxHost,
          port: node.jmxPort,
          nodetoolPath: opts.nodetoolPath,
          timeoutMs: Math.max(1000, Math.min(remaining(), 600_000)),
          raw: true,
        },
        // On a remote target JMX is usually 127.0.0.1 there: the node is what JMX credentials are bound to.
        { signal, ...(opts.target ? { target: opts.target, credentialHost: node.address } : {}), ...(batch ? { batch } : {}) },
      );
      if (r.ok) return { name, via: 'nodetool', ok: true, ms: r.durationMs, text: r.output.raw ?? '' };
      return {
        name,
        via: 'nodetool',
        ok: false,
        ms: r.durationMs,
        text: r.output.raw,
        error: r.error ? { code: r.error.code, message: r.error.message } : { code: 'NODETOOL_FAILED', message: 'failed' },
      };
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
    return (await locateNodetool(nodetoolPath, process.env, labNodetoolArgv)).source === 'lab';
  } catch {
    return false;
  }
}
