/**
 * nodetool compactionstats. Two layouts (Cassandra tools/nodetool/CompactionStats.java per branch):
 *  - classic (2.x–4.1, DSE, ScyllaDB): "pending tasks: N", then "- ks.table: N" per table (3.2+), a table
 *    "[id] compaction type keyspace table completed total unit progress" and
 *    "Active compaction remaining time :   0h00m04s";
 *  - 5.0: one TableBuilder of "label value" rows (concurrent compactors, pending tasks, "ks table N" rows,
 *    compactions completed, data compacted, … , "compaction throughput (MiB/s)"), then the same compaction
 *    table and "active compaction remaining time  0h00m04s".
 * -H prints completed/total with units ("20.84 MiB"); they are read back into bytes.
 * ScyllaDB prints the classic layout with id "<none>" (older) and upper-case types ("COMPACTION"); its pending
 * estimate is known to be unreliable (scylladb/scylladb#1389, #4228, #4444), so pendingTasksReliable is false.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { parseSize } from '../../units.js';
import { findHeaderNames, sliceRow, type HeaderColumn } from './columns.js';
import { limitWarnings, nodetoolError, nodetoolLines, num, parseHms } from './nodetool-text.js';

export interface PendingCompactions {
  keyspace: string;
  table: string;
  pending: number;
}

export interface RunningCompaction {
  id: string | null;
  type: string;
  keyspace: string;
  table: string;
  /** In `unit`; bytes when the unit is bytes, whether or not -H printed them with a size suffix. */
  completed: number | null;
  total: number | null;
  unit: string;
  progressPercent: number | null;
}

export interface CompactionSummary5 {
  concurrentCompactors: number | null;
  compactionsCompleted: number | null;
  dataCompactedBytes: number | null;
  compressedDataCompactedBytes: number | null;
  compactionsAborted: number | null;
  compactionsReduced: number | null;
  sstablesDroppedFromCompaction: number | null;
  fifteenMinuteRatePerMinute: number | null;
  meanRatePerHour: number | null;
  /** null when throttling is disabled (see throttlingDisabled). */
  throughputMiBPerSec: number | null;
  throttlingDisabled: boolean;
}

export interface NodetoolCompactionstats {
  layout: 'classic' | '5.0';
  product: 'cassandra' | 'scylla' | 'unknown';
  pendingTasks: number | null;
  /** false on ScyllaDB-looking output (its estimate is known to be wrong), true on Cassandra, null when unknown. */
  pendingTasksReliable: boolean | null;
  pendingByTable: PendingCompactions[];
  compactions: RunningCompaction[];
  /** Seconds; null when printed "n/a" (throughput unthrottled) or absent (no running compaction). */
  remainingTimeSeconds: number | null;
  /** 5.0 only. */
  summary: CompactionSummary5 | null;
  notes: string[];
}

const TABLE_HEADER = ['id', 'compaction type', 'keyspace', 'table', 'column family', 'completed', 'total', 'unit', 'progress'];
const QTY = String.raw`-?\d+(?:[.,]\d+)?(?:\s*(?:[KMGTPE]i?B|B|bytes))?`;
// Right-to-left reading for rows that do not align with the header: [id] type… keyspace table completed total unit progress
const ROW = new RegExp(
  String.raw`^(?:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|<none>|n/a)\s+)?(.+?)\s+(\S+)\s+(\S+)\s+(${QTY})\s+(${QTY})\s+(\S+)\s+(\d+(?:[.,]\d+)?%|n/a)$`,
  'i',
);

function quantity(text: string, unit: string): number | null {
  const t = text.trim();
  if (/^-?\d+$/.test(t)) return Number(t);
  return /^bytes$/i.test(unit) ? parseSize(t) : num(t);
}

function compactionRow(line: string, header: HeaderColumn[] | null): RunningCompaction | null {
  let cells: string[] | null = null;
  if (header && header[0]?.name === 'id') {
    const sliced = sliceRow(line, header);
    if (sliced && sliced.length === 8 && /%$|^n\/a$/i.test(sliced[7]!) && sliced[5] !== '') cells = sliced;
  }
  if (!cells) {
    const m = ROW.exec(line.trim());
    if (!m) return null;
    cells = [m[1] ?? '', m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7]!, m[8]!];
  }
  const [id, type, keyspace, table, completed, tot, unit, progress] = cells as [string, string, string, string, string, string, string, string];
  return {
    id: id === '' || id === '<none>' || id === 'n/a' ? null : id,
    type,
    keyspace,
    table,
    completed: quantity(completed, unit),
    total: quantity(tot, unit),
    unit,
    progressPercent: num(progress.replace('%', '')),
  };
}

const SUMMARY_LABELS: Record<string, keyof CompactionSummary5 | 'pending'> = {
  'concurrent compactors': 'concurrentCompactors',
  'pending tasks': 'pending',
  'compactions completed': 'compactionsCompleted',
  'data compacted': 'dataCompactedBytes',
  'compressed data compacted': 'compressedDataCompactedBytes',
  'compactions aborted': 'compactionsAborted',
  'compactions reduced': 'compactionsReduced',
  'sstables dropped from compaction': 'sstablesDroppedFromCompaction',
  '15 minute rate': 'fifteenMinuteRatePerMinute',
  'mean rate': 'meanRatePerHour',
  'compaction throughput (MiB/s)': 'throughputMiBPerSec',
};

function emptySummary(): CompactionSummary5 {
  return {
    concurrentCompactors: null,
    compactionsCompleted: null,
    dataCompactedBytes: null,
    compressedDataCompactedBytes: null,
    compactionsAborted: null,
    compactionsReduced: null,
    sstablesDroppedFromCompaction: null,
    fifteenMinuteRatePerMinute: null,
    meanRatePerHour: null,
    throughputMiBPerSec: null,
    throttlingDisabled: false,
  };
}

const TABLESTATS_LABEL = /^[ \t]*(?:SSTable count|Memtable cell count|Local read count)[ \t]*:/m;

export const parseCompactionstats = total<NodetoolCompactionstats>('nodetool.compactionstats', (text) => {
  const kind = 'nodetool.compactionstats';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);
  // tablestats/cfstats print a per-table "Pending tasks: 0" (2.0) that the signature also matches
  if (TABLESTATS_LABEL.test(text)) return unrecognized(kind, 'per-table "SSTable count" / "Memtable cell count" lines: this is tablestats (cfstats) output');

  const warnings: string[] = [];
  const notes: string[] = [];
  const pendingByTable: PendingCompactions[] = [];
  const compactions: RunningCompaction[] = [];
  let layout: NodetoolCompactionstats['layout'] | null = null;
  let pendingTasks: number | null = null;
  let summary: CompactionSummary5 | null = null;
  let header: HeaderColumn[] | null = null;
  let remaining: number | null = null;
  let sawRemaining = false;
  let remainingNa = false;
  let inPending5 = false;
  const summaryRe = new RegExp(
    `^(${Object.keys(SUMMARY_LABELS)
      .map((l) => l.replace(/[()/]/g, '\\$&'))
      .join('|')})\\s+(.+)$`,
  );

  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    const classic = /^pending tasks:\s*(\d+|n\/a)/i.exec(line);
    if (classic) {
      layout = 'classic';
      pendingTasks = num(classic[1]);
      continue;
    }
    const perTable = /^-\s+(\S+?)\.(\S+):\s*(\d+)$/.exec(line);
    if (perTable && layout === 'classic' && !header) {
      pendingByTable.push({ keyspace: perTable[1]!, table: perTable[2]!, pending: Number(perTable[3]) });
      continue;
    }
    if (/^(?:id\s+)?compaction type\s+keyspace\s+/.test(line)) {
      header = findHeaderNames(raw, TABLE_HEADER);
      inPending5 = false;
      continue;
    }
    const rem = /^active compaction remaining time\s*(?::\s*)?(\S+)$/i.exec(line);
    if (rem) {
      sawRemaining = true;
      remaining = parseHms(rem[1]!);
      remainingNa = /^n\/a$/i.test(rem[1]!);
      continue;
    }
    if (header) {
      const row = compactionRow(raw, header);
      if (row) compactions.push(row);
      else warnings.push(`compaction row not understood: ${line.slice(0, 120)}`);
      continue;
    }
    const s = layout !== 'classic' ? summaryRe.exec(line) : null;
    if (s) {
      layout = '5.0';
      summary ??= emptySummary();
      const field = SUMMARY_LABELS[s[1]!]!;
      const value = s[2]!.trim();
      inPending5 = field === 'pending';
      if (field === 'pending') pendingTasks = num(value);
      else if (field === 'throughputMiBPerSec') {
        summary.throttlingDisabled = /disabled/i.test(value);
        summary.throughputMiBPerSec = summary.throttlingDisabled ? null : num(value);
      } else if (field === 'dataCompactedBytes' || field === 'compressedDataCompactedBytes') {
        summary[field] = /^-?\d+$/.test(value) ? Number(value) : parseSize(value);
      } else if (field !== 'throttlingDisabled') summary[field] = num(value.replace(/\/(minute|hour)$/, ''));
      continue;
    }
    const ksRow = /^(\S+)\s+(\S+)\s+(\d+)$/.exec(line);
    if (layout === '5.0' && inPending5 && ksRow) {
      pendingByTable.push({ keyspace: ksRow[1]!, table: ksRow[2]!, pending: Number(ksRow[3]) });
      continue;
    }
    if (layout) warnings.push(`line not understood: ${line.slice(0, 120)}`);
  }

  if (!layout) return unrecognized(kind, 'no "pending tasks" line');
  if (header && !sawRemaining) warnings.push('no "active compaction remaining time" line: the output looks truncated');
  if (layout === '5.0' && summary && summary.throughputMiBPerSec === null && !summary.throttlingDisabled) {
    warnings.push('no "compaction throughput (MiB/s)" row: the output looks truncated');
  }

  // Cassandra prints operation types capitalised ("Compaction", "Validation"); ScyllaDB upper-case
  // ("COMPACTION", "RESHAPE"), and its older docs label the table column "column family".
  const scylla = compactions.some((c) => /^[A-Z_]{4,}$/.test(c.type)) || (header?.some((h) => h.name === 'column family') ?? false);
  const cassandra = !scylla && (layout === '5.0' || compactions.some((c) => c.id !== null && /^[A-Z][a-z]/.test(c.type)));
  const product: NodetoolCompactionstats['product'] = scylla ? 'scylla' : cassandra ? 'cassandra' : 'unknown';
  if (scylla)
    notes.push(
      'ScyllaDB: "pending tasks" is an estimate known to be unreliable (scylladb/scylladb#1389, #4228); judge the backlog from SSTable counts and running compactions.',
    );
  else if (product === 'unknown' && (pendingTasks ?? 0) > 0)
    notes.push('Product not identifiable from this output; on ScyllaDB the pending estimate is unreliable.');
  if (remainingNa) notes.push('remaining time "n/a": compaction throughput is unthrottled (0), so nodetool cannot estimate it');

  return parsedOk<NodetoolCompactionstats>(
    kind,
    {
      layout,
      product,
      pendingTasks,
      pendingTasksReliable: scylla ? false : cassandra ? true : null,
      pendingByTable,
      compactions,
      remainingTimeSeconds: remaining,
      summary,
      notes,
    },
    limitWarnings(warnings),
  );
});
