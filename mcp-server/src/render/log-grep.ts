import type { GrepFilesResult } from '../core/reports/logs.js';

const BAR = 40;

/** A log search as text: what was searched, counts, matches per bucket as bars, the first matching lines. */
export function renderLogGrep(r: GrepFilesResult): string {
  const how = `${r.regex ? 'RE2 regex' : 'text'}`;
  const read = r.files.filter((f) => f.read);
  const lines = [
    `search ${JSON.stringify(r.pattern)} (${how}) in ${read.length} file(s), ${r.lines} line(s): ` +
      `${r.matches} matching line(s) at ${r.times} distinct time(s)${r.undated ? `, ${r.undated} before any dated line` : ''}`,
  ];
  for (const f of r.files.filter((x) => !x.read)) lines.push(`not read: ${f.path} ${f.error ?? ''}`.trimEnd());
  if (r.first) lines.push(`first ${r.first}, last ${r.last}`);
  if (r.buckets.length) {
    const max = Math.max(...r.buckets.map((b) => b.matches));
    const width = String(max).length;
    lines.push('', `per ${r.bucketSeconds >= 3600 && r.bucketSeconds % 3600 === 0 ? `${r.bucketSeconds / 3600} h` : `${r.bucketSeconds} s`}:`);
    for (const b of r.buckets) lines.push(`  ${b.start}  ${String(b.matches).padStart(width)} ${'#'.repeat(Math.max(1, Math.round((b.matches / max) * BAR)))}`);
  }
  if (r.examples.length) {
    lines.push('', `first ${r.examples.length} match(es):`);
    for (const e of r.examples) lines.push(`  line ${e.line}${e.time ? ` (${e.time})` : ''}: ${e.text}`);
  }
  if (!r.matches) lines.push('No matches.');
  return lines.join('\n');
}
