/**
 * What this host offers the incidents that need more than CQL and nodetool: root, writable cgroup v1 cpu/blkio
 * hierarchies, loop devices, mkfs.xfs, latte. Detection only reads (access checks, stat); a missing capability
 * becomes a skip reason, never an attempt.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { locateStressTool } from '../../collect/stress-runner.js';
import type { HostNeed, Incident } from './types.js';

export type HostCapabilities = Record<HostNeed, boolean>;

export interface HostProbe {
  uid(): number;
  writable(path: string): Promise<boolean>;
  isDir(path: string): Promise<boolean>;
  onPath(name: string): Promise<boolean>;
  latte(): Promise<boolean>;
}

export const CGROUP_V1_ROOT = '/sys/fs/cgroup';

async function canAccess(path: string, mode: number): Promise<boolean> {
  return access(path, mode).then(
    () => true,
    () => false,
  );
}

export const realHostProbe: HostProbe = {
  uid: () => (typeof process.getuid === 'function' ? process.getuid() : -1),
  writable: (p) => canAccess(p, constants.W_OK),
  isDir: (p) =>
    stat(p).then(
      (s) => s.isDirectory(),
      () => false,
    ),
  async onPath(name) {
    const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/sbin', '/usr/sbin'].filter(Boolean);
    for (const d of dirs) if (await canAccess(join(d, name), constants.X_OK)) return true;
    return false;
  },
  latte: () =>
    locateStressTool('latte').then(
      () => true,
      () => false,
    ),
};

/** cgroup v1 controller usable = its hierarchy is mounted as a directory with the throttle file, and writable. */
async function cgroupV1(probe: HostProbe, controller: 'cpu' | 'blkio', file: string): Promise<boolean> {
  const dir = join(CGROUP_V1_ROOT, controller);
  return (await probe.isDir(dir)) && (await probe.writable(join(dir, file))) && (await probe.writable(dir));
}

export async function detectHost(probe: HostProbe = realHostProbe): Promise<HostCapabilities> {
  const root = probe.uid() === 0;
  return {
    root,
    'cgroup-v1-cpu': await cgroupV1(probe, 'cpu', 'cpu.cfs_quota_us'),
    'cgroup-v1-blkio': await cgroupV1(probe, 'blkio', 'blkio.throttle.read_bps_device'),
    'loop-devices': root && (await probe.writable('/dev/loop-control')) && (await probe.onPath('losetup')),
    'mkfs-xfs': await probe.onPath('mkfs.xfs'),
    latte: await probe.latte(),
  };
}

const WHY: Record<HostNeed, string> = {
  root: 'needs root (it changes cgroups or block devices)',
  'cgroup-v1-cpu': `needs a writable cgroup v1 cpu hierarchy (${CGROUP_V1_ROOT}/cpu/cpu.cfs_quota_us); this host has cgroup v2 or no access`,
  'cgroup-v1-blkio': `needs a writable cgroup v1 blkio hierarchy (${CGROUP_V1_ROOT}/blkio)`,
  'loop-devices': 'needs loop devices (/dev/loop-control writable, losetup on PATH)',
  'mkfs-xfs': 'needs mkfs.xfs on PATH (xfsprogs)',
  latte: 'needs latte (cargo install latte-cli --version 0.29.0 --locked --root ~/.cache/cql-tuner/latte-0.29.0, or $CQL_TUNER_LATTE)',
};

/** Why this incident cannot run here, or null when the host offers everything it needs. */
export function skipReason(incident: Pick<Incident, 'needs'>, caps: HostCapabilities): string | null {
  const missing = incident.needs.filter((n) => !caps[n]);
  return missing.length ? missing.map((n) => WHY[n]).join('; ') : null;
}
