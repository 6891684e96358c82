import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { readSysstatTables, type SysstatTables } from './sysstat-table.js';

export const SAR_KIND = 'host.sar';

/** sar's sections by what they report: -u/-P (cpu), -d (disk), -r (memory), -B (paging), -q (queue), -W (swap). */
export type Sar = SysstatTables;

function parse(text: string): Parsed<Sar> {
  const t = readSysstatTables(text);
  if (t.sections.length === 0) {
    const want = 'a header such as "CPU %user …", "DEV tps …", "kbmemfree …" or "pgpgin/s …" and its rows';
    return unrecognized(SAR_KIND, `no time-stamped sar table (${want}) found`);
  }
  if (t.sections.every((s) => s.kind === 'other')) {
    const seen = t.sections.map((s) => s.columns.slice(0, 3).join(' ')).join('; ');
    return unrecognized(SAR_KIND, `sar sections found (${seen}) but none this tool reads (-u, -P, -d, -r, -B, -q, -W)`);
  }
  const warnings = t.skipped ? [`${t.skipped} time-stamped line(s) did not match their section's header and were skipped`] : [];
  return parsedOk(SAR_KIND, t, warnings);
}

/** `sar -u|-P ALL|-d|-r|-B|-q|-W [interval [count]]` or `sar -f saXX …`, sections and their Average: block. */
export const parseSar = total(SAR_KIND, parse);
