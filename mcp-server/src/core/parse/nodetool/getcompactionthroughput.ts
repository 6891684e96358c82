/** nodetool getcompactionthroughput; the wording per version is described in throughput.ts. */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { nodetoolError, nodetoolLines } from './nodetool-text.js';
import { readThroughput, type ThroughputReport } from './throughput.js';

export type NodetoolCompactionThroughput = ThroughputReport;

export const parseGetcompactionthroughput = total<NodetoolCompactionThroughput>('nodetool.getcompactionthroughput', (text) => {
  const kind = 'nodetool.getcompactionthroughput';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);
  const read = readThroughput(lines, 'compaction');
  if (!read) return unrecognized(kind, 'no "Current compaction throughput:" line');
  if (!read.report.cap) return unrecognized(kind, read.warnings[0] ?? 'throughput value not understood');
  return parsedOk<NodetoolCompactionThroughput>(kind, read.report, read.warnings);
});
