/**
 * Per-table signals on a token budget: 50 tables × 3 nodes × 7 signals are 1,050 series, so each is summarised and
 * only the few that matter are kept per signal: the ones that moved the harmful way (largest move first), then the
 * worst (or, for throughput, the busiest) by level; how many were left out is said, never listed. Findings name the
 * table, the node and the time.
 */
import type { Finding } from '../findings.js';
import type { KnowledgeId } from '../knowledge/index.js';
import { findChange, type ChangePoint } from './change-point.js';
import { summarise, type SeriesSummary } from './series.js';
import { EXPORTER_NAMES, nodeOfInstance, type Exporter, type SignalSpec } from './signals.js';
import type { SignalData } from './analyse.js';

/** Tables kept per signal in the report. */
export const TOP_TABLES = 5;

export interface TableEntry {
  node: string;
  /** keyspace.table */
  table: string;
  summary: SeriesSummary;
  change: ChangePoint | null;
  /** Why it is listed: it moved the harmful way, or it is among the worst / busiest by level. */
  why: 'moved' | 'worst' | 'busiest';
}

export interface TableSignalView {
  signal: SignalSpec['id'];
  exporter: Exporter;
  title: string;
  unit: SignalSpec['unit'];
  /** Series read (node × table) and distinct tables among them. */
  series: number;
  tables: number;
  top: TableEntry[];
  /** Series summarised but not listed. */
  leftOut: number;
}

const KNOWLEDGE: Partial<Record<SignalSpec['id'], KnowledgeId[]>> = {
  table_read_p99: ['latency.local-read-p99'],
  table_write_p99: ['latency.local-write-p99'],
  table_sstables_per_read: ['table.sstables-per-read'],
  table_tombstones: ['table.tombstones-per-read'],
  table_pending_compactions: ['compaction.pending'],
};

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

/** How far a change moved, relative to its baseline (the noise floor is the signal's smallest meaningful change). */
const magnitude = (c: ChangePoint, minAbsolute: number) => Math.abs(c.during - c.baseline) / Math.max(Math.abs(c.baseline), minAbsolute, 1e-12);

interface Row extends Omit<TableEntry, 'why'> {
  bad: boolean;
}

type Fmt = (v: number, unit: SignalSpec['unit']) => string;

export function analyseTables(data: SignalData[], step: number, fmt: Fmt, via: string): { views: TableSignalView[]; findings: Finding[] } {
  const views: TableSignalView[] = [];
  const findings: Finding[] = [];
  for (const d of data) {
    const labels = d.spec.table;
    if (!labels || d.series.length === 0) continue;
    const rows: Row[] = [];
    const tables = new Set<string>();
    for (const s of d.series) {
      const points = d.spec.scale ? s.points.map(([t, v]): [number, number] => [t, v * d.spec.scale!]) : s.points;
      const summary = summarise(points, d.step ?? step);
      if (!summary) continue;
      const table = `${s.labels[labels.keyspace] ?? '?'}.${s.labels[labels.table] ?? '?'}`;
      tables.add(table);
      const change = findChange(points, { minAbsolute: d.spec.minAbsolute });
      const bad = !!change && d.spec.bad !== 'either' && change.direction === d.spec.bad;
      rows.push({ node: nodeOfInstance(s.labels.instance ?? '?'), table, summary, change, bad });
    }
    if (rows.length === 0) continue;
    const size = (r: Row) => magnitude(r.change!, d.spec.minAbsolute);
    const moved = rows.filter((r) => r.bad).sort((a, b) => size(b) - size(a));
    const throughput = d.spec.bad === 'either' || d.spec.bad === 'down';
    // Worst by level: a latency's p99 over the window; the busiest by median rate. A table at zero is not worth a line.
    const level = (r: Row) => (throughput ? r.summary.median : r.summary.p99);
    const rest = rows.filter((r) => !r.bad && level(r) > 0).sort((a, b) => level(b) - level(a));
    const top: TableEntry[] = [
      ...moved.slice(0, TOP_TABLES).map(({ bad: _b, ...r }): TableEntry => ({ ...r, why: 'moved' })),
      ...rest.slice(0, Math.max(0, TOP_TABLES - moved.length)).map(({ bad: _b, ...r }): TableEntry => ({ ...r, why: throughput ? 'busiest' : 'worst' })),
    ];
    const { id: signal, exporter, title, unit } = d.spec;
    views.push({ signal, exporter, title, unit, series: rows.length, tables: tables.size, top, leftOut: rows.length - top.length });
    if (moved.length > 0) findings.push(tableFinding(d, moved, fmt, via));
  }
  return { views, findings };
}

function describe(r: Row, d: SignalData, fmt: Fmt): string {
  const c = r.change!;
  const span = c.end === null ? `from ${iso(c.start)} to the end of the window` : `from ${iso(c.start)} to ${iso(c.end)}`;
  const moved = `${c.direction === 'up' ? 'rose' : 'fell'} ${fmt(c.baseline, d.spec.unit)} → ${fmt(c.during, d.spec.unit)}`;
  return `${d.spec.title} of ${r.table} on ${r.node} ${moved} ${span}`;
}

/** One finding per signal: the table that moved most leads; the next few follow, the rest are counted. */
function tableFinding(d: SignalData, moved: Row[], fmt: Fmt, via: string): Finding {
  const first = moved[0]!;
  const c = first.change!;
  const others = moved.slice(1, TOP_TABLES);
  const more = moved.length - 1 - others.length;
  const tables = new Set(moved.map((m) => m.table));
  const when = c.end === null ? `from ${iso(c.start)}` : `from ${iso(c.start)} to ${iso(c.end)}`;
  const severe = c.during >= 5 * Math.max(c.baseline, d.spec.minAbsolute);
  return {
    id: `metrics.table.${d.spec.id}`,
    severity: severe ? 'critical' : 'warning',
    title:
      `${d.spec.title} of ${first.table} ${c.direction === 'up' ? 'rose' : 'fell'} ${when} on ${first.node}` +
      (moved.length > 1 ? ` (${moved.length - 1} more table series moved: ${tables.size} table(s) in all)` : ''),
    evidence: [
      describe(first, d, fmt),
      ...others.map((o) => describe(o, d, fmt)),
      ...(more > 0 ? [`… and ${more} more table series moved the same way (not listed)`] : []),
      `series: ${d.query}`,
    ],
    node: first.node,
    table: first.table,
    recommendation:
      `Look at ${first.table} on ${first.node} for those minutes: its reads, compactions and tombstones ` +
      "(`cql-tuner diagnose`, nodetool tablestats / tablehistograms), and that node's system.log (`cql-tuner logs`).",
    knowledgeIds: KNOWLEDGE[d.spec.id] ?? [],
    confidence: moved.length > 1 ? 'high' : 'medium',
    sources: [`${via} (${d.spec.exporter} exporter)`],
    when,
  };
}

/** Why an exporter gave no per-table series: said once, not per signal. */
export function noTablesReason(e: Exporter): string {
  if (e === 'scylla') return 'no scylla_column_family_* metric: ScyllaDB exports per-table metrics only with enable_keyspace_column_family_metrics';
  if (e === 'jmx') return "no cassandra_table_* metric: the exporter's rules leave out the type=Table MBeans (the lab's do, to keep scrapes small)";
  return `no per-table metric from ${e === 'prometheus' ? e : EXPORTER_NAMES[e]}`;
}
