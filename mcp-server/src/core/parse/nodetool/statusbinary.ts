/** nodetool statusbinary: "running" or "not running" (native/CQL transport), same on Cassandra and ScyllaDB. */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { nodetoolError, nodetoolLines } from './nodetool-text.js';

export interface NodetoolStatusbinary {
  running: boolean;
}

export const parseStatusbinary = total<NodetoolStatusbinary>('nodetool.statusbinary', (text) => {
  const kind = 'nodetool.statusbinary';
  const lines = nodetoolLines(text)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);
  const answer = lines.find((l) => /^(not )?running$/i.test(l));
  if (!answer) return unrecognized(kind, 'no "running" / "not running" line');
  const warnings = lines.length > 1 ? [`ignored ${lines.length - 1} other line(s)`] : [];
  return parsedOk<NodetoolStatusbinary>(kind, { running: !/^not /i.test(answer) }, warnings);
});
