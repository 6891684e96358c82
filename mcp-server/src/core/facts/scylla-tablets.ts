/**
 * ScyllaDB's repair record for tablet tables. A repair the tablet scheduler runs (`nodetool cluster repair`,
 * ScyllaDB Manager, auto-repair) is not written to system.repair_history: each tablet's repair_time in
 * system.tablets is the record (repair/row_level.cc "Skipped to update system.repair_history for tablet repair
 * scheduled by scheduler", scylla-2025.1.0 … 2026.2.5). system.tablets has one partition per table (table_id;
 * keyspace_name, table_name, tablet_count, base_table static) and one row per tablet (clustering last_token). A table
 * co-located with a base table (local index/MV, CDC, Paxos state; base_table set, 2025.4+) has only its static row or
 * sparse rows: its tablets are repaired with the base table's. A table was last repaired in full when its
 * least-recently repaired tablet was. Column names from replica/tablets.cc at scylla-2026.2.5. PURE.
 */
import type { TsvTable } from '../parse/tsv.js';
import type { RepairRunFact } from './from-cluster.js';
import { timestampMs } from './cells.js';

export const TABLETS_SOURCE = 'system.tablets';
export const TABLETS_ROW_LIMIT = 100_000;

export interface TabletRepairFact {
  /** Null when the paste left keyspace_name out. */
  keyspace: string | null;
  table: string;
  tableId: string | null;
  /** Tablet rows read (clustering rows with a last_token). */
  tablets: number;
  /** Tablets with a repair_time. */
  repaired: number;
  /** ISO: the least recently repaired tablet (when all are repaired, the table's last full repair). */
  oldest: string | null;
  newest: string | null;
  /** The base table's name (or id) when this table's tablets are co-located with another table's. */
  colocatedWith: string | null;
}

const cell = (v: string | null | undefined): string | null => (v === undefined || v === null || v === '' || v === 'null' ? null : v);

/**
 * Per table, how many tablets carry a repair time and the oldest and newest. Null when the table has no
 * repair_time column (ScyllaDB before 2025.1 kept no per-tablet repair record) or no rows.
 */
export function tabletRepairsFromTable(t: TsvTable | undefined): TabletRepairFact[] | null {
  if (!t || !t.columns.includes('repair_time') || !t.columns.includes('table_name') || !t.rows.length) return null;
  const byKey = new Map<string, TabletRepairFact & { oldestMs: number | null; newestMs: number | null; baseId: string | null }>();
  for (const r of t.rows) {
    const table = cell(r['table_name']);
    if (!table) continue;
    const keyspace = cell(r['keyspace_name']);
    const tableId = cell(r['table_id']);
    const key = tableId ?? `${keyspace ?? ''}.${table}`;
    let e = byKey.get(key);
    if (!e) {
      e = { keyspace, table, tableId, tablets: 0, repaired: 0, oldest: null, newest: null, colocatedWith: null, oldestMs: null, newestMs: null, baseId: null };
      byKey.set(key, e);
    }
    const base = cell(r['base_table']);
    if (base) e.baseId = base;
    // A static-only row (co-located table, or a partition before its tablets) has no last_token: not a tablet.
    if (cell(r['last_token']) === null) continue;
    e.tablets++;
    const ms = timestampMs(cell(r['repair_time']));
    if (ms === null) continue;
    e.repaired++;
    if (e.oldestMs === null || ms < e.oldestMs) e.oldestMs = ms;
    if (e.newestMs === null || ms > e.newestMs) e.newestMs = ms;
  }
  const nameOf = new Map([...byKey.values()].filter((e) => e.tableId).map((e) => [e.tableId!, e.table]));
  const out = [...byKey.values()].map(({ oldestMs, newestMs, baseId, ...e }) => ({
    ...e,
    oldest: oldestMs === null ? null : new Date(oldestMs).toISOString(),
    newest: newestMs === null ? null : new Date(newestMs).toISOString(),
    colocatedWith: baseId ? (nameOf.get(baseId) ?? baseId) : null,
  }));
  return out.length ? out : null;
}

/**
 * The repair runs the tablets record: a table whose every tablet has a repair time was repaired in full at its
 * oldest; a co-located table counts its base table's. Tables with unrepaired tablets get no run (their partial
 * state is reported from the facts).
 */
export function runsFromTabletRepairs(facts: readonly TabletRepairFact[]): RepairRunFact[] {
  const full = (f: TabletRepairFact) => f.tablets > 0 && f.repaired === f.tablets && f.oldest !== null;
  const byName = new Map(facts.map((f) => [`${f.keyspace ?? ''}.${f.table}`, f]));
  const runs: RepairRunFact[] = [];
  for (const f of facts) {
    const base = f.colocatedWith && f.tablets === 0 ? byName.get(`${f.keyspace ?? ''}.${f.colocatedWith}`) : undefined;
    const done = base ?? f;
    if (!full(done) || f.keyspace === null) continue;
    runs.push({
      keyspace: f.keyspace,
      tables: [f.table],
      startedAt: null,
      finishedAt: done.oldest,
      ok: true,
      subrange: false,
      incremental: null,
      source: 'scylla.tablets',
    });
  }
  return runs;
}

/** "12 of 16 tablets repaired (oldest …, newest …)" for evidence lines. */
export function tabletRepairState(f: TabletRepairFact): string {
  if (f.colocatedWith && f.tablets === 0) return `co-located with ${f.colocatedWith}: repaired with its tablets`;
  const span = f.repaired ? ` (oldest ${f.oldest}, newest ${f.newest})` : '';
  return `${f.repaired} of ${f.tablets} tablets repaired${span}`;
}
