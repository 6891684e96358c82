/**
 * Storage findings, database-aware, from StorageFacts (core/parse/storage/facts.ts): a pasted disk
 * listing or a live host inspection. Cassandra reads through the page cache (read-ahead matters);
 * ScyllaDB uses direct I/O (read-ahead does not) but wants XFS on RAID0. PURE.
 */
import type { Finding } from '../findings.js';
import { knowledge, numberOf, valueOf } from '../knowledge/index.js';
import { dataDisks, type DirRole, type MountFacts, type StorageDevice, type StorageFacts, type XfsFacts } from '../parse/storage/facts.js';
import type { IoProperties } from '../parse/storage/io-properties.js';
import type { KindRuleOutcome } from './per-kind.js';
import { outcome, skipped } from './rule.js';
import { storageFactsFromParsed } from '../parse/storage/facts.js';
import { maxOf } from '../arrays.js';

const KiB = 1024;
const MiB = 1024 * 1024;

/** Devices that never hold database files: loop, optical, RAM disks. */
function ignorable(d: StorageDevice): boolean {
  return d.type === 'loop' || d.type === 'rom' || /^(loop|sr|ram|zram|fd)\d*/.test(d.name ?? '');
}

const isNvme = (d: StorageDevice) => /^nvme\d+n\d+$/.test(d.name ?? '');
const isPartition = (d: StorageDevice) => d.type === 'part' || (d.parent !== null && /\d$/.test(d.name ?? ''));
const GiB = 1024 * MiB;
const fmtBytes = (n: number) =>
  n >= GiB && n % GiB === 0 ? `${n / GiB} GiB` : n >= MiB && n % MiB === 0 ? `${n / MiB} MiB` : n >= KiB && n % KiB === 0 ? `${n / KiB} KiB` : `${n} B`;
const label = (d: StorageDevice) => d.name ?? 'the device (name not in the dump)';

/** Why a device looks virtual (virtio, Xen, hypervisor model strings), or null. */
export function virtualReason(d: StorageDevice): string | null {
  if (/^(vd|xvd)[a-z]+$/.test(d.name ?? '')) return `${d.name} is a ${d.name!.startsWith('x') ? 'Xen' : 'virtio'} disk`;
  if (d.model && /QEMU|VBOX|VMware|Virtual|virtio|Msft/i.test(d.model)) return `model "${d.model}"`;
  // virtio-blk declares no hardware transfer limit: max_hw_sectors UINT_MAX → 2147483647 KiB in sysfs.
  if (d.maxHwSectorsKiB === 2147483647) return 'max_hw_sectors_kb 2147483647 (virtio-blk declares no hardware limit)';
  return null;
}

interface Ctx {
  facts: StorageFacts;
  /** Devices that matter: those backing the database directories when known, else every real device. */
  relevant: StorageDevice[];
  scoped: boolean;
}

function where(ctx: Ctx, d: StorageDevice): string {
  const roles = ctx.facts.dirs.filter((x) => x.device === d.name || x.physical.includes(d.name ?? '')).map((x) => `${x.role} ${x.path}`);
  return `${ctx.facts.origin}: ${label(d)}${roles.length ? ` (backs ${roles.join(', ')})` : ''}`;
}

const check = (rule: string, checks: string, findings: Finding[]): KindRuleOutcome => outcome(rule, findings, checks);
const skip = (rule: string, checks: string, because: string): KindRuleOutcome => skipped(rule, because, checks);

function readAhead(ctx: Ctx): KindRuleOutcome {
  const checks = 'read_ahead_kb of the data devices against the SSD/HDD recommendation (Cassandra reads through the page cache)';
  if (ctx.facts.product === 'scylla')
    return skip('storage:read-ahead', checks, `ScyllaDB uses direct I/O, so read-ahead does not apply (${knowledge('storage.scylla.o-direct').id})`);
  const devs = ctx.relevant.filter((d) => d.readAheadKiB !== null && !isPartitionOfListed(ctx, d));
  if (devs.length === 0) return skip('storage:read-ahead', checks, 'no read-ahead value in the input');
  const ssdMax = numberOf('os.read-ahead-kb.ssd');
  const hddStart = numberOf('os.read-ahead-kb.hdd');
  const kernelDefault = numberOf('os.read-ahead-kb.kernel-default');
  const high: StorageDevice[] = [];
  const untuned: StorageDevice[] = [];
  for (const d of devs) {
    const ra = d.readAheadKiB!;
    const hdd = d.rotational === true && virtualReason(d) === null && !isNvme(d);
    if (ra > kernelDefault) high.push(d);
    else if (ra > (hdd ? hddStart : ssdMax)) untuned.push(d);
  }
  const findings: Finding[] = [];
  const unknownProduct = ctx.facts.product === null ? ' (if this is a Cassandra/DSE node; ScyllaDB is not affected)' : '';
  const raText = (d: StorageDevice) => `${label(d)} read_ahead_kb ${d.readAheadKiB} (${d.readAheadKiB! * 2} sectors of 512 B)`;
  if (high.length > 0) {
    const worst = maxOf(high.map((d) => d.readAheadKiB!));
    findings.push({
      id: 'storage.read-ahead-high',
      severity: 'warning',
      title: `Read-ahead ${fmtBytes(worst * KiB)} on ${high.length} device${high.length > 1 ? 's' : ''}: far above the ${ssdMax} KiB recommended for Cassandra data${unknownProduct}`,
      evidence: high.map((d) => `${where(ctx, d)}: ${raText(d)}`),
      recommendation: `Cassandra's reads are small and random: each one drags ${fmtBytes(worst * KiB)} into the page cache. Set read-ahead to ${ssdMax} KiB on SSD (${hddStart} KiB on spinning disks) on the device the file system sits on (md/LVM layers have their own): \`blockdev --setra ${ssdMax * 2} /dev/<dev>\` or echo ${ssdMax} > /sys/block/<dev>/queue/read_ahead_kb, made persistent with a udev rule.`,
      knowledgeIds: ['os.read-ahead-kb.ssd', 'os.read-ahead-kb.hdd', 'os.read-ahead-kb.kernel-default'],
      confidence: ctx.scoped ? 'high' : 'medium',
    });
  }
  if (untuned.length > 0) {
    findings.push({
      id: 'storage.read-ahead-untuned',
      severity: 'info',
      title: `Read-ahead ${untuned
        .map((d) => d.readAheadKiB)
        .filter((v, i, a) => a.indexOf(v) === i)
        .join(
          '/',
        )} KiB (kernel default) on ${untuned.length} device${untuned.length > 1 ? 's' : ''}: above the ${ssdMax} KiB suggested for Cassandra on SSD${unknownProduct}`,
      evidence: untuned.map((d) => `${where(ctx, d)}: ${raText(d)}${d.rotational === true ? ', rotational=1' : ''}`),
      recommendation: `Acceptable, but untuned: for SSD-backed Cassandra data try ${ssdMax} KiB and compare read latency and disk read throughput before and after.`,
      knowledgeIds: ['os.read-ahead-kb.ssd', 'os.read-ahead-kb.kernel-default'],
      confidence: 'medium',
    });
  }
  return check('storage:read-ahead', checks, findings);
}

/** A partition whose disk is also listed with the same read-ahead adds nothing (blockdev prints both). */
function isPartitionOfListed(ctx: Ctx, d: StorageDevice): boolean {
  if (!d.parent) return false;
  const p = ctx.relevant.find((x) => x.name === d.parent);
  return p !== undefined && p.readAheadKiB === d.readAheadKiB && isPartition(d);
}

function xfsSectors(ctx: Ctx): KindRuleOutcome {
  const checks = 'XFS block and sector size against the device physical sector (read-modify-write)';
  if (ctx.facts.xfs.length === 0) return skip('storage:xfs-block-size', checks, 'no XFS geometry (xfs_info / mkfs.xfs output) in the input');
  const findings: Finding[] = [];
  for (const x of ctx.facts.xfs) {
    const dev = physicalSectorFor(ctx.facts, x);
    if (x.bsize === null) continue;
    if (dev !== null && dev.size > x.bsize) {
      findings.push({
        id: 'storage.xfs-block-below-sector',
        severity: 'warning',
        title: `XFS block size ${x.bsize} B is below the ${dev.size} B physical sector of ${dev.from}: every block write is a read-modify-write`,
        evidence: [
          `${ctx.facts.origin}: XFS on ${x.device ?? x.mountpoint ?? '?'} bsize=${x.bsize} sectsz=${x.sectsz ?? '?'}`,
          `${dev.from} physical_block_size ${dev.size}`,
        ],
        recommendation: `Re-create the file system with blocks (and sector size) of at least ${dev.size} B — \`mkfs.xfs -b size=${Math.max(4096, dev.size)} -s size=${dev.size}\` (see plan_mkfs) — during a node replacement; it cannot be changed in place.`,
        knowledgeIds: ['storage.xfs.block-size', 'storage.sector-size'],
        confidence: 'high',
      });
    } else if (dev !== null && x.sectsz !== null && dev.size > x.sectsz) {
      findings.push({
        id: 'storage.xfs-block-below-sector',
        severity: 'warning',
        title: `XFS sector size ${x.sectsz} B is below the ${dev.size} B physical sector of ${dev.from}: metadata and log writes are read-modify-write`,
        evidence: [
          `${ctx.facts.origin}: XFS on ${x.device ?? x.mountpoint ?? '?'} sectsz=${x.sectsz} bsize=${x.bsize}`,
          `${dev.from} physical_block_size ${dev.size}`,
        ],
        recommendation: `Next time the volume is rebuilt, pass \`-s size=${dev.size}\` to mkfs.xfs (plan_mkfs shows the full command).`,
        knowledgeIds: ['storage.xfs.block-size', 'storage.sector-size'],
        confidence: 'high',
      });
    } else if (dev === null && x.bsize < 4096) {
      findings.push({
        id: 'storage.xfs-block-below-sector',
        severity: 'info',
        title: `XFS block size ${x.bsize} B: smaller than the 4 KiB physical sector of most current disks`,
        evidence: [
          `${ctx.facts.origin}: XFS on ${x.device ?? '?'} bsize=${x.bsize} sectsz=${x.sectsz ?? '?'}`,
          'physical sector size of the device not in the input',
        ],
        recommendation:
          "Check the device: `cat /sys/block/<dev>/queue/physical_block_size` (or lsblk -o NAME,PHY-SEC). If it is 4096, every block write is a read-modify-write and the file system should be re-created with 4 KiB blocks. ScyllaDB's setup made 1 KiB blocks before 2025.4 or on kernels older than 5.12; current setups keep 4 KiB.",
        knowledgeIds: ['storage.xfs.block-size', 'storage.sector-size'],
        confidence: 'low',
      });
    }
  }
  return check('storage:xfs-block-size', checks, findings);
}

/** The physical sector under an XFS file system: its device, or the largest among md members. */
function physicalSectorFor(f: StorageFacts, x: XfsFacts): { size: number; from: string } | null {
  const devName = x.device ?? f.mounts.find((m) => m.target === x.mountpoint)?.device ?? null;
  if (devName === null) return null;
  const names = [devName, ...(f.md.find((m) => m.name === devName)?.members ?? [])];
  let best: { size: number; from: string } | null = null;
  for (const n of names) {
    const d = f.devices.find((y) => y.name === n);
    const p = d?.physicalSectorSize ?? null;
    if (p !== null && (best === null || p > best.size)) best = { size: p, from: n };
  }
  return best;
}

function nvmeSector(ctx: Ctx): KindRuleOutcome {
  const checks = 'NVMe devices reporting 512-byte physical sectors (LBA format)';
  const nvme = ctx.facts.devices.filter((d) => isNvme(d) && d.physicalSectorSize !== null);
  if (nvme.length === 0) return skip('storage:nvme-sector', checks, 'no NVMe device with a physical sector size in the input');
  const small = nvme.filter((d) => d.physicalSectorSize === 512);
  if (small.length === 0) return check('storage:nvme-sector', checks, []);
  return check('storage:nvme-sector', checks, [
    {
      id: 'storage.nvme-512-physical',
      severity: 'info',
      title: `${small.map((d) => d.name).join(', ')} report 512-byte physical sectors: probably formatted with a 512-byte LBA format`,
      evidence: small.map(
        (d) =>
          `${ctx.facts.origin}: ${d.name} logical ${d.logicalSectorSize ?? '?'} B, physical ${d.physicalSectorSize} B${d.model ? `, model ${d.model}` : ''}`,
      ),
      recommendation:
        'Flash writes in pages of 4 KiB or more whatever the LBA format says. List the formats with `nvme id-ns -H /dev/<dev>` (look for a 4096-byte format with better relative performance) and compare 4 KiB vs 512 B random writes with fio on a spare device. Reformatting (nvme format --lbaf) erases the namespace: only before the node holds data.',
      knowledgeIds: ['storage.nvme.lba-format', 'storage.sector-size'],
      confidence: 'medium',
    },
  ]);
}

function scheduler(ctx: Ctx): KindRuleOutcome {
  const checks = 'I/O scheduler of NVMe and SSD devices (none expected on NVMe)';
  const nvme = ctx.facts.devices.filter((d) => isNvme(d) && d.scheduler !== null);
  if (nvme.length === 0) return skip('storage:scheduler', checks, 'no NVMe device with a scheduler in the input');
  const bad = nvme.filter((d) => d.scheduler !== 'none');
  const want = String(valueOf('os.io-scheduler.ssd'));
  return check(
    'storage:scheduler',
    checks,
    bad.length === 0
      ? []
      : [
          {
            id: 'storage.scheduler-nvme',
            severity: bad.some((d) => d.scheduler === 'bfq' || d.scheduler === 'cfq') ? 'warning' : 'info',
            title: `NVMe device${bad.length > 1 ? 's' : ''} ${bad.map((d) => d.name).join(', ')} use the ${[...new Set(bad.map((d) => d.scheduler))].join('/')} scheduler instead of ${want}`,
            evidence: bad.map((d) => `${where(ctx, d)}: scheduler ${d.scheduler}`),
            recommendation: `NVMe has deep hardware queues; a software scheduler only adds CPU and latency. Set \`echo ${want} > /sys/block/<dev>/queue/scheduler\` and persist it with a udev rule.`,
            knowledgeIds: ['os.io-scheduler.ssd'],
            confidence: 'high',
          },
        ],
  );
}

function rotational(ctx: Ctx): KindRuleOutcome {
  const checks = 'rotational flag of virtual and NVMe disks (1 makes the kernel and tools treat flash as HDD)';
  const devs = ctx.facts.devices.filter((d) => d.rotational === true && !ignorable(d) && d.type !== 'part' && d.parent === null);
  if (ctx.facts.devices.every((d) => d.rotational === null)) return skip('storage:rotational', checks, 'no rotational flag in the input');
  const flagged = devs.map((d) => ({ d, why: isNvme(d) ? `${d.name} is an NVMe device` : virtualReason(d) })).filter((x) => x.why !== null);
  return check(
    'storage:rotational',
    checks,
    flagged.length === 0
      ? []
      : [
          {
            id: 'storage.rotational-virtual',
            severity: 'warning',
            title: `${flagged.map((x) => label(x.d)).join(', ')} ${flagged.length > 1 ? 'report' : 'reports'} rotational=1 although ${flagged.length > 1 ? 'they look' : 'it looks'} virtual or flash-backed`,
            evidence: flagged.map((x) => `${where(ctx, x.d)}: rotational=1 — ${x.why}`),
            recommendation:
              'If the volume is SSD-backed (most cloud and hypervisor storage is), set rotational to 0 with a udev rule (ACTION=="add|change", KERNEL=="vd[a-z]", ATTR{queue/rotational}="0") so the kernel and tools that read the flag (DSE disk_optimization_strategy, ScyllaDB iotune) treat it as flash.',
            knowledgeIds: ['storage.virtio.rotational', 'os.rotational.ssd'],
            confidence: 'medium',
          },
        ],
  );
}

function stripe(ctx: Ctx): KindRuleOutcome {
  const checks = 'XFS stripe unit/width against the md RAID chunk and data-disk count';
  const striped = ctx.facts.xfs.filter((x) => x.sunitBytes !== null);
  if (striped.length === 0) return skip('storage:xfs-stripe', checks, 'no XFS geometry in the input');
  const findings: Finding[] = [];
  for (const x of striped) {
    const devName = x.device ?? ctx.facts.mounts.find((m) => m.target === x.mountpoint)?.device ?? null;
    const md = ctx.facts.md.find((m) => m.name === devName);
    const su = x.sunitBytes!;
    const sw = x.swidthBytes ?? 0;
    const on = `${ctx.facts.origin}: XFS on ${x.device ?? x.mountpoint ?? '?'} sunit ${su === 0 ? 0 : fmtBytes(su)}, swidth ${sw === 0 ? 0 : fmtBytes(sw)}`;
    if (md && md.chunkBytes !== null && dataDisks(md) !== null) {
      const n = dataDisks(md)!;
      if (su === md.chunkBytes && sw === md.chunkBytes * n) {
        findings.push(aligned(x, on, `${md.name} ${md.level} chunk ${fmtBytes(md.chunkBytes)} × ${n} data disks`));
      } else {
        findings.push({
          id: 'storage.xfs-stripe-mismatch',
          severity: 'warning',
          title: `XFS stripe geometry does not match ${md.name} (${md.level}, ${fmtBytes(md.chunkBytes)} chunk, ${n} data disks)`,
          evidence: [
            on,
            `${md.name}: ${md.level}, chunk ${fmtBytes(md.chunkBytes)}, members ${md.members.join(' ')}: expected sunit ${fmtBytes(md.chunkBytes)}, swidth ${fmtBytes(md.chunkBytes * n)}`,
          ],
          recommendation: `Large writes straddle chunk boundaries and touch two disks. Mount with \`sunit=${md.chunkBytes / 512},swidth=${(md.chunkBytes * n) / 512}\` (512-byte units) to fix new allocations — a mount option: it needs the node stopped, an unmount and a mount (and the option in /etc/fstab), and existing files keep their layout — or re-create with \`mkfs.xfs -d su=${md.chunkBytes / KiB}k,sw=${n}\` when the node is rebuilt.`,
          knowledgeIds: ['storage.xfs.stripe-geometry'],
          confidence: 'high',
        });
      }
    } else if (su > 0) {
      if (sw % su === 0) {
        const n = sw / su;
        const scylla = su === numberOf('storage.raid0.chunk-size') * KiB ? " (the chunk ScyllaDB's RAID setup uses)" : '';
        findings.push(aligned(x, on, `a ${n}-disk stripe with ${fmtBytes(su)} chunk${scylla}`));
      } else {
        findings.push({
          id: 'storage.xfs-stripe-mismatch',
          severity: 'warning',
          title: `XFS stripe width ${fmtBytes(sw)} is not a multiple of its stripe unit ${fmtBytes(su)}`,
          evidence: [on],
          recommendation: 'Compare with the array: `mdadm --detail /dev/mdX` (chunk size, raid devices). Stripe width must be chunk × data disks.',
          knowledgeIds: ['storage.xfs.stripe-geometry'],
          confidence: 'medium',
        });
      }
    } else if (md && md.level === 'raid0' && md.members.length > 1) {
      findings.push({
        id: 'storage.xfs-stripe-mismatch',
        severity: 'warning',
        title: `XFS on RAID0 ${md.name} has no stripe geometry (sunit=0)`,
        evidence: [on, `${md.name}: ${md.level}, members ${md.members.join(' ')}, chunk ${md.chunkBytes === null ? '?' : fmtBytes(md.chunkBytes)}`],
        recommendation:
          'The file system was probably made on another layer or with su/sw overridden; allocations ignore the chunk boundaries. Mount with sunit/swidth (new allocations only; stop the node, unmount and mount, keep it in /etc/fstab) or re-create it (plan_mkfs).',
        knowledgeIds: ['storage.xfs.stripe-geometry'],
        confidence: 'medium',
      });
    }
  }
  return check('storage:xfs-stripe', checks, findings);
}

function aligned(x: XfsFacts, on: string, what: string): Finding {
  return {
    id: 'storage.xfs-stripe-aligned',
    severity: 'info',
    title: `XFS on ${x.device ?? x.mountpoint ?? 'the array'} is stripe-aligned: ${what}`,
    evidence: [on],
    recommendation: 'Nothing to change: allocations follow the RAID chunks.',
    knowledgeIds: ['storage.xfs.stripe-geometry', 'storage.raid0.chunk-size'],
    confidence: 'high',
  };
}

function scyllaLayout(ctx: Ctx): KindRuleOutcome {
  const checks = 'ScyllaDB data directory on XFS over RAID0';
  if (ctx.facts.product !== 'scylla') return skip('storage:scylla-layout', checks, 'not a ScyllaDB host (or the product was not given)');
  const data = ctx.facts.dirs.filter((d) => d.role === 'data');
  if (data.length === 0) return skip('storage:scylla-layout', checks, 'the data directory and its mount were not resolved');
  const findings: Finding[] = [];
  const fs = String(valueOf('storage.scylla.xfs'));
  for (const d of data) {
    if (d.fstype !== null && d.fstype !== fs) {
      findings.push({
        id: 'storage.scylla-not-xfs',
        severity: 'warning',
        title: `ScyllaDB data directory ${d.path} is on ${d.fstype}, not XFS`,
        evidence: [`${ctx.facts.origin}: ${d.path} → mount ${d.mountpoint ?? '?'} on ${d.device ?? '?'} (${d.fstype})`],
        recommendation:
          'ScyllaDB needs XFS for non-blocking asynchronous appends; outside developer mode it refuses other file systems. Move the data to an XFS volume (scylla_raid_setup creates one).',
        knowledgeIds: ['storage.scylla.xfs'],
        confidence: 'high',
      });
    }
    const md = ctx.facts.md.find((m) => m.name === d.device);
    const want = String(valueOf('storage.scylla.raid0'));
    if (md && md.level !== null && md.level !== want) {
      findings.push({
        id: 'storage.scylla-raid-level',
        severity: 'warning',
        title: `ScyllaDB data directory ${d.path} is on ${md.level} (${md.name}); RAID0 expected`,
        evidence: [`${ctx.facts.origin}: ${d.path} → ${md.name} ${md.level}, members ${md.members.join(' ')}`],
        recommendation:
          'Replication across nodes is the redundancy; mirrors or parity cost write throughput and add read-modify-write. Rebuild as RAID0 when the node is replaced.',
        knowledgeIds: ['storage.scylla.raid0'],
        confidence: 'high',
      });
    }
  }
  return check('storage:scylla-layout', checks, findings);
}

function alignment(ctx: Ctx): KindRuleOutcome {
  const checks = 'partition start alignment against the physical sector';
  const parts = ctx.facts.devices.filter((d) => d.startSector !== null && d.startSector > 0 && !ignorable(d));
  if (parts.length === 0) return skip('storage:partition-alignment', checks, 'no partition start sectors in the input');
  const bad: { d: StorageDevice; phys: number; known: boolean }[] = [];
  for (const d of parts) {
    const parent = ctx.facts.devices.find((x) => x.name === d.parent);
    const p = d.physicalSectorSize ?? parent?.physicalSectorSize ?? null;
    const phys = p ?? 4096;
    if ((d.startSector! * 512) % phys !== 0) bad.push({ d, phys, known: p !== null });
  }
  const oneMiB = numberOf('storage.partition-alignment');
  return check(
    'storage:partition-alignment',
    checks,
    bad.length === 0
      ? []
      : [
          {
            id: 'storage.partition-misaligned',
            severity: 'warning',
            title: `Partition${bad.length > 1 ? 's' : ''} ${bad.map((b) => b.d.name).join(', ')} start off the physical sector boundary`,
            evidence: bad.map(
              (b) =>
                `${ctx.facts.origin}: ${b.d.name} starts at sector ${b.d.startSector} (${b.d.startSector! * 512} B), not a multiple of ${b.phys} B${b.known ? '' : ' (physical sector assumed 4096: not in the input)'}`,
            ),
            recommendation: `Every write spans two physical sectors. Re-partition starting at a ${fmtBytes(oneMiB)} boundary (sector 2048) when the node is rebuilt; modern fdisk/parted do this by default.`,
            knowledgeIds: ['storage.partition-alignment', 'storage.sector-size'],
            confidence: bad.every((b) => b.known) ? 'high' : 'medium',
          },
        ],
  );
}

function discard(ctx: Ctx): KindRuleOutcome {
  const checks = 'online discard mount option on database volumes';
  const mounts = ctx.facts.mounts.filter((m) => m.options.length > 0);
  if (mounts.length === 0) return skip('storage:discard', checks, 'no mount options in the input');
  // scylla_raid_setup mounts ScyllaDB data with `discard` by default: there it is the vendor's setting, not a finding.
  if (ctx.facts.product === 'scylla') {
    const why = `ScyllaDB's setup mounts its data volume with online discard by default (${knowledge('storage.discard.online').id})`;
    return skip('storage:discard', checks, why);
  }
  const dbMounts = new Set(ctx.facts.dirs.map((d) => d.mountpoint));
  const scoped =
    ctx.facts.dirs.length > 0
      ? mounts.filter((m) => dbMounts.has(m.target))
      : mounts.filter((m) => m.device !== '' && !/^(tmpfs|proc|sysfs|overlay|devtmpfs|cgroup2?)$/.test(m.fstype));
  const online = scoped.filter((m) => m.options.includes('discard'));
  return check(
    'storage:discard',
    checks,
    online.length === 0
      ? []
      : [
          {
            id: 'storage.discard-online',
            severity: 'info',
            title: `${online.map((m) => m.target).join(', ')} mounted with online discard`,
            evidence: online.map((m) => `${ctx.facts.origin}: ${m.target} on ${m.device} (${m.fstype}) options ${m.options.join(',')}`),
            recommendation:
              'Compaction frees whole SSTables at once; online discard turns that into bursts of discards that can stall writes on some devices. Remove `discard` from the mount options and enable periodic TRIM (`systemctl enable --now fstrim.timer`).',
            knowledgeIds: ['storage.discard.online'],
            confidence: 'medium',
          },
        ],
  );
}

function commitlogShare(ctx: Ctx): KindRuleOutcome {
  const checks = 'commit log on the same physical device as the data';
  const cl = ctx.facts.dirs.filter((d) => d.role === 'commitlog');
  const data = ctx.facts.dirs.filter((d) => d.role === 'data');
  if (cl.length === 0 || data.length === 0) return skip('storage:commitlog-device', checks, 'commit log and data directories not both resolved');
  const findings: Finding[] = [];
  for (const c of cl) {
    const shared = data.filter((d) => d.physical.some((p) => c.physical.includes(p)));
    if (shared.length === 0) continue;
    const common = [...new Set(shared.flatMap((d) => d.physical.filter((p) => c.physical.includes(p))))];
    const hdd = common.some((n) => {
      const dev = ctx.facts.devices.find((x) => x.name === n);
      return dev?.rotational === true && virtualReason(dev) === null && !isNvme(dev);
    });
    findings.push({
      id: 'storage.commitlog-shares-data',
      severity: hdd ? 'warning' : 'info',
      title: `Commit log ${c.path} shares ${common.join(', ')} with the data directory`,
      evidence: [
        `${ctx.facts.origin}: commitlog ${c.path} → ${c.device ?? '?'} → ${c.physical.join(' ')}`,
        ...shared.map((d) => `data ${d.path} → ${d.device ?? '?'} → ${d.physical.join(' ')}`),
      ],
      recommendation: hdd
        ? 'On spinning disks give the commit log its own device: compaction and reads move the head away from the sequential appends.'
        : 'Fine on flash. If write latency matters, a separate device isolates commit-log fsyncs from compaction bursts.',
      knowledgeIds: ['storage.commitlog.separate-device'],
      confidence: 'high',
    });
  }
  return check('storage:commitlog-device', checks, findings);
}

function unusedDisks(ctx: Ctx): KindRuleOutcome {
  const checks = 'whole disks with no partitions, file system or mount';
  if (!ctx.facts.devices.some((d) => d.holders !== null))
    return skip('storage:unused-disks', checks, 'the input does not show which devices hold partitions or arrays');
  const unused = ctx.facts.devices.filter(
    (d) =>
      !ignorable(d) &&
      d.parent === null &&
      (d.type === 'disk' || d.type === null) &&
      d.holders !== null &&
      d.holders.length === 0 &&
      d.mountpoints.length === 0 &&
      (d.fstype === null || d.fstype === ''),
  );
  // Only meaningful next to at least one device in use (else the listing is just partial).
  const inUse = ctx.facts.devices.some((d) => d.mountpoints.length > 0 || (d.holders?.length ?? 0) > 0);
  if (!inUse) return check('storage:unused-disks', checks, []);
  return check(
    'storage:unused-disks',
    checks,
    unused.length === 0
      ? []
      : [
          {
            id: 'storage.unused-disk',
            severity: 'info',
            title: `${unused.map((d) => `${d.name}${d.sizeBytes ? ` (${fmtBytes(d.sizeBytes)})` : ''}`).join(', ')} ${unused.length > 1 ? 'are' : 'is'} not partitioned, formatted or mounted`,
            evidence: unused.map((d) => `${ctx.facts.origin}: ${d.name}${d.sizeText ? ` ${d.sizeText}` : ''}: no partitions, no file system, no mount point`),
            recommendation:
              'Either capacity is wasted or a data directory is missing: if it was meant for data, add it to the data volume (RAID0 or a data_file_directories entry). Inside a container lsblk cannot show file systems, so confirm on the host.',
            knowledgeIds: ['storage.scylla.raid0'],
            confidence: 'medium',
          },
        ],
  );
}

function mdHealth(ctx: Ctx): KindRuleOutcome {
  const checks = 'md arrays degraded or rebuilding';
  const known = ctx.facts.md.filter((m) => m.degraded !== undefined && m.degraded !== null);
  if (known.length === 0)
    return skip(
      'storage:md-health',
      checks,
      ctx.facts.md.length ? 'array state not in the input (/proc/mdstat or mdadm --detail)' : 'no md arrays in the input',
    );
  const bad = known.filter((m) => m.degraded === true);
  return check(
    'storage:md-health',
    checks,
    bad.map((m) => ({
      id: 'storage.md-degraded',
      severity: 'critical' as const,
      title: `${m.name} (${m.level}) is degraded${m.sync ? `: ${m.sync} in progress` : ''}`,
      evidence: [
        `${ctx.facts.origin}: ${m.name} ${m.level}, ${m.raidDisks ?? '?'} devices, working members ${m.members.join(' ') || '?'}${m.sync ? `, ${m.sync}` : ''}`,
      ],
      recommendation:
        'One more disk failure loses the array (or it already runs without redundancy): replace the failed member (mdadm --manage --add) and watch the rebuild; I/O is slower until it finishes. On a database node, consider replacing the node instead and rebuilding from replicas.',
      knowledgeIds: ['storage.md.degraded'],
      confidence: 'high' as const,
    })),
  );
}

/** Runs every storage check; each says what it checked or why it could not. */
export function storageRules(facts: StorageFacts): KindRuleOutcome[] {
  const backing = new Set(facts.dirs.flatMap((d) => [d.device ?? '', ...d.physical]).filter((n) => n !== ''));
  const real = facts.devices.filter((d) => !ignorable(d));
  const scoped = backing.size > 0;
  const ctx: Ctx = { facts, relevant: scoped ? real.filter((d) => backing.has(d.name ?? '')) : real, scoped };
  const io = facts.ioProperties
    ? ioPropertiesRules(facts.ioProperties, {
        origin: `${facts.origin} /etc/scylla.d/io_properties.yaml`,
        dirs: facts.dirs.length ? facts.dirs : SCYLLA_DEFAULT_DIRS,
        assumedDirs: facts.dirs.length === 0,
        mounts: facts.mounts,
      })
    : [];
  return [
    readAhead(ctx),
    xfsSectors(ctx),
    nvmeSector(ctx),
    scheduler(ctx),
    rotational(ctx),
    stripe(ctx),
    scyllaLayout(ctx),
    alignment(ctx),
    discard(ctx),
    commitlogShare(ctx),
    unusedDisks(ctx),
    mdHealth(ctx),
    ...io,
  ];
}

/** What the io_properties checks need to know about the host: which directories, on which mounts. */
export interface IoPropertiesContext {
  origin: string;
  dirs: { role: DirRole; path: string; mountpoint: string | null }[];
  /** The directories are ScyllaDB's defaults, not read from scylla.yaml or the host. */
  assumedDirs: boolean;
  /** The host's mounts, to resolve an entry's path to its file system; empty for a pasted file. */
  mounts: MountFacts[];
}

/** ScyllaDB's default data and commit log directories (conf/scylla.yaml). */
export const SCYLLA_DEFAULT_DIRS: IoPropertiesContext['dirs'] = [
  { role: 'data', path: '/var/lib/scylla/data', mountpoint: null },
  { role: 'commitlog', path: '/var/lib/scylla/commitlog', mountpoint: null },
];

const under = (path: string, dir: string) => path === dir || dir === '/' || path.startsWith(`${dir.replace(/\/+$/, '')}/`);

/** The mount a path lives on (longest mount target that contains it); null without mounts. */
function mountOf(path: string, mounts: MountFacts[]): string | null {
  let best: string | null = null;
  for (const m of mounts) if (under(path, m.target) && (best === null || m.target.length > best.length)) best = m.target;
  return best;
}

/** Findings on ScyllaDB's disk model (io_properties.yaml or iotune's console output). PURE. */
export function ioPropertiesRules(p: IoProperties, ctx: IoPropertiesContext): KindRuleOutcome[] {
  const out: KindRuleOutcome[] = [];
  const src = p.format === 'yaml' ? 'io_properties.yaml' : 'iotune output';
  // Each entry's mount points, resolved to the file system they live on when the host's mounts are known.
  const entries = p.disks.map((d, i) => ({ i, d, fs: d.mountpoints.map((m) => ({ path: m, mount: mountOf(m, ctx.mounts) ?? m })) }));

  const cov = 'io_properties entries for the data and commit log directories (one model per mount point)';
  if (p.format !== 'yaml')
    out.push(
      skip(
        'storage:io-properties-mounts',
        cov,
        'iotune output describes only the directory it measured; paste /etc/scylla.d/io_properties.yaml to check coverage',
      ),
    );
  else {
    const findings: Finding[] = [];
    const incomplete = p.disks.filter((d) => [d.readIops, d.readBandwidth, d.writeIops, d.writeBandwidth].some((x) => x === null));
    if (incomplete.length)
      findings.push({
        id: 'storage.io-properties-incomplete',
        severity: 'warning',
        title: `${incomplete.length} io_properties entr${incomplete.length === 1 ? 'y lacks' : 'ies lack'} one of read_iops, read_bandwidth, write_iops, write_bandwidth`,
        evidence: incomplete.map(
          (d) =>
            `${ctx.origin}: ${d.mountpoints.join(', ') || '(no mountpoint)'}: read_iops ${d.readIops ?? '—'}, read_bandwidth ${d.readBandwidth ?? '—'}, write_iops ${d.writeIops ?? '—'}, write_bandwidth ${d.writeBandwidth ?? '—'}`,
        ),
        recommendation:
          'Seastar requires all four values for every mount point. Re-run scylla_io_setup (it runs iotune) rather than editing the numbers by hand.',
        knowledgeIds: ['storage.io-properties.mountpoints'],
        confidence: 'high',
      });
    const seen = new Map<string, string[]>();
    for (const e of entries) for (const f of e.fs) seen.set(f.mount, [...(seen.get(f.mount) ?? []), f.path]);
    const dup = [...seen.entries()].filter(([, paths]) => paths.length > 1);
    if (dup.length)
      findings.push({
        id: 'storage.io-properties-duplicate',
        severity: 'warning',
        title: `${dup.map(([m]) => m).join(', ')} ${dup.length === 1 ? 'is' : 'are'} described more than once in io_properties.yaml`,
        evidence: dup.map(
          ([m, paths]) =>
            `${ctx.origin}: entries ${paths.map((x) => `"${x}"`).join(' and ')} ${ctx.mounts.length ? `are all on the file system mounted at ${m}` : 'repeat the same mount point'}`,
        ),
        recommendation:
          'Two models for one disk: which one the scheduler uses is not defined by the format. Keep one entry per mount point (or one "mountpoints" list for mounts that share a disk) — re-running scylla_io_setup writes a clean file.',
        knowledgeIds: ['storage.io-properties.mountpoints'],
        confidence: ctx.mounts.length ? 'high' : 'medium',
      });
    for (const dir of ctx.dirs.filter((d) => d.role === 'data' || d.role === 'commitlog')) {
      const dirMount = dir.mountpoint ?? mountOf(dir.path, ctx.mounts);
      const covered = entries.some((e) => e.fs.some((f) => (dirMount !== null && ctx.mounts.length ? f.mount === dirMount : under(dir.path, f.path))));
      if (covered) continue;
      findings.push({
        id: 'storage.io-properties-missing-mount',
        severity: 'warning',
        title: `No io_properties entry covers the ${dir.role === 'data' ? 'data' : 'commit log'} directory ${dir.path}${dirMount && dirMount !== dir.path ? ` (mounted at ${dirMount})` : ''}${ctx.assumedDirs ? ' (ScyllaDB default path assumed)' : ''}`,
        evidence: [
          `${ctx.origin}: entries for ${entries.flatMap((e) => e.d.mountpoints).join(', ') || 'no mount point'}; ${dir.role} directory ${dir.path}${dirMount ? ` on ${dirMount}` : ''}`,
        ],
        recommendation: `The I/O scheduler has no measured model for that file system. Measure it: iotune takes one --evaluation-directory per directory and writes one entry per mount point, so run it with the data and commit log directories (or re-run scylla_io_setup after the directories are in place)${ctx.assumedDirs ? '; if data_file_directories/commitlog_directory are elsewhere in scylla.yaml, check those paths instead' : ''}.`,
        knowledgeIds: ['storage.io-properties.mountpoints'],
        confidence: ctx.assumedDirs ? 'medium' : 'high',
      });
    }
    out.push(check('storage:io-properties-mounts', cov, findings));
  }

  const wr = 'iotune random write IOPS against random read IOPS (writes above reads suggest caching in a short run)';
  const pairs = entries.filter((e) => e.d.readIops !== null && e.d.writeIops !== null && e.d.readIops > 0);
  if (pairs.length === 0) out.push(skip('storage:iotune-write-read', wr, `no entry with both read_iops and write_iops in the ${src}`));
  else {
    const max = numberOf('storage.iotune.write-above-read');
    out.push(
      check(
        'storage:iotune-write-read',
        wr,
        pairs
          .filter((e) => e.d.writeIops! / e.d.readIops! > max)
          .map((e) => ({
            id: 'storage.iotune-write-above-read',
            severity: 'warning' as const,
            title: `${e.d.mountpoints.join(', ') || 'The measured disk'}: write IOPS ${e.d.writeIops} exceed read IOPS ${e.d.readIops} (${(e.d.writeIops! / e.d.readIops!).toFixed(2)}×)`,
            evidence: [`${ctx.origin}: ${src} ${e.d.mountpoints.join(', ') || 'entry ' + (e.i + 1)}: read_iops ${e.d.readIops}, write_iops ${e.d.writeIops}`],
            recommendation: `Flash does not sustain more random writes than reads; the write figure most likely came from the device's cache during iotune's short random-write phase (${numberOf('storage.iotune.duration')} s run by default). Re-run iotune on an idle, preconditioned device with a longer --duration (results settled after about ${numberOf('storage.iotune.sustained') / 60} minutes in ScyllaDB's measurements), or compare with a long fio random-write run, before trusting the write model.`,
            knowledgeIds: ['storage.iotune.write-above-read', 'storage.iotune.duration'],
            confidence: 'medium' as const,
          })),
      ),
    );
  }

  const run = 'iotune run quality (--duration below the default, "(deviation N%)" notes above --accuracy)';
  if (p.format !== 'iotune')
    out.push(skip('storage:iotune-run', run, "io_properties.yaml does not record how iotune ran; paste iotune's console output to check"));
  else {
    const findings: Finding[] = [];
    const dflt = numberOf('storage.iotune.duration');
    if (p.durationS !== undefined && p.durationS !== null && p.durationS < dflt)
      findings.push({
        id: 'storage.iotune-short-run',
        severity: 'warning',
        title: `iotune ran with --duration ${p.durationS} s, below its ${dflt} s default`,
        evidence: [`${ctx.origin}: --duration ${p.durationS} on the pasted command line; each random IOPS phase ran about ${Math.round(p.durationS * 0.1)} s`],
        recommendation: `A few seconds per phase measure the device's cache, not its sustained rate. Re-run with at least the default --duration ${dflt}; for figures that no longer move, about ${numberOf('storage.iotune.sustained') / 60} minutes on an idle node.`,
        knowledgeIds: ['storage.iotune.duration', 'storage.iotune.sustained'],
        confidence: 'high',
      });
    const acc = numberOf('storage.iotune.accuracy');
    const dev = (p.deviations ?? []).filter((d) => d.percent > acc);
    if (dev.length)
      findings.push({
        id: 'storage.iotune-unstable',
        severity: 'info',
        title: `iotune measurements varied beyond its ${acc} % accuracy: ${dev.map((d) => `${d.measurement} ±${d.percent} %`).join(', ')}`,
        evidence: [`${ctx.origin}: ${dev.map((d) => `"Measuring ${d.measurement}: … (deviation ${d.percent}%)"`).join('; ')}`],
        recommendation:
          'The device did not deliver a steady rate during the run (cache filling, throttling, other load on a shared disk). Re-run iotune on an idle node, longer, before relying on these numbers.',
        knowledgeIds: ['storage.iotune.accuracy'],
        confidence: 'medium',
      });
    out.push(check('storage:iotune-run', run, findings));
  }
  return out;
}

/** The `interpret` hook for pasted storage outputs (kinds "storage.*"). */
export const STORAGE_KIND_RULES = {
  run(kind: string, value: unknown): KindRuleOutcome[] {
    if (kind === 'storage.io-properties') {
      return ioPropertiesRules(value as IoProperties, { origin: 'io_properties', dirs: SCYLLA_DEFAULT_DIRS, assumedDirs: true, mounts: [] });
    }
    const facts = storageFactsFromParsed(kind, value);
    if (facts === null) return [skip('storage', 'storage checks', `no storage rules for ${kind}`)];
    return storageRules(facts);
  },
};
