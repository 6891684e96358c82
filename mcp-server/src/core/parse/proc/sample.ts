/**
 * One host sample: the output of `grep -H '' /proc/uptime /proc/diskstats /proc/stat /proc/vmstat /proc/loadavg`,
 * every line prefixed with its file, so one process reads all five at (nearly) one instant. PURE; never throws.
 */
import { parseDiskstats, type DiskCounters } from './diskstats.js';
import { parseLoadavg, parseUptime, type LoadAvg } from './loadavg.js';
import { parseProcStat, type ProcStat } from './stat.js';
import { parseVmstat, type ProcVmstat } from './vmstat.js';

export const PROC_SAMPLE_FILES = ['/proc/uptime', '/proc/diskstats', '/proc/stat', '/proc/vmstat', '/proc/loadavg'] as const;

export interface ProcSample {
  /** Seconds since boot on the host when it was read. */
  uptimeSeconds: number | null;
  disks: DiskCounters[] | null;
  stat: ProcStat | null;
  vm: ProcVmstat | null;
  load: LoadAvg | null;
  /** Files missing or not understood, with why. */
  unread: { file: string; why: string }[];
}

/** Splits "path:line" output by file (a line with no known prefix is ignored). */
export function splitByFile(text: string): Record<string, string> {
  const out: Record<string, string[]> = {};
  for (const line of text.split('\n')) {
    const f = PROC_SAMPLE_FILES.find((p) => line.startsWith(`${p}:`));
    if (f) (out[f] ??= []).push(line.slice(f.length + 1));
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.join('\n')]));
}

export function parseProcSample(text: string): ProcSample {
  const files = splitByFile(typeof text === 'string' ? text : '');
  const unread: ProcSample['unread'] = [];
  const read = <T>(file: string, parse: (t: string) => { ok: true; value: T } | { ok: false; reason: string }): T | null => {
    const t = files[file];
    if (t === undefined) {
      unread.push({ file, why: 'not in the output (missing or unreadable on the host)' });
      return null;
    }
    const r = parse(t);
    if (!r.ok) unread.push({ file, why: r.reason });
    return r.ok ? r.value : null;
  };
  return {
    uptimeSeconds: read('/proc/uptime', parseUptime),
    disks: read('/proc/diskstats', parseDiskstats),
    stat: read('/proc/stat', parseProcStat),
    vm: read('/proc/vmstat', parseVmstat),
    load: read('/proc/loadavg', parseLoadavg),
    unread,
  };
}
