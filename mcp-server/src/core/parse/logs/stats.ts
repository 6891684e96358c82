/** Bounded-memory aggregates for the log accumulator: top-N, quantiles, time buckets, capped maps. */
import type { TimeBasis, Timeline } from './types.js';

/**
 * The N largest items by magnitude (ties keep the earlier one). N is small (5), so a sorted array beats a heap;
 * `wants` lets the caller skip building an example that would not get in.
 */
export class TopN<T extends { magnitude: number | null }> {
  readonly items: T[] = [];
  constructor(private readonly n: number) {}

  wants(magnitude: number): boolean {
    return this.items.length < this.n || magnitude > (this.items[this.items.length - 1]!.magnitude ?? -Infinity);
  }

  offer(item: T): void {
    const m = item.magnitude ?? -Infinity;
    if (!this.wants(m)) return;
    let i = this.items.length;
    while (i > 0 && (this.items[i - 1]!.magnitude ?? -Infinity) < m) i--;
    this.items.splice(i, 0, item);
    if (this.items.length > this.n) this.items.pop();
  }
}

/** The first N items offered. */
export class FirstN<T> {
  readonly items: T[] = [];
  constructor(private readonly n: number) {}
  get full(): boolean {
    return this.items.length >= this.n;
  }
  offer(item: T): void {
    if (this.items.length < this.n) this.items.push(item);
  }
}

const EXACT_LIMIT = 4096;
const LOG_BASE = Math.log(1.01);

/**
 * Quantiles over a stream: exact for the first 4096 values, then a log histogram with ~1% relative error
 * (the answer is a bucket's upper edge, never above the true maximum).
 */
export class Quantiles {
  private exact: number[] | null = [];
  private hist: Map<number, number> | null = null;
  private zeros = 0;
  count = 0;
  max = -Infinity;

  add(v: number): void {
    if (!Number.isFinite(v)) return;
    this.count++;
    if (v > this.max) this.max = v;
    if (this.exact) {
      this.exact.push(v);
      if (this.exact.length > EXACT_LIMIT) {
        const values = this.exact;
        this.exact = null;
        this.hist = new Map();
        for (const x of values) this.bucket(x);
      }
      return;
    }
    this.bucket(v);
  }

  private bucket(v: number): void {
    if (v <= 0) {
      this.zeros++;
      return;
    }
    const k = Math.ceil(Math.log(v) / LOG_BASE);
    this.hist!.set(k, (this.hist!.get(k) ?? 0) + 1);
  }

  /** Nearest-rank quantile, q in (0, 1]; 0 when empty. */
  quantile(q: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.count));
    if (this.exact) {
      const s = [...this.exact].sort((a, b) => a - b);
      return s[rank - 1]!;
    }
    if (rank <= this.zeros) return 0;
    let seen = this.zeros;
    const keys = [...this.hist!.keys()].sort((a, b) => a - b);
    for (const k of keys) {
      seen += this.hist!.get(k)!;
      if (seen >= rank) return Math.min(this.max, Math.exp(k * LOG_BASE));
    }
    return this.max;
  }
}

export const MINUTE = 60_000;
export const BUCKET_SIZES = [MINUTE, 5 * MINUTE, 60 * MINUTE, 24 * 60 * MINUTE] as const;
const MAX_LIVE_BUCKETS = 20_000;

/** Counts per time bucket; coarsens itself when it would hold too many buckets. */
export class BucketCounter {
  level = 0;
  private counts = new Map<number, number>();

  add(t: number): void {
    const size = BUCKET_SIZES[this.level]!;
    const k = Math.floor(t / size) * size;
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    if (this.counts.size > MAX_LIVE_BUCKETS && this.level < BUCKET_SIZES.length - 1) this.coarsen(this.level + 1);
  }

  coarsen(level: number): void {
    if (level <= this.level) return;
    const size = BUCKET_SIZES[level]!;
    const next = new Map<number, number>();
    for (const [k, n] of this.counts) {
      const nk = Math.floor(k / size) * size;
      next.set(nk, (next.get(nk) ?? 0) + n);
    }
    this.counts = next;
    this.level = level;
  }

  timeline(): Timeline {
    const buckets = [...this.counts.entries()].sort((a, b) => a[0] - b[0]).map(([t, n]) => ({ t, n }));
    return { bucketMs: BUCKET_SIZES[this.level]!, buckets };
  }
}

/** Bucket size from the span: ≤ 3 h → 1 min, ≤ 24 h → 5 min, ≤ 60 days → 1 h, longer → 1 day. */
export function bucketLevelForSpan(spanMs: number): number {
  if (spanMs <= 3 * 60 * MINUTE) return 0;
  if (spanMs <= 24 * 60 * MINUTE) return 1;
  if (spanMs <= 60 * 24 * 60 * MINUTE) return 2;
  return 3;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A timestamp in the given basis as text. Pure: formats the number it is given, reads no clock. */
export function formatLogTime(t: number | null, basis: TimeBasis): string | null {
  if (t === null || !Number.isFinite(t)) return null;
  if (basis === 'absolute') {
    const d = new Date(t);
    return Number.isNaN(d.getTime()) ? null : d.toISOString();
  }
  if (basis === 'no-year') {
    const d = new Date(t);
    const wrap = d.getUTCFullYear() > 2000 ? ` (+${d.getUTCFullYear() - 2000}y)` : '';
    return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)} (no year${wrap})`;
  }
  if (basis === 'uptime') return `+${(t / 1000).toFixed(3)}s`;
  return null;
}

/**
 * A copy of `s` that does not share memory with the string it was cut from. V8 substrings point into their parent,
 * so a 40-character table name kept in a map would otherwise pin the whole 1 MiB chunk it came from; everything
 * the accumulator keeps past the current line goes through here.
 */
export function detach(s: string): string {
  return (' ' + s).slice(1);
}

/** Cuts a line for an example (detached from its chunk). */
export function clip(line: string, max = 300): string {
  return detach(line.length > max ? line.slice(0, max) : line);
}
