import type { MigrationReview } from '../core/migration/index.js';

const MARK = { blocker: '⛔ blocker', action: '▶ action', ok: '✓ ok' } as const;

export function renderMigrationReview(r: MigrationReview): string {
  const lines = [
    `## Migration review: ${r.kind} (${r.path.join(' → ')})`,
    `Verdict: **${r.verdict}** — ${r.counts.blocker} blocker(s), ${r.counts.action} action(s), ${r.counts.ok} ok.`,
    '',
  ];
  for (const i of r.items) {
    lines.push(`- ${MARK[i.status]}${i.step ? ` [step ${i.step}]` : ''} \`${i.id}\` ${i.title}`);
    for (const e of i.evidence.slice(0, 8)) lines.push(`  - ${e}`);
    if (i.evidence.length > 8) lines.push(`  - … ${i.evidence.length - 8} more`);
    if (i.action) lines.push(`  - Do: ${i.action}${i.knowledgeIds.length ? ` (${i.knowledgeIds.map((k) => `kb:${k}`).join(', ')})` : ''}`);
  }
  if (r.proposal?.ddl) lines.push('', `Proposed CQL (keyspace ${r.proposal.keyspace}, ${r.proposal.tables.length} table(s)):`, '```cql', r.proposal.ddl, '```');
  if (r.warnings.length) lines.push('', ...r.warnings.map((w) => `⚠ ${w}`));
  return lines.join('\n');
}
