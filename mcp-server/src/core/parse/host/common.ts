/**
 * Pieces shared by the host-tool parsers (iostat, vmstat, sar, mpstat): the sysstat banner line, numbers as the
 * tools print them (locale commas, -h unit suffixes) and the time stamps that start report lines.
 */

/** "Linux 4.19.0-4-amd64 (kovacs) \t06/06/2019 \t_x86_64_\t(8 CPU)": printed once at the top by sysstat tools. */
export interface SysstatBanner {
  kernel: string;
  host: string;
  date: string | null;
  cpus: number | null;
  /** 1-based line of the banner in the text. */
  line: number;
}

/** Read by tokens, not one regex: a banner-like line with long blank runs must not cost quadratic time. */
export function parseBanner(line: string, lineNo: number): SysstatBanner | null {
  if (!/^\s*Linux\s/.test(line)) return null;
  const t = tokens(line);
  const host = /^\((.*)\)$/.exec(t[2] ?? '');
  if (t.length < 3 || !host) return null;
  const rest = t.slice(3);
  // "(8 CPU)" is split into "(8" and "CPU)" by the tokenizer.
  const cpuAt = rest.findIndex((x, i) => /^\(\d+$/.test(x) && rest[i + 1] === 'CPU)');
  const extra = rest.filter((x, i) => i !== cpuAt && i !== cpuAt + 1 && !/^_\w+_$/.test(x));
  if (extra.length > 1) return null;
  return { kernel: t[1]!, host: host[1]!, date: extra[0] ?? null, cpus: cpuAt >= 0 ? Number(rest[cpuAt]!.slice(1)) : null, line: lineNo };
}

const SUFFIX: Record<string, number> = { k: 1024, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

/**
 * A number as sysstat/procps print it: "12.50", "12,50" (a locale with decimal commas), "1.2k" (iostat -h
 * scales by 1024). Null for anything else, so a shifted or cut column is caught by the caller.
 */
export function num(token: string | undefined): number | null {
  if (token === undefined) return null;
  let t = token.trim();
  let scale = 1;
  const last = t.at(-1);
  if (last !== undefined && SUFFIX[last] !== undefined && /\d$/.test(t.slice(0, -1))) {
    scale = SUFFIX[last]!;
    t = t.slice(0, -1);
  }
  if (!/^-?\d+(?:[.,]\d+)?$/.test(t)) return null;
  const v = Number(t.replace(',', '.')) * scale;
  return Number.isFinite(v) ? v : null;
}

/** "11:44:01", "11:44:01 AM" or "11:44:01 PM" at the start of a sar/mpstat line; the rest of the line follows. */
export const TIME_PREFIX = /^(\d{1,2}:\d\d:\d\d(?:\s?[AP]M)?)\s+(.*)$/;

/** A line that is only a report time stamp (iostat -t): "06/06/2019 11:44:01 AM", "2019-06-06T11:44:01+0200". */
export const TIMESTAMP_LINE =
  /^\s*(\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}[ T]\d{1,2}:\d\d:\d\d(?:\s?[AP]M)?|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[+-]\d{4}|Z)?|\d{1,2}:\d\d:\d\d(?:\s?[AP]M)?)\s*$/;

export const tokens = (line: string): string[] =>
  line
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');

/** CPU time shares in percent, as every tool names them after normalisation (iostat/sar/mpstat/vmstat). */
export interface CpuShares {
  user: number | null;
  nice: number | null;
  system: number | null;
  iowait: number | null;
  irq: number | null;
  soft: number | null;
  steal: number | null;
  idle: number | null;
}

/** Column name (sar -u "%user", mpstat "%usr", vmstat "us") → CpuShares key. */
export const CPU_COLUMN: Record<string, keyof CpuShares> = {
  '%user': 'user',
  '%usr': 'user',
  us: 'user',
  '%nice': 'nice',
  '%system': 'system',
  '%sys': 'system',
  sy: 'system',
  '%iowait': 'iowait',
  wa: 'iowait',
  '%irq': 'irq',
  '%soft': 'soft',
  '%steal': 'steal',
  st: 'steal',
  '%idle': 'idle',
  id: 'idle',
};

export function cpuShares(cols: readonly string[], values: readonly (number | null)[]): CpuShares {
  const out: CpuShares = { user: null, nice: null, system: null, iowait: null, irq: null, soft: null, steal: null, idle: null };
  cols.forEach((c, i) => {
    const k = CPU_COLUMN[c];
    if (k !== undefined) out[k] = values[i] ?? null;
  });
  return out;
}

/** Whether a sysstat file writes dates day first (LC_TIME en_GB: 16/09/11) or month first (en_US: 09/16/11). */
export type DateOrder = 'dmy' | 'mdy';

const SLASH_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/;

/**
 * The order a file's dates are written in, from any of its dates (banner and -t stamps): a first field above 12
 * is a day, a second field above 12 is a day. When no date tells, month first (en_US, and what sperf's sysbottle
 * settles on for an ambiguous date).
 */
export function dateOrderOf(dates: readonly (string | null | undefined)[]): DateOrder {
  for (const d of dates) {
    const m = SLASH_DATE.exec((d ?? '').trim().split(/[ T]/)[0] ?? '');
    if (!m) continue;
    if (Number(m[1]) > 12) return 'dmy';
    if (Number(m[2]) > 12) return 'mdy';
  }
  return 'mdy';
}

/**
 * A sysstat time stamp (`iostat -t`, sar) as an ISO local date-time ("2011-09-16T19:01:10"; the offset kept when
 * printed): "09/16/2011 07:01:10 PM", "16/09/11 19:01:10", "2011-09-16T19:01:10+0000". Null for a time without a
 * date or an impossible date.
 */
export function stampIso(text: string, order: DateOrder): string | null {
  const iso = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(Z|[+-]\d{4})?$/.exec(text.trim());
  if (iso) {
    const [, y, mo, d, h, mi, s, z] = iso;
    return valid(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)) ? `${y}-${mo}-${d}T${h}:${mi}:${s}${z ?? ''}` : null;
  }
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})\s+(\d{1,2}):(\d\d):(\d\d)(?:\s?([AP]M))?$/i.exec(text.trim());
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  const [day, month] = order === 'dmy' ? [a, b] : [b, a];
  // Two-digit years are this century (sysstat prints %y for %x in some locales).
  const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  let hour = Number(m[4]);
  const ampm = m[7]?.toUpperCase();
  if (ampm && (hour < 1 || hour > 12)) return null;
  if (ampm === 'PM' && hour !== 12) hour += 12;
  if (ampm === 'AM' && hour === 12) hour = 0;
  const [mi, s] = [Number(m[5]), Number(m[6])];
  if (!valid(year, month, day, hour, mi, s)) return null;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${year}-${p(month)}-${p(day)}T${p(hour)}:${p(mi)}:${p(s)}`;
}

function valid(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}
