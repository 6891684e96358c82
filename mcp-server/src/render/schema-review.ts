import type { SchemaReview } from '../core/reports/schema-review.js';
import { markdownTable } from './markdown-table.js';

export function renderSchemaReview(r: SchemaReview, opts: { detail?: boolean } = {}): string {
  const c = r.counts;
  const lines = [
    `## Schema review — ${r.source} (${r.product})`,
    `${c.keyspaces} keyspaces, ${c.tables} tables, ${c.indexes} indexes, ${c.views} views, ${c.types} types.`,
    '',
  ];
  const shown = opts.detail ? r.findings : r.findings.filter((f) => f.severity !== 'info');
  if (!shown.length) lines.push('No problems found.');
  for (const f of shown) {
    lines.push(`- **${f.severity}** \`${f.id}\` ${f.title}`);
    for (const e of f.evidence) lines.push(`  - ${e}`);
    lines.push(`  - Fix: ${f.recommendation} (${f.knowledgeIds.map((k) => `kb:${k}`).join(', ')})`);
  }
  const infos = r.findings.length - shown.length;
  if (infos > 0) lines.push(`(${infos} info finding(s) hidden; detail shows them)`);
  lines.push(
    '',
    markdownTable(
      ['table', 'compaction', 'chunk KiB', 'gc_grace', 'TTL', 'caching', 'spec. retry', 'MiB/node max'],
      r.tables.map((t) => [
        t.kind === 'view' ? `${t.table} (view)` : t.table,
        t.compaction?.replace(/CompactionStrategy$/, '') ?? 'default',
        t.chunkKb,
        t.gcGraceSeconds,
        t.defaultTtl,
        t.caching,
        t.speculativeRetry,
        t.diskMiBMaxNode,
      ]),
    ),
  );
  const skipped = r.checked.filter((o) => !o.checked);
  if (skipped.length) lines.push('', 'Not checked:', ...skipped.map((o) => `- ${o.checks}: ${o.skippedBecause}`));
  if (r.warnings.length) lines.push('', ...r.warnings.map((w) => `⚠ ${w}`));
  return lines.join('\n');
}
