import type { StorageReport } from '../core/reports/storage.js';

const size = (n: number | null) =>
  n === null ? '?' : n >= 1024 ** 4 ? `${(n / 1024 ** 4).toFixed(1)}T` : n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)}G` : `${Math.round(n / 1024 ** 2)}M`;

/** Compact text: directories → devices, a device table, findings worst first, what was not read. */
export function renderStorageReport(r: StorageReport): string {
  const out: string[] = [r.summary, ''];
  if (r.dirs.length) {
    out.push('Directories:');
    for (const d of r.dirs)
      out.push(
        `- ${d.role} ${d.path} → ${d.mountpoint ?? '?'} (${d.fstype ?? '?'}) on ${d.device ?? '?'}${d.physical.length ? ` → ${d.physical.join(', ')}` : ''}  [${d.from}]`,
      );
    out.push('');
  }
  const shown = r.devices.filter((d) => d.type !== 'part' && !/^(loop|ram|zram|sr)/.test(d.name ?? ''));
  if (shown.length) {
    out.push('Devices (log/phys sector, read-ahead KiB, scheduler, rotational, size):');
    for (const d of shown)
      out.push(
        `- ${d.name} ${d.type ?? ''} ${d.logicalSectorSize ?? '?'}/${d.physicalSectorSize ?? '?'} B, ra ${d.readAheadKiB ?? '?'}, ${d.scheduler ?? '-'}, rot ${d.rotational === null ? '?' : d.rotational ? 1 : 0}, ${size(d.sizeBytes)}${d.model ? `, ${d.model}` : ''}${d.mountpoints.length ? `, mounted ${d.mountpoints.join(' ')}` : ''}`,
      );
    out.push('');
  }
  for (const m of r.md) out.push(`md: ${m.name} ${m.level} chunk ${m.chunkBytes === null ? '?' : `${m.chunkBytes / 1024} KiB`} members ${m.members.join(' ')}`);
  for (const x of r.xfs)
    out.push(
      `xfs: ${x.mountpoint ?? x.device} bsize ${x.bsize} sectsz ${x.sectsz} sunit ${x.sunitBytes ?? 0} B swidth ${x.swidthBytes ?? 0} B agcount ${x.agcount} crc ${x.crc} reflink ${x.reflink}`,
    );
  if (r.md.length || r.xfs.length) out.push('');
  if (r.findings.length) {
    out.push('Findings:');
    for (const f of r.findings)
      out.push(`- [${f.severity}] ${f.id}: ${f.title}\n  evidence: ${f.evidence.join('; ')}\n  fix: ${f.recommendation}\n  kb: ${f.knowledgeIds.join(', ')}`);
  } else out.push('No storage findings.');
  const skipped = r.checked.filter((c) => !c.checked);
  out.push(
    '',
    `Checked: ${
      r.checked
        .filter((c) => c.checked)
        .map((c) => c.rule.replace(/^storage:/, ''))
        .join(', ') || 'nothing'
    }`,
  );
  if (skipped.length) out.push(`Not checked: ${skipped.map((c) => `${c.rule.replace(/^storage:/, '')} (${c.skippedBecause})`).join('; ')}`);
  if (r.unread.length) out.push(`Not read: ${r.unread.map((u) => `${u.what}: ${u.why}`).join('; ')}`);
  for (const w of r.warnings) out.push(`Note: ${w}`);
  return out.join('\n');
}
