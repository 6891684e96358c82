/** A time series as read from a Prometheus-compatible API, and its token-budgeted summary. */
export interface Series {
  labels: Record<string, string>;
  /** [unix seconds, value]; NaN and ±Inf are dropped when the series is read. */
  points: [number, number][];
}

export interface SeriesSummary {
  min: number;
  median: number;
  p99: number;
  max: number;
  last: number;
  points: number;
  /** Steps with no sample (scrape failures, a node down) inside the window. */
  gaps: number;
}

function quantileSorted(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function median(values: number[]): number {
  return quantileSorted(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** Summary of one series; null when it has no point. `step` counts the gaps. */
export function summarise(points: [number, number][], step: number): SeriesSummary | null {
  if (points.length === 0) return null;
  const values = points.map((p) => p[1]);
  const sorted = [...values].sort((a, b) => a - b);
  let gaps = 0;
  for (let i = 1; i < points.length; i++) gaps += Math.max(0, Math.round((points[i]![0] - points[i - 1]![0]) / step) - 1);
  return {
    min: sorted[0]!,
    median: quantileSorted(sorted, 0.5),
    p99: quantileSorted(sorted, 0.99),
    max: sorted[sorted.length - 1]!,
    last: values[values.length - 1]!,
    points: points.length,
    gaps,
  };
}
