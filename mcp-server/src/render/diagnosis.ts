import type { DiagnosisReport } from '../ops/diagnose.js';
import { renderChecked, renderFinding } from './interpret.js';

/**
 * A diagnosis as the assistant reads it: worst first, each finding with its evidence and fix. Compact by
 * default (info findings folded, evidence capped) so a 3-node cluster fits in about 1,500 words.
 */
export function renderDiagnosis(r: DiagnosisReport, opts: { detail?: boolean } = {}): string {
  const out: string[] = [];
  const state = r.nodes.map((n) => `${n.address}${n.status === 'complete' ? '' : ` (${n.status})`}`).join(', ');
  out.push(`Diagnosis of ${r.origin}: ${r.nodes.length} node(s) [${state}], version(s) ${r.versions.join(', ') || 'unknown'}, collected ${r.collectedAt} in ${(r.durationMs / 1000).toFixed(1)} s`);
  out.push(`Findings: ${r.counts.critical} critical, ${r.counts.warning} warning, ${r.counts.info} info${r.bundleDir ? ` · raw outputs in ${r.bundleDir}` : ''}`);
  if (r.bundleError) out.push(`⚠ raw outputs not saved [${r.bundleError.code}]: ${r.bundleError.message} (fix: ${r.bundleError.fix}); the diagnosis is complete`);
  for (const w of r.warnings ?? []) out.push(`⚠ ${w}`);
  const shown = opts.detail ? r.findings : r.findings.filter((f) => f.severity !== 'info');
  const folded = r.findings.length - shown.length;
  out.push('');
  if (!r.findings.length) out.push('No findings: every check below passed.');
  const limit = opts.detail ? Infinity : 25;
  out.push(...shown.slice(0, limit).map(renderFinding));
  if (shown.length > limit) out.push(`… ${shown.length - limit} more findings (detail: true for all)`);
  if (folded) out.push(`(${folded} info finding(s) not shown: ${[...new Set(r.findings.filter((f) => f.severity === 'info').map((f) => f.id))].join(', ')}; detail: true shows them)`);
  out.push('', 'Checked:', renderChecked(r.checked));
  return out.join('\n');
}
