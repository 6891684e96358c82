/**
 * nodetool compactionhistory. Cassandra (tools/nodetool/stats/CompactionHistoryPrinter.java):
 * "Compaction History:" then a left-aligned table "id keyspace_name columnfamily_name compacted_at bytes_in
 * bytes_out rows_merged" (5.0 adds "compaction_properties"), or "There is no compaction history".
 * rows_merged looks like "{1:3, 2:1}" (partitions merged from n SSTables). ScyllaDB's native nodetool prints
 * the same columns with rows_merged empty, and recent versions add shard_id, compaction_name, sstables_in/out
 * and tombstone purge counters (docs/operating-scylla/nodetool-commands/compactionhistory.rst). Columns are
 * read by header name, so extra ones land in `extra`.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { headerWords, sliceRow } from './columns.js';
import { limitWarnings, nodetoolError, nodetoolLines, num } from './nodetool-text.js';

export interface CompactionHistoryEntry {
  id: string;
  keyspace: string;
  table: string;
  /** As printed: local time without zone on Cassandra ("2024-05-01T10:00:00.123"). */
  compactedAt: string;
  bytesIn: number | null;
  bytesOut: number | null;
  /** SSTables-merged → partition count, from "{1:3, 2:1}"; null when empty. */
  rowsMerged: Record<string, number> | null;
  /** 5.0 compaction_properties as key → value; null when absent. */
  compactionProperties: Record<string, string> | null;
  /** Columns this parser does not type (ScyllaDB shard_id, compaction_name …), as printed. */
  extra: Record<string, string>;
}

export interface NodetoolCompactionHistory {
  entries: CompactionHistoryEntry[];
  columns: string[];
}

const KNOWN = new Set(['id', 'keyspace_name', 'columnfamily_name', 'compacted_at', 'bytes_in', 'bytes_out', 'rows_merged', 'compaction_properties']);

function mapOf(text: string): Record<string, string> | null {
  const inner = /^\{(.*)\}$/.exec(text.trim())?.[1];
  if (inner === undefined || inner.trim() === '') return null;
  const out: Record<string, string> = {};
  for (const m of inner.matchAll(/([^{},:=\s][^{},:=]*?)\s*[:=]\s*([^,}]*)/g)) out[m[1]!.trim()] = m[2]!.trim();
  return out;
}

function counts(text: string): Record<string, number> | null {
  const m = mapOf(text);
  if (!m) return null;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(m)) {
    const n = num(v);
    if (n !== null) out[k] = n;
  }
  return out;
}

export const parseCompactionhistory = total<NodetoolCompactionHistory>('nodetool.compactionhistory', (text) => {
  const kind = 'nodetool.compactionhistory';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);

  const warnings: string[] = [];
  const entries: CompactionHistoryEntry[] = [];
  let columns: ReturnType<typeof headerWords> | null = null;
  let sawTitle = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (/^Compaction History:?$/.test(line)) {
      sawTitle = true;
      continue;
    }
    if (/^There is no compaction history/.test(line)) return parsedOk<NodetoolCompactionHistory>(kind, { entries: [], columns: [] });
    if (/^id\s+(?:\S+\s+)*keyspace_name\s+(?:\S+\s+)*columnfamily_name\b/.test(line)) {
      columns = headerWords(raw);
      continue;
    }
    if (!columns) continue;
    const names = columns.map((c) => c.name);
    let cells = sliceRow(raw, columns);
    if (!cells || cells[0] === '') {
      // Not aligned with the header: id ks table compacted_at bytes_in bytes_out, the rest is rows_merged.
      const t = line.split(/\s+/);
      if (t.length < 6) {
        warnings.push(`row with ${t.length} cells skipped (truncated?): ${line.slice(0, 100)}`);
        continue;
      }
      cells = names.map((n) => {
        const at = ['id', 'keyspace_name', 'columnfamily_name', 'compacted_at', 'bytes_in', 'bytes_out'].indexOf(n);
        return at >= 0 ? (t[at] ?? '') : n === 'rows_merged' ? t.slice(6).join(' ') : '';
      });
    }
    const cell = (n: string) => cells[names.indexOf(n)] ?? '';
    if (cell('bytes_in') === '' && cell('bytes_out') === '') {
      warnings.push(`row without byte counts skipped (truncated?): ${line.slice(0, 100)}`);
      continue;
    }
    const extra: Record<string, string> = {};
    names.forEach((n, i) => {
      if (!KNOWN.has(n)) extra[n] = cells[i] ?? '';
    });
    entries.push({
      id: cell('id'),
      keyspace: cell('keyspace_name'),
      table: cell('columnfamily_name'),
      compactedAt: cell('compacted_at'),
      bytesIn: num(cell('bytes_in')),
      bytesOut: num(cell('bytes_out')),
      rowsMerged: counts(cell('rows_merged')),
      compactionProperties: names.includes('compaction_properties') ? mapOf(cell('compaction_properties')) : null,
      extra,
    });
  }
  if (!columns) {
    return unrecognized(
      kind,
      sawTitle ? '"Compaction History:" without its column header (output cut?)' : 'no "id … keyspace_name … columnfamily_name" header',
    );
  }
  return parsedOk<NodetoolCompactionHistory>(kind, { entries, columns: columns.map((c) => c.name) }, limitWarnings(warnings));
});
