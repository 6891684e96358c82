/**
 * plan_mkfs / `cql-tuner plan-mkfs`: reads the devices' sector sizes through the Target, plans mkfs.xfs
 * (core/planners/mkfs.ts) and, when the device exists and is not in use, shows what `mkfs.xfs -N` prints.
 * Never runs mkfs without -N (assertDryRun guards every execution) and refuses mounted or in-use devices.
 */
import { HostFiles } from '../collect/storage/read-host.js';
import type { Target } from '../collect/target.js';
import { parseMountinfo } from '../core/parse/storage/host.js';
import { parseMkfsXfs } from '../core/parse/storage/mkfs-xfs.js';
import { assertDryRun, MkfsPlanError, planMkfs, type MkfsPlan, type RaidLevel } from '../core/planners/mkfs.js';
import type { PlanMkfsReport } from '../core/reports/plan-mkfs.js';
import { OpError } from './errors.js';
import { WatchedTarget } from '../collect/storage/watched-target.js';
import { targetFailure, targetOf } from './storage.js';
import { z } from 'zod';
import { TOOL_TARGET_FORMS } from '../collect/target-spec.js';
import { hostCommandTimeoutSchema, productSchema, rootPrefixSchema } from './input-schemas.js';

/** plan_mkfs's input, registered by the MCP tool and checked by `cql-tuner plan-mkfs`. */
export const planMkfsInputSchema = z.object({
  target: z.string().max(1000).default('local').describe(`Host with the disks: ${TOOL_TARGET_FORMS}`),
  product: productSchema,
  devices: z.array(z.string().max(256)).min(1).max(64).describe('Disk names or paths (nvme0n1, /dev/sdb), or one existing md array (md0)'),
  raidLevel: z.enum(['raid0', 'raid1', 'raid10', 'raid5', 'raid6']).optional().describe('Array level when several disks (default raid0)'),
  chunkKiB: z.number().int().min(4).max(65536).optional().describe('md chunk in KiB (default the ScyllaDB reference, 1024)'),
  mdDevice: z.string().max(64).optional().describe('Array device to create (default /dev/md0)'),
  label: z.string().max(12).optional(),
  sectorSize: z
    .number()
    .int()
    .refine((n) => [512, 4096, 8192, 16384, 65536].includes(n), 'a sector size such as 512 or 4096')
    .optional()
    .describe('Physical sector to assume when the device cannot be read'),
  dryRun: z.boolean().default(true).describe('Run mkfs.xfs -N when the device exists and is unused'),
  root: rootPrefixSchema.describe('Recorded host tree prefix (testing)'),
  timeoutMs: hostCommandTimeoutSchema(),
});

export interface PlanMkfsSpec {
  target?: string;
  root?: string;
  product: 'cassandra' | 'scylla';
  /** Disk names or paths (nvme0n1, /dev/sdb); an existing md array (md0) is read as its members. */
  devices: string[];
  raidLevel?: RaidLevel;
  chunkKiB?: number;
  mdDevice?: string;
  label?: string;
  /** Physical sector size to assume when the device cannot be read (planning for hardware not yet installed). */
  sectorSize?: number;
  /** Run mkfs.xfs -N when the device exists (default true). */
  dryRun?: boolean;
  timeoutMs?: number;
}

const name = (d: string) => d.replace(/^\/dev\//, '');

/** `opts.target` overrides spec.target (tests pass a recording Target). */
export async function planMkfsOnHost(spec: PlanMkfsSpec, opts: { signal?: AbortSignal; target?: Target } = {}): Promise<PlanMkfsReport> {
  if (spec.devices.length === 0) throw new OpError('BAD_MKFS_INPUT', 'no devices given', 'Name the disk(s), e.g. nvme0n1 nvme1n1, or an existing md array.');
  // mdDevice lands in the printed mdadm/mkfs.xfs command lines a user pastes into a shell: the same check as devices.
  for (const d of [...spec.devices, ...(spec.mdDevice !== undefined ? [spec.mdDevice] : [])]) {
    if (!/^(\/dev\/)?[A-Za-z0-9][\w.:-]*$/.test(d) && !/^\/[\w./-]+$/.test(d))
      throw new OpError('BAD_DEVICE', `"${d}" is not a device name or path`, 'Use names like sdb, nvme0n1, md0 or /dev/sdb.');
  }
  const target = new WatchedTarget(opts.target ?? targetOf(spec.target));
  const io = new HostFiles(target, spec.root ?? '/', spec.timeoutMs ?? 20_000, opts.signal);
  // An existing array is planned from its members (sector sizes) and keeps its name, level and chunk.
  let devices = spec.devices.map(name);
  let raidLevel = spec.raidLevel;
  let chunkKiB = spec.chunkKiB;
  let mdDevice = spec.mdDevice;
  if (devices.length === 1 && /^md\d+$/.test(devices[0]!)) {
    const md = devices[0]!;
    const v = await io.values([`/sys/block/${md}/md/level`, `/sys/block/${md}/md/chunk_size`]);
    const walk = await io.walk(`/sys/block/${md}/slaves`, 1);
    const members = walk.ok ? walk.paths.map((p) => p.split('/').pop()!).filter((x) => x !== '' && !x.startsWith('.')) : [];
    if (members.length === 0) {
      const fix = 'Name the member disks instead, with --raid-level and --chunk-kib.';
      const unreadable = new OpError('MD_UNREADABLE', `cannot read the members of ${md} on ${target.describe()}`, fix);
      throw targetFailure(target) ?? unreadable;
    }
    devices = members;
    raidLevel = (v.values[`/sys/block/${md}/md/level`]?.trim() as RaidLevel | undefined) ?? raidLevel;
    const chunk = Number(v.values[`/sys/block/${md}/md/chunk_size`]);
    if (chunk > 0) chunkKiB = chunk / 1024;
    mdDevice = `/dev/${md}`;
  }
  const files = devices.flatMap((d) => [`/sys/block/${d}/queue/logical_block_size`, `/sys/block/${d}/queue/physical_block_size`, `/sys/block/${d}/size`]);
  const v = await io.values(files);
  // A host that refused the login is an error, not a plan from assumed sector sizes.
  const down = targetFailure(target);
  if (down) throw down;
  const read = devices.map((d): PlanMkfsReport['devices'][number] => {
    const num = (f: string) => (v.values[`/sys/block/${d}/${f}`] !== undefined ? Number(v.values[`/sys/block/${d}/${f}`]) : null);
    const phys = num('queue/physical_block_size');
    if (phys !== null) {
      const sectors = num('size');
      return {
        name: d,
        logicalSectorSize: num('queue/logical_block_size'),
        physicalSectorSize: phys,
        sizeBytes: sectors === null ? null : sectors * 512,
        source: 'sysfs',
      };
    }
    if (spec.sectorSize) return { name: d, logicalSectorSize: null, physicalSectorSize: spec.sectorSize, sizeBytes: null, source: 'given' };
    return { name: d, logicalSectorSize: null, physicalSectorSize: null, sizeBytes: null, source: 'assumed' };
  });
  let plan: MkfsPlan;
  try {
    plan = planMkfs({
      product: spec.product,
      devices: read,
      ...(raidLevel ? { raidLevel } : {}),
      ...(chunkKiB ? { chunkKiB } : {}),
      ...(mdDevice ? { mdDevice } : {}),
      ...(spec.label ? { label: spec.label } : {}),
    });
  } catch (e) {
    if (e instanceof MkfsPlanError) throw new OpError(e.code, e.message, e.fix);
    throw e;
  }
  const report: PlanMkfsReport = { target: target.describe(), plan, devices: read, dryRun: { ran: false, why: 'dry run not requested' } };
  if (spec.dryRun === false) return report;
  report.dryRun = await dryRun(io, plan);
  return report;
}

/** Refuses mounted or in-use devices, then runs mkfs.xfs -N (and -N -f when a file system is already there). */
async function dryRun(io: HostFiles, plan: MkfsPlan): Promise<PlanMkfsReport['dryRun']> {
  const dev = name(plan.device);
  const exists = await io.values([`/sys/block/${dev}/dev`]);
  if (exists.values[`/sys/block/${dev}/dev`] === undefined) {
    return {
      ran: false,
      why: plan.mdadmArgv
        ? `${plan.device} does not exist yet: create the array (mdadm argv above), then plan again on ${dev} to see the dry run`
        : `${plan.device} is not a block device on ${io.target.describe()}`,
    };
  }
  // In use: mounted itself, or a partition / holder of it mounted, or a member of an array or LVM.
  const tree = await io.walk(`/sys/block/${dev}`, 3);
  const names = new Set<string>([dev]);
  const holders: string[] = [];
  if (tree.ok) {
    for (const p of tree.paths) {
      const parts = p.split('/').filter((x) => x !== '');
      if (parts[3] === 'holders' && parts[4]) holders.push(parts[4]);
      if (parts.length === 4 && parts[3]!.startsWith(dev) && parts[3] !== dev) names.add(parts[3]!);
      if (parts.length >= 6 && parts[4] === 'holders' && parts[5]) holders.push(parts[5]);
    }
  }
  const devNums = await io.values([...names].map((n) => (n === dev ? `/sys/block/${dev}/dev` : `/sys/block/${dev}/${n}/dev`)));
  const majMin = new Map(Object.entries(devNums.values).map(([p, mm]) => [mm.trim(), p.split('/').slice(-2)[0]!]));
  const mi = await io.cat('/proc/self/mountinfo');
  if (!mi.ok)
    throw new OpError(
      'MOUNTS_UNREADABLE',
      `cannot read the mount table to check that ${plan.device} is unused: ${mi.why}`,
      'Run where /proc/self/mountinfo is readable; cql-tuner will not dry-run mkfs on a device it cannot prove unmounted.',
    );
  const mounted = parseMountinfo(mi.text).filter((m) => majMin.has(m.majMin) || names.has(m.source.replace(/^\/dev\//, '')));
  if (mounted.length > 0) {
    throw new OpError(
      'DEVICE_MOUNTED',
      `${plan.device} is mounted (${mounted.map((m) => `${majMin.get(m.majMin) ?? m.source} on ${m.target}`).join(', ')}): refusing to run mkfs on it, even as a dry run`,
      'Pick an unused device. Formatting a mounted device would destroy live data.',
    );
  }
  if (holders.length > 0) {
    throw new OpError(
      'DEVICE_IN_USE',
      `${plan.device} is in use by ${[...new Set(holders)].join(', ')} (md array, LVM or dm): refusing to run mkfs on it`,
      'Plan on the array or volume on top instead (e.g. md0), or free the device first.',
    );
  }
  assertDryRun(plan.dryRunArgv);
  let argv = plan.dryRunArgv;
  let r = await io.tool(argv);
  let existing = false;
  if (!r.ok && /existing filesystem|contains a .*partition table/i.test(r.why)) {
    existing = true;
    // -N still writes nothing; -f only skips mkfs's own "already formatted" refusal so the geometry shows.
    argv = ['mkfs.xfs', '-N', '-f', ...plan.dryRunArgv.slice(2)];
    assertDryRun(argv);
    r = await io.tool(argv);
  }
  if (!r.ok) return { ran: false, why: `mkfs.xfs -N failed: ${r.why}` };
  const g = parseMkfsXfs(r.text);
  const mismatches: string[] = [];
  if (g.ok) {
    if (g.value.data.bsize !== plan.blockSize) mismatches.push(`bsize ${g.value.data.bsize} ≠ planned ${plan.blockSize}`);
    if (g.value.metaData.sectsz !== plan.sectorSize) mismatches.push(`sectsz ${g.value.metaData.sectsz} ≠ planned ${plan.sectorSize}`);
    if (plan.stripe && g.value.data.sunitBytes !== plan.stripe.suKiB * 1024)
      mismatches.push(`sunit ${g.value.data.sunitBytes} B ≠ planned ${plan.stripe.suKiB * 1024} B`);
  }
  return { ran: true, argv, output: r.text, geometry: g.ok ? g.value : null, existingFilesystem: existing, mismatches };
}
