import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { readSysstatTables, type SysstatTables } from './sysstat-table.js';

export const MPSTAT_KIND = 'host.mpstat';

export interface Mpstat extends SysstatTables {
  /**
   * true: one report and no Average: block under the banner, i.e. `mpstat` without an interval, whose numbers
   * are averages since boot. null when the banner is missing and there is a single report (cannot tell).
   */
  sinceBoot: boolean | null;
}

function parse(text: string): Parsed<Mpstat> {
  const t = readSysstatTables(text);
  const cpu = t.sections.filter((s) => s.kind === 'cpu');
  // mpstat names the shares %usr/%sys and always prints %irq/%soft; anything else in the paste makes it sar.
  if (cpu.length === 0 || cpu.length !== t.sections.length || !cpu.every((s) => s.columns.includes('%usr') && s.columns.includes('%soft'))) {
    return unrecognized(MPSTAT_KIND, 'no mpstat CPU table ("CPU %usr %nice %sys %iowait %irq %soft … %idle") found');
  }
  const rows = cpu.flatMap((s) => s.rows);
  const times = new Set(rows.filter((r) => r.time !== 'Average').map((r) => r.time));
  const hasAverage = rows.some((r) => r.time === 'Average');
  const sinceBoot = times.size === 1 && !hasAverage ? (t.banner ? true : null) : false;
  const warnings = t.skipped ? [`${t.skipped} time-stamped line(s) did not match the header and were skipped`] : [];
  return parsedOk(MPSTAT_KIND, { ...t, sinceBoot }, warnings);
}

/** `mpstat [-P ALL|list] [interval [count]]`: per-CPU shares, the Average: block, since-boot single report labelled. */
export const parseMpstat = total(MPSTAT_KIND, parse);
