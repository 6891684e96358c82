/**
 * A pasted `df -P -k` (or `df -k`): filesystems filling up. The paste does not say which mount holds the node's
 * data or commit log, so every real filesystem is judged and the finding asks to check; the sweep's disk-space rule,
 * which knows the node's directories, judges only those. Memory and pseudo filesystems (tmpfs, devtmpfs, squashfs
 * images) are not disks that fill with data. PURE.
 */
import type { Finding } from '../../findings.js';
import type { DfRow } from '../../parse/host/df.js';
import { finding, PACK } from '../../rules/rule.js';
import { formatBytes } from '../../units.js';
import type { KindRule } from '../types.js';

const PSEUDO_FS = /^(?:tmpfs|devtmpfs|udev|shm|none|overlay_shm|cgroup2?|proc|sysfs|squashfs|efivarfs)$/;
const PSEUDO_MOUNT = /^\/(?:dev|proc|sys|run)(?:\/|$)|^\/snap\//;
const gib = (kib: number) => formatBytes(kib * 1024);

export const dfSpaceLow: KindRule<DfRow[]> = {
  id: 'host.disk.space-low',
  checks: "each filesystem's Use% (tmpfs, devtmpfs and /dev, /proc, /sys, /run mounts left out)",
  run(rows) {
    const disks = rows.filter((r) => !PSEUDO_FS.test(r.filesystem) && !PSEUDO_MOUNT.test(r.mount) && r.sizeKiB > 0);
    if (!disks.length) return 'no disk filesystem among the rows (only memory or pseudo filesystems)';
    const findings: Finding[] = [];
    for (const r of disks) {
      const f = finding(PACK, 'host.disk.space-used', r.usedPct, (severity) => ({
        id: 'host.disk.space-low',
        title: `${r.mount} is ${r.usedPct} % full (${gib(r.availKiB)} free on ${r.filesystem})`,
        evidence: [`${r.filesystem} on ${r.mount}: ${gib(r.usedKiB)} used of ${gib(r.sizeKiB)}, ${gib(r.availKiB)} available, Use% ${r.usedPct} (df)`],
        recommendation:
          `If ${r.mount} holds data_file_directories or the commit log: ${severity === 'critical' ? 'act now, ' : ''}compaction needs free space to merge ` +
          '(up to the size of the largest SSTables it merges), then flushes and writes fail. Clear snapshots (nodetool listsnapshots / clearsnapshot), ' +
          'remove data of dropped tables, add disk or nodes; do not delete SSTables by hand.',
        confidence: 'medium',
      }));
      if (f) findings.push(f);
    }
    return findings.length ? findings : `${disks.length} disk filesystem(s), none at the warning level`;
  },
};

export const DF_RULES = [dfSpaceLow] as const;
