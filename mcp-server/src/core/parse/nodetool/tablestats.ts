/**
 * nodetool tablestats (and the older cfstats, same layout). Formats: Cassandra 3.x/DSE ("Keyspace : ks",
 * "Number of keys (estimate)"), 4.0/4.1 ("Number of partitions", "Old SSTable count", "Bytes repaired",
 * "Droppable tombstone ratio"), 5.0 ("Keyspace: ks", "Max SSTable size", "SSTables Time Window",
 * "Local read/write ratio", "Top partitions by size/tombstone count"), the sorted/top printer (-s/-t:
 * "Table: ks.t" at one tab, no keyspace blocks) and ScyllaDB (keyspace latencies printed as 1.5E-01 / NAN).
 * -H prints sizes with units; both are read into bytes. 4.1's -H also prints the "Dropped Mutations" count
 * through the size formatter ("Dropped Mutations: 0 bytes", "1.5 KiB" = 1536 mutations): it is read back as
 * the count it is, and a note says so.
 * Sources: Cassandra tools/nodetool/stats/TableStatsPrinter.java + TableStatsHolder.java per branch,
 * ScyllaDB tools/scylla-nodetool.cc (table_metrics::print).
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { parseSize } from '../../units.js';
import { limitWarnings, nodetoolError, nodetoolLines, num } from './nodetool-text.js';

export interface LevelCount {
  count: number;
  /** Printed only when the level holds more SSTables than it should ("910/4"): the level's maximum. */
  max: number | null;
}

export interface TopPartition {
  key: string;
  /** Bytes for "by size", a tombstone count for "by tombstone count". */
  value: number | null;
}

export interface TableStats {
  keyspace: string | null;
  name: string;
  isIndex: boolean;
  sstableCount: number | null;
  oldSstableCount: number | null;
  maxSstableSizeBytes: number | null;
  /** TWCS window as printed, e.g. "1 DAYS, max duration: 0 seconds". */
  timeWindow: string | null;
  /** LCS only: SSTables per level, L0 first. */
  sstablesInEachLevel: LevelCount[] | null;
  sstableBytesInEachLevel: (number | null)[] | null;
  spaceUsedLiveBytes: number | null;
  spaceUsedTotalBytes: number | null;
  spaceUsedBySnapshotsBytes: number | null;
  offHeapTotalBytes: number | null;
  /** null when nodetool printed -1 (no SSTables or no compression). */
  compressionRatio: number | null;
  partitionsEstimate: number | null;
  memtableCellCount: number | null;
  memtableDataSizeBytes: number | null;
  memtableOffHeapBytes: number | null;
  memtableSwitchCount: number | null;
  speculativeRetries: number | null;
  localReadCount: number | null;
  localReadLatencyMs: number | null;
  localWriteCount: number | null;
  localWriteLatencyMs: number | null;
  localReadWriteRatio: number | null;
  pendingFlushes: number | null;
  percentRepaired: number | null;
  bytesRepaired: number | null;
  bytesUnrepaired: number | null;
  bytesPendingRepair: number | null;
  bloomFilterFalsePositives: number | null;
  bloomFilterFalseRatio: number | null;
  bloomFilterSpaceUsedBytes: number | null;
  bloomFilterOffHeapBytes: number | null;
  indexSummaryOffHeapBytes: number | null;
  compressionMetadataOffHeapBytes: number | null;
  partitionMinBytes: number | null;
  partitionMaxBytes: number | null;
  partitionMeanBytes: number | null;
  avgLiveCellsPerSlice: number | null;
  maxLiveCellsPerSlice: number | null;
  avgTombstonesPerSlice: number | null;
  maxTombstonesPerSlice: number | null;
  droppedMutations: number | null;
  droppableTombstoneRatio: number | null;
  sstablesInCorrectLocation: boolean | null;
  topPartitionsBySize: TopPartition[];
  topPartitionsByTombstones: TopPartition[];
  /** Every "Label: value" of the table as printed. */
  fields: Record<string, string>;
}

export interface KeyspaceStats {
  name: string;
  readCount: number | null;
  readLatencyMs: number | null;
  writeCount: number | null;
  writeLatencyMs: number | null;
  pendingFlushes: number | null;
  tables: TableStats[];
}

export interface NodetoolTablestats {
  /** "Total number of tables" — all tables on the node, not only the ones printed when filtered. */
  totalTables: number | null;
  keyspaces: KeyspaceStats[];
  /** Every table printed, in order (also those of the sorted printer, which has no keyspace blocks). */
  tables: TableStats[];
  /** Keyspace latencies printed in E-notation or as NAN: ScyllaDB's nodetool. */
  looksLikeScylla: boolean;
  notes: string[];
}

type Conv = 'count' | 'countAsSize' | 'size' | 'ms' | 'ratio' | 'levels' | 'sizes' | 'text' | 'bool';
type TypedKey = Exclude<keyof TableStats, 'keyspace' | 'name' | 'isIndex' | 'fields' | 'topPartitionsBySize' | 'topPartitionsByTombstones'>;

const TABLE_FIELDS: Record<string, [TypedKey, Conv]> = {
  'SSTable count': ['sstableCount', 'count'],
  'Old SSTable count': ['oldSstableCount', 'count'],
  'Max SSTable size': ['maxSstableSizeBytes', 'size'],
  'SSTables Time Window': ['timeWindow', 'text'],
  'SSTables in each level': ['sstablesInEachLevel', 'levels'],
  'SSTable bytes in each level': ['sstableBytesInEachLevel', 'sizes'],
  'Space used (live)': ['spaceUsedLiveBytes', 'size'],
  'Space used (total)': ['spaceUsedTotalBytes', 'size'],
  'Space used by snapshots (total)': ['spaceUsedBySnapshotsBytes', 'size'],
  'Off heap memory used (total)': ['offHeapTotalBytes', 'size'],
  'SSTable Compression Ratio': ['compressionRatio', 'ratio'],
  'Number of partitions (estimate)': ['partitionsEstimate', 'count'],
  'Number of keys (estimate)': ['partitionsEstimate', 'count'],
  'Memtable cell count': ['memtableCellCount', 'count'],
  'Memtable data size': ['memtableDataSizeBytes', 'size'],
  'Memtable off heap memory used': ['memtableOffHeapBytes', 'size'],
  'Memtable switch count': ['memtableSwitchCount', 'count'],
  'Speculative retries': ['speculativeRetries', 'count'],
  'Local read count': ['localReadCount', 'count'],
  'Local read latency': ['localReadLatencyMs', 'ms'],
  'Local write count': ['localWriteCount', 'count'],
  'Local write latency': ['localWriteLatencyMs', 'ms'],
  'Local read/write ratio': ['localReadWriteRatio', 'count'],
  'Pending flushes': ['pendingFlushes', 'count'],
  'Percent repaired': ['percentRepaired', 'count'],
  'Bytes repaired': ['bytesRepaired', 'size'],
  'Bytes unrepaired': ['bytesUnrepaired', 'size'],
  'Bytes pending repair': ['bytesPendingRepair', 'size'],
  'Bloom filter false positives': ['bloomFilterFalsePositives', 'count'],
  'Bloom filter false ratio': ['bloomFilterFalseRatio', 'count'],
  'Bloom filter space used': ['bloomFilterSpaceUsedBytes', 'size'],
  'Bloom filter off heap memory used': ['bloomFilterOffHeapBytes', 'size'],
  'Index summary off heap memory used': ['indexSummaryOffHeapBytes', 'size'],
  'Compression metadata off heap memory used': ['compressionMetadataOffHeapBytes', 'size'],
  'Compacted partition minimum bytes': ['partitionMinBytes', 'size'],
  'Compacted partition maximum bytes': ['partitionMaxBytes', 'size'],
  'Compacted partition mean bytes': ['partitionMeanBytes', 'size'],
  'Average live cells per slice (last five minutes)': ['avgLiveCellsPerSlice', 'count'],
  'Maximum live cells per slice (last five minutes)': ['maxLiveCellsPerSlice', 'count'],
  'Average tombstones per slice (last five minutes)': ['avgTombstonesPerSlice', 'count'],
  'Maximum tombstones per slice (last five minutes)': ['maxTombstonesPerSlice', 'count'],
  'Dropped Mutations': ['droppedMutations', 'countAsSize'],
  'Droppable tombstone ratio': ['droppableTombstoneRatio', 'count'],
  'SSTables in correct location': ['sstablesInCorrectLocation', 'bool'],
};

// Digits grouped by a space in threes ("2 048 938 195"): how a paste from a tool or page that formats numbers for a
// locale shows them. The whole value must be such groups, so a value with a unit or two numbers is never joined.
const SPACE_GROUPED = /^-?\d{1,3}(?:[ \u00a0\u202f]\d{3})+$/;

// A size that may be a plain byte count ("1234") or carry a unit under -H ("1.5 MiB", "0B", "0.000KiB").
function bytes(v: string): number | null {
  const t = v.trim();
  if (SPACE_GROUPED.test(t)) return Number(t.replace(/[ \u00a0\u202f]/g, ''));
  return /^-?\d+$/.test(t) ? Number(t) : parseSize(t);
}

/** A count, also when its digits are grouped by spaces. */
function count(v: string): number | null {
  const t = v.trim();
  return SPACE_GROUPED.test(t) ? Number(t.replace(/[ \u00a0\u202f]/g, '')) : num(t);
}

// "0.310 ms", "NaN ms", "0.0808 ms." (DSE), "1.500000000000000E-01 ms" / "NAN ms" (ScyllaDB)
function millis(v: string): number | null {
  return num(v.replace(/\s*ms\.?\s*$/, ''));
}

function levels(v: string): LevelCount[] | null {
  const inner = /^\[(.*)\]$/.exec(v.trim())?.[1];
  if (inner === undefined) return null;
  if (inner.trim() === '') return [];
  return inner
    .split(',')
    .map((p) => {
      const m = /^\s*(\d+)(?:\/(\d+))?\s*$/.exec(p);
      return { count: m ? Number(m[1]) : NaN, max: m?.[2] ? Number(m[2]) : null };
    })
    .filter((l) => Number.isFinite(l.count));
}

function convert(conv: Conv, v: string): TableStats[TypedKey] {
  switch (conv) {
    case 'count':
      return count(v);
    case 'countAsSize':
      // A count, but -H may print it with a size unit ("0 bytes", "1.5 KiB"): undo the unit.
      return count(v) ?? (WITH_SIZE_UNIT.test(v) ? parseSize(v) : null);
    case 'size':
      return bytes(v);
    case 'ms':
      return millis(v);
    case 'ratio': {
      const r = num(v);
      return r === null || r < 0 ? null : r;
    }
    case 'levels':
      return levels(v);
    case 'sizes': {
      const inner = /^\[(.*)\]$/.exec(v.trim())?.[1];
      return inner === undefined ? null : inner.trim() === '' ? [] : inner.split(',').map(bytes);
    }
    case 'bool':
      return /^true$/i.test(v.trim()) ? true : /^false$/i.test(v.trim()) ? false : null;
    case 'text':
      return v.trim();
  }
}

function newTable(keyspace: string | null, name: string, isIndex: boolean): TableStats {
  const t = { keyspace, name, isIndex, fields: {}, topPartitionsBySize: [], topPartitionsByTombstones: [] } as unknown as TableStats;
  for (const [key] of Object.values(TABLE_FIELDS)) (t as unknown as Record<string, unknown>)[key] = null;
  return t;
}

/** Name given to the fields of a table section whose header line was not pasted. */
export const CUT_TABLE = '(name cut)';

const CUT_NOTE = `the output starts inside a table section whose "Table:" line was cut; its fields are kept as table "${CUT_TABLE}"`;
const WITH_SIZE_UNIT = /\d\s*(?:bytes|[KMGTP]i?B|B)\s*$/;
const COUNT_AS_SIZE_NOTE =
  '"Dropped Mutations" is printed with a size unit under -H (e.g. "0 bytes"): it is a count of mutations; droppedMutations keeps the number (a unit multiple like "1.5 KiB" is read as 1536).';

const KEYSPACE_FIELDS: Record<string, keyof Omit<KeyspaceStats, 'name' | 'tables'>> = {
  'Read Count': 'readCount',
  'Read Latency': 'readLatencyMs',
  'Write Count': 'writeCount',
  'Write Latency': 'writeLatencyMs',
  'Pending Flushes': 'pendingFlushes',
};

export const parseTablestats = total<NodetoolTablestats>('nodetool.tablestats', (text) => {
  const kind = 'nodetool.tablestats';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);

  const keyspaces: KeyspaceStats[] = [];
  const tables: TableStats[] = [];
  const notes: string[] = [];
  const warnings: string[] = [];
  let totalTables: number | null = null;
  let sawHeader = false;
  let ks: KeyspaceStats | null = null;
  let ksOpen = false;
  let table: TableStats | null = null;
  let top: { list: TopPartition[]; bySize: boolean } | null = null;
  let looksLikeScylla = false;
  let spaceGrouped = false;

  for (const raw of lines) {
    const line = raw.trim();
    if (top) {
      // Rows of a "Top partitions" block run until a blank line or the next known label; keys may contain ':'.
      const label = /^([^:]+?)\s*:/.exec(line)?.[1];
      const ends =
        line === '' ||
        (label !== undefined && (Object.hasOwn(TABLE_FIELDS, label) || /^(Table|Keyspace)\b/.test(label))) ||
        /^(Top partitions by|-{4,}$)/.test(line);
      if (!ends) {
        if (/^Key\s+(Size|Count)$/.test(line)) continue;
        // `.*\S` (greedy, ends on a non-blank), not `.*?`: a lazy key rescans the blanks after every character.
        const m = /^(.*\S)\s+(-?\d+(?:\.\d+)?(?:\s*(?:[KMGTP]i?B|B|bytes))?)$/.exec(line);
        if (m) top.list.push({ key: m[1]!, value: top.bySize ? bytes(m[2]!) : num(m[2]) });
        else warnings.push(`top-partition row not understood: ${line.slice(0, 100)}`);
        continue;
      }
      top = null;
    }
    if (line === '') continue;
    const totalM = /^Total number of tables:\s*(\d+)/.exec(line);
    if (totalM) {
      totalTables = Number(totalM[1]);
      sawHeader = true;
      continue;
    }
    if (/^-{4,}$/.test(line)) {
      ksOpen = false;
      table = null;
      continue;
    }
    const ksm = /^Keyspace\s*:\s*(.+)$/.exec(line);
    if (ksm) {
      ks = { name: ksm[1]!.trim(), readCount: null, readLatencyMs: null, writeCount: null, writeLatencyMs: null, pendingFlushes: null, tables: [] };
      keyspaces.push(ks);
      ksOpen = true;
      table = null;
      sawHeader = true;
      continue;
    }
    // "Column Family:" is the 2.0 cfstats name of the same section
    const tm = /^(?:Table|Column Family)( \(index\))?\s*:\s*(.+)$/.exec(line);
    if (tm) {
      let name = tm[2]!.trim();
      // The 3.x printer writes an index name twice ("Table (index): t.idxt.idx"); keep one copy.
      const half = name.length / 2;
      if (tm[1] && Number.isInteger(half) && name.slice(0, half) === name.slice(half)) name = name.slice(0, half);
      let keyspace = ks?.name ?? null;
      if (!ksOpen) {
        // Sorted printer: "Table: ks.table" with no keyspace block around it.
        const dot = name.indexOf('.');
        keyspace = dot > 0 ? name.slice(0, dot) : null;
        if (dot > 0) name = name.slice(dot + 1);
      }
      table = newTable(keyspace, name, tm[1] !== undefined);
      tables.push(table);
      if (ksOpen && ks) ks.tables.push(table);
      sawHeader = true;
      continue;
    }
    const topm = /^Top partitions by (size|tombstone count)\b/.exec(line);
    if (topm && table) {
      const bySize = topm[1] === 'size';
      top = { list: bySize ? table.topPartitionsBySize : table.topPartitionsByTombstones, bySize };
      continue;
    }
    const kv = /^([^:]+?)\s*:\s*(.*)$/.exec(line);
    if (!kv) {
      if (sawHeader) notes.push(line.slice(0, 200));
      continue;
    }
    const [, printed, value] = kv as unknown as [string, string, string];
    // Cassandra 2.0 printed the unit in the label: "Space used (live), bytes: 4949", "Memtable data size, bytes: 0"
    const label = printed.endsWith(', bytes') ? printed.slice(0, -7) : printed;
    if (!table && !ksOpen && Object.hasOwn(TABLE_FIELDS, label)) {
      // the paste starts inside a table section: keep its numbers under a placeholder name
      table = newTable(null, CUT_TABLE, false);
      tables.push(table);
      notes.push(CUT_NOTE);
    }
    if (table) {
      table.fields[label] = value;
      if (SPACE_GROUPED.test(value.trim())) spaceGrouped = true;
      const spec = Object.hasOwn(TABLE_FIELDS, label) ? TABLE_FIELDS[label] : undefined;
      if (spec) (table as unknown as Record<string, unknown>)[spec[0]] = convert(spec[1], value);
      if (spec?.[1] === 'countAsSize' && WITH_SIZE_UNIT.test(value) && !notes.includes(COUNT_AS_SIZE_NOTE)) notes.push(COUNT_AS_SIZE_NOTE);
    } else if (ks && ksOpen && Object.hasOwn(KEYSPACE_FIELDS, label)) {
      const field = KEYSPACE_FIELDS[label]!;
      ks[field] = field.endsWith('Ms') ? millis(value) : num(value);
      if (field.endsWith('Ms') && (/E[+-]\d+\s*ms/.test(value) || /^NAN\b/.test(value.trim()))) looksLikeScylla = true;
    } else if (sawHeader) notes.push(line.slice(0, 200));
  }

  // A lone "Keyspace: x" is not enough (cassandra-stress prints one in its settings). Without any header, a paste of
  // a table's field lines alone is read when two or more of them are known table fields: a fragment, said so.
  const fragment = !sawHeader && tables.length === 1 && tables[0]!.name === CUT_TABLE && mostlyKnownFields(tables[0]!);
  if (!fragment && (!sawHeader || (totalTables === null && tables.length === 0)))
    return unrecognized(kind, 'no "Total number of tables" line and no "Table:" section');
  if (fragment) {
    notes.splice(notes.indexOf(CUT_NOTE), 1);
    warnings.push(
      `only ${Object.keys(tables[0]!.fields).length} field line(s) of one table were pasted, without its "Keyspace:" and "Table:" lines: ` +
        'the table is unnamed and every field not shown is unknown',
    );
  }
  if (spaceGrouped) notes.push('digits grouped by spaces ("2 048 938 195") were read as one number each');
  if (tables.length === 0) warnings.push('no table sections: the output looks truncated or the filter matched nothing');
  // Every version prints the tombstones-per-slice lines near the end of each table and closes each keyspace
  // with a dashed line; either missing at the end means the paste was cut.
  const last = tables[tables.length - 1];
  if (last && last.fields['Maximum tombstones per slice (last five minutes)'] === undefined) {
    warnings.push(`table ${last.keyspace ?? '?'}.${last.name} stops after ${Object.keys(last.fields).length} fields: the output looks truncated`);
  } else if (ksOpen && keyspaces.length) warnings.push('the last keyspace is not closed by a dashed line: the output may be truncated');
  // Early ScyllaDB printed negative disk sizes (an overflowed counter, scylladb/scylladb#682): flag, never sum them.
  for (const t of tables) {
    if ((t.spaceUsedLiveBytes ?? 0) < 0 || (t.spaceUsedTotalBytes ?? 0) < 0)
      notes.push(`${t.keyspace ?? '?'}.${t.name}: negative "Space used" (a counter bug seen in ScyllaDB, scylladb/scylladb#682), not a size`);
  }
  if (looksLikeScylla) notes.push('ScyllaDB prints "Percent repaired: 0.0" and "Dropped Mutations: 0" as placeholders; do not read them as facts.');

  return parsedOk<NodetoolTablestats>(kind, { totalTables, keyspaces, tables, looksLikeScylla, notes }, limitWarnings(warnings));
});

/** Two or more known table fields, and no more unknown labels than known ones: a fragment, not prose with a colon. */
function mostlyKnownFields(t: TableStats): boolean {
  const labels = Object.keys(t.fields);
  const known = labels.filter((label) => Object.hasOwn(TABLE_FIELDS, label)).length;
  return known >= 2 && known * 2 >= labels.length;
}

/**
 * Two consecutive lines that are known table fields ("Space used (live): 2 048 938 195"): the signature of a
 * tablestats fragment pasted without its header lines.
 */
export const TABLE_FIELDS_SIGNATURE = (() => {
  const label = Object.keys(TABLE_FIELDS)
    .map((l) => l.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|');
  const line = `[ \\t]*(?:${label})(?:, bytes)?[ \\t]*:[ \\t]*\\S[^\\n]*`;
  return new RegExp(`^${line}\\r?\\n${line}$`, 'm');
})();
