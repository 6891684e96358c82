/**
 * plan_mkfs: from the devices (or md array) that will hold database data, the recommended mkfs.xfs argv and
 * mount options, each flag explained with the knowledge entry behind it. PURE: the plan is text; running
 * the dry run (mkfs.xfs -N) is ops/plan-mkfs.ts's job, and nothing ever runs mkfs without -N.
 */
import { OpError } from '../errors.js';
import { numberOf, valueOf } from '../knowledge/index.js';
import { maxOf } from '../arrays.js';

export type RaidLevel = 'raid0' | 'raid1' | 'raid10' | 'raid5' | 'raid6';

export interface MkfsDevice {
  /** Kernel name or /dev path. */
  name: string;
  logicalSectorSize: number | null;
  physicalSectorSize: number | null;
  sizeBytes: number | null;
}

export interface MkfsInput {
  product: 'cassandra' | 'scylla';
  /** The disks; more than one means an md array is (or will be) built from them. */
  devices: MkfsDevice[];
  /** Existing or planned array level when several devices are given; default raid0. */
  raidLevel?: RaidLevel;
  /** RAID chunk in KiB; default the ScyllaDB reference chunk. */
  chunkKiB?: number;
  /** The md device to create / format when several devices are given; default /dev/md0. */
  mdDevice?: string;
  label?: string;
}

export interface PlanFlag {
  flag: string;
  why: string;
  knowledgeIds: string[];
}

export interface MkfsPlan {
  /** The device mkfs.xfs formats (the md array, or the single disk). */
  device: string;
  /** mdadm argv when an array must be created first (shown, never run by cql-tuner). */
  mdadmArgv: string[] | null;
  /** The recommended mkfs.xfs argv (without -N: this is what the operator would run). */
  mkfsArgv: string[];
  /** The same with -N: what the dry run executes. */
  dryRunArgv: string[];
  flags: PlanFlag[];
  mountOptions: PlanFlag[];
  blockSize: number;
  sectorSize: number;
  stripe: { suKiB: number; sw: number } | null;
  warnings: string[];
}

export class MkfsPlanError extends OpError {
  constructor(message: string, fix: string) {
    super('BAD_MKFS_INPUT', message, fix);
    this.name = 'MkfsPlanError';
  }
}

const devPath = (n: string) => (n.startsWith('/') ? n : `/dev/${n}`);

/**
 * The printed mdadm / mkfs.xfs lines are pasted into a root shell: every name in them must be a plain device
 * name or path whose parts start with a letter or digit (no "-" to start an option, no "..", no spaces).
 */
const DEVICE_NAME = /^\/?[A-Za-z0-9][\w.:+-]*(?:\/[A-Za-z0-9][\w.:+-]*)*$/;
/** An md array as mdadm --create takes it: md0, /dev/md0, or a named array /dev/md/data. */
const MD_DEVICE = /^(?:\/dev\/)?md(?:\d+|\/[A-Za-z0-9][\w.-]*)$/;
/** An XFS label: at most 12 characters, not starting with "-" (mkfs.xfs -L would read it as an option). */
const LABEL = /^[A-Za-z0-9_][\w.-]{0,11}$/;

/** Refuses names that could start an option or name the wrong thing, before any command line is built. */
function checkNames(input: MkfsInput): void {
  for (const d of input.devices) {
    if (!DEVICE_NAME.test(d.name)) {
      throw new MkfsPlanError(`device ${JSON.stringify(d.name.slice(0, 100))} is not a plain device name or path`, 'Use names like nvme0n1, sdb or /dev/sdb.');
    }
  }
  const paths = input.devices.map((d) => devPath(d.name));
  const twice = paths.filter((p, i) => paths.indexOf(p) !== i);
  if (twice.length) throw new MkfsPlanError(`device ${[...new Set(twice)].join(', ')} is listed more than once`, 'Name each member disk once.');
  if (input.mdDevice !== undefined) {
    if (!MD_DEVICE.test(input.mdDevice)) {
      throw new MkfsPlanError(
        `mdDevice ${JSON.stringify(input.mdDevice.slice(0, 100))} is not an md array name`,
        'Name the array to create as md0, /dev/md0 or /dev/md/<name>; a member disk or any other device is refused.',
      );
    }
    if (paths.includes(devPath(input.mdDevice))) {
      throw new MkfsPlanError(`mdDevice ${input.mdDevice} is also listed as a member`, 'Name the new array apart from its member disks.');
    }
  }
  if (input.label !== undefined && !LABEL.test(input.label)) {
    const what = `label ${JSON.stringify(input.label.slice(0, 40))}`;
    throw new MkfsPlanError(`${what} is not 1-12 characters of letters, digits, . _ - starting with a letter, digit or _`, 'Use a short label such as "data".');
  }
}

/** Data-bearing members for the stripe width. */
export function dataDiskCount(level: RaidLevel, members: number): number | null {
  switch (level) {
    case 'raid0':
      return members;
    case 'raid10':
      return Math.floor(members / 2) || null;
    case 'raid5':
      return members - 1;
    case 'raid6':
      return members - 2;
    case 'raid1':
      return null;
  }
}

/** Ensures a dry-run argv really is one; every path that executes mkfs goes through this. */
export function assertDryRun(argv: readonly string[]): void {
  if (argv[0] !== 'mkfs.xfs' || !argv.includes('-N')) {
    throw new Error(`refusing to run ${argv.join(' ')}: cql-tuner only runs mkfs.xfs with -N (dry run)`);
  }
}

export function planMkfs(input: MkfsInput): MkfsPlan {
  if (input.devices.length === 0) throw new MkfsPlanError('no devices given', 'Name the disk(s) that will hold the data, e.g. nvme0n1 nvme1n1.');
  checkNames(input);
  const warnings: string[] = [];
  const flags: PlanFlag[] = [];
  const several = input.devices.length > 1;
  const level: RaidLevel = input.raidLevel ?? 'raid0';
  const phys = input.devices.map((d) => d.physicalSectorSize ?? d.logicalSectorSize);
  const known = phys.filter((p): p is number => p !== null);
  if (known.length < phys.length)
    warnings.push(
      `physical sector size unknown for ${input.devices
        .filter((_d, i) => phys[i] === null)
        .map((d) => d.name)
        .join(', ')}: assumed 4096 (check /sys/block/<dev>/queue/physical_block_size)`,
    );
  const sector = Math.max(known.length ? maxOf(known) : 4096, known.length < phys.length ? 4096 : 0);
  if (new Set(known).size > 1)
    warnings.push(`devices differ in physical sector size (${[...new Set(known)].join(', ')} B): planning for the largest, ${sector} B`);
  if (input.devices.some((d) => d.physicalSectorSize === 512 && /^(\/dev\/)?nvme/.test(d.name))) {
    warnings.push('NVMe reporting 512-byte physical sectors: check `nvme id-ns -H` for a 4096-byte LBA format before formatting (kb:storage.nvme.lba-format)');
  }
  // XFS's 4 KiB default for both products: scylla_raid_setup (2025.4+) keeps it on kernels >= 5.12
  // (kb:storage.xfs.block-size). Never below the physical sector.
  const bsize = Math.max(4096, sector);
  const scyllaWhy = input.product === 'scylla' ? ' (scylla_raid_setup keeps this default on kernels 5.12+; its 1 KiB blocks were for older kernels)' : '';
  flags.push({
    flag: `-b size=${bsize}`,
    why: `block size ${bsize} B: at least the ${sector} B physical sector and XFS's 4 KiB default${scyllaWhy}, so no block write is a read-modify-write`,
    knowledgeIds: ['storage.xfs.block-size', 'storage.sector-size'],
  });
  flags.push({
    flag: `-s size=${sector}`,
    why: `sector size ${sector} B = the device's physical sector, so metadata and log writes are whole physical sectors`,
    knowledgeIds: ['storage.xfs.block-size', 'storage.sector-size'],
  });

  let device = devPath(input.devices[0]!.name);
  let mdadmArgv: string[] | null = null;
  let stripe: MkfsPlan['stripe'] = null;
  if (several) {
    device = devPath(input.mdDevice ?? 'md0');
    const chunkKiB = input.chunkKiB ?? numberOf('storage.raid0.chunk-size');
    if (!Number.isInteger(chunkKiB) || chunkKiB < 4 || (chunkKiB & (chunkKiB - 1)) !== 0) {
      throw new MkfsPlanError(`chunk ${chunkKiB} KiB is not a power of two ≥ 4 KiB`, 'Use an md chunk such as 512 or 1024 KiB.');
    }
    if ((chunkKiB * 1024) % bsize !== 0)
      throw new MkfsPlanError(`chunk ${chunkKiB} KiB is not a multiple of the ${bsize} B block`, 'Use a chunk that is a multiple of the block size.');
    if (input.product === 'scylla' && level !== valueOf('storage.scylla.raid0'))
      warnings.push(`ScyllaDB expects RAID0 for data, not ${level} (kb:storage.scylla.raid0)`);
    mdadmArgv = [
      'mdadm',
      '--create',
      device,
      `--level=${level.replace('raid', '')}`,
      `--raid-devices=${input.devices.length}`,
      ...(level === 'raid1' ? [] : [`--chunk=${chunkKiB}`]),
      ...input.devices.map((d) => devPath(d.name)),
    ];
    const n = dataDiskCount(level, input.devices.length);
    if (n !== null && n >= 1) {
      stripe = { suKiB: chunkKiB, sw: n };
      flags.push({
        flag: `-d su=${chunkKiB}k,sw=${n}`,
        why: `stripe unit = the ${chunkKiB} KiB md chunk, stripe width = ${n} data disk${n > 1 ? 's' : ''} (${level} of ${input.devices.length}); mkfs.xfs detects this on md, stating it keeps the plan explicit`,
        knowledgeIds: ['storage.xfs.stripe-geometry', 'storage.raid0.chunk-size'],
      });
    }
  }
  if (input.label) {
    if (input.label.length > 12 || !/^[\w.-]+$/.test(input.label))
      throw new MkfsPlanError(`label "${input.label}" is not 1-12 characters of letters, digits, . _ -`, 'Use a short label such as "data".');
    flags.push({ flag: `-L ${input.label}`, why: 'a label to mount by (LABEL=…) in /etc/fstab', knowledgeIds: [] });
  }
  const opts = flags.flatMap((f) => f.flag.split(' '));
  const mkfsArgv = ['mkfs.xfs', ...opts, device];
  const dryRunArgv = ['mkfs.xfs', '-N', ...opts, device];
  assertDryRun(dryRunArgv);
  const mountOptions: PlanFlag[] = [
    { flag: String(valueOf('storage.mount.noatime')), why: 'no inode write on every read', knowledgeIds: ['storage.mount.noatime'] },
    // ScyllaDB's scylla_raid_setup mounts with online discard by default; for Cassandra periodic TRIM is preferred.
    input.product === 'scylla'
      ? {
          flag: 'discard',
          why: 'what scylla_raid_setup sets by default (--online-discard True); use fstrim.timer instead only if discards stall the device',
          knowledgeIds: ['storage.discard.online'],
        }
      : {
          flag: 'no discard (enable fstrim.timer instead)',
          why: 'online discard turns compaction deletes into discard bursts',
          knowledgeIds: ['storage.discard.online'],
        },
  ];
  return { device, mdadmArgv, mkfsArgv, dryRunArgv, flags, mountOptions, blockSize: bsize, sectorSize: sector, stripe, warnings };
}
