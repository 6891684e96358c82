/**
 * When did it change? One mean shift per series, found in O(n) from the CUSUM of the deviations from the overall
 * mean: the stretch between the CUSUM's minimum and maximum is the segment whose mean differs most from the rest
 * (the "epidemic" change model). If the stretch reaches the end of the window the change is still on; otherwise it
 * started and ended inside the window ("p99 went up at 02:13 and came back at 02:41").
 */
import { median } from './series.js';

export interface ChangePoint {
  /** Unix seconds of the first point of the changed stretch. */
  start: number;
  /** Unix seconds of the first point after it, or null when the change lasts to the end of the window. */
  end: number | null;
  /** Medians inside and outside the stretch. */
  during: number;
  baseline: number;
  direction: 'up' | 'down';
  /** |during − baseline| in robust standard deviations of the baseline. */
  score: number;
}

export interface ChangeOptions {
  /** Smallest shift that matters, as a fraction of the larger median (default 0.25: a 25 % move). */
  minRelative?: number;
  /** Smallest shift that matters in the series' unit (e.g. 1 ms of latency, 1 dropped message/s). */
  minAbsolute?: number;
  /** Robust standard deviations the shift must exceed (default 4). */
  minScore?: number;
}

/** 1.4826 × MAD estimates the standard deviation of normal data; robust to the spikes a change brings. */
function robustSd(values: number[]): number {
  if (values.length < 2) return 0;
  const m = median(values);
  return 1.4826 * median(values.map((v) => Math.abs(v - m)));
}

export function findChange(points: [number, number][], opts: ChangeOptions = {}): ChangePoint | null {
  const n = points.length;
  if (n < 6) return null;
  const values = points.map((p) => p[1]);
  const mean = values.reduce((a, b) => a + b, 0) / n;
  // C_k = sum_{i<k} (x_i - mean), k = 0..n; the segment [lo, hi) maximises |C_hi - C_lo|.
  let c = 0;
  let minK = 0;
  let maxK = 0;
  let minC = 0;
  let maxC = 0;
  for (let k = 1; k <= n; k++) {
    c += values[k - 1]! - mean;
    if (c < minC) [minC, minK] = [c, k];
    if (c > maxC) [maxC, maxK] = [c, k];
  }
  const lo = Math.min(minK, maxK);
  const hi = Math.max(minK, maxK);
  if (hi - lo < 2 || n - (hi - lo) < 3) return null;
  const inside = values.slice(lo, hi);
  const outside = [...values.slice(0, lo), ...values.slice(hi)];
  const during = median(inside);
  const baseline = median(outside);
  const shift = Math.abs(during - baseline);
  const sd = robustSd(outside);
  // A flat baseline has no spread: any shift is infinitely many σ; capped so the result stays finite JSON.
  const score = Math.min(1e6, sd > 0 ? shift / sd : shift > 0 ? 1e6 : 0);
  const minRelative = opts.minRelative ?? 0.25;
  if (shift < (opts.minAbsolute ?? 0) || shift < minRelative * Math.max(Math.abs(during), Math.abs(baseline)) || score < (opts.minScore ?? 4)) return null;
  // A stretch that starts the window is read the other way round: the change is at its end ("dropped at 02:13").
  if (lo === 0) {
    return { start: points[hi]![0], end: null, during: baseline, baseline: during, direction: baseline > during ? 'up' : 'down', score };
  }
  return { start: points[lo]![0], end: hi < n ? points[hi]![0] : null, during, baseline, direction: during > baseline ? 'up' : 'down', score };
}

/**
 * A 0/1 signal (a target answering its scrapes) is not a mean shift: a node that missed two scrapes when a load
 * started and was paused for 20 s a minute later has two dips, and the one segment CUSUM picks can span both and the
 * healthy minute between them, whose median is "answering" — no change at all. Here the change is the longest stretch
 * of points below `below` (one answered point between failed ones bridged: a JVM catching up answers one scrape and
 * misses the next), at least two points long.
 */
export function findOutage(points: [number, number][], below = 0.5): ChangePoint | null {
  const n = points.length;
  if (n < 6) return null;
  const failed = (i: number) => points[i]![1] < below;
  let best: [number, number] | null = null;
  for (let i = 0; i < n; i++) {
    if (!failed(i)) continue;
    let j = i + 1;
    while (j < n && (failed(j) || (j + 1 < n && failed(j + 1)))) j++;
    if (j - i >= 2 && (!best || j - i > best[1] - best[0])) best = [i, j];
    i = j;
  }
  if (!best) return null;
  const [lo, hi] = best;
  const inside = points.slice(lo, hi).map((p) => p[1]);
  const outside = [...points.slice(0, lo), ...points.slice(hi)].map((p) => p[1]);
  if (outside.length < 3) return null;
  const during = median(inside);
  const baseline = median(outside);
  if (baseline < below) return null; // mostly failing: there is no answering baseline to fall from
  const sd = robustSd(outside);
  const shift = Math.abs(during - baseline);
  const score = Math.min(1e6, sd > 0 ? shift / sd : 1e6);
  // down at the start of the window and back later: read as the other way round, like findChange
  if (lo === 0) return { start: points[hi]![0], end: null, during: baseline, baseline: during, direction: 'up', score };
  return { start: points[lo]![0], end: hi < n ? points[hi]![0] : null, during, baseline, direction: 'down', score };
}
