/**
 * The time window of a metrics question: `--last 2h`, `--around 02:13` (± a margin), or `--from … --to …`.
 * Pure: "now" and the user's UTC offset are given by the caller (the CLI takes them from its own clock and TZ).
 */
import { OpError } from '../errors.js';

export interface WindowSpec {
  last?: string;
  around?: string;
  /** Half-width of an `around` window, e.g. "15m" (default 15 minutes). */
  margin?: string;
  from?: string;
  to?: string;
}

export interface MetricsWindow {
  /** Unix seconds. */
  start: number;
  end: number;
  /** Query resolution in seconds: at most MAX_POINTS points per series, never finer than the scrape interval. */
  step: number;
  /** How the window was asked for, for the report ("last 2h", "around 02:13 ± 15m"). */
  label: string;
}

/** Enough points to see a change of one scrape interval in an hour; a day at 15 s would be 5,760 points. */
export const MAX_POINTS = 720;
const MAX_RANGE_S = 31 * 24 * 3600;
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 7 * 86400 };

/** "90s", "15m", "2h", "1d", "1h30m" -> seconds; null when not a duration. */
export function parseDuration(text: string): number | null {
  const t = text.trim();
  if (!/^(?:\d+(?:\.\d+)?[smhdw])+$/.test(t)) return null;
  let total = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)([smhdw])/g)) total += Number(m[1]) * UNITS[m[2]!]!;
  return total > 0 ? Math.round(total) : null;
}

const badWindow = (what: string) =>
  new OpError('BAD_WINDOW', what, 'Give one of: --last 2h, --around 02:13 (or an ISO time, with --margin 15m), --from <ISO time> --to <ISO time>.');

/**
 * A point in time: ISO 8601 (with or without zone; without one it is the user's local time), unix seconds, or a
 * clock time "HH:MM[:SS]" meaning its latest occurrence at or before now in the user's local time.
 */
export function parseInstant(text: string, nowS: number, utcOffsetMinutes: number): number | null {
  const t = text.trim();
  if (/^\d{9,11}(?:\.\d+)?$/.test(t)) return Math.floor(Number(t));
  const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (clock) {
    const [h, m, s] = [Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0)];
    if (h > 23 || m > 59 || s > 59) return null;
    const localNow = nowS + utcOffsetMinutes * 60;
    const dayStart = Math.floor(localNow / 86400) * 86400;
    let local = dayStart + h * 3600 + m * 60 + s;
    if (local > localNow) local -= 86400;
    return local - utcOffsetMinutes * 60;
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(t);
  if (!iso) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(iso[i] ?? 0)) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const utc = Date.UTC(y, mo - 1, d, h, mi, s) / 1000;
  const zone = iso[7];
  if (zone === undefined) return utc - utcOffsetMinutes * 60;
  if (zone === 'Z') return utc;
  const zm = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
  const offset = (zm[1] === '-' ? -1 : 1) * (Number(zm[2]) * 60 + Number(zm[3]));
  return utc - offset * 60;
}

export function resolveWindow(spec: WindowSpec, nowS: number, utcOffsetMinutes = 0, scrapeIntervalS = 15): MetricsWindow {
  const given = [spec.last !== undefined, spec.around !== undefined, spec.from !== undefined || spec.to !== undefined].filter(Boolean).length;
  if (given !== 1) throw badWindow(given === 0 ? 'No time window was given.' : 'Give only one way of naming the window.');
  let start: number;
  let end: number;
  let label: string;
  if (spec.last !== undefined) {
    const d = parseDuration(spec.last);
    if (d === null) throw badWindow(`--last ${JSON.stringify(spec.last)} is not a duration such as 30m, 2h or 1d.`);
    [start, end, label] = [nowS - d, nowS, `last ${spec.last}`];
  } else if (spec.around !== undefined) {
    const at = parseInstant(spec.around, nowS, utcOffsetMinutes);
    if (at === null) throw badWindow(`--around ${JSON.stringify(spec.around)} is not a time such as 02:13 or 2026-11-24T02:13:00Z.`);
    const margin = spec.margin === undefined ? 900 : parseDuration(spec.margin);
    if (margin === null) throw badWindow(`--margin ${JSON.stringify(spec.margin)} is not a duration such as 15m.`);
    [start, end, label] = [at - margin, Math.min(at + margin, nowS), `around ${spec.around} ± ${spec.margin ?? '15m'}`];
  } else {
    if (spec.from === undefined) throw badWindow('--to needs --from.');
    const from = parseInstant(spec.from, nowS, utcOffsetMinutes);
    const to = spec.to === undefined ? nowS : parseInstant(spec.to, nowS, utcOffsetMinutes);
    if (from === null) throw badWindow(`--from ${JSON.stringify(spec.from)} is not a time.`);
    if (to === null) throw badWindow(`--to ${JSON.stringify(spec.to)} is not a time.`);
    [start, end, label] = [from, Math.min(to, nowS), `from ${spec.from} to ${spec.to ?? 'now'}`];
  }
  if (end <= start)
    throw badWindow(`The window is empty: it ends (${new Date(end * 1000).toISOString()}) before it starts (${new Date(start * 1000).toISOString()}).`);
  if (end - start > MAX_RANGE_S) throw badWindow(`The window spans ${Math.round((end - start) / 86400)} days; at most 31 days are read at once.`);
  const step = Math.max(scrapeIntervalS, Math.ceil((end - start) / MAX_POINTS));
  return { start, end, step, label };
}
