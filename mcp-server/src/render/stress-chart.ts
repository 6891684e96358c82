/**
 * Hand-written SVG charts of a stress run: throughput and p50/p99 over time, and the latency distribution
 * (percentile on a "nines" axis). No dependencies; pure string building from StressFacts.
 */
import type { StressFacts } from '../core/stress/facts.js';
import { maxOf, minOf } from '../core/arrays.js';

const W = 720;
const H = 220;
const M = { l: 64, r: 16, t: 28, b: 34 };

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The round axis maximum (1, 2, 2.5, 5 × 10^k) at or above v; shared with the PNG charts. */
export function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

/**
 * Time-axis ticks on round values (a 1, 2 or 5 × 10^k step, about `count` of them) inside [min, max], so an
 * operator reads "at 10 s" rather than "at 3.2 s"; falls back to both ends when the span is empty.
 */
export function niceTicks(min: number, max: number, count = 5): { at: number; label: string }[] {
  if (!(max > min) || !Number.isFinite(min) || !Number.isFinite(max)) return [{ at: min, label: fmt(min) }];
  const raw = (max - min) / Math.max(1, count - 1);
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((x) => x >= raw) ?? 10 * p;
  const out: { at: number; label: string }[] = [];
  // Multiples of step computed afresh (no running sum drifting to 0.6000000000000001), and never -0.
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + 1e-9 * step; k++) {
    const v = Number((k * step).toPrecision(12)) + 0;
    out.push({ at: v, label: fmt(v) });
  }
  return out;
}

// Below 1, two significant digits: a 0.1 ms axis reads 0.025, 0.05, 0.075, not 0.0, 0.1, 0.1.
export const fmt = (v: number) =>
  v >= 10_000
    ? `${Math.round(v / 1000)}k`
    : v >= 1000
      ? `${(v / 1000).toFixed(1)}k`
      : v >= 10
        ? String(Math.round(v))
        : v > 0 && v < 1
          ? String(Number(v.toPrecision(2)))
          : v.toFixed(1);

export interface Series {
  name: string;
  color: string;
  points: [number, number][];
  /** Dash pattern (drawn px, gap px) to tell overlaid series apart beyond colour; solid when absent. */
  dash?: readonly [number, number];
}

/** Panel options beyond the data: explicit x ticks and domain, and a note drawn inside the plot. */
export interface PanelOptions {
  xTicks?: { at: number; label: string }[];
  xRange?: [number, number];
  /** Said inside the plot's top-left corner, e.g. which run could not be drawn and why. */
  note?: string;
  /** Vertical marks on the time axis (a change point's start and end). */
  marks?: { at: number; label: string }[];
}

/** Legend entries are laid out right to left; each takes at least 90 px, more for a long name (shared with the PNG). */
export function legendOffsets(names: string[], charW: number): number[] {
  let at = 0;
  return names.map((n) => {
    const here = at;
    at += Math.max(90, Math.ceil(n.length * charW) + 24);
    return here;
  });
}

function panel(title: string, yLabel: string, xLabel: string, series: Series[], y0: number, opts: PanelOptions = {}): string {
  const pts = series.flatMap((s) => s.points);
  const xs = pts.map((p) => p[0]);
  const xMin = opts.xRange?.[0] ?? (xs.length ? minOf(xs) : 0);
  const xMax = opts.xRange?.[1] ?? (xs.length ? maxOf(xs) : 1);
  const yMax = niceMax(Math.max(0, maxOf(pts.map((p) => p[1]))));
  const pw = W - M.l - M.r;
  const ph = H - M.t - M.b;
  const X = (x: number) => M.l + (xMax === xMin ? pw / 2 : ((x - xMin) / (xMax - xMin)) * pw);
  const Y = (y: number) => y0 + M.t + ph - (y / yMax) * ph;
  const out: string[] = [];
  out.push(`<text x="${M.l}" y="${y0 + 18}" font-size="13" font-weight="bold">${esc(title)}</text>`);
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    out.push(`<line x1="${M.l}" x2="${W - M.r}" y1="${Y(v).toFixed(1)}" y2="${Y(v).toFixed(1)}" stroke="#ddd"/>`);
    out.push(`<text x="${M.l - 6}" y="${(Y(v) + 4).toFixed(1)}" font-size="10" text-anchor="end">${fmt(v)}</text>`);
  }
  const ticks = opts.xTicks ?? niceTicks(xMin, xMax);
  // A label at the right edge ends there: centred, a clock time like 20:13:15 would be cut off by the SVG's border.
  const anchor = (x: number) => (x > W - M.r - 24 ? 'end' : 'middle');
  for (const t of ticks) {
    out.push(`<text x="${X(t.at).toFixed(1)}" y="${y0 + H - M.b + 14}" font-size="10" text-anchor="${anchor(X(t.at))}">${esc(t.label)}</text>`);
  }
  out.push(`<text x="${W - M.r}" y="${y0 + H - 4}" font-size="10" text-anchor="end">${esc(xLabel)}</text>`);
  out.push(`<text x="12" y="${y0 + M.t + ph / 2}" font-size="10" transform="rotate(-90 12 ${y0 + M.t + ph / 2})" text-anchor="middle">${esc(yLabel)}</text>`);
  out.push(`<rect x="${M.l}" y="${y0 + M.t}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
  const legendAt = legendOffsets(
    series.map((s) => `■ ${s.name}`),
    6.5,
  );
  series.forEach((s, i) => {
    if (s.points.length) {
      const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(' ');
      const dash = s.dash ? ` stroke-dasharray="${s.dash[0]} ${s.dash[1]}"` : '';
      out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.8"${dash} data-series="${esc(s.name)}"/>`);
      if (s.points.length < 40) for (const p of s.points) out.push(`<circle cx="${X(p[0]).toFixed(1)}" cy="${Y(p[1]).toFixed(1)}" r="2.2" fill="${s.color}"/>`);
    }
    out.push(`<text x="${W - M.r - 8 - legendAt[i]!}" y="${y0 + 18}" font-size="11" text-anchor="end" fill="${s.color}">■ ${esc(s.name)}</text>`);
  });
  if (opts.note) out.push(`<text x="${M.l + 6}" y="${y0 + M.t + 14}" font-size="11" fill="#555">${esc(opts.note)}</text>`);
  for (const m of opts.marks ?? []) {
    if (m.at < xMin || m.at > xMax) continue;
    const x = X(m.at).toFixed(1);
    out.push(`<line x1="${x}" x2="${x}" y1="${y0 + M.t}" y2="${y0 + M.t + ph}" stroke="#c00" stroke-dasharray="4 3" data-mark="${esc(m.label)}"/>`);
    out.push(`<text x="${x}" y="${y0 + M.t - 3}" font-size="10" text-anchor="middle" fill="#c00">${esc(m.label)}</text>`);
  }
  return out.join('\n');
}

/** One chart panel as a whole SVG document (metrics windows use it: one signal, a line per node). */
export function lineChartSvg(title: string, yLabel: string, xLabel: string, series: Series[], opts: PanelOptions = {}): string {
  return svg(H, panel(title, yLabel, xLabel, series, 0, opts), title);
}

function svg(height: number, body: string, title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" font-family="sans-serif">\n<title>${esc(title)}</title>\n<rect width="100%" height="100%" fill="#fff"/>\n${body}\n</svg>\n`;
}

const pairs = (f: StressFacts, key: 'opRate' | 'p50Ms' | 'p99Ms'): [number, number][] =>
  f.intervals.flatMap((i, k) => (i[key] !== null && Number.isFinite(i[key]) ? [[i.timeS ?? k + 1, i[key]] as [number, number]] : []));

/** The series of the two timeline panels (throughput; p99 and p50), shared by the SVG and PNG charts. */
export function timelineSeries(f: StressFacts): { throughput: Series[]; latency: Series[] } {
  return {
    throughput: [{ name: 'op/s', color: '#1f77b4', points: pairs(f, 'opRate') }],
    latency: [
      { name: 'p99', color: '#d62728', points: pairs(f, 'p99Ms') },
      { name: 'p50', color: '#2ca02c', points: pairs(f, 'p50Ms') },
    ],
  };
}

/** Throughput (top) and p50 / p99 latency (bottom) over the run's intervals. */
export function timelineSvg(f: StressFacts, title = `${f.tool} run`): string {
  const s = timelineSeries(f);
  const top = panel('Throughput', 'op/s', 'time [s]', s.throughput, 0);
  const bottom = panel('Latency per interval', 'ms', 'time [s]', s.latency, H);
  return svg(2 * H, `${top}\n${bottom}`, title);
}

/** Percentile → latency pairs sorted by percentile (0 < p < 100, finite values only). */
export function percentilePoints(percentiles: Record<string, number | null>): { percentile: number; ms: number }[] {
  return Object.entries(percentiles)
    .map(([k, v]) => [Number(k), v] as const)
    .filter(([p, v]) => Number.isFinite(p) && p > 0 && p < 100 && v !== null && Number.isFinite(v))
    .sort((a, b) => a[0] - b[0])
    .map(([p, v]) => ({ percentile: p, ms: v! }));
}

/** Position of a percentile on the "nines" axis: 90 → 1, 99 → 2, 99.9 → 3. */
export const nines = (p: number) => -Math.log10(Math.max(1e-6, 1 - p / 100));

/** The usual percentiles as ticks, those inside the points' span. */
export function ninesTicks(points: [number, number][]): { at: number; label: string }[] {
  const xs = points.map((p) => p[0]);
  const lo = minOf(xs);
  const hi = maxOf(xs);
  return [50, 90, 99, 99.9, 99.99].filter((p) => xs.length && nines(p) <= hi + 1e-9 && nines(p) >= lo - 1e-9).map((p) => ({ at: nines(p), label: String(p) }));
}

/** Latency against percentile for the whole run, the x axis in "nines" (50, 90, 99, 99.9 …). */
export function distributionSvg(f: StressFacts, percentiles: Record<string, number | null>, title = `${f.tool} latency distribution`): string {
  const points = percentilePoints(percentiles).map(({ percentile, ms }) => [nines(percentile), ms] as [number, number]);
  const ticks = ninesTicks(points);
  return svg(H, panel('Latency by percentile', 'ms', 'percentile', [{ name: 'latency', color: '#9467bd', points }], 0, { xTicks: ticks }), title);
}

/** The percentiles a run's summary holds, for distributionSvg when the tool gives no full list. */
export function summaryPercentiles(f: StressFacts): Record<string, number | null> {
  return { '50': f.p50Ms, '95': f.p95Ms, '99': f.p99Ms, '99.9': f.p999Ms };
}

// ---------------------------------------------------------------------------------------------------------------
// A/B comparison charts: two runs overlaid, each in its own colour (p50 lighter and dashed under its p99).

/** One side of a comparison: its key (A or B), a label naming the run, its facts and its percentile list. */
export interface CompareRun {
  key: 'A' | 'B';
  label: string;
  facts: StressFacts;
  percentiles: Record<string, number | null>;
}

export type CompareChartName = 'latency-over-time' | 'throughput-over-time' | 'latency-distribution';
export const COMPARE_CHARTS: readonly CompareChartName[] = ['latency-over-time', 'throughput-over-time', 'latency-distribution'];

/** Colours of run A and B: strong for p99 / throughput / the distribution, light for p50. */
export const COMPARE_COLORS = {
  A: { strong: '#1f77b4', light: '#aec7e8' },
  B: { strong: '#ff7f0e', light: '#ffbb78' },
} as const;

export interface CompareChart {
  title: string;
  unit: string;
  xLabel: string;
  series: Series[];
  xRange?: [number, number];
  xTicks?: { at: number; label: string }[];
  /** What could not be drawn (a run without intervals or percentiles); null when both runs are drawn. */
  note: string | null;
}

export interface ComparisonCharts {
  /** The key row: "A = <label>" and "B = <label>" in the runs' colours. */
  key: { text: string; color: string }[];
  /** Charts that have something to draw (a chart with neither run's data is left out, its note kept). */
  charts: Partial<Record<CompareChartName, CompareChart>>;
  notes: string[];
}

const P50_DASH = [6, 4] as const;

/** The series of the three comparison charts; time is seconds since each run's own start, so both begin at 0. */
export function comparisonCharts(a: CompareRun, b: CompareRun): ComparisonCharts {
  const runs = [a, b];
  const notes: string[] = [];
  const missing = (what: string, lacking: CompareRun[]) => {
    if (!lacking.length) return null;
    const note = lacking.map((r) => `${r.key} (${r.label})`).join(' and ') + ` has no ${what}: not drawn`;
    notes.push(`${what}: ${note}`);
    return note;
  };
  const timed = runs.filter((r) => r.facts.intervals.length > 0);
  const noIntervals = missing(
    'interval samples',
    runs.filter((r) => r.facts.intervals.length === 0),
  );
  const charts: ComparisonCharts['charts'] = {};
  if (timed.length) {
    const tMax = Math.max(
      maxOf(
        timed.flatMap((r) =>
          pairs(r.facts, 'opRate')
            .concat(pairs(r.facts, 'p99Ms'))
            .map((p) => p[0]),
        ),
      ),
      1,
    );
    const xRange: [number, number] = [0, tMax];
    charts['latency-over-time'] = {
      title: 'Latency over time',
      unit: 'ms',
      xLabel: 'time since run start [s]',
      xRange,
      // p50 first so the p99 lines are drawn over them; legend: A p99, B p99, A p50, B p50 from the right.
      series: [
        ...timed.map((r) => ({ name: `${r.key} p50`, color: COMPARE_COLORS[r.key].light, dash: P50_DASH, points: pairs(r.facts, 'p50Ms') })),
        ...timed.map((r) => ({ name: `${r.key} p99`, color: COMPARE_COLORS[r.key].strong, points: pairs(r.facts, 'p99Ms') })),
      ],
      note: noIntervals,
    };
    charts['throughput-over-time'] = {
      title: 'Throughput over time',
      unit: 'op/s',
      xLabel: 'time since run start [s]',
      xRange,
      series: timed.map((r) => ({ name: `${r.key} op/s`, color: COMPARE_COLORS[r.key].strong, points: pairs(r.facts, 'opRate') })),
      note: noIntervals,
    };
  }
  const withPct = runs.filter((r) => percentilePoints(r.percentiles).length > 0);
  const noPct = missing(
    'latency percentiles',
    runs.filter((r) => !withPct.includes(r)),
  );
  if (withPct.length) {
    const series = withPct.map((r) => ({
      name: `${r.key} latency`,
      color: COMPARE_COLORS[r.key].strong,
      points: percentilePoints(r.percentiles).map(({ percentile, ms }) => [nines(percentile), ms] as [number, number]),
    }));
    charts['latency-distribution'] = {
      title: 'Latency by percentile',
      unit: 'ms',
      xLabel: 'percentile',
      series,
      xTicks: ninesTicks(series.flatMap((s) => s.points)),
      note: noPct,
    };
  }
  return { key: runs.map((r) => ({ text: `${r.key} = ${r.label}`, color: COMPARE_COLORS[r.key].strong })), charts, notes };
}

const KEY_H = 22;

/** One comparison chart as SVG: the key row naming the runs, then the panel. */
export function comparisonSvg(c: ComparisonCharts, name: CompareChartName, title: string): string | null {
  const ch = c.charts[name];
  if (!ch) return null;
  let x = M.l;
  const key = c.key.map((k) => {
    const t = `<text x="${x}" y="15" font-size="12" fill="${k.color}">■ ${esc(k.text)}</text>`;
    x += Math.ceil((k.text.length + 2) * 7) + 24;
    return t;
  });
  const body = panel(ch.title, ch.unit, ch.xLabel, ch.series, KEY_H, {
    ...(ch.xTicks ? { xTicks: ch.xTicks } : {}),
    ...(ch.xRange ? { xRange: ch.xRange } : {}),
    ...(ch.note ? { note: ch.note } : {}),
  });
  return svg(KEY_H + H, `${key.join('\n')}\n${body}`, title);
}
