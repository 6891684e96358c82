/**
 * Safepoint stops while a node was still starting. A JVM that has just started (class loading, JIT, deoptimisation)
 * on a busy host can take hundreds of milliseconds to reach a safepoint; that says nothing about the running node.
 * A stop is "start-up" when it falls between a boot and the first ready line after it, both read from the input:
 *   boot  = a "JVM Arguments:" line (system.log) or, on a gc.log line, its timestamp minus its uptime decorator;
 *   ready = "Startup complete" (Cassandra 4.0+) or "Starting listening for CQL clients" (3.x on).
 * Wording checked in the lab's 4.1 and 5.0 system.log:
 *   "INFO  [main] 2026-11-24 20:04:20,437 PipelineConfigurator.java:148 - Starting listening for CQL clients on /127.0.8.1:9042 (unencrypted)..."
 *   "INFO  [main] 2026-11-24 20:04:20,478 CassandraDaemon.java:744 - Startup complete"
 * Without a ready line after the boot nothing is set aside (a gc.log read alone, or a node that never came up).
 */
import type { LogExample } from './types.js';

/** Stops shorter than this to reach the safepoint are never graded, so they need not be remembered. */
export const STARTUP_TTSP_FLOOR_MS = 50;
const CAP = 20_000;

interface Stop {
  t: number;
  boot: number | null;
  ttspMs: number;
  stoppedMs: number;
  example: LogExample;
}

export interface StartupStops {
  /** Stops set aside as start-up ones (time to safepoint ≥ STARTUP_TTSP_FLOOR_MS). */
  count: number;
  maxTtspMs: number;
  /** Of those, stops where reaching the safepoint took at least half the stop. */
  ttspDominated: number;
  /** The steady state: the longest time to safepoint of the stops kept (≥ the floor; 0 when none). */
  steadyMaxTtspMs: number;
  /** Top 5 steady stops by time to safepoint. */
  steadyWorstTtsp: LogExample[];
}

/** Seconds of JVM uptime from a unified-logging header "[2026-11-24T20:04:17.546+0000][21.593s]…", else null. */
export function gcLineUptimeMs(line: string): number | null {
  const m = /^\[[^\]]{1,40}\]\[(\d{1,9}(?:\.\d{1,6})?)s\]/.exec(line);
  return m ? Number(m[1]) * 1000 : null;
}

export function isReadyLine(s: string, msgStart: number): boolean {
  return s.startsWith('Startup complete', msgStart) || s.startsWith('Starting listening for CQL clients', msgStart);
}

export class StartupWindows {
  private readonly boots: number[] = [];
  private readonly readies: number[] = [];
  private readonly stops: Stop[] = [];
  private dropped = 0;

  boot(t: number | null): void {
    if (t !== null && this.boots.length < CAP) this.boots.push(t);
  }

  ready(t: number | null): void {
    if (t !== null && this.readies.length < CAP) this.readies.push(t);
  }

  /** A safepoint stop; only those long enough to matter are kept, with their JVM's boot time when the line tells. */
  stop(t: number | null, line: string, ttspMs: number, stoppedMs: number, example: () => LogExample): void {
    if (t === null || ttspMs < STARTUP_TTSP_FLOOR_MS) return;
    if (this.stops.length >= CAP) {
      this.dropped++;
      return;
    }
    const up = gcLineUptimeMs(line);
    // Built now: the example names the file and node being read at this line.
    this.stops.push({ t, boot: up === null ? null : t - up, ttspMs, stoppedMs, example: example() });
  }

  /** Null when no stop fell in a start-up window (the facts then stay as they were read). */
  result(): StartupStops | null {
    if (!this.readies.length || !this.stops.length || this.dropped > 0) return null;
    const readies = [...this.readies].sort((a, b) => a - b);
    const boots = [...this.boots].sort((a, b) => a - b);
    // gc.log timestamps are to the millisecond, its uptime to the millisecond too: a second of slack either way.
    const SLACK = 1000;
    const startup: Stop[] = [];
    const steady: Stop[] = [];
    for (const s of this.stops) {
      const boot = s.boot ?? lastAtOrBefore(boots, s.t);
      const ready = boot === null ? undefined : readies[firstAtOrAfter(readies, boot - SLACK)];
      (ready !== undefined && s.t < ready ? startup : steady).push(s);
    }
    if (!startup.length) return null;
    const worst = [...steady].sort((a, b) => b.ttspMs - a.ttspMs).slice(0, 5);
    return {
      count: startup.length,
      maxTtspMs: Math.max(...startup.map((s) => s.ttspMs)),
      ttspDominated: startup.filter((s) => s.ttspMs * 2 >= s.stoppedMs).length,
      steadyMaxTtspMs: worst[0]?.ttspMs ?? 0,
      steadyWorstTtsp: worst.map((s) => s.example),
    };
  }
}

/** Index of the first value ≥ t in an ascending list (its length when none): binary search, so a log with many
 * restarts stays linear-logarithmic. */
function firstAtOrAfter(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lastAtOrBefore(sorted: readonly number[], t: number): number | null {
  const i = firstAtOrAfter(sorted, t);
  // i is the first ≥ t; the last ≤ t is i itself when equal, else the one before.
  if (i < sorted.length && sorted[i] === t) return t;
  return i > 0 ? sorted[i - 1]! : null;
}
