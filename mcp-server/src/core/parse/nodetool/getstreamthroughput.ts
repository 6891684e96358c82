/** nodetool getstreamthroughput; the wording per version is described in throughput.ts. */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { nodetoolError, nodetoolLines } from './nodetool-text.js';
import { readThroughput, type ThroughputReport } from './throughput.js';

export type NodetoolStreamThroughput = ThroughputReport;

export const parseGetstreamthroughput = total<NodetoolStreamThroughput>('nodetool.getstreamthroughput', (text) => {
  const kind = 'nodetool.getstreamthroughput';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);
  const read = readThroughput(lines, 'stream');
  if (!read) return unrecognized(kind, 'no "Current stream throughput:" line');
  if (!read.report.cap && !read.report.entireSstableCap) return unrecognized(kind, read.warnings[0] ?? 'throughput value not understood');
  return parsedOk<NodetoolStreamThroughput>(kind, read.report, read.warnings);
});
