/**
 * A search over log lines with the time of each match (what sperf's `core bgrep` does): a dated line matches at its
 * own time; an undated line (a stack frame, a continuation) at the time of the last dated line before it, or
 * without a time when none came yet. Matches are counted per time bucket, with the first few kept as examples.
 * The matcher is given (core stays free of any regex engine: ops passes a linear-time one, since the pattern may
 * come from an MCP argument). PURE: lines in, counts out.
 */
import { newHeader, newHeaderState, readHeader, resolveDate } from './header.js';
import { formatLogTime } from './stats.js';
import type { TimeBasis } from './types.js';

export interface GrepExample {
  /** 1-based line number across everything pushed. */
  line: number;
  time: string | null;
  text: string;
}

export interface GrepResult {
  lines: number;
  /** Matching lines. */
  matches: number;
  /** Matching lines before any dated line (no time to give them). */
  undated: number;
  /** Distinct times with a match (sperf's count). */
  times: number;
  first: string | null;
  last: string | null;
  bucketSeconds: number;
  /** Matches per bucket, oldest first, only buckets with matches. */
  buckets: { start: string; matches: number }[];
  examples: GrepExample[];
}

const MAX_EXAMPLES = 20;
const MAX_EXAMPLE_CHARS = 400;
const MAX_BUCKETS = 1000;

export class LogGrep {
  private readonly h = newHeader();
  private readonly st = newHeaderState();
  private lineNo = 0;
  private lastT: number | null = null;
  private basis: TimeBasis = 'none';
  private matches = 0;
  private undated = 0;
  private readonly times = new Set<number>();
  private firstT: number | null = null;
  private lastMatchT: number | null = null;
  private readonly buckets = new Map<number, number>();
  private readonly examples: GrepExample[] = [];
  private rest = '';

  constructor(
    private readonly matches_: (line: string) => boolean,
    private readonly bucketSeconds = 3600,
  ) {}

  /** A chunk of text; lines may span chunks. */
  push(text: string): void {
    const all = this.rest + text;
    let start = 0;
    for (let nl = all.indexOf('\n'); nl >= 0; nl = all.indexOf('\n', start)) {
      this.line(all.slice(start, nl));
      start = nl + 1;
    }
    this.rest = all.slice(start);
  }

  end(): GrepResult {
    if (this.rest) this.line(this.rest);
    this.rest = '';
    const fmt = (t: number | null) => formatLogTime(t, this.basis);
    const buckets = [...this.buckets.entries()].sort((a, b) => a[0] - b[0]).map(([k, n]) => ({ start: fmt(k * this.bucketSeconds * 1000) ?? '?', matches: n }));
    return {
      lines: this.lineNo,
      matches: this.matches,
      undated: this.undated,
      times: this.times.size,
      first: fmt(this.firstT),
      last: fmt(this.lastMatchT),
      bucketSeconds: this.bucketSeconds,
      buckets,
      examples: this.examples,
    };
  }

  private line(raw: string): void {
    const s = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    this.lineNo++;
    const h = this.h;
    if (readHeader(s, h, this.st)) {
      if (h.dateAt >= 0) resolveDate(s, h, this.st);
      if (Number.isFinite(h.t)) {
        this.lastT = h.t;
        if (h.basis !== 'none') this.basis = h.basis;
      }
    }
    if (!this.matches_(s)) return;
    this.matches++;
    const t = this.lastT;
    if (t === null) this.undated++;
    else {
      this.times.add(t);
      if (this.firstT === null || t < this.firstT) this.firstT = t;
      if (this.lastMatchT === null || t > this.lastMatchT) this.lastMatchT = t;
      const k = Math.floor(t / 1000 / this.bucketSeconds);
      if (this.buckets.has(k) || this.buckets.size < MAX_BUCKETS) this.buckets.set(k, (this.buckets.get(k) ?? 0) + 1);
    }
    if (this.examples.length < MAX_EXAMPLES) {
      this.examples.push({
        line: this.lineNo,
        time: formatLogTime(t, this.basis),
        text: s.length > MAX_EXAMPLE_CHARS ? `${s.slice(0, MAX_EXAMPLE_CHARS)} …` : s,
      });
    }
  }
}
