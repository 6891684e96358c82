/**
 * `jstat -gc | -gcutil | -gccause | -gccapacity … <pid> [interval [count]]` (JDK 7 to 25): one header row of column
 * names, then one row per sample; `-t` adds a Timestamp column (seconds since the JVM started), `-h N` repeats the
 * header. Column meanings are the JDK's own (jdk.jcmd sun/tools/jstat/resources/jstat_options, JDK 17.0.15):
 * YGC/YGCT collector 0, FGC/FGCT collector 1 ("Full Collections"), CGC/CGCT collector 2 ("Concurrent Collections
 * (STW phase)", JDK 9+), GCT their sum, in seconds; capacities in KB; -gcutil's S0…CCS in %. A collector without a
 * concurrent phase (Parallel) prints "-" under CGC/CGCT. The `jstat …` command line, when pasted, gives the
 * interval. PURE and total.
 */
import { total, unrecognized } from '../../parsed.js';
import { splitLines } from '../../text.js';

export const JSTAT_KIND = 'jvm.jstat';

export interface JstatSample {
  line: number;
  /** -t: seconds since the JVM started (its column is "Timestamp"; a blog's copy shows "Time"). */
  uptimeS: number | null;
  /** Column → value (null for "-"); times in seconds, sizes in KB, -gcutil shares in %. */
  values: Record<string, number | null>;
  /** -gccause: the cause of the last collection and of the one under way ("No GC"). */
  lastCause: string | null;
  cause: string | null;
  /** A line that is not a sample (a "..." the paste cut in, a row that did not fit) came since the sample before. */
  afterGap: boolean;
}

export interface Jstat {
  /** Which jstat option printed it, judged by its columns. */
  option: 'gc' | 'gcutil' | 'gccause' | 'gccapacity' | 'gcnew' | 'gcnewcapacity' | 'other';
  columns: string[];
  /** CGC/CGCT present: JDK 9+, where FGC counts full collections only. */
  concurrentColumns: boolean;
  /** PC/PU or P: JDK 7 and older (permanent generation). */
  permGen: boolean;
  /** From a pasted `jstat … <pid> <interval>` command line (ms). */
  intervalMs: number | null;
  command: string | null;
  samples: JstatSample[];
  /** Rows whose values did not fit the header (cut or wrapped lines), left out. */
  skipped: number;
}

// Every column name jstat prints for its GC options (jstat_options, JDK 7–25).
const COLUMNS = new Set(
  (
    'Timestamp Time S0C S1C S0U S1U EC EU OC OU MC MU CCSC CCSU PC PU YGC YGCT FGC FGCT CGC CGCT GCT S0 S1 E O M CCS P LGCC GCC ' +
    'NGCMN NGCMX NGC S0CMX S1CMX ECMX OGCMN OGCMX OGC MCMN MCMX CCSMN CCSMX PGCMN PGCMX PGC TT MTT DSS'
  ).split(' '),
);

const NUMBER = /^-?\d+(?:[.,]\d+)?$/;

/** "0,00" under a locale with a decimal comma reads as 0.00; "-" is a column this collector does not have. */
function value(t: string): number | null | undefined {
  if (t === '-') return null;
  if (!NUMBER.test(t)) return undefined;
  return Number(t.replace(',', '.'));
}

/** Interval from "jstat -gcutil -t 1234 1000 10" / "… 1234 1s" / "… 1234 250ms" (jstat reads a bare number as ms). */
function intervalOf(args: string[]): number | null {
  // "-h 5" may be two words (jstat takes both forms): its count is not the vmid
  const rest = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '-h');
  // the first non-option is the vmid; the next, when there, is the interval
  const m = rest[1] !== undefined ? /^(\d+)(ms|s)?$/.exec(rest[1]) : null;
  if (!m) return null;
  const n = Number(m[1]);
  return m[2] === 's' ? n * 1000 : n;
}

function optionOf(columns: string[]): Jstat['option'] {
  const has = (c: string) => columns.includes(c);
  if (has('LGCC')) return 'gccause';
  if (has('S0CMX')) return 'gcnewcapacity';
  if (has('NGCMN')) return 'gccapacity';
  if (has('TT') || has('DSS')) return 'gcnew';
  if (has('EC') && has('EU') && has('YGC')) return 'gc';
  if (has('E') && has('O') && has('YGC')) return 'gcutil';
  return 'other';
}

// GC cause names (HotSpot gcCause.cpp; JDK 17's read from its libjvm.so, CMS's from JDK 8): a cause of 20 characters
// or more fills its column, so one blank may part it from the next.
const CAUSES = [
  'Metadata GC Clear Soft References',
  'Heap Inspection Initiated GC',
  'Heap Dump Initiated GC',
  'G1 Preventive Collection',
  'G1 Humongous Allocation',
  'G1 Periodic Collection',
  'GCLocker Initiated GC',
  'Metadata GC Threshold',
  'G1 Evacuation Pause',
  'G1 Compaction Pause',
  'Allocation Failure',
  'Diagnostic Command',
  'CMS Initial Mark',
  'CMS Final Remark',
  'Allocation Stall',
  'Allocation Rate',
  'System.gc()',
  'Ergonomics',
  'High Usage',
  'Warmup',
];

/** "-gccause"'s last and current cause from the text after the numbers. */
function splitCauses(rest: string): [string | null, string | null] {
  const parts = rest
    .split(/\s{2,}/)
    .map((x) => x.trim())
    .filter(Boolean);
  if (parts.length > 1) return [parts[0]!, parts.slice(1).join(' ')];
  const t = parts[0] ?? '';
  if (t === '') return [null, null];
  if (t.endsWith(' No GC')) return [t.slice(0, -6).trim(), 'No GC'];
  if (t.startsWith('No GC ')) return ['No GC', t.slice(6).trim()];
  const known = CAUSES.find((c) => t.startsWith(`${c} `));
  return known ? [known, t.slice(known.length).trim()] : [t, null];
}

export const parseJstat = total<Jstat>(JSTAT_KIND, (text) => {
  const lines = splitLines(text);
  let columns: string[] | null = null;
  let command: string | null = null;
  let intervalMs: number | null = null;
  const samples: JstatSample[] = [];
  let skipped = 0;
  let otherTable: string | null = null;
  let gap = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const cmd = /(?:^|[\s$#>/])jstat\s+(-\S.*)$/.exec(raw);
    if (cmd && samples.length) {
      otherTable = `jstat ${cmd[1]!.trim()}`;
      break;
    }
    if (cmd && command === null) {
      command = `jstat ${cmd[1]!.trim()}`;
      intervalMs = intervalOf(cmd[1]!.trim().split(/\s+/));
      continue;
    }
    const tokens = raw.trim().split(/\s+/);
    if (tokens.length >= 3 && tokens.every((t) => COLUMNS.has(t)) && (tokens.includes('YGC') || tokens.includes('NGCMN'))) {
      // a header: the first, or a repeat (-h N) of it; another option's header ends this output
      if (columns !== null && tokens.join(' ') !== columns.join(' ') && samples.length) {
        otherTable = tokens.join(' ');
        break;
      }
      columns = tokens;
      continue;
    }
    if (columns === null || raw.trim() === '') continue;
    const textCols = columns[columns.length - 2] === 'LGCC' ? 2 : 0;
    const numeric = columns.length - textCols;
    const vals = tokens.slice(0, numeric).map(value);
    // without cause columns a row has exactly the header's values: more is two rows run together, or another table
    if (tokens.length < numeric || (textCols === 0 && tokens.length !== numeric) || vals.some((v) => v === undefined)) {
      if (vals.length && vals[0] !== undefined) skipped++;
      gap = true;
      continue;
    }
    const values: Record<string, number | null> = {};
    for (let c = 0; c < numeric; c++) values[columns[c]!] = vals[c] as number | null;
    let lastCause: string | null = null;
    let cause: string | null = null;
    if (textCols && tokens.length > numeric) {
      // the causes are padded to their column width: blanks part them ("Allocation Failure   No GC")
      [lastCause, cause] = splitCauses(raw.trim().replace(new RegExp(`^(?:\\S+\\s+){${numeric}}`), ''));
    }
    samples.push({ line: i + 1, uptimeS: values['Timestamp'] ?? values['Time'] ?? null, values, lastCause, cause, afterGap: gap && samples.length > 0 });
    gap = false;
  }
  if (columns === null) return unrecognized(JSTAT_KIND, 'no jstat header (S0C S1C … YGC YGCT … GCT, or S0 S1 E O … GCT)');
  if (samples.length === 0) return unrecognized(JSTAT_KIND, `a jstat header (${columns.join(' ')}) but no sample row under it`);
  const warnings: string[] = [];
  if (otherTable) warnings.push(`another jstat output follows (${otherTable}): only the first was read; paste it alone to read it`);
  if (skipped) warnings.push(`${skipped} row(s) did not fit the ${columns.length} columns of the header (cut or wrapped): left out`);
  return {
    kind: JSTAT_KIND,
    ok: true,
    value: {
      option: optionOf(columns),
      columns,
      concurrentColumns: columns.includes('CGC'),
      permGen: columns.includes('PC') || columns.includes('P') || columns.includes('PGC'),
      intervalMs,
      command,
      samples,
      skipped,
    },
    warnings,
  };
});

/** A header row of jstat's GC options (or of a column subset an awk script kept), near the top of the text. */
export const jstatSignature = /^[ \t]*(?:Time(?:stamp)?[ \t]+)?(?:S0C?|NGCMN)[ \t]+[A-Z0-9 \t]{0,200}\bYGC\b/m;
