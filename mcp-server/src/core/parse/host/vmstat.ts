import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { splitLines } from '../../text.js';
import { cpuShares, num, TIME_PREFIX, tokens, type CpuShares } from './common.js';

export const VMSTAT_KIND = 'host.vmstat';

/** One vmstat sample row. Memory in the units printed (KiB unless -S was given); si/so/bi/bo per second. */
export interface VmstatRow {
  line: number;
  /** The first row under the first header: averages since boot (r and b are instantaneous even there). */
  sinceBoot: boolean;
  /** -t time stamp ("2019-06-06 11:44:01") or a collector's leading "HH:MM:SS"; null without either. */
  time: string | null;
  running: number | null;
  blocked: number | null;
  swpd: number | null;
  free: number | null;
  swapInPerS: number | null;
  swapOutPerS: number | null;
  blocksInPerS: number | null;
  blocksOutPerS: number | null;
  interruptsPerS: number | null;
  contextSwitchesPerS: number | null;
  cpu: CpuShares;
  values: Record<string, number>;
}

export interface Vmstat {
  columns: string[];
  /** -w (wide) output: same columns, wider. Told apart by nothing but spacing, so not reported. */
  timestamped: boolean;
  rows: VmstatRow[];
  /** Whether the "procs ---memory---" group line (vmstat's first line) is in the paste. */
  startSeen: boolean;
}

const COLUMN_LINE = /^\s*(?:\S+\s+)?r\s+b\s+swpd\s+free\s+(?:buff\s+cache|inact\s+active)\s+si\s+so\s+bi\s+bo\s+in\s+cs\s+us\s+sy\s+id\b/;
const GROUP_LINE = /^\s*(?:\S+\s+)?procs\s+-+memory/;
/** procps repeats the header after a screenful (at least this many rows); a header sooner starts another run. */
const REPEAT_MIN_ROWS = 10;
/** A line of numbers only: a sample row seen before its header. */
const NUMERIC_ROW = /^[ \t]*\d+(?:[ \t]+\d+){10,}[ \t]*$/;
/** The column line cut short ("r  b   swpd   free   buff  cac"). */
const PARTIAL_COLUMNS = /^[ \t]*r[ \t]+b[ \t]+swpd\b/;
/** procps vmstat's default columns, and with -a (inactive/active memory instead of buffers/cache). */
const STANDARD_LAYOUT = ['r', 'b', 'swpd', 'free', 'buff', 'cache', 'si', 'so', 'bi', 'bo', 'in', 'cs', 'us', 'sy', 'id', 'wa', 'st'];
const ACTIVE_LAYOUT = ['r', 'b', 'swpd', 'free', 'inact', 'active', 'si', 'so', 'bi', 'bo', 'in', 'cs', 'us', 'sy', 'id', 'wa', 'st'];
const KNOWN = new Set(['r', 'b', 'swpd', 'free', 'buff', 'cache', 'inact', 'active', 'si', 'so', 'bi', 'bo', 'in', 'cs', 'us', 'sy', 'id', 'wa', 'st', 'gu']);

function parse(text: string): Parsed<Vmstat> {
  const lines = splitLines(text);
  let columns: string[] = [];
  let timestamped = false;
  let startSeen = false;
  let headerCount = 0;
  let rowsSinceHeader = 0;
  let newRun = false;
  const rows: VmstatRow[] = [];
  let skipped = 0;
  /** Line indexes of sample rows seen before any header. */
  const pending: number[] = [];
  let partialHeader: string | null = null;
  let assumedLayout = false;
  /** One sample row under `columns`; false when the line is not one (too few values, a word among them). */
  const addRow = (i: number, raw: string, columns: string[], first: boolean): boolean => {
    let t = tokens(raw);
    let time: string | null = null;
    const lead = TIME_PREFIX.exec(raw.trim());
    if (lead && t.length > columns.length && /:/.test(t[0]!)) {
      time = lead[1]!;
      t = tokens(lead[2]!);
    }
    if (t.length < columns.length) return false;
    const vals = t.slice(0, columns.length).map(num);
    if (vals.some((v) => v === null)) return false;
    const rest = t.slice(columns.length);
    if (rest.length) time = rest.join(' ');
    const v: Record<string, number> = {};
    columns.forEach((c, k) => (v[c] = vals[k]!));
    rows.push({
      line: i + 1,
      sinceBoot: first,
      time,
      running: v.r ?? null,
      blocked: v.b ?? null,
      swpd: v.swpd ?? null,
      free: v.free ?? null,
      swapInPerS: v.si ?? null,
      swapOutPerS: v.so ?? null,
      blocksInPerS: v.bi ?? null,
      blocksOutPerS: v.bo ?? null,
      interruptsPerS: v.in ?? null,
      contextSwitchesPerS: v.cs ?? null,
      cpu: cpuShares(columns, vals),
      values: v,
    });
    return true;
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    if (GROUP_LINE.test(raw)) {
      if (headerCount === 0) startSeen = true;
      if (/timestamp/.test(raw)) timestamped = true;
      continue;
    }
    if (COLUMN_LINE.test(raw)) {
      const t = tokens(raw);
      // "--time--" style collector column or a trailing time-zone column (-t) are not vmstat values.
      const start = t.indexOf('r');
      const cols = t.slice(start).filter((c) => KNOWN.has(c));
      if (t.length > start + cols.length) timestamped = true;
      // A header again after a few rows is a new vmstat run pasted below the first (vmstat repeats its header only
      // every screenful): its first row is since boot too. Rows pasted above the first header count as that run's
      // rows: after a screenful of them this header is vmstat's repeat and the row under it a live sample.
      newRun = (headerCount === 0 ? pending.length : rowsSinceHeader) < REPEAT_MIN_ROWS;
      columns = cols;
      headerCount++;
      rowsSinceHeader = 0;
      if (pending.length) {
        // the header below them names their columns too (same run, so none of them is since boot)
        for (const k of pending) if (!addRow(k, lines[k]!, columns, false)) skipped++;
        pending.length = 0;
      }
      continue;
    }
    if (columns.length === 0) {
      // rows above the first header: a paste that starts mid-run (vmstat repeats its header each screenful)
      if (NUMERIC_ROW.test(raw)) pending.push(i);
      else if (PARTIAL_COLUMNS.test(raw)) partialHeader = raw;
      continue;
    }
    const first = newRun && rowsSinceHeader === 0;
    if (addRow(i, raw, columns, first)) rowsSinceHeader++;
    else skipped++;
  }
  // No full header at all: the standard layout, when a cut header or the group line says this is vmstat and every
  // row has its 17 values (18 with procps 4's "gu").
  if (columns.length === 0 && pending.length && (startSeen || partialHeader !== null)) {
    const n = tokens(lines[pending[0]!]!).length;
    const layout = partialHeader !== null && /\binact\b/.test(partialHeader) ? ACTIVE_LAYOUT : STANDARD_LAYOUT;
    if ((n === 17 || n === 18) && pending.every((k) => tokens(lines[k]!).length === n)) {
      columns = n === 18 ? [...layout, 'gu'] : layout;
      for (const k of pending) addRow(k, lines[k]!, columns, false);
      assumedLayout = true;
    }
  }
  if (rows.length === 0) {
    return unrecognized(VMSTAT_KIND, columns.length ? 'the vmstat header has no sample rows under it' : 'no "r b swpd free … us sy id" header found');
  }
  const warnings = skipped ? [`${skipped} line(s) under the header were not sample rows and were skipped`] : [];
  if (assumedLayout)
    warnings.push(
      `no complete column header: the ${rows.length} rows were read with vmstat's default columns (${columns.join(' ')}), as each has ${columns.length} values`,
    );
  return parsedOk(VMSTAT_KIND, { columns, timestamped, rows, startSeen }, warnings);
}

/** `vmstat [-w] [-t] [-a] [delay [count]]`; the first row (since boot) is labelled when the paste starts at vmstat's top. */
export const parseVmstat = total(VMSTAT_KIND, parse);
