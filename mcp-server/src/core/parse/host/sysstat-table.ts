import { splitLines } from '../../text.js';
import { num, parseBanner, TIME_PREFIX, tokens, type SysstatBanner } from './common.js';

/**
 * The time-stamped tables that sar and mpstat print: a header row ("11:44:01 AM  CPU  %user …"), rows with the
 * same time prefix, and an "Average:" block at the end. One reader for both tools; sar.ts and mpstat.ts decide
 * what the sections mean.
 */
export type SectionKind = 'cpu' | 'disk' | 'memory' | 'paging' | 'queue' | 'swap' | 'other';

export interface TableRow {
  line: number;
  /** The row's time stamp, or "Average" for the Average: block. */
  time: string;
  /** The key column (CPU number or "all", device name) when the section has one. */
  key: string | null;
  values: Record<string, number>;
}

export interface TableSection {
  kind: SectionKind;
  /** The key column's name ("CPU", "DEV", "IFACE") or null. */
  keyColumn: string | null;
  columns: string[];
  line: number;
  rows: TableRow[];
}

export interface SysstatTables {
  banner: SysstatBanner | null;
  sections: TableSection[];
  skipped: number;
}

const KEY_COLUMNS = new Set(['CPU', 'DEV', 'IFACE', 'INTR', 'TTY', 'FILESYSTEM', 'BUS', 'TEMP', 'FAN', 'NODE']);

function kindOf(keyColumn: string | null, cols: readonly string[]): SectionKind {
  if (keyColumn === 'CPU' && cols.includes('%idle')) return 'cpu';
  if (keyColumn === 'DEV' && cols.includes('tps')) return 'disk';
  if (cols.includes('kbmemfree')) return 'memory';
  if (cols.includes('pgpgin/s')) return 'paging';
  if (cols.includes('runq-sz')) return 'queue';
  if (cols.includes('pswpin/s')) return 'swap';
  return 'other';
}

const isHeaderToken = (t: string) => num(t) === null;

export function readSysstatTables(text: string): SysstatTables {
  const lines = splitLines(text);
  let banner: SysstatBanner | null = null;
  const byHeader = new Map<string, TableSection>();
  const sections: TableSection[] = [];
  let cur: TableSection | null = null;
  let skipped = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') {
      cur = null;
      continue;
    }
    if (banner === null) {
      const b = parseBanner(raw, i + 1);
      if (b) {
        banner = b;
        continue;
      }
    }
    let time: string;
    let rest: string;
    const avg = /^(Average|Summary):\s+(.*)$/.exec(raw);
    const tm = avg ? null : TIME_PREFIX.exec(raw);
    if (avg) [time, rest] = ['Average', avg[2]!];
    else if (tm) [time, rest] = [tm[1]!, tm[2]!];
    else continue;
    const t = tokens(rest);
    if (t.length === 0 || /RESTART/.test(rest)) continue;
    if (t.every(isHeaderToken)) {
      const keyColumn = KEY_COLUMNS.has(t[0]!) ? t[0]! : null;
      const cols = keyColumn ? t.slice(1) : t;
      const sig = `${keyColumn ?? ''}|${cols.join(' ')}`;
      cur = byHeader.get(sig) ?? null;
      if (!cur) {
        cur = { kind: kindOf(keyColumn, cols), keyColumn, columns: cols, line: i + 1, rows: [] };
        byHeader.set(sig, cur);
        sections.push(cur);
      }
      continue;
    }
    if (!cur) {
      skipped++;
      continue;
    }
    const key = cur.keyColumn ? t[0]! : null;
    const valueTokens = cur.keyColumn ? t.slice(1) : t;
    if (valueTokens.length !== cur.columns.length) {
      skipped++;
      continue;
    }
    const vals = valueTokens.map(num);
    if (vals.some((v) => v === null)) {
      skipped++;
      continue;
    }
    const values: Record<string, number> = {};
    cur.columns.forEach((c, k) => (values[c] = vals[k]!));
    cur.rows.push({ line: i + 1, time, key, values });
  }
  return { banner, sections: sections.filter((s) => s.rows.length > 0), skipped };
}
