/**
 * nodetool gcstats: GC activity since the previous call (each call resets the interval). Cassandra 3.x–5.0
 * print one right-aligned header (widths 20, so "Max GC Elapsed (ms)Total GC Elapsed (ms)" run together)
 * and one row of 7 numbers (tools/nodetool/GcStats.java, stats/GcStatsPrinter.java). Trunk renames the last
 * column "Total Direct Memory Bytes" and adds a -H "label value" layout with max/reserved direct memory.
 *
 * "GC Reclaimed (MB)" is mislabelled: the value is bytes reclaimed (GCInspector sums bytes), as the 5.0.9
 * capture shows (1084660880 "MB" reclaimed by 4 collections of a 1 GiB heap). It is kept here as bytes.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { nodetoolError, nodetoolLines, num } from './nodetool-text.js';

export interface NodetoolGcstats {
  intervalMs: number | null;
  maxGcElapsedMs: number | null;
  totalGcElapsedMs: number | null;
  /** null when NaN (no collection in the interval). */
  stdevGcElapsedMs: number | null;
  /** Bytes, although the header says "GC Reclaimed (MB)". */
  reclaimedBytes: number | null;
  collections: number | null;
  /** null when nodetool printed -1 (not available from this JVM). */
  directMemoryBytes: number | null;
  maxDirectMemoryBytes: number | null;
  reservedDirectMemoryBytes: number | null;
  notes: string[];
}

const LABELS: Record<string, keyof Omit<NodetoolGcstats, 'notes'>> = {
  'Interval (ms)': 'intervalMs',
  'Max GC Elapsed (ms)': 'maxGcElapsedMs',
  'Total GC Elapsed (ms)': 'totalGcElapsedMs',
  'Stdev GC Elapsed (ms)': 'stdevGcElapsedMs',
  'GC Reclaimed (MB)': 'reclaimedBytes',
  Collections: 'collections',
  'Direct Memory Bytes': 'directMemoryBytes',
  'Total Direct Memory Bytes': 'directMemoryBytes',
  'Max Direct Memory Bytes': 'maxDirectMemoryBytes',
  'Reserved Direct Memory Bytes': 'reservedDirectMemoryBytes',
};
const ROW_ORDER: (keyof Omit<NodetoolGcstats, 'notes'>)[] = [
  'intervalMs',
  'maxGcElapsedMs',
  'totalGcElapsedMs',
  'stdevGcElapsedMs',
  'reclaimedBytes',
  'collections',
  'directMemoryBytes',
];
const NUMBER = /^(?:-?\d+(?:\.\d+)?(?:E[+-]?\d+)?|NaN)$/i;

export const parseGcstats = total<NodetoolGcstats>('nodetool.gcstats', (text) => {
  const kind = 'nodetool.gcstats';
  const lines = nodetoolLines(text)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);

  const v: NodetoolGcstats = {
    intervalMs: null,
    maxGcElapsedMs: null,
    totalGcElapsedMs: null,
    stdevGcElapsedMs: null,
    reclaimedBytes: null,
    collections: null,
    directMemoryBytes: null,
    maxDirectMemoryBytes: null,
    reservedDirectMemoryBytes: null,
    notes: ['"GC Reclaimed (MB)" is printed in bytes; reclaimedBytes keeps it as bytes.'],
  };
  const warnings: string[] = [];
  const headerAt = lines.findIndex((l) => /^Interval \(ms\)\s+Max GC Elapsed/.test(l));
  let found = false;
  if (headerAt >= 0) {
    const row = lines[headerAt + 1]?.split(/\s+/) ?? [];
    if (row.length >= 7 && row.every((c) => NUMBER.test(c))) {
      ROW_ORDER.forEach((k, i) => (v[k] = num(row[i])));
      found = true;
    } else return unrecognized(kind, 'gcstats header without its row of values (output cut after the header?)');
  } else {
    // Trunk -H layout: one "Label   value" row per statistic.
    const labels = Object.keys(LABELS).sort((a, b) => b.length - a.length);
    for (const line of lines) {
      const label = labels.find((l) => line.startsWith(l) && /^\s/.test(line.slice(l.length)));
      const value = label ? line.slice(label.length).trim() : '';
      if (label && NUMBER.test(value)) {
        v[LABELS[label]!] = num(value);
        found = true;
      }
    }
    if (!found) return unrecognized(kind, 'no "Interval (ms)  Max GC Elapsed (ms) …" header');
    if (v.collections === null) warnings.push('no "Collections" row: the output looks truncated');
  }
  if (v.directMemoryBytes !== null && v.directMemoryBytes < 0) {
    v.directMemoryBytes = null;
    v.notes.push('direct memory printed as -1: not reported by this JVM');
  }
  if (v.collections === 0) v.notes.push('no collection in the interval (stdev NaN); gcstats resets its interval on every call');
  return parsedOk<NodetoolGcstats>(kind, v, warnings);
});
