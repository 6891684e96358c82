import type { AuditOsReport } from '../core/reports/audit-os.js';

export function renderAuditOs(r: AuditOsReport): string {
  const out = [r.summary, ''];
  if (r.findings.length) {
    out.push('Findings:');
    for (const f of r.findings)
      out.push(`- [${f.severity}] ${f.id}: ${f.title}\n  evidence: ${f.evidence.join('; ')}\n  fix: ${f.recommendation}\n  kb: ${f.knowledgeIds.join(', ')}`);
  } else out.push('No OS findings.');
  out.push(
    '',
    `Checked: ${
      r.checked
        .filter((c) => c.checked)
        .map((c) => c.rule.replace(/^os:/, ''))
        .join(', ') || 'nothing'
    }`,
  );
  const skipped = r.checked.filter((c) => !c.checked);
  if (skipped.length) out.push(`Not checked: ${skipped.map((c) => `${c.rule.replace(/^os:/, '')} (${c.skippedBecause})`).join('; ')}`);
  if (r.facts.unread.length) out.push(`Not read: ${r.facts.unread.map((u) => `${u.what}: ${u.why}`).join('; ')}`);
  if (r.scyllaHost?.unread.length) out.push(`ScyllaDB set-up not read: ${r.scyllaHost.unread.map((u) => `${u.what}: ${u.why}`).join('; ')}`);
  return out.join('\n');
}
