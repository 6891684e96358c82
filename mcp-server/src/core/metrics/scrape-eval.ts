/**
 * Without a Prometheus: the same signals computed from consecutive scrapes of one node's /metrics page.
 * Each signal carries a small expression (data, next to its PromQL in signals.ts) that this file evaluates the way
 * PromQL would over the interval between two scrapes: counters become per-second increases (a counter that went
 * down was reset, so its new value is the increase, as rate() does), gauges are read at the later scrape, and a
 * histogram's p99 comes from the bucket increases with histogram_quantile's linear interpolation.
 * Pure: the pages come in parsed, the times with them.
 */
import type { ExpositionSample } from '../parse/metrics/exposition.js';

/** Label → value it must have, or the values it may have (a label spelled differently across versions). */
type Match = Record<string, string | string[]>;
type Agg = 'sum' | 'avg' | 'max';

export type ScrapeExpr =
  /** Per-second increase of a counter, aggregated over its matching series (shards, CPUs, disks). */
  | { op: 'rate'; metric: string; match?: Match; agg?: Agg }
  /** A gauge's value at the later scrape. */
  | { op: 'gauge'; metric: string; match?: Match; agg: Agg }
  /** histogram_quantile over the increases of `<metric>_bucket`, all matching series summed by `le`. */
  | { op: 'quantile'; q: number; metric: string; match?: Match }
  /** Per value of label `by` (a disk): sum of the `num` counters' rates / sum of the `den` counters' rates; the largest. */
  | { op: 'maxRatio'; by: string; num: string[]; den: string[] }
  | { op: 'add' | 'sub' | 'div'; left: ScrapeExpr; right: ScrapeExpr }
  | { op: 'const'; value: number }
  /** 1 when the node answered the scrape, 0 when it did not (Prometheus's `up`). */
  | { op: 'up' };

/** One scrape of one node: when it was read (unix seconds) and its samples, or null when it failed. */
export interface Scrape {
  at: number;
  samples: ExpositionSample[] | null;
}

/** Every metric name an expression reads (to keep only those when parsing a page). */
export function exprMetrics(e: ScrapeExpr): string[] {
  switch (e.op) {
    case 'rate':
    case 'gauge':
      return [e.metric];
    case 'quantile':
      return [`${e.metric}_bucket`];
    case 'maxRatio':
      return [...e.num, ...e.den];
    case 'add':
    case 'sub':
    case 'div':
      return [...exprMetrics(e.left), ...exprMetrics(e.right)];
    default:
      return [];
  }
}

const matches = (labels: Record<string, string>, m: Match | undefined) =>
  !m || Object.entries(m).every(([k, v]) => (Array.isArray(v) ? v.includes(labels[k] ?? '') : labels[k] === v));

/** A series' identity: its name and labels, sorted. */
const seriesKey = (s: ExpositionSample) =>
  `${s.name}{${Object.keys(s.labels)
    .sort()
    .map((k) => `${k}=${s.labels[k]}`)
    .join(',')}}`;

function aggregate(values: number[], agg: Agg): number | null {
  if (values.length === 0) return null;
  if (agg === 'max') return Math.max(...values);
  const sum = values.reduce((a, b) => a + b, 0);
  return agg === 'sum' ? sum : sum / values.length;
}

/** Increase of each matching counter series between the two scrapes (reset-aware); series missing from either are left out. */
type Increases = Map<string, { inc: number; labels: Record<string, string> }>;

function increases(prev: ExpositionSample[], cur: ExpositionSample[], metric: string, match: Match | undefined): Increases {
  const before = new Map<string, number>();
  for (const s of prev) if (s.name === metric && matches(s.labels, match) && Number.isFinite(s.value)) before.set(seriesKey(s), s.value);
  const out: Increases = new Map();
  for (const s of cur) {
    if (s.name !== metric || !matches(s.labels, match) || !Number.isFinite(s.value)) continue;
    const key = seriesKey(s);
    const b = before.get(key);
    if (b === undefined) continue;
    out.set(key, { inc: s.value >= b ? s.value - b : s.value, labels: s.labels });
  }
  return out;
}

/** Prometheus's histogram_quantile: cumulative buckets sorted by `le`, linear inside the bucket holding the rank. */
export function bucketQuantile(q: number, buckets: { le: number; count: number }[]): number | null {
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  const inf = sorted[sorted.length - 1];
  if (!inf || inf.le !== Infinity || inf.count <= 0 || sorted.length < 2) return null;
  const rank = q * inf.count;
  let i = sorted.findIndex((b) => b.count >= rank);
  if (i < 0) i = sorted.length - 1;
  if (i === sorted.length - 1) return sorted[sorted.length - 2]!.le;
  const upper = sorted[i]!;
  const lowerLe = i === 0 ? 0 : sorted[i - 1]!.le;
  const lowerCount = i === 0 ? 0 : sorted[i - 1]!.count;
  if (i === 0 && upper.le <= 0) return upper.le;
  const inBucket = upper.count - lowerCount;
  return inBucket <= 0 ? upper.le : lowerLe + (upper.le - lowerLe) * ((rank - lowerCount) / inBucket);
}

/**
 * The value of `e` over the interval from `prev` to `cur`, or null when it cannot be known (a metric missing
 * from a page, no observation in a histogram, a division by zero), as PromQL returns no sample then.
 */
export function evalScrapeExpr(e: ScrapeExpr, prev: Scrape, cur: Scrape): number | null {
  if (e.op === 'up') return cur.samples ? 1 : 0;
  if (e.op === 'const') return e.value;
  if (!cur.samples) return null;
  const dt = cur.at - prev.at;
  switch (e.op) {
    case 'gauge': {
      const values = cur.samples.filter((s) => s.name === e.metric && matches(s.labels, e.match) && Number.isFinite(s.value)).map((s) => s.value);
      return aggregate(values, e.agg);
    }
    case 'rate': {
      if (!prev.samples || dt <= 0) return null;
      const inc = [...increases(prev.samples, cur.samples, e.metric, e.match).values()].map((v) => v.inc / dt);
      return aggregate(inc, e.agg ?? 'sum');
    }
    case 'quantile': {
      if (!prev.samples || dt <= 0) return null;
      const byLe = new Map<number, number>();
      for (const { inc, labels } of increases(prev.samples, cur.samples, `${e.metric}_bucket`, e.match).values()) {
        const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
        if (Number.isNaN(le)) continue;
        byLe.set(le, (byLe.get(le) ?? 0) + inc);
      }
      return bucketQuantile(
        e.q,
        [...byLe.entries()].map(([le, count]) => ({ le, count })),
      );
    }
    case 'maxRatio': {
      if (!prev.samples || dt <= 0) return null;
      const sumBy = (metrics: string[]) => {
        const m = new Map<string, number>();
        for (const metric of metrics) {
          for (const { inc, labels } of increases(prev.samples!, cur.samples!, metric, undefined).values()) {
            const k = labels[e.by] ?? '';
            m.set(k, (m.get(k) ?? 0) + inc);
          }
        }
        return m;
      };
      const num = sumBy(e.num);
      const ratios = [...sumBy(e.den).entries()].filter(([k, d]) => d > 0 && num.has(k)).map(([k, d]) => num.get(k)! / d);
      return aggregate(ratios, 'max');
    }
    default: {
      const l = evalScrapeExpr(e.left, prev, cur);
      const r = evalScrapeExpr(e.right, prev, cur);
      if (l === null || r === null) return null;
      if (e.op === 'add') return l + r;
      if (e.op === 'sub') return l - r;
      return r === 0 ? null : l / r;
    }
  }
}

/** Whether `e` reads a counter, so its first point is one interval after the first scrape. */
export function needsTwoScrapes(e: ScrapeExpr): boolean {
  switch (e.op) {
    case 'rate':
    case 'quantile':
    case 'maxRatio':
      return true;
    case 'add':
    case 'sub':
    case 'div':
      return needsTwoScrapes(e.left) || needsTwoScrapes(e.right);
    default:
      return false;
  }
}

/**
 * A node's series for one signal from its scrapes in time order: one point per interval for counters (at the
 * later scrape's time), one per scrape for gauges.
 */
export function scrapeSeries(e: ScrapeExpr, scrapes: Scrape[], bounds?: readonly [number, number]): [number, number][] {
  const points: [number, number][] = [];
  const counters = needsTwoScrapes(e);
  for (let i = counters ? 1 : 0; i < scrapes.length; i++) {
    const cur = scrapes[i]!;
    const prev = scrapes[Math.max(0, i - 1)]!;
    const v = evalScrapeExpr(e, prev, cur);
    if (v !== null && Number.isFinite(v)) points.push([cur.at, bounds ? Math.min(bounds[1], Math.max(bounds[0], v)) : v]);
  }
  return points;
}

/**
 * A share of time (CPU busy, iowait, disk busy) lies in [0, 1], but the counters are read a moment apart from the
 * scrape's own time: idle can advance by a little more than the interval (CI saw CPU busy −0.1 %), and Linux's
 * iowait counter may even step back. Such shares are clamped to what they physically are.
 */
export const RATIO_BOUNDS: readonly [number, number] = [0, 1];

/**
 * A per-table signal's series from a node's scrapes: the samples are split by the two labels naming the table
 * (keyspace, table) and the expression is evaluated on each table's share, so one pass over the pages serves every
 * table. Samples without those labels are left out; a failed scrape is failed for every table.
 */
export type TableSeries = { keyspace: string; table: string; points: [number, number][] };

export function scrapeSeriesByTable(e: ScrapeExpr, scrapes: Scrape[], labels: { keyspace: string; table: string }): Map<string, TableSeries> {
  const names = new Set(exprMetrics(e));
  const tables = new Map<string, { keyspace: string; table: string; scrapes: Scrape[] }>();
  scrapes.forEach((sc, i) => {
    if (!sc.samples) return;
    for (const s of sc.samples) {
      if (!names.has(s.name)) continue;
      const ks = s.labels[labels.keyspace];
      const tb = s.labels[labels.table];
      if (ks === undefined || tb === undefined) continue;
      const key = `${ks}.${tb}`;
      let t = tables.get(key);
      if (!t) {
        t = { keyspace: ks, table: tb, scrapes: scrapes.map((x) => ({ at: x.at, samples: x.samples ? [] : null })) };
        tables.set(key, t);
      }
      t.scrapes[i]!.samples!.push(s);
    }
  });
  const out = new Map<string, TableSeries>();
  for (const [key, t] of tables) out.set(key, { keyspace: t.keyspace, table: t.table, points: scrapeSeries(e, t.scrapes) });
  return out;
}

/** The expression as short text for evidence ("rate(scylla_transport_requests_served)"). */
export function describeExpr(e: ScrapeExpr): string {
  const m = (match?: Match) =>
    match
      ? `{${Object.entries(match)
          .map(([k, v]) => (Array.isArray(v) ? `${k}=~"${v.join('|')}"` : `${k}="${v}"`))
          .join(',')}}`
      : '';
  switch (e.op) {
    case 'rate':
      return `${e.agg && e.agg !== 'sum' ? `${e.agg} ` : ''}rate(${e.metric}${m(e.match)})`;
    case 'gauge':
      return `${e.agg}(${e.metric}${m(e.match)})`;
    case 'quantile':
      return `p${Math.round(e.q * 100)}(${e.metric}_bucket${m(e.match)})`;
    case 'maxRatio':
      return `max by ${e.by} (${e.num.map((n) => `rate(${n})`).join(' + ')}) / (${e.den.map((n) => `rate(${n})`).join(' + ')})`;
    case 'const':
      return String(e.value);
    case 'up':
      return 'up';
    default:
      return `(${describeExpr(e.left)} ${e.op === 'add' ? '+' : e.op === 'sub' ? '-' : '/'} ${describeExpr(e.right)})`;
  }
}
