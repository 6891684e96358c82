/**
 * A/B comparison of two stress runs on their interval samples: a bootstrap confidence interval of the ratio of
 * medians (B / A) for throughput and p99. PURE and deterministic (seeded generator), so a verdict can be re-derived.
 */
import type { StressFacts } from './facts.js';
import { median } from './facts.js';

export interface MetricComparison {
  metric: 'throughput' | 'p99';
  unit: 'op/s' | 'ms';
  /** Medians of the interval samples. */
  a: number;
  b: number;
  samplesA: number;
  samplesB: number;
  /** median(B) / median(A). */
  ratio: number;
  /** 95 % bootstrap interval of the ratio. */
  low: number;
  high: number;
  /** 'no significant difference' when the interval contains 1. */
  verdict: 'no significant difference' | 'higher' | 'lower';
}

export interface RunComparison {
  metrics: MetricComparison[];
  /** One sentence per metric, e.g. "throughput: B/A = 0.97 (95 % CI 0.93–1.01): no significant difference". */
  summary: string[];
  warnings: string[];
}

/** mulberry32: small, fast and good enough for resampling indexes. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function resampleMedian(xs: number[], rand: () => number): number {
  const s = new Array<number>(xs.length);
  for (let i = 0; i < xs.length; i++) s[i] = xs[Math.floor(rand() * xs.length)]!;
  return median(s)!;
}

export function bootstrapRatio(
  a: number[],
  b: number[],
  opts: { iterations?: number; seed?: number; confidence?: number } = {},
): { ratio: number; low: number; high: number } {
  const iterations = opts.iterations ?? 2000;
  const rand = rng(opts.seed ?? 42);
  const ratios: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const ma = resampleMedian(a, rand);
    if (ma > 0) ratios.push(resampleMedian(b, rand) / ma);
  }
  ratios.sort((x, y) => x - y);
  const alpha = (1 - (opts.confidence ?? 0.95)) / 2;
  const at = (q: number) => ratios[Math.min(ratios.length - 1, Math.max(0, Math.floor(q * ratios.length)))]!;
  return { ratio: median(b)! / median(a)!, low: at(alpha), high: at(1 - alpha) };
}

const MIN_SAMPLES = 5;

/** Compares B against A on their steady intervals (leading ramp intervals dropped by the caller or here). */
export function compareRuns(a: StressFacts, b: StressFacts, opts: { dropFirst?: number; seed?: number } = {}): RunComparison {
  const warnings: string[] = [];
  const drop = opts.dropFirst ?? 1;
  const series = (f: StressFacts, key: 'opRate' | 'p99Ms') =>
    f.intervals
      .slice(drop)
      .map((i) => i[key])
      .filter((v): v is number => v !== null && Number.isFinite(v));
  const metrics: MetricComparison[] = [];
  for (const [metric, key, unit] of [
    ['throughput', 'opRate', 'op/s'],
    ['p99', 'p99Ms', 'ms'],
  ] as const) {
    const xa = series(a, key);
    const xb = series(b, key);
    if (xa.length < MIN_SAMPLES || xb.length < MIN_SAMPLES) {
      warnings.push(`${metric}: too few interval samples (A ${xa.length}, B ${xb.length}; need ≥ ${MIN_SAMPLES}) for a bootstrap interval`);
      continue;
    }
    const r = bootstrapRatio(xa, xb, { seed: opts.seed ?? 42 });
    metrics.push({
      metric,
      unit,
      a: median(xa)!,
      b: median(xb)!,
      samplesA: xa.length,
      samplesB: xb.length,
      ratio: r.ratio,
      low: r.low,
      high: r.high,
      verdict: r.low <= 1 && r.high >= 1 ? 'no significant difference' : r.low > 1 ? 'higher' : 'lower',
    });
  }
  if (a.tool !== b.tool) warnings.push(`different tools (${a.tool} vs ${b.tool}): their latency definitions differ`);
  const f2 = (x: number) => x.toFixed(2);
  const summary = metrics.map(
    (m) =>
      `${m.metric}: median ${fmt(m.a)} → ${fmt(m.b)} ${m.unit}, B/A = ${f2(m.ratio)} (95 % CI ${f2(m.low)}–${f2(m.high)}): ${m.verdict === 'no significant difference' ? 'no significant difference (within noise)' : `B is significantly ${m.verdict}`}`,
  );
  return { metrics, summary, warnings };
}

function fmt(x: number): string {
  return x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1);
}
