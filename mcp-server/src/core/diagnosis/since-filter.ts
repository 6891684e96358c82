/**
 * `diagnose --since 2h`: only the log lines of the incident window reach the log reader. A line with a wall-clock
 * timestamp decides; the lines without one (stack traces, continuation lines, status tables) follow the entry they
 * belong to. Timestamps without a zone are the node's local time: they are compared as the tool's local time, as
 * the metrics window reads times without a zone. Files with JVM-uptime timestamps only (an old gc.log) cannot be
 * placed on the wall clock and are kept whole. Pure: text in, text out, the cut-off given by the caller.
 */
import { newHeader, newHeaderState, readHeader, resolveDate } from '../parse/logs/header.js';

export interface SinceCut {
  /** Unix milliseconds: lines before this are dropped. */
  sinceMs: number;
  /** The local zone's offset from UTC, for timestamps written without a zone. */
  utcOffsetMinutes: number;
}

export class SinceLineFilter {
  private readonly h = newHeader();
  private readonly st = newHeaderState();
  private partial = '';
  /** Whether the current entry is inside the window; before the first timestamp, kept (nothing decided it out). */
  private keep = true;
  dropped = 0;

  constructor(private readonly cut: SinceCut) {}

  /** The kept part of `text`; a last line without its newline waits for the next call. */
  push(text: string): string {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop()!;
    return lines
      .filter((l) => this.decide(l))
      .map((l) => `${l}\n`)
      .join('');
  }

  flush(): string {
    const rest = this.partial;
    this.partial = '';
    return rest !== '' && this.decide(rest) ? rest : '';
  }

  private decide(line: string): boolean {
    if (readHeader(line.endsWith('\r') ? line.slice(0, -1) : line, this.h, this.st)) {
      if (this.h.dateAt >= 0) resolveDate(line, this.h, this.st);
      if (this.h.basis === 'absolute' && Number.isFinite(this.h.t)) {
        // Unzoned times are read as if UTC (the log facts' convention): shift the cut-off into the same frame.
        const cut = this.h.hasZone ? this.cut.sinceMs : this.cut.sinceMs + this.cut.utcOffsetMinutes * 60_000;
        this.keep = this.h.t >= cut;
      }
    }
    if (!this.keep) this.dropped++;
    return this.keep;
  }
}
