import type { PlanMkfsReport } from '../core/reports/plan-mkfs.js';

export function renderPlanMkfs(r: PlanMkfsReport): string {
  const p = r.plan;
  const out: string[] = [
    `mkfs plan for ${p.device} on ${r.target} (${r.devices.map((d) => `${d.name}: ${d.physicalSectorSize ?? '?'} B physical, ${d.source}`).join('; ')})`,
    '',
  ];
  if (p.mdadmArgv) out.push(`1. create the array: ${p.mdadmArgv.join(' ')}`);
  out.push(`${p.mdadmArgv ? '2' : '1'}. format: ${p.mkfsArgv.join(' ')}`);
  for (const f of p.flags) out.push(`   ${f.flag}: ${f.why}${f.knowledgeIds.length ? ` [${f.knowledgeIds.join(', ')}]` : ''}`);
  out.push(`${p.mdadmArgv ? '3' : '2'}. mount with: ${p.mountOptions.map((m) => m.flag).join(', ')}`);
  for (const m of p.mountOptions) out.push(`   ${m.flag}: ${m.why} [${m.knowledgeIds.join(', ')}]`);
  for (const w of p.warnings) out.push(`Warning: ${w}`);
  out.push('');
  if (r.dryRun.ran) {
    out.push(`Dry run (${r.dryRun.argv.join(' ')}; nothing written):`, r.dryRun.output.trimEnd());
    if (r.dryRun.existingFilesystem) out.push(`Warning: ${p.device} already holds a file system; formatting it would destroy it.`);
    if (r.dryRun.mismatches.length) out.push(`Dry run differs from the plan: ${r.dryRun.mismatches.join('; ')}`);
  } else out.push(`No dry run: ${r.dryRun.why}`);
  out.push('cql-tuner never formats anything: run the commands yourself after checking the device names.');
  return out.join('\n');
}
