/**
 * From series to an answer: per node and signal a summary (never the raw points), the change points, which node
 * changed first, what moved with it, and findings that cite the series and the times.
 */
import type { Finding } from '../findings.js';
import { threshold, type KnowledgeId } from '../knowledge/index.js';
import { findChange, findOutage, type ChangePoint } from './change-point.js';
import { summarise, type Series, type SeriesSummary } from './series.js';
import { nodeOfInstance, type Exporter, type SignalSpec } from './signals.js';
import type { MetricsWindow } from './window.js';
import { analyseTables, type TableSignalView } from './tables.js';

export interface SignalData {
  spec: SignalSpec;
  /** The PromQL that was run (cited in evidence). */
  query: string;
  series: Series[];
  /** Why there is no data (the query failed, the metric is absent), when there is none. */
  error?: string;
  /** Seconds between points when not the window's step (per-table signals are read coarser). */
  step?: number;
}

export interface NodeSignal {
  signal: SignalSpec['id'];
  exporter: Exporter;
  title: string;
  unit: SignalSpec['unit'];
  summary: SeriesSummary;
  change: ChangePoint | null;
}

export interface ChangeEvent {
  node: string;
  signal: SignalSpec['id'];
  exporter: Exporter;
  title: string;
  unit: SignalSpec['unit'];
  change: ChangePoint;
  /** The direction that hurts happened (latency up, throughput down). */
  bad: boolean;
}

export interface MetricsAnalysis {
  window: MetricsWindow;
  exporters: Exporter[];
  nodes: { node: string; signals: NodeSignal[] }[];
  /** Every significant change, earliest first. */
  changes: ChangeEvent[];
  findings: Finding[];
  /** Signals that gave no series, with the reason. */
  missing: { signal: string; exporter: Exporter; reason: string }[];
  /** Per-table signals: per signal the few tables that moved or are worst, and how many were left out. */
  tables: TableSignalView[];
}

const KNOWLEDGE: Partial<Record<SignalSpec['id'], KnowledgeId[]>> = {
  scrape_up: ['gossip.conviction-silence'],
  read_p99: ['latency.coordinator-read-p99'],
  write_p99: ['latency.coordinator-write-p99'],
  pending_compactions: ['compaction.pending'],
  dropped: ['dropped.messages'],
  timeouts: ['config.read-request-timeout.default', 'config.write-request-timeout.default'],
  gc_time: ['jvm.gc.pause'],
  cl_all_share: ['client.consistency-all'],
};

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

/** A value in its unit, short: latencies in ms, ratios in %, rates with 2 significant decimals. */
export function formatValue(v: number, unit: SignalSpec['unit']): string {
  const r = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
  switch (unit) {
    case 's':
      return `${r(v * 1000)} ms`;
    case 'ratio':
      return `${r(v * 100)} %`;
    case 'B/s':
      return `${r(v / 1048576)} MiB/s`;
    case 's/s':
      return `${r(v * 1000)} ms/s`;
    default:
      return `${r(v)} ${unit}`;
  }
}

export function describeChange(e: ChangeEvent): string {
  const verb = e.change.direction === 'up' ? 'rose' : 'fell';
  const span = e.change.end === null ? `from ${iso(e.change.start)} to the end of the window` : `from ${iso(e.change.start)} to ${iso(e.change.end)}`;
  return `${e.title} on ${e.node} ${verb} ${formatValue(e.change.baseline, e.unit)} → ${formatValue(e.change.during, e.unit)} ${span}`;
}

/**
 * `nearS`: changes this close in time "move together". Rates smear an edge over their window (4 scrapes), so the
 * caller passes at least that; default two steps.
 */
export function analyseMetrics(window: MetricsWindow, data: SignalData[], exporters: Exporter[], nearS = 2 * window.step, via = 'prometheus'): MetricsAnalysis {
  const byNode = new Map<string, NodeSignal[]>();
  const changes: ChangeEvent[] = [];
  const missing: MetricsAnalysis['missing'] = [];
  for (const d of data) {
    if (d.series.length === 0) {
      missing.push({ signal: d.spec.id, exporter: d.spec.exporter, reason: d.error ?? 'the query returned no series in this window' });
      continue;
    }
    if (d.spec.table) continue; // summarised per table below, on a budget
    for (const s of d.series) {
      const node = nodeOfInstance(s.labels.instance ?? '?');
      const points = d.spec.scale ? s.points.map(([t, v]): [number, number] => [t, v * d.spec.scale!]) : s.points;
      const summary = summarise(points, window.step);
      if (!summary) continue;
      const change = d.spec.id === 'scrape_up' ? findOutage(points, d.spec.minAbsolute) : findChange(points, { minAbsolute: d.spec.minAbsolute });
      const list = byNode.get(node) ?? [];
      list.push({ signal: d.spec.id, exporter: d.spec.exporter, title: d.spec.title, unit: d.spec.unit, summary, change });
      byNode.set(node, list);
      if (change) {
        const bad = d.spec.bad === 'either' ? false : change.direction === d.spec.bad;
        changes.push({ node, signal: d.spec.id, exporter: d.spec.exporter, title: d.spec.title, unit: d.spec.unit, change, bad });
      }
    }
  }
  changes.sort((a, b) => a.change.start - b.change.start || Number(b.bad) - Number(a.bad) || a.node.localeCompare(b.node));
  const nodes = [...byNode.entries()].sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true })).map(([node, signals]) => ({ node, signals }));
  const tables = analyseTables(data, window.step, formatValue, via);
  return {
    window,
    exporters,
    nodes,
    changes,
    findings: [...changeFindings(changes, nearS, window.step, data, via), ...tables.findings],
    missing,
    tables: tables.views,
  };
}

/**
 * Changes of one signal on several nodes belong to one incident when their stretches overlap or follow each other
 * within `near`; a node that missed scrapes a minute before another was paused is a separate story.
 */
function incidents(group: ChangeEvent[], near: number): ChangeEvent[][] {
  const out: ChangeEvent[][] = [];
  let until = -Infinity;
  for (const c of group) {
    if (out.length && c.change.start <= until + near) out[out.length - 1]!.push(c);
    else {
      out.push([c]);
      until = -Infinity;
    }
    until = Math.max(until, c.change.end ?? Infinity);
  }
  return out;
}

/** Seconds a node's stretch of failed scrapes may have lasted: up to one step longer than the failed samples. */
const silenceS = (c: ChangeEvent, step: number) => (c.change.end === null ? Infinity : c.change.end - c.change.start + step);

function severityOf(c: ChangeEvent, step: number): 'critical' | 'warning' {
  // Peers convict a silent node after ~18 s (kb:gossip.conviction-silence); a few missed scrapes under load are a
  // slow exporter or a short stall, worth a look but not an outage.
  if (c.signal === 'scrape_up') return silenceS(c, step) >= threshold('gossip.conviction-silence').critical! ? 'critical' : 'warning';
  return c.signal === 'dropped' || c.signal === 'timeouts' || c.change.during >= 5 * Math.max(c.change.baseline, 1e-9) ? 'critical' : 'warning';
}

/** One finding per signal and incident that moved the bad way: the first node leads, the others and what moved with it follow. */
function changeFindings(changes: ChangeEvent[], near: number, step: number, data: SignalData[], via: string): Finding[] {
  const findings: Finding[] = [];
  const bySignal = new Map<string, ChangeEvent[]>();
  for (const c of changes) if (c.bad) bySignal.set(`${c.exporter}:${c.signal}`, [...(bySignal.get(`${c.exporter}:${c.signal}`) ?? []), c]);
  for (const group of [...bySignal.values()].flatMap((g) => incidents(g, near))) {
    const first = group[0]!;
    const spec = data.find((d) => d.spec.id === first.signal && d.spec.exporter === first.exporter);
    const others = group.slice(1);
    const movedWith = changes.filter((c) => c !== first && !group.includes(c) && Math.abs(c.change.start - first.change.start) <= near);
    const severe = group.some((c) => severityOf(c, step) === 'critical');
    const conviction = threshold('gossip.conviction-silence').critical!;
    const evidence = [
      describeChange(first),
      ...others.map((o) => `${describeChange(o)} (${Math.round(o.change.start - first.change.start)} s after ${first.node})`),
      ...(first.signal === 'scrape_up' && !severe
        ? [
            `the longest stretch of failed scrapes is under the ≈${Math.round(conviction)} s of silence after which peers mark a node down (kb:gossip.conviction-silence): slow to answer, not down`,
          ]
        : []),
      ...movedWith.slice(0, 6).map((m) => `moved with it: ${describeChange(m)}`),
      ...(spec ? [`series: ${spec.query}`] : []),
    ];
    const where = group.length === 1 ? `on ${first.node}` : `on ${group.length} nodes, ${first.node} first`;
    findings.push({
      id: `metrics.change.${first.signal}`,
      severity: severe ? 'critical' : 'warning',
      title: `${first.title} ${first.change.direction === 'up' ? 'rose' : 'fell'} ${where} at ${iso(first.change.start)}${first.change.end === null ? ' and stayed' : ` until ${iso(first.change.end)}`}`,
      evidence,
      node: first.node,
      recommendation: recommendationFor(first, movedWith),
      knowledgeIds: KNOWLEDGE[first.signal] ?? [],
      confidence: group.length > 1 || movedWith.length > 0 ? 'high' : 'medium',
      sources: [`${via} (${first.exporter} exporter)`],
      when: first.change.end === null ? `from ${iso(first.change.start)}` : `from ${iso(first.change.start)} to ${iso(first.change.end)}`,
    });
  }
  return findings;
}

function recommendationFor(first: ChangeEvent, movedWith: ChangeEvent[]): string {
  const cause = movedWith.find(
    (m) => m.node === first.node && ['gc_time', 'disk_await', 'disk_util', 'iowait', 'pending_compactions', 'cpu'].includes(m.signal),
  );
  const lead = cause
    ? `On ${first.node} ${cause.title} moved at the same time: look there first. `
    : `Nothing else measured moved with it on ${first.node}: check that node's logs for the same minutes (GC pauses, compactions, flushes, streaming). `;
  return `${lead}Read that node's system.log for the same minutes (\`cql-tuner logs\`, MCP analyze_logs) to see what it was doing.`;
}

/** Signals that are bad at any level above their threshold: a node that stopped answering, drops, timeouts, shed requests. */
const LEVEL_BAD: Partial<Record<SignalSpec['id'], 'critical' | 'warning'>> = {
  scrape_up: 'critical',
  dropped: 'critical',
  timeouts: 'warning',
  cl_all_share: 'warning',
};

/**
 * Findings from levels rather than changes, for windows too short to hold a change (a direct scrape reads a few
 * intervals): a node not answering, messages dropped or requests shed, timeouts, at a rate above the signal's
 * threshold somewhere in the window.
 */
export function levelFindings(a: MetricsAnalysis, data: SignalData[], via: string, only?: ReadonlySet<SignalSpec['id']>): Finding[] {
  const out: Finding[] = [];
  for (const n of a.nodes) {
    for (const s of n.signals) {
      const severity = LEVEL_BAD[s.signal];
      if (!severity || (only && !only.has(s.signal))) continue;
      const spec = data.find((d) => d.spec.id === s.signal && d.spec.exporter === s.exporter);
      const floor = s.signal === 'cl_all_share' ? (threshold('client.consistency-all').warning ?? 1) / 100 : (spec?.spec.minAbsolute ?? 0);
      // ALL judged on the median: one burst of an admin's consistency check is not the application's setting.
      const level = s.signal === 'cl_all_share' ? s.summary.median : s.summary.max;
      const bad = s.signal === 'scrape_up' ? s.summary.min < 1 : level >= floor && level > 0;
      if (!bad) continue;
      const value =
        s.signal === 'scrape_up'
          ? `answered ${formatValue(s.summary.median, 'ratio')} of the scrapes`
          : s.signal === 'cl_all_share'
            ? `${formatValue(s.summary.median, s.unit)} (median)`
            : `${formatValue(s.summary.max, s.unit)} at most`;
      out.push({
        id: `metrics.level.${s.signal}`,
        severity,
        title: `${s.title} on ${n.node}: ${value} (${a.window.label})`,
        evidence: [
          `${s.title} on ${n.node}: min ${formatValue(s.summary.min, s.unit)}, median ${formatValue(s.summary.median, s.unit)}, ` +
            `max ${formatValue(s.summary.max, s.unit)} over ${s.summary.points} point(s)`,
          ...(spec ? [`series: ${spec.query}`] : []),
        ],
        node: n.node,
        recommendation:
          s.signal === 'scrape_up'
            ? `Check that ${n.node} is up and its exporter answers (the endpoint's error is in the report).`
            : s.signal === 'cl_all_share'
              ? 'Find the application that sets CONSISTENCY ALL (system_views.clients names the connections; the driver profile or ' +
                'statement sets the level) and use QUORUM / LOCAL_QUORUM for both reads and writes: with ALL one replica down or slow ' +
                'fails the request.'
              : `Read ${n.node}'s system.log for the same minutes (\`cql-tuner logs\`, MCP analyze_logs): ` +
                'drops and timeouts say which stage or replica fell behind.',
        knowledgeIds: KNOWLEDGE[s.signal] ?? [],
        confidence: 'high',
        sources: [`${via} (${s.exporter} exporter)`],
        when: `from ${iso(a.window.start)} to ${iso(a.window.end)}`,
      });
    }
  }
  return out;
}
