/** /proc/vmstat: "name value" counters since boot; the window reads major faults and swap in/out (pages). PURE. */
import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';

export interface ProcVmstat {
  /** Major page faults (pages read from disk on access: mmapped SSTables, swapped-out heap). */
  pgmajfault: number | null;
  /** Pages swapped in and out. */
  pswpin: number | null;
  pswpout: number | null;
  /** Every counter as printed, for the ones not named above. */
  counters: Record<string, number>;
}

function parse(text: string): Parsed<ProcVmstat> {
  const counters: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^([a-z0-9_]+)\s+(\d+)\s*$/.exec(line.trim());
    if (m) counters[m[1]!] = Number(m[2]);
  }
  if (!Object.keys(counters).length) return unrecognized('proc-vmstat', 'no "name value" counter line');
  const c = (k: string) => counters[k] ?? null;
  return parsedOk('proc-vmstat', { pgmajfault: c('pgmajfault'), pswpin: c('pswpin'), pswpout: c('pswpout'), counters });
}

export const parseVmstat = total('proc-vmstat', parse);
