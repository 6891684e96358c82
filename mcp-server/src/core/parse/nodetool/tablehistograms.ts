/**
 * nodetool tablehistograms / cfhistograms. Column order changed across versions (Cassandra
 * tools/nodetool/TableHistograms.java): up to 4.0 "SSTables, Write Latency, Read Latency, Partition Size,
 * Cell Count"; 4.1/5.0 "Read Latency, Write Latency, SSTables, Partition Size, Cell Count". Columns are
 * found by name. Since 4.0, running it without arguments prints one "ks/table histograms" block per table.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { limitWarnings, nodetoolError, nodetoolLines } from './nodetool-text.js';
import { percentileBlocks, type Percentiles } from './percentiles.js';

export interface TableHistogram {
  keyspace: string | null;
  table: string | null;
  /** SSTables touched per read. */
  sstablesPerRead: Percentiles | null;
  readLatencyMicros: Percentiles | null;
  writeLatencyMicros: Percentiles | null;
  partitionSizeBytes: Percentiles | null;
  cellCount: Percentiles | null;
  /** Messages such as "No SSTables exists, unable to calculate 'Partition Size' and 'Cell Count' percentiles". */
  notes: string[];
}

export interface NodetoolTableHistograms {
  tables: TableHistogram[];
}

const COLUMNS = ['SSTables', 'Write Latency', 'Read Latency', 'Partition Size', 'Cell Count'];

export const parseTablehistograms = total<NodetoolTableHistograms>('nodetool.tablehistograms', (text) => {
  const kind = 'nodetool.tablehistograms';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);
  const warnings: string[] = [];
  const all = percentileBlocks(lines, COLUMNS, warnings).filter((b) => b.columns.includes('Partition Size') || b.columns.includes('SSTables'));
  if (all.length === 0) return unrecognized(kind, 'no "Percentile … SSTables … Partition Size" header');
  const blocks = all.filter((b) => b.rowsSeen > 0);
  if (blocks.length === 0) return unrecognized(kind, 'the percentile header has no rows under it (output cut right after the header?)');
  if (blocks.length < all.length) warnings.push(`${all.length - blocks.length} histogram block(s) without rows dropped: the output looks truncated`);
  const tables = blocks.map((b): TableHistogram => {
    const m = /^(.+?)\/(.+?) histograms$/.exec(b.title ?? '');
    if (b.rowsSeen < 7) warnings.push(`${b.title ?? 'histogram'}: ${b.rowsSeen} of 7 percentile rows: the output looks truncated`);
    return {
      keyspace: m?.[1] ?? null,
      table: m?.[2] ?? null,
      sstablesPerRead: b.values['SSTables'] ?? null,
      readLatencyMicros: b.values['Read Latency'] ?? null,
      writeLatencyMicros: b.values['Write Latency'] ?? null,
      partitionSizeBytes: b.values['Partition Size'] ?? null,
      cellCount: b.values['Cell Count'] ?? null,
      notes: b.notes,
    };
  });
  return parsedOk<NodetoolTableHistograms>(kind, { tables }, limitWarnings(warnings));
});
