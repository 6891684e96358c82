import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';
import { parseSize } from '../../units.js';

export const CASSANDRA_STRESS_KIND = 'stress.cassandra-stress';

/**
 * One row of cassandra-stress's interval table (StressMetrics / legacy 2.0 "ops, op/s, key/s, …" table),
 * or one row of the auto-rate per-threadCount summary ("4 threadCount, total, …").
 * Latencies in ms, time in seconds; null when the column is absent or printed as NaN.
 */
export interface StressInterval {
  /** "total", "READ", "insert", "singletrans" …; "total" for the legacy 2.0 table (no type column). */
  type: string;
  /** From the "id" column of the auto-rate summary ("121 threadCount"); null for ordinary interval rows. */
  threadCount: number | null;
  totalOps: number | null;
  opRate: number | null;
  partitionRate: number | null;
  rowRate: number | null;
  meanMs: number | null;
  medianMs: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  p999Ms: number | null;
  maxMs: number | null;
  timeS: number | null;
  stderr: number | null;
  errors: number | null;
  gcCount: number | null;
  gcMaxMs: number | null;
  gcSumMs: number | null;
  gcSdvMs: number | null;
  gcMb: number | null;
}

/** The "Results:" block. Latencies in ms, GC memory in bytes, times converted (GC time and operation time to s/ms). */
export interface StressResults {
  opRate: number | null;
  partitionRate: number | null;
  rowRate: number | null;
  latencyMeanMs: number | null;
  latencyMedianMs: number | null;
  latencyP95Ms: number | null;
  latencyP99Ms: number | null;
  latencyP999Ms: number | null;
  latencyMaxMs: number | null;
  totalPartitions: number | null;
  totalErrors: number | null;
  gcCount: number | null;
  gcMemoryBytes: number | null;
  gcTimeMs: number | null;
  gcAvgMs: number | null;
  gcStdDevMs: number | null;
  operationTimeS: number | null;
  /** The bracketed per-operation values ("[READ: 3,523 op/s, WRITE: …]"), keyed by operation then by field name above. */
  byOperation: Record<string, Partial<Record<StressResultField, number | null>>>;
}

export type StressResultField = Exclude<keyof StressResults, 'byOperation'>;

/** One "Running X with N threads" section: its interval rows and its Results block. */
export interface StressRun {
  /** From "Running with 121 threadCount" (auto-rate) or "Running READ with 16 threads …". */
  threadCount: number | null;
  operation: string | null;
  intervals: StressInterval[];
  results: StressResults | null;
  /** "Improvement over 406 threadCount: -4%" printed after this run (auto-rate), percent. */
  improvementPercent: number | null;
}

/** Column-wise view of one run's "total" interval rows, for plateau / p99-climb rules. */
export interface StressSeries {
  timeS: (number | null)[];
  opRate: (number | null)[];
  meanMs: (number | null)[];
  p99Ms: (number | null)[];
  maxMs: (number | null)[];
  gcMaxMs: (number | null)[];
}

export interface CassandraStress {
  /** 'modern' (2.1+ "type total ops, op/s, pk/s …") or 'legacy' (2.0 "ops, op/s, key/s …" / lower-case Results). */
  format: 'modern' | 'legacy';
  /** "Stress Settings" block flattened as "Section.Key" → value ("Command.Type" → "read", "Rate.Thread Count" → "16"). */
  settings: Record<string, string>;
  /** settings Command.Type or the operation of the first run. */
  command: string | null;
  runs: StressRun[];
  /** The last Results block seen (the final result of an auto-rate run). */
  results: StressResults | null;
  /** "total" rows of the run with the most interval rows. */
  series: StressSeries;
  /** Auto-rate per-threadCount summary rows of type "total" (or the single op type), ascending thread count. */
  threadCounts: StressInterval[];
  /** false when stress printed "Failed to connect over JMX": then the gc columns are zeros, not measurements. */
  gcCollected: boolean;
  /** Exception / error lines printed by the client (first 20). */
  errorLines: string[];
  /** Lines printing a value that cannot be a measurement ("Infinity" / "∞" op rate), first 10: the parsed cell is null. */
  impossibleLines: string[];
}

type ColKey = Exclude<keyof StressInterval, 'type' | 'threadCount'> | 'id' | 'type' | 'skip';

function columnKey(name: string, seenGc: boolean): ColKey {
  const n = name.trim().toLowerCase().replace(/\s+/g, ' ');
  switch (n) {
    case 'id':
      return 'id';
    case 'type':
      return 'type';
    case 'total ops':
    case 'ops':
    case 'total':
      return 'totalOps';
    case 'op/s':
    case 'interval_op_rate':
      return 'opRate';
    case 'pk/s':
    case 'key/s':
    case 'interval_key_rate':
      return 'partitionRate';
    case 'row/s':
      return 'rowRate';
    case 'mean':
    case 'latency':
      return 'meanMs';
    case 'med':
      return 'medianMs';
    case '.95':
    case '95th':
      return 'p95Ms';
    case '.99':
    case '99th':
      return 'p99Ms';
    case '.999':
    case '99.9th':
      return 'p999Ms';
    case 'max':
      return 'maxMs';
    case 'time':
    case 'elapsed_time':
      return 'timeS';
    case 'stderr':
      return 'stderr';
    case 'errors':
      return 'errors';
    case 'gc: #':
    case 'gc #':
      return 'gcCount';
    case 'max ms':
      return seenGc ? 'gcMaxMs' : 'maxMs';
    case 'sum ms':
      return 'gcSumMs';
    case 'sdv ms':
      return 'gcSdvMs';
    case 'mb':
      return 'gcMb';
    default:
      return 'skip';
  }
}

function parseHeader(line: string): ColKey[] | null {
  const t = line.trim();
  if (!/op\/s|interval_op_rate/.test(t) || !/,/.test(t)) return null;
  if (!/\bmean\b|\blatency\b|\bmed\b/.test(t)) return null;
  const cells: string[] = [];
  for (const c of t.split(',')) {
    const s = c.trim();
    // "type       total ops" is one comma cell in the header but two in the rows.
    const m = /^(type)\s+(total ops)$/i.exec(s);
    if (m) cells.push(m[1]!, m[2]!);
    else cells.push(s);
  }
  let seenGc = false;
  const keys = cells.map((c) => {
    const k = columnKey(c, seenGc);
    if (k === 'gcCount') seenGc = true;
    return k;
  });
  if (!keys.includes('opRate')) return null;
  // 2.0's CSV layout prints the interval's median as "latency" (its summary calls the same figure "latency median")
  if (cells.includes('interval_op_rate')) return keys.map((k) => (k === 'meanMs' ? 'medianMs' : k));
  return keys;
}

// The 2.1+ header (StressMetrics): "type, total ops, op/s, pk/s, row/s, mean, med, .95, .99, .999, max, time, stderr,
// errors, gc: #, max ms, sum ms, sdv ms, mb"; 2.1's legacy table has the same columns without "type".
const MODERN_HEADER = 'type, total ops, op/s, pk/s, row/s, mean, med, .95, .99, .999, max, time, stderr, errors, gc: #, max ms, sum ms, sdv ms, mb';
const MODERN_ROW = /^[A-Za-z_][\w.\-:]*\s*,(?:\s*-?[\d.]+(?:E[-+]?\d+)?\s*,){17}\s*-?[\d.]+\s*$/i;
const LEGACY_ROW = /^\d+\s*,(?:\s*-?[\d.]+(?:E[-+]?\d+)?\s*,){16}\s*-?[\d.]+\s*$/i;

/** Columns of an interval row whose header was not pasted; null when the row does not have the 2.1+ shape. */
function impliedHeader(line: string): ColKey[] | null {
  if (MODERN_ROW.test(line)) return parseHeader(MODERN_HEADER);
  if (LEGACY_ROW.test(line)) return parseHeader(MODERN_HEADER.replace('type, total ops', 'ops'));
  return null;
}

function num(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim().replace(/,/g, '');
  if (t === '' || /^nan$/i.test(t) || /^-?infinity$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

function emptyInterval(): StressInterval {
  return {
    type: 'total',
    threadCount: null,
    totalOps: null,
    opRate: null,
    partitionRate: null,
    rowRate: null,
    meanMs: null,
    medianMs: null,
    p95Ms: null,
    p99Ms: null,
    p999Ms: null,
    maxMs: null,
    timeS: null,
    stderr: null,
    errors: null,
    gcCount: null,
    gcMaxMs: null,
    gcSumMs: null,
    gcSdvMs: null,
    gcMb: null,
  };
}

function parseRow(line: string, cols: ColKey[]): StressInterval | null {
  const cells = line.split(',').map((c) => c.trim());
  // The legacy table ends the first cell with padding ("29015     ,"): cells equal columns.
  if (cells.length !== cols.length) return null;
  const row = emptyInterval();
  let numeric = 0;
  for (let i = 0; i < cols.length; i++) {
    const key = cols[i]!;
    const cell = cells[i]!;
    if (key === 'skip') continue;
    if (key === 'id') {
      const m = /^(\d+)\s+threadCount$/i.exec(cell);
      if (!m) return null;
      row.threadCount = Number(m[1]);
      continue;
    }
    if (key === 'type') {
      if (!/^[A-Za-z_][\w.\-:]*$/.test(cell)) return null;
      row.type = cell;
      continue;
    }
    if (!/^(?:-?\d+(?:\.\d+)?(?:E[-+]?\d+)?|NaN|-?Infinity)$/i.test(cell)) return null;
    row[key] = num(cell);
    numeric++;
  }
  return numeric > 0 ? row : null;
}

const RESULT_KEYS: [RegExp, StressResultField][] = [
  [/^(?:real )?op rate$|^interval_op_rate$/i, 'opRate'],
  [/^(?:partition|key) rate$|^interval_key_rate$/i, 'partitionRate'],
  [/^row rate$/i, 'rowRate'],
  [/^latency mean$/i, 'latencyMeanMs'],
  [/^latency median$/i, 'latencyMedianMs'],
  [/^latency 95th percentile$/i, 'latencyP95Ms'],
  [/^latency 99th percentile$/i, 'latencyP99Ms'],
  [/^latency 99\.9th percentile$/i, 'latencyP999Ms'],
  [/^latency max$/i, 'latencyMaxMs'],
  [/^total partitions$/i, 'totalPartitions'],
  [/^total errors$/i, 'totalErrors'],
  [/^total gc count$/i, 'gcCount'],
  [/^total gc memory$/i, 'gcMemoryBytes'],
  [/^total gc time$/i, 'gcTimeMs'],
  [/^avg gc time$/i, 'gcAvgMs'],
  [/^stddev gc time$/i, 'gcStdDevMs'],
  [/^total operation time$/i, 'operationTimeS'],
];

function emptyResults(): StressResults {
  return {
    opRate: null,
    partitionRate: null,
    rowRate: null,
    latencyMeanMs: null,
    latencyMedianMs: null,
    latencyP95Ms: null,
    latencyP99Ms: null,
    latencyP999Ms: null,
    latencyMaxMs: null,
    totalPartitions: null,
    totalErrors: null,
    gcCount: null,
    gcMemoryBytes: null,
    gcTimeMs: null,
    gcAvgMs: null,
    gcStdDevMs: null,
    operationTimeS: null,
    byOperation: {},
  };
}

/** "00:03:20" → 200; "1:02:03:04" (days) tolerated. */
function hms(text: string): number | null {
  const m = /^(\d+(?::\d+){1,3})$/.exec(text.trim());
  if (!m) return num(text);
  return m[1]!.split(':').reduce((acc, p) => acc * 60 + Number(p), 0);
}

/** Converts a value printed with a unit into the field's unit (ms for latencies/GC times, bytes for memory). */
function convert(field: StressResultField, text: string): number | null {
  const t = text.trim();
  if (field === 'operationTimeS') return hms(t);
  if (field === 'gcMemoryBytes') return /^nan/i.test(t) ? null : parseSize(t.replace(/,/g, ''));
  const m = /^(-?[\d,]*\.?\d+(?:E[-+]?\d+)?|NaN)\s*([A-Za-z/]*)/i.exec(t);
  if (!m) return null;
  const n = num(m[1]);
  if (n === null) return null;
  const unit = (m[2] ?? '').toLowerCase();
  if (field === 'gcTimeMs') return unit === 'ms' ? n : n * 1000; // printed in seconds
  if (/Ms$/.test(field)) {
    if (unit === 'us' || unit === 'μs') return n / 1000;
    if (unit === 's' || unit === 'seconds') return n * 1000;
    return n;
  }
  return n;
}

function parseResultLine(line: string, results: StressResults): boolean {
  const m = /^([A-Za-z][A-Za-z0-9._ ]*?)\s*:\s*(.*)$/.exec(line.trim());
  if (!m) return false;
  const label = m[1]!.trim();
  const entry = RESULT_KEYS.find(([re]) => re.test(label));
  if (!entry) return false;
  const field = entry[1];
  let rest = m[2]!;
  const bracket = /\[(.*)\]\s*$/.exec(rest);
  if (bracket) {
    rest = rest.slice(0, bracket.index);
    for (const op of bracket[1]!.matchAll(/([A-Za-z_][\w.-]*):\s*((?:-?[\d,]*\.?\d+|NaN)(?:\s*[A-Za-z/]+)?)/g)) {
      const opName = op[1]!;
      (results.byOperation[opName] ??= {})[field] = convert(field, op[2]!);
    }
  }
  results[field] = convert(field, rest);
  return true;
}

/**
 * One row of the 3.x+ Results block with its per-operation bracket ("Total partitions : 5,000,000 [insert: 5,000,000]");
 * ScyllaDB's cassandra-stress prints the labels in lower case ("op rate : 98,008 op/s [insert: 98,008 op/s]").
 */
const RESULT_ROW =
  /^(?:Op rate|Partition rate|Row rate|Latency (?:mean|median|95th percentile|99th percentile|99\.9th percentile|max)|Total (?:partitions|errors))\s*:\s*[\d.,]+(?:\s*(?:ms|op\/s|pk\/s|row\/s))?\s*\[\w[\w.-]*:/i;

function newRun(threadCount: number | null, operation: string | null): StressRun {
  return { threadCount, operation, intervals: [], results: null, improvementPercent: null };
}

function seriesOf(rows: StressInterval[]): StressSeries {
  return {
    timeS: rows.map((r) => r.timeS),
    opRate: rows.map((r) => r.opRate),
    meanMs: rows.map((r) => r.meanMs),
    p99Ms: rows.map((r) => r.p99Ms),
    maxMs: rows.map((r) => r.maxMs),
    gcMaxMs: rows.map((r) => r.gcMaxMs),
  };
}

/** Rows of type "total" when a run mixes operation types; otherwise all rows. */
function totalRows(rows: StressInterval[]): StressInterval[] {
  const totals = rows.filter((r) => r.type.toLowerCase() === 'total');
  return totals.length ? totals : rows;
}

export const parseCassandraStress = total<CassandraStress>(CASSANDRA_STRESS_KIND, (text) => {
  const lines = cleanLines(text);
  const warnings: string[] = [];
  const settings: Record<string, string> = {};
  const runs: StressRun[] = [];
  const summaryRows: StressInterval[] = [];
  const errorLines: string[] = [];
  const impossibleLines: string[] = [];
  let format: CassandraStress['format'] = 'modern';
  let cols: ColKey[] | null = null;
  let headerless = false;
  let run: StressRun | null = null;
  let inResults = false;
  let inSettings = false;
  let section = '';
  let gcCollected = true;
  let lastResults: StressResults | null = null;
  let sawAnything = false;
  let impliedResults = false;

  const current = (): StressRun => {
    if (!run) {
      run = newRun(null, null);
      runs.push(run);
    }
    return run;
  };

  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') {
      inSettings = false;
      inResults = false;
      continue;
    }
    // cassandra-stress divides by a zero elapsed time on very short intervals and prints "Infinity".
    if (impossibleLines.length < 10 && /(?:^|[\s,:])-?(?:Infinity|∞)(?=[\s,\]]|$)/.test(line)) impossibleLines.push(line.slice(0, 200));
    if (/^\*+\s*Stress Settings\s*\*+$/i.test(line)) {
      inSettings = true;
      section = '';
      continue;
    }
    if (inSettings) {
      // "Section:" at the margin, "  Key: value" indented; anything else ends the block (no blank line after it).
      const sec = /^([A-Za-z][\w ]*):$/.exec(raw);
      if (sec) {
        section = sec[1]!;
        continue;
      }
      const kv = /^\s+([^:]+?):\s?(.*)$/.exec(raw);
      if (kv) {
        settings[section ? `${section}.${kv[1]!.trim()}` : kv[1]!.trim()] = kv[2]!.trim();
        continue;
      }
      inSettings = false;
    }
    // 2.0 prints its summary as "Averages from the middle 80% of values:" (interval_op_rate, latency median, …)
    if (/^Results:$|^Averages from the middle \d+% of values:$/i.test(line)) {
      inResults = true;
      sawAnything = true;
      const r = current();
      if (r.results) {
        // A second Results block without a new "Running …" line: keep both by opening a new run.
        run = newRun(r.threadCount, r.operation);
        runs.push(run);
      }
      lastResults = emptyResults();
      current().results = lastResults;
      continue;
    }
    // a Results block pasted without its "Results:" line: its rows carry the per-operation bracket
    // ("Latency max : 9395.2 ms [insert: 9,395.2 ms]"); rows split by other output keep filling the same block
    if (!inResults && RESULT_ROW.test(line)) {
      if (lastResults === null || current().results !== lastResults) {
        lastResults = emptyResults();
        current().results = lastResults;
        sawAnything = true;
        if (!impliedResults) warnings.push('a Results block without its "Results:" line: read from the rows that were pasted');
        impliedResults = true;
      }
      inResults = true;
    }
    if (inResults && lastResults) {
      if (parseResultLine(line, lastResults)) {
        // 2.0's lower-case labels have no per-operation bracket; ScyllaDB's lower-case 3.x+ rows do.
        if (/^(?:real op rate|op rate|key rate|latency|interval_)/.test(line) && !/\[\w[\w.-]*:/.test(line)) format = 'legacy';
        continue;
      }
      // Other "label : value" lines of the block (2.0 "adjusted op rate stderr : 0") do not end it.
      if (/^[A-Za-z][A-Za-z0-9. ]*:\s+\S/.test(line) && !/Exception|Error/.test(line)) continue;
      inResults = false;
    }
    const tc = /^Running with (\d+) threadCount$/i.exec(line);
    if (tc) {
      run = newRun(Number(tc[1]), null);
      runs.push(run);
      cols = null;
      continue;
    }
    const running = /^Running\s+(?:\[([^\]]+)\]|(\S+))\s+with\s+(\d+)\s+threads?\b/i.exec(line);
    if (running) {
      const op = running[1] ?? running[2] ?? null;
      const threads = Number(running[3]);
      if (run && run.intervals.length === 0 && run.results === null && (run.threadCount === null || run.threadCount === threads)) {
        run.operation = op;
        run.threadCount = threads;
      } else {
        run = newRun(threads, op);
        runs.push(run);
      }
      cols = null;
      continue;
    }
    const imp = /^Improvement over (\d+) threadCount:\s*(-?\d+(?:\.\d+)?)%/i.exec(line);
    if (imp) {
      if (run) run.improvementPercent = Number(imp[2]);
      continue;
    }
    if (/Failed to connect over JMX/i.test(line)) {
      if (gcCollected) warnings.push('stress could not connect over JMX: the gc columns are zeros, not measurements');
      gcCollected = false;
      continue;
    }
    const header = parseHeader(line);
    if (header) {
      cols = header;
      sawAnything = true;
      if (!header.includes('type')) format = 'legacy';
      continue;
    }
    if (!cols && line.includes(',')) {
      // interval rows pasted without their header: the 2.1+ layouts have a fixed column order
      const implied = impliedHeader(line);
      if (implied) {
        cols = implied;
        sawAnything = true;
        headerless = true;
        if (!implied.includes('type')) format = 'legacy';
      }
    }
    if (cols && line.includes(',')) {
      const row = parseRow(line, cols);
      if (row) {
        if (row.threadCount !== null) summaryRows.push(row);
        else current().intervals.push(row);
        continue;
      }
    }
    if (/(?:Exception|Error executing|Operation x\d+ on key)/.test(line) && !/^WARN\b/.test(line)) {
      if (errorLines.length < 20) errorLines.push(line.slice(0, 300));
      continue;
    }
  }

  if (headerless) warnings.push('interval rows without their header line: columns read in the 2.1+ order (type, total ops, op/s, pk/s, row/s, mean, med, …)');
  const hasData = runs.some((r) => r.intervals.length > 0 || r.results !== null) || summaryRows.length > 0;
  // the "Stress Settings" dump alone (a paste cut before the first interval): read, and said to hold no result
  const settingsOnly = !hasData && Object.keys(settings).length >= 3 && settings['Command.Type'] !== undefined;
  if (settingsOnly)
    warnings.push(
      `only the "Stress Settings" block (${Object.keys(settings).length} settings) was pasted: no interval rows and no Results block, so nothing about the run's outcome can be judged`,
    );
  else if (!sawAnything || !hasData) {
    return unrecognized(CASSANDRA_STRESS_KIND, 'no cassandra-stress interval table ("type total ops, op/s, …") or "Results:" block');
  }
  // Drop runs that carry nothing (a "Running …" line cut off before its first row).
  const kept = runs.filter((r) => r.intervals.length > 0 || r.results !== null);
  if (kept.length < runs.length) warnings.push(`${runs.length - kept.length} run(s) without interval rows or results (output truncated?)`);
  const longest = kept.reduce<StressRun | null>((best, r) => (!best || r.intervals.length > best.intervals.length ? r : best), null);
  const threadCounts = totalRows(summaryRows).sort((a, b) => (a.threadCount ?? 0) - (b.threadCount ?? 0));
  if (lastResults !== null) {
    const lr: StressResults = lastResults;
    if (lr.opRate === null) warnings.push('Results block without an "Op rate" line (output truncated?)');
  }
  if (!gcCollected) {
    // Without JMX the client prints zeros for every GC figure: report them as not measured.
    for (const r of kept) {
      for (const i of r.intervals) i.gcCount = i.gcMaxMs = i.gcSumMs = i.gcSdvMs = i.gcMb = null;
      if (r.results) r.results.gcCount = r.results.gcMemoryBytes = r.results.gcTimeMs = r.results.gcAvgMs = r.results.gcStdDevMs = null;
    }
  }
  const value: CassandraStress = {
    format,
    settings,
    command: settings['Command.Type'] ?? kept.find((r) => r.operation)?.operation ?? null,
    runs: kept,
    results: lastResults,
    series: seriesOf(totalRows(longest?.intervals ?? [])),
    threadCounts,
    gcCollected,
    errorLines,
    impossibleLines,
  };
  return parsedOk(CASSANDRA_STRESS_KIND, value, warnings);
});
