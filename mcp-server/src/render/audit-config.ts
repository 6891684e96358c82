import { basename } from 'node:path';
import type { AuditConfigReport } from '../core/reports/audit-config.js';
import { renderChecked, renderFinding } from './interpret.js';

const GIB = 1024 ** 3;

export function renderAuditConfig(r: AuditConfigReport, opts: { detail?: boolean } = {}): string {
  const ctx = [
    r.context.version ? `Cassandra ${r.context.version}` : 'version not given',
    r.context.jdk !== null ? `JDK ${r.context.jdk}${r.context.jdkFrom ? ` (from ${basename(r.context.jdkFrom)})` : ''}` : 'JDK not given',
    r.context.hostRamBytes ? `${(r.context.hostRamBytes / GIB).toFixed(0)} GiB RAM` : 'RAM not given',
    r.context.cores ? `${r.context.cores} cores` : 'cores not given',
  ].join(', ');
  const inputs = [
    ...r.inputs.map(
      (i) =>
        `- ${i.source}: ${i.ok ? `${i.kind} (${i.detail})` : `not read — ${i.reason}`}${i.warnings.length ? `; parser notes: ${i.warnings.slice(0, 3).join('; ')}` : ''}`,
    ),
    ...(r.notes ?? []).map((n) => `- note: ${n}`),
  ];
  const shown = opts.detail ? r.findings : r.findings.filter((f) => f.severity !== 'info' || f.id === 'config.yaml.naming');
  const hidden = r.findings.length - shown.length;
  const body = shown.length ? shown.map(renderFinding).join('\n') : 'No findings: nothing in these files crossed a threshold.';
  return [
    `Config audit: ${r.counts.critical} critical, ${r.counts.warning} warning, ${r.counts.info} info (${ctx})`,
    ...inputs,
    '',
    body,
    ...(hidden ? [`(${hidden} more info finding(s); ask for detail to see them)`] : []),
    '',
    'Checked:',
    renderChecked(r.checked),
  ].join('\n');
}
