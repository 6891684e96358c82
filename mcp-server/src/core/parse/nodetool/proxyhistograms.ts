/**
 * nodetool proxyhistograms: coordinator latency percentiles in microseconds (Cassandra
 * tools/nodetool/ProxyHistograms.java; 2.x printed only Read/Write/Range, 3.0+ adds CAS Read, CAS Write and
 * View Write). An all-zero column means no such requests went through this coordinator.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { limitWarnings, nodetoolError, nodetoolLines } from './nodetool-text.js';
import { percentileBlocks, type Percentiles } from './percentiles.js';

export interface NodetoolProxyHistograms {
  readLatencyMicros: Percentiles | null;
  writeLatencyMicros: Percentiles | null;
  rangeLatencyMicros: Percentiles | null;
  casReadLatencyMicros: Percentiles | null;
  casWriteLatencyMicros: Percentiles | null;
  viewWriteLatencyMicros: Percentiles | null;
  columns: string[];
}

const COLUMNS = ['Read Latency', 'Write Latency', 'Range Latency', 'CAS Read Latency', 'CAS Write Latency', 'View Write Latency'];

export const parseProxyhistograms = total<NodetoolProxyHistograms>('nodetool.proxyhistograms', (text) => {
  const kind = 'nodetool.proxyhistograms';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);
  const warnings: string[] = [];
  const block = percentileBlocks(lines, COLUMNS, warnings).find((b) => b.columns.includes('Read Latency') && b.columns.includes('Range Latency'));
  if (!block) return unrecognized(kind, 'no "Percentile  Read Latency  Write Latency  Range Latency …" header');
  if (block.rowsSeen === 0) return unrecognized(kind, 'the percentile header has no rows under it (output cut right after the header?)');
  if (block.rowsSeen < 7) warnings.push(`${block.rowsSeen} of 7 percentile rows: the output looks truncated`);
  const v = block.values;
  return parsedOk<NodetoolProxyHistograms>(
    kind,
    {
      readLatencyMicros: v['Read Latency'] ?? null,
      writeLatencyMicros: v['Write Latency'] ?? null,
      rangeLatencyMicros: v['Range Latency'] ?? null,
      casReadLatencyMicros: v['CAS Read Latency'] ?? null,
      casWriteLatencyMicros: v['CAS Write Latency'] ?? null,
      viewWriteLatencyMicros: v['View Write Latency'] ?? null,
      columns: block.columns,
    },
    limitWarnings(warnings),
  );
});
