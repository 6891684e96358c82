/**
 * Counters since the node started (dropped messages, all-time blocked tasks, a first gcstats call) are history,
 * not the present: each such finding says when its numbers hold. With a window they are measured over it (still
 * growing: "N in the 10 s window"; not growing: lowered one severity step, "since start, 3.2 days ago; none in
 * the window"); without one they are labelled "since start, N days ago" from the node's uptime. PURE.
 */
import type { Finding, Severity } from '../findings.js';
import type { NodeWindowRates } from './counter-rates.js';
import type { LogTimelines } from './status-logger.js';

/** Finding ids whose numbers are counters since start. */
export const SINCE_START_IDS = ['dropped.messages', 'threadpool.blocked-all-time'] as const;

export interface NodeClock {
  uptimeSeconds: number | null;
  /** nodetool gcstats' interval: since its previous call, which for a first call is the whole uptime. */
  gcIntervalMs: number | null;
}

export interface TimeContext {
  clocks: Record<string, NodeClock>;
  /** Rates over the window per node; absent for an instant diagnosis (bundle, paste, windowSeconds 0). */
  rates?: Record<string, NodeWindowRates>;
  windowSeconds?: number;
  /** Per node, the minute timelines of its log's events: they date log findings against each other. */
  logTimelines?: Record<string, LogTimelines>;
}

export function ago(seconds: number): string {
  if (seconds >= 86_400) return `${(seconds / 86_400).toFixed(1)} days ago`;
  if (seconds >= 3600) return `${(seconds / 3600).toFixed(1)} hours ago`;
  return `${Math.max(1, Math.round(seconds / 60))} min ago`;
}

const LOWER: Record<Severity, Severity> = { critical: 'warning', warning: 'info', info: 'info' };

function sinceStart(clock: NodeClock | undefined): string {
  return clock?.uptimeSeconds ? `since start, ${ago(clock.uptimeSeconds)}` : 'since start (uptime unknown)';
}

function inWindow(f: Finding, r: NodeWindowRates | undefined): Record<string, number> | null {
  if (!r) return null;
  return f.id === 'dropped.messages' ? r.droppedInWindow : r.blockedInWindow;
}

/** Labels every finding with when its numbers hold; since-start counters are measured over the window when one ran. */
export function labelTime(findings: Finding[], ctx: TimeContext): Finding[] {
  const windowed = ctx.rates !== undefined && (ctx.windowSeconds ?? 0) > 0;
  return findings.map((f): Finding => {
    const clock = f.node ? ctx.clocks[f.node] : undefined;
    if (f.id.startsWith('log.')) return { ...f, when: 'in the logs' };
    if ((SINCE_START_IDS as readonly string[]).includes(f.id)) {
      const label = sinceStart(clock);
      const moved = windowed ? inWindow(f, f.node ? ctx.rates![f.node] : undefined) : null;
      if (!moved) {
        return { ...f, when: label, title: `${f.title} (${label})`, evidence: [...f.evidence, `${f.node ?? '?'}: counted ${label}, not over a window`] };
      }
      const grew = Object.entries(moved).filter(([, v]) => v > 0);
      const s = ctx.windowSeconds!;
      if (!grew.length) {
        return {
          ...f,
          severity: LOWER[f.severity],
          when: label,
          title: `${f.title} (${label}; none in the ${s} s window)`,
          evidence: [...f.evidence, `${f.node}: no new ones in the ${s} s window: a past event, not the present`],
        };
      }
      const what = grew.map(([k, v]) => `${k} ${v}`).join(', ');
      const evidence = [`${f.node}: in the ${s} s window: ${what}`, ...f.evidence];
      return { ...f, when: 'window', title: `${f.title}; still rising: ${what} in the ${s} s window`, evidence };
    }
    if (f.id === 'jvm.gc.pause' && clock?.gcIntervalMs && clock.uptimeSeconds && clock.gcIntervalMs >= 0.9 * clock.uptimeSeconds * 1000) {
      const label = sinceStart(clock);
      return { ...f, when: label, title: `${f.title} (${label})` };
    }
    return { ...f, when: windowed ? 'window' : 'now' };
  });
}

/**
 * Whether two findings can be one incident in time: both measured now or over the window. A log's counts span
 * its whole file and a since-start counter the node's whole life: two such findings may be days apart, so they
 * are never chained on their totals alone.
 */
export function sameTime(a: Finding, b: Finding): boolean {
  const present = (w: string | undefined) => !w || w === 'now' || w === 'window';
  return present(a.when) && present(b.when);
}
