import { OpError } from '../../core/errors.js';
import type { Incident, IncidentContext } from './types.js';
import type { DiskOps } from './loop-disk.js';

const NODE = 1;
const DISK = 'disk-near-full';
/** Sparse: the host disk holds only what the node writes, the filler is preallocated metadata. */
const SIZE_MIB = 1024;
const USED_PCT = 95;

export function diskOpsOf(ctx: IncidentContext): DiskOps {
  if (!ctx.disk) throw new OpError('INCIDENT_NO_DISK_OPS', 'this incident context cannot move data directories', 'Run it through `cql-tuner lab incident`.');
  return ctx.disk;
}

/** Node 1's data directory on a 1 GiB loop filesystem that a preallocated file fills to 95 %. */
export const diskNearFull: Incident = {
  name: 'disk-near-full',
  title: 'A data disk near full',
  description:
    `Stops node ${NODE}, moves its data directory onto a ${SIZE_MIB} MiB loop-mounted filesystem (a sparse file under the lab dir; ` +
    `XFS, or ext4 without mkfs.xfs), starts it again and fills that filesystem to ${USED_PCT} %. Heal copies the data back.`,
  nodes: 1,
  needs: ['root', 'loop-devices'],
  expect: ['host.disk.space-low'],
  async inject(ctx) {
    const disk = diskOpsOf(ctx);
    try {
      const d = await disk.moveDataToLoop(NODE, DISK, { sizeMiB: SIZE_MIB });
      const f = await disk.fill(NODE, DISK, USED_PCT);
      ctx.progress(`node ${NODE}: data on ${d.device} (${d.fsType}), ${f.usedPct} % used`);
    } catch (e) {
      // Never leave a loop device, a mount or a stopped node behind.
      await disk.restoreData(NODE, DISK).catch(() => {});
      throw e;
    }
  },
  async heal(ctx) {
    await diskOpsOf(ctx).restoreData(NODE, DISK);
  },
};
