/**
 * Cassandra Reaper's repair runs as repair history. Reaper keeps its state in a keyspace of the cluster it repairs
 * (or of another one): `repair_run` (one partition per run; state, start_time, end_time and repair_unit_id are static
 * columns) and `repair_unit_v1` (what a run repairs: keyspace_name, column_families, blacklisted_tables,
 * incremental_repair, nodes, datacenters). Its REST API (`GET /repair_run`) and `spreaper list-runs` print the same
 * runs joined, as JSON (RepairRunStatus). Run states: NOT_STARTED, RUNNING, PAUSED, DONE, ERROR, ABORTED, DELETED
 * (RepairRun.java); a run with end_time is terminated. Column names from Reaper 4.2.3's schema
 * (db/cassandra/034_init_reaper_db.cql). PURE.
 */
import type { TsvTable } from '../parse/tsv.js';
import type { RepairRunFact } from './from-cluster.js';
import { stringOrNull } from '../json-values.js';
import { collectionCell, timestampMs } from './cells.js';

/** The source names (and table keys) of the two reads, whatever Reaper's keyspace is called. */
export const REAPER_RUNS_SOURCE = 'reaper.repair_run';
export const REAPER_UNITS_SOURCE = 'reaper.repair_unit_v1';
export const REAPER_RUN_LIMIT = 5000;

/** A keyspace name the sweep may put in a query: CQL's unquoted identifier shape, no longer than Cassandra allows. */
const SAFE_KEYSPACE = /^[A-Za-z][A-Za-z0-9_]{0,47}$/;

/**
 * Keyspaces that hold Reaper's tables (both of them), from the sweep's read of system_schema.tables. The name comes
 * from the cluster, so only a plain identifier is used.
 */
export function reaperKeyspaces(schema: TsvTable | undefined): string[] {
  if (!schema) return [];
  const tablesOf = new Map<string, Set<string>>();
  for (const r of schema.rows) {
    const ks = r['keyspace_name'];
    const t = r['table_name'];
    if (!ks || !t) continue;
    (tablesOf.get(ks) ?? tablesOf.set(ks, new Set()).get(ks)!).add(t);
  }
  return (
    [...tablesOf]
      .filter(([ks, t]) => SAFE_KEYSPACE.test(ks) && t.has('repair_run') && t.has('repair_unit_v1'))
      .map(([ks]) => ks)
      // Reaper's default keyspace first (its cassandra-reaper-cassandra.yaml); one keyspace is read
      .sort((a, b) => (a === 'reaper_db' ? -1 : b === 'reaper_db' ? 1 : a.localeCompare(b)))
  );
}

/** The two bounded reads of one Reaper keyspace (statics only: one row per run, not one per segment). */
export function reaperQueries(keyspace: string): { keyspace: string; table: string; query: string; sourceName: string }[] {
  if (!SAFE_KEYSPACE.test(keyspace)) return [];
  return [
    {
      keyspace,
      table: 'repair_run',
      query: `SELECT id, cluster_name, repair_unit_id, state, start_time, end_time FROM "${keyspace}".repair_run PER PARTITION LIMIT 1 LIMIT ${REAPER_RUN_LIMIT}`,
      sourceName: `cql:${REAPER_RUNS_SOURCE}`,
    },
    {
      keyspace,
      table: 'repair_unit_v1',
      query: `SELECT id, cluster_name, keyspace_name, column_families, blacklisted_tables, incremental_repair, nodes, datacenters FROM "${keyspace}".repair_unit_v1`,
      sourceName: `cql:${REAPER_UNITS_SOURCE}`,
    },
  ];
}

/** Reaper's name for a cluster: lower case, only [a-z0-9_.-] kept (Cluster.toSymbolicName). */
export const reaperClusterName = (name: string) => name.toLowerCase().replace(/[^a-z0-9_.-]/g, '');

interface Unit {
  keyspace: string;
  tables: string[];
  excluded: string[];
  incremental: boolean | null;
  nodes: string[];
  datacenters: string[];
}

/** One Reaper run, however it was read, as the repair rule's fact. DELETED runs and runs without a keyspace are none. */
function runFact(state: string, startedAt: string | null, endedAt: string | null, unit: Unit, cluster: string | null): RepairRunFact | null {
  const s = state.toUpperCase();
  if (!unit.keyspace || s === 'DELETED') return null;
  const terminated = s === 'DONE' || s === 'ERROR' || s === 'ABORTED';
  const limits = [
    ...(unit.nodes.length ? [`nodes ${unit.nodes.join(', ')}`] : []),
    ...(unit.datacenters.length ? [`datacenters ${unit.datacenters.join(', ')}`] : []),
  ];
  return {
    keyspace: unit.keyspace,
    tables: unit.tables,
    ...(unit.excluded.length ? { excludedTables: unit.excluded } : {}),
    startedAt,
    // Only a terminated run has an end; Reaper bugs have left end_time on RUNNING runs (its issue #749).
    finishedAt: terminated ? endedAt : null,
    ok: s === 'DONE' && timestampMs(endedAt) !== null,
    subrange: false,
    ...(limits.length ? { limitedTo: limits.join('; ') } : {}),
    incremental: unit.incremental,
    state: s,
    ...(cluster ? { reaperCluster: cluster } : {}),
    source: 'reaper',
  };
}

const bool = (v: unknown): boolean | null => (v === true || v === 'True' || v === 'true' ? true : v === false || v === 'False' || v === 'false' ? false : null);
const isoOf = (v: string | null | undefined): string | null => {
  const ms = timestampMs(v ?? null) ?? (v ? Date.parse(v) : NaN);
  return ms !== null && Number.isFinite(ms) ? new Date(ms).toISOString() : null;
};

/** The sweep's reads (or pasted SELECTs with these columns) joined by repair_unit_id. */
export function reaperRunsFromTables(runs: TsvTable | undefined, units: TsvTable | undefined): RepairRunFact[] | null {
  if (!runs?.columns.includes('repair_unit_id') || !units?.columns.includes('keyspace_name')) return null;
  const byId = new Map<string, Unit>();
  for (const u of units.rows) {
    if (!u['id']) continue;
    byId.set(u['id'], {
      keyspace: u['keyspace_name'] ?? '',
      tables: collectionCell(u['column_families']),
      excluded: collectionCell(u['blacklisted_tables']),
      incremental: bool(u['incremental_repair']),
      nodes: collectionCell(u['nodes']),
      datacenters: collectionCell(u['datacenters']),
    });
  }
  const out: RepairRunFact[] = [];
  for (const r of runs.rows) {
    const unit = byId.get(r['repair_unit_id'] ?? '');
    if (!unit) continue;
    const f = runFact(r['state'] ?? '', isoOf(r['start_time']), isoOf(r['end_time']), unit, r['cluster_name'] ?? null);
    if (f) out.push(f);
  }
  return out;
}

/** Reaper's RepairRunStatus JSON (REST `GET /repair_run`, `spreaper list-runs`): the runs, joined already. */
export function reaperRunsFromStatus(items: readonly Record<string, unknown>[]): RepairRunFact[] {
  const text = stringOrNull;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const out: RepairRunFact[] = [];
  for (const r of items) {
    const unit: Unit = {
      keyspace: text(r['keyspace_name']) ?? '',
      tables: list(r['column_families']),
      excluded: list(r['blacklisted_tables']),
      incremental: bool(r['incremental_repair']),
      nodes: list(r['nodes']),
      datacenters: list(r['datacenters']),
    };
    const f = runFact(text(r['state']) ?? '', isoOf(text(r['start_time'])), isoOf(text(r['end_time'])), unit, text(r['cluster_name']));
    if (f) out.push(f);
  }
  return out;
}

/**
 * A Reaper backend can hold several clusters' runs: keep this cluster's (by Reaper's name for it) when the node's
 * cluster_name is known and matches some; otherwise keep all and say so.
 */
export function runsOfCluster(runs: readonly RepairRunFact[], clusterName: string | null): { runs: RepairRunFact[]; note: string | null } {
  const names = [...new Set(runs.map((r) => r.reaperCluster).filter((x): x is string => !!x))];
  if (names.length <= 1) return { runs: [...runs], note: null };
  const mine = clusterName ? reaperClusterName(clusterName) : null;
  if (mine && names.includes(mine))
    return { runs: runs.filter((r) => !r.reaperCluster || r.reaperCluster === mine), note: `Reaper's runs of cluster ${mine} (of ${names.join(', ')})` };
  return { runs: [...runs], note: `Reaper holds runs of ${names.length} clusters (${names.join(', ')}); none named as this one: all read` };
}
