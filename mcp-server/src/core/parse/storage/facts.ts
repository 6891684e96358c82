/**
 * One neutral shape for what is known about a host's storage, whichever way it was learned: a pasted
 * `blockdev --report`, `lsblk`, sysfs dump, /proc/mdstat or mkfs.xfs/xfs_info output, or a live inspection
 * (collect/storage). Storage rules (core/rules/storage.ts) read only this. PURE.
 */
import type { BlockdevReport } from './blockdev-report.js';
import type { Lsblk } from './lsblk.js';
import type { Mdstat } from './mdstat.js';
import type { XfsGeometry } from './mkfs-xfs.js';
import type { SysBlockQueue } from './sys-block-queue.js';
import type { MdadmDetail } from './mdadm-detail.js';
import type { FindmntMount } from './findmnt.js';
import type { IoProperties } from './io-properties.js';

export type StorageProduct = 'cassandra' | 'scylla';
export type DirRole = 'data' | 'commitlog' | 'hints' | 'saved_caches' | 'other';

export interface StorageDevice {
  /** Kernel name (sda, sda1, md0, dm-0, nvme0n1); null when a dump did not say which device it was. */
  name: string | null;
  /** disk | part | raid0 | raid1 | lvm | loop | rom | md …, null when unknown. */
  type: string | null;
  /** Parent device for partitions and stacked devices. */
  parent: string | null;
  sizeBytes: number | null;
  /** Size as printed ("40G"), when the source printed one. */
  sizeText: string | null;
  model: string | null;
  logicalSectorSize: number | null;
  physicalSectorSize: number | null;
  minIo: number | null;
  optIo: number | null;
  readAheadKiB: number | null;
  scheduler: string | null;
  rotational: boolean | null;
  nrRequests: number | null;
  nomerges: number | null;
  maxSectorsKiB: number | null;
  maxHwSectorsKiB: number | null;
  writeCache: string | null;
  discardGranularity: number | null;
  /** Partition start in 512-byte sectors (sysfs "start", blockdev StartSec); 0 for whole disks. */
  startSector: number | null;
  fstype: string | null;
  mountpoints: string[];
  /** Devices stacked on this one (partitions, md arrays, dm); null when the source cannot tell. */
  holders: string[] | null;
}

export interface MdFacts {
  name: string;
  level: string | null;
  chunkBytes: number | null;
  members: string[];
  /** raid10 layout ("2 near-copies"), for the data-disk count. */
  layout: string | null;
  raidDisks: number | null;
  /** Fewer working members than the array needs (mdstat [U_], mdadm "degraded"); null when unknown. */
  degraded?: boolean | null;
  /** Resync/recovery/reshape in progress, e.g. "recovery 12.5%". */
  sync?: string | null;
}

export interface MountFacts {
  target: string;
  /** Kernel device name (md0, vda, dm-0) or the source as printed when it is not a block device. */
  device: string;
  fstype: string;
  options: string[];
}

export interface XfsFacts {
  device: string | null;
  mountpoint: string | null;
  bsize: number | null;
  sectsz: number | null;
  sunitBytes: number | null;
  swidthBytes: number | null;
  agcount: number | null;
  crc: number | null;
  reflink: number | null;
  rmapbt: number | null;
  logInternal: boolean | null;
  logSectsz: number | null;
}

/** A database directory and what backs it (mount → device → md members → physical disks). */
export interface DirFacts {
  role: DirRole;
  path: string;
  mountpoint: string | null;
  /** The mount's device (md0, vda2, dm-0). */
  device: string | null;
  fstype: string | null;
  /** Whole physical disks at the bottom of the stack. */
  physical: string[];
}

export interface StorageFacts {
  /** Where the facts came from, for evidence lines: "blockdev --report", "host local". */
  origin: string;
  product: StorageProduct | null;
  devices: StorageDevice[];
  md: MdFacts[];
  mounts: MountFacts[];
  xfs: XfsFacts[];
  dirs: DirFacts[];
  /** ScyllaDB's /etc/scylla.d/io_properties.yaml when it was read from the host. */
  ioProperties?: IoProperties | null;
  /** What could not be read, and why (permission, missing tool, not a Linux host …). */
  unread: { what: string; why: string }[];
}

export function emptyDevice(name: string | null): StorageDevice {
  return {
    name,
    type: null,
    parent: null,
    sizeBytes: null,
    sizeText: null,
    model: null,
    logicalSectorSize: null,
    physicalSectorSize: null,
    minIo: null,
    optIo: null,
    readAheadKiB: null,
    scheduler: null,
    rotational: null,
    nrRequests: null,
    nomerges: null,
    maxSectorsKiB: null,
    maxHwSectorsKiB: null,
    writeCache: null,
    discardGranularity: null,
    startSector: null,
    fstype: null,
    mountpoints: [],
    holders: null,
  };
}

export function emptyFacts(origin: string, product: StorageProduct | null = null): StorageFacts {
  return { origin, product, devices: [], md: [], mounts: [], xfs: [], dirs: [], unread: [] };
}

const strip = (d: string) => d.replace(/^\/dev\//, '').replace(/^mapper\//, '');

export function factsFromBlockdevReport(r: BlockdevReport, product: StorageProduct | null = null): StorageFacts {
  const f = emptyFacts('blockdev --report', product);
  for (const row of r.rows) {
    const d = emptyDevice(strip(row.device));
    d.readAheadKiB = row.readAheadKiB;
    d.logicalSectorSize = row.sectorSize;
    d.sizeBytes = row.sizeBytes;
    d.startSector = row.startSector;
    // A partition's name extends its disk's (sda1 → sda, nvme0n1p2 → nvme0n1); start > 0 confirms it.
    const disk = r.rows.map((x) => strip(x.device)).find((n) => n !== d.name && d.name!.startsWith(n) && /^p?\d+$/.test(d.name!.slice(n.length)));
    if (disk) {
      d.parent = disk;
      d.type = 'part';
    } else if (/^sr\d+$/.test(d.name!)) d.type = 'rom';
    else if (/^dm-\d+$/.test(d.name!)) d.type = 'dm';
    else if (/^loop\d+$/.test(d.name!)) d.type = 'loop';
    else if (/^md\d+/.test(d.name!)) d.type = 'md';
    else d.type = 'disk';
    f.devices.push(d);
  }
  for (const d of f.devices) d.holders = f.devices.filter((x) => x.parent === d.name).map((x) => x.name!);
  return f;
}

export function factsFromLsblk(l: Lsblk, product: StorageProduct | null = null): StorageFacts {
  const f = emptyFacts(`lsblk (${l.format})`, product);
  const seen = new Map<string, StorageDevice>();
  const hasChildrenInfo = l.format !== 'pairs' || l.columnNames.includes('pkname');
  for (const x of l.devices) {
    const name = x.kname ?? x.name;
    const prev = seen.get(name);
    if (prev) {
      // A RAID array appears under each member; record the extra parent as a holder relation only.
      continue;
    }
    const d = emptyDevice(name);
    d.type = x.type ?? (/^loop\d+$/.test(name) ? 'loop' : /^sr\d+$/.test(name) ? 'rom' : null);
    d.parent = x.parent;
    d.sizeBytes = x.sizeBytes;
    d.sizeText = x.sizeText;
    d.model = x.model;
    d.logicalSectorSize = x.logicalSectorSize;
    d.physicalSectorSize = x.physicalSectorSize;
    d.minIo = x.minIo;
    d.optIo = x.optIo;
    d.readAheadKiB = x.readAheadKiB;
    d.scheduler = x.scheduler;
    d.rotational = x.rotational;
    d.fstype = x.fstype;
    d.mountpoints = x.mountpoints;
    const start = x.columns.start;
    if (start !== undefined && /^\d+$/.test(start)) d.startSector = Number(start);
    const rq = x.columns['rq-size'];
    if (rq !== undefined && /^\d+$/.test(rq)) d.nrRequests = Number(rq);
    const gran = x.columns['disc-gran'];
    if (gran !== undefined && /^\d+$/.test(gran)) d.discardGranularity = Number(gran);
    seen.set(name, d);
    f.devices.push(d);
  }
  if (hasChildrenInfo) {
    for (const d of f.devices) {
      d.holders = [...new Set(l.devices.filter((x) => x.parent === d.name).map((x) => x.kname ?? x.name))];
    }
  }
  // md arrays listed under their members: level from TYPE (raid0 …), members from the parents.
  for (const d of f.devices) {
    if (d.type && /^raid\d+|^linear$/.test(d.type)) {
      const members = [...new Set(l.devices.filter((x) => (x.kname ?? x.name) === d.name && x.parent).map((x) => x.parent!))];
      f.md.push({ name: d.name!, level: d.type, chunkBytes: null, members, layout: null, raidDisks: members.length });
    }
  }
  for (const d of f.devices) {
    for (const m of d.mountpoints) if (m.startsWith('/')) f.mounts.push({ target: m, device: d.name!, fstype: d.fstype ?? '', options: [] });
  }
  return f;
}

export function factsFromSysBlockQueue(q: SysBlockQueue, product: StorageProduct | null = null): StorageFacts {
  const f = emptyFacts('/sys/block/*/queue', product);
  for (const b of q.devices) f.devices.push(deviceFromQueue(b.device, b));
  return f;
}

export function deviceFromQueue(name: string | null, b: SysBlockQueue['devices'][number]): StorageDevice {
  const d = emptyDevice(name);
  d.logicalSectorSize = b.logicalBlockSize;
  d.physicalSectorSize = b.physicalBlockSize;
  d.minIo = b.minimumIoSize;
  d.optIo = b.optimalIoSize;
  d.readAheadKiB = b.readAheadKiB;
  d.scheduler = b.scheduler;
  d.rotational = b.rotational;
  d.nrRequests = b.nrRequests;
  d.nomerges = b.nomerges;
  d.maxSectorsKiB = b.maxSectorsKiB;
  d.maxHwSectorsKiB = b.maxHwSectorsKiB;
  d.writeCache = b.writeCache;
  d.discardGranularity = b.discardGranularity;
  return d;
}

export function mdFromMdstat(m: Mdstat): MdFacts[] {
  return m.arrays.map((a) => ({
    name: a.name,
    level: a.level,
    chunkBytes: a.chunkBytes,
    members: a.members.filter((x) => !x.spare && !x.faulty).map((x) => x.device),
    layout: a.layout,
    raidDisks: a.raidDisks ?? (a.members.filter((x) => !x.spare).length || null),
    degraded: a.level === 'raid0' || a.level === 'linear' ? false : a.degraded,
    sync: a.sync ? `${a.sync.action}${a.sync.percent !== null ? ` ${a.sync.percent}%` : ''}` : null,
  }));
}

export function factsFromMdstat(m: Mdstat, product: StorageProduct | null = null): StorageFacts {
  const f = emptyFacts('/proc/mdstat', product);
  f.md = mdFromMdstat(m);
  return f;
}

export function xfsFromGeometry(g: XfsGeometry, mountpoint: string | null = null): XfsFacts {
  return {
    device: g.device === null ? null : strip(g.device),
    mountpoint,
    bsize: g.data.bsize,
    sectsz: g.metaData.sectsz,
    sunitBytes: g.data.sunitBytes,
    swidthBytes: g.data.swidthBytes,
    agcount: g.metaData.agcount,
    crc: g.metaData.crc,
    reflink: g.metaData.reflink,
    rmapbt: g.metaData.rmapbt,
    logInternal: g.log.internal,
    logSectsz: g.log.sectsz,
  };
}

export function factsFromXfs(g: XfsGeometry, product: StorageProduct | null = null): StorageFacts {
  const f = emptyFacts('mkfs.xfs / xfs_info', product);
  f.xfs.push(xfsFromGeometry(g));
  return f;
}

/** Facts from a parsed storage output of a detected kind; null for kinds this module does not know. */
export function storageFactsFromParsed(kind: string, value: unknown, product: StorageProduct | null = null): StorageFacts | null {
  switch (kind) {
    case 'storage.blockdev-report':
      return factsFromBlockdevReport(value as BlockdevReport, product);
    case 'storage.lsblk':
      return factsFromLsblk(value as Lsblk, product);
    case 'storage.sys-block-queue':
      return factsFromSysBlockQueue(value as SysBlockQueue, product);
    case 'storage.mdstat':
      return factsFromMdstat(value as Mdstat, product);
    case 'storage.mkfs-xfs':
      return factsFromXfs(value as XfsGeometry, product);
    case 'storage.mdadm-detail': {
      const d = value as MdadmDetail;
      const f = emptyFacts('mdadm --detail', product);
      const members = d.members.filter((m) => m.device !== null && /active|sync/.test(m.state)).map((m) => strip(m.device!));
      f.md.push({
        name: d.device ? strip(d.device) : 'md?',
        level: d.level,
        chunkBytes: d.chunkBytes,
        members,
        layout: d.layout,
        raidDisks: d.raidDevices,
        degraded: /degraded/i.test(d.state ?? '') || (d.failedDevices ?? 0) > 0,
        sync: /recovering|resyncing|reshaping/i.exec(d.state ?? '')?.[0] ?? null,
      });
      return f;
    }
    case 'storage.findmnt': {
      const f = emptyFacts('findmnt', product);
      for (const m of (value as { mounts: FindmntMount[] }).mounts)
        f.mounts.push({ target: m.target, device: m.source.startsWith('/dev/') ? strip(m.source) : m.source, fstype: m.fstype, options: m.options });
      return f;
    }
    case 'storage.io-properties':
      return emptyFacts('io_properties', product);
    default:
      return null;
  }
}

/** Number of data-bearing disks in an array (the XFS stripe width multiplier); null when unknown. */
export function dataDisks(md: MdFacts): number | null {
  const n = md.raidDisks ?? (md.members.length || null);
  if (n === null || md.level === null) return null;
  switch (md.level) {
    case 'raid0':
      return n;
    case 'raid10': {
      const copies = /(\d+)\s+(?:near|far|offset)-copies|(?:near|far|offset)=(\d+)/.exec(md.layout ?? '');
      const c = copies ? Number(copies[1] ?? copies[2]) : 2;
      return Math.floor(n / c) || null;
    }
    case 'raid4':
    case 'raid5':
      return n - 1;
    case 'raid6':
      return n - 2;
    default:
      return null;
  }
}
