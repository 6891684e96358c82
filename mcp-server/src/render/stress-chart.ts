/**
 * Hand-written SVG charts of a stress run: throughput and p50/p99 over time, and the latency distribution
 * (percentile on a "nines" axis). No dependencies; pure string building from StressFacts.
 */
import type { StressFacts } from '../core/stress/facts.js';

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

export const fmt = (v: number) => (v >= 10_000 ? `${Math.round(v / 1000)}k` : v >= 1000 ? `${(v / 1000).toFixed(1)}k` : v >= 10 ? String(Math.round(v)) : v.toFixed(1));

export interface Series {
  name: string;
  color: string;
  points: [number, number][];
}

function panel(title: string, yLabel: string, xLabel: string, series: Series[], y0: number, xTicks?: { at: number; label: string }[]): string {
  const pts = series.flatMap((s) => s.points);
  const xs = pts.map((p) => p[0]);
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMax = xs.length ? Math.max(...xs) : 1;
  const yMax = niceMax(Math.max(0, ...pts.map((p) => p[1])));
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
  const ticks = xTicks ?? [0, 0.25, 0.5, 0.75, 1].map((f) => ({ at: xMin + f * (xMax - xMin), label: fmt(xMin + f * (xMax - xMin)) }));
  for (const t of ticks) out.push(`<text x="${X(t.at).toFixed(1)}" y="${y0 + H - M.b + 14}" font-size="10" text-anchor="middle">${esc(t.label)}</text>`);
  out.push(`<text x="${W - M.r}" y="${y0 + H - 4}" font-size="10" text-anchor="end">${esc(xLabel)}</text>`);
  out.push(`<text x="12" y="${y0 + M.t + ph / 2}" font-size="10" transform="rotate(-90 12 ${y0 + M.t + ph / 2})" text-anchor="middle">${esc(yLabel)}</text>`);
  out.push(`<rect x="${M.l}" y="${y0 + M.t}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
  series.forEach((s, i) => {
    if (s.points.length) {
      const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.8"/>`);
      if (s.points.length < 40) for (const p of s.points) out.push(`<circle cx="${X(p[0]).toFixed(1)}" cy="${Y(p[1]).toFixed(1)}" r="2.2" fill="${s.color}"/>`);
    }
    out.push(`<text x="${W - M.r - 8 - i * 90}" y="${y0 + 18}" font-size="11" text-anchor="end" fill="${s.color}">■ ${esc(s.name)}</text>`);
  });
  return out.join('\n');
}

function svg(height: number, body: string, title: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" font-family="sans-serif">\n<title>${esc(title)}</title>\n<rect width="100%" height="100%" fill="#fff"/>\n${body}\n</svg>\n`;
}

const pairs = (f: StressFacts, key: 'opRate' | 'p50Ms' | 'p99Ms'): [number, number][] =>
  f.intervals.flatMap((i, k) => (i[key] !== null && Number.isFinite(i[key]) ? [[i.timeS ?? k + 1, i[key]!] as [number, number]] : []));

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

/** Latency against percentile for the whole run, the x axis in "nines" (50, 90, 99, 99.9 …). */
export function distributionSvg(f: StressFacts, percentiles: Record<string, number | null>, title = `${f.tool} latency distribution`): string {
  const nines = (p: number) => -Math.log10(Math.max(1e-6, 1 - p / 100));
  const points = percentilePoints(percentiles).map(({ percentile, ms }) => [nines(percentile), ms] as [number, number]);
  const ticks = [50, 90, 99, 99.9, 99.99].filter((p) => points.length && nines(p) <= points.at(-1)![0] + 1e-9 && nines(p) >= points[0]![0] - 1e-9).map((p) => ({ at: nines(p), label: String(p) }));
  return svg(H, panel('Latency by percentile', 'ms', 'percentile', [{ name: 'latency', color: '#9467bd', points }], 0, ticks), title);
}

/** The percentiles a run's summary holds, for distributionSvg when the tool gives no full list. */
export function summaryPercentiles(f: StressFacts): Record<string, number | null> {
  return { '50': f.p50Ms, '95': f.p95Ms, '99': f.p99Ms, '99.9': f.p999Ms };
}
