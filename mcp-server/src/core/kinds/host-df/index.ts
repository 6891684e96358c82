/** `df -P -k` / `df -k` / `df -h` pasted or collected (a diagnostic tarball's os-metrics/df): filesystems filling up. */
import { DF_KIND, parseDf } from '../../parse/host/df.js';
import { defineKind } from '../types.js';
import { DF_RULES } from './rules.js';

export const hostDf = defineKind({
  kind: DF_KIND,
  title: 'df -P -k / df -k / df -h (filesystem usage)',
  signature: /^\s*Filesystem\s+(?:(?:1024|1K)-blocks|Size)\s+Used\s+Avail/im,
  parse: parseDf,
  // A header no log line prints
  order: 'before-logs',
  rules: DF_RULES,
  knowledgeIds: ['host.disk.space-used'],
  fixtures: 'host-df',
  summary: (rows) =>
    `df: ${rows.length} filesystem(s), fullest ${[...rows].sort((a, b) => b.usedPct - a.usedPct)[0]?.mount ?? '?'} at ${Math.max(...rows.map((r) => r.usedPct))} %`,
});
