/**
 * Assembles StorageFacts from what a host inspection read (collect/storage/read-host.ts): sysfs values,
 * the /sys/block tree listing, /proc/self/mountinfo, /proc/mdstat and optional tool outputs (lsblk --json,
 * xfs_info). Paths are host paths (the root prefix already removed). PURE.
 */
import { parseIoProperties } from './io-properties.js';
import { parseLsblk } from './lsblk.js';
import { parseMdstat } from './mdstat.js';
import { parseMdadmDetail } from './mdadm-detail.js';
import { parseMkfsXfs } from './mkfs-xfs.js';
import { parseSysBlockQueue } from './sys-block-queue.js';
import {
  deviceFromQueue,
  emptyDevice,
  emptyFacts,
  mdFromMdstat,
  xfsFromGeometry,
  type DirFacts,
  type DirRole,
  type MdFacts,
  type MountFacts,
  type StorageDevice,
  type StorageFacts,
  type StorageProduct,
} from './facts.js';

export interface HostSnapshot {
  origin: string;
  product: StorageProduct | null;
  /** Every path under /sys/block (from a depth-limited walk), e.g. "/sys/block/sda/sda1/start". */
  sysTree: string[];
  /** File contents by host path. */
  files: Record<string, string>;
  /** Tool outputs by key: "lsblk", "xfs_info /var/lib/cassandra". */
  commands: Record<string, string>;
  /** Database directories to resolve, with the real path when it could be resolved (symlinks). */
  dirs: { role: DirRole; path: string; realPath: string | null }[];
  unread: { what: string; why: string }[];
}

const SYS = '/sys/block/';

/** Files the inspection reads for each block device (relative to /sys/block/<dev>/). */
export const DEVICE_FILES = [
  'dev',
  'size',
  'ro',
  'removable',
  'device/model',
  'md/level',
  'md/chunk_size',
  'md/raid_disks',
  'md/layout',
  'dm/name',
  'queue/logical_block_size',
  'queue/physical_block_size',
  'queue/minimum_io_size',
  'queue/optimal_io_size',
  'queue/read_ahead_kb',
  'queue/scheduler',
  'queue/rotational',
  'queue/nr_requests',
  'queue/nomerges',
  'queue/max_sectors_kb',
  'queue/max_hw_sectors_kb',
  'queue/write_cache',
  'queue/discard_granularity',
  'queue/discard_max_bytes',
] as const;

/** Files read for each partition (relative to /sys/block/<dev>/<part>/). */
export const PARTITION_FILES = ['dev', 'start', 'size'] as const;

/** Block devices and partitions named by the /sys/block walk. */
export function blockLayout(sysTree: string[]): {
  devices: string[];
  partitions: { name: string; parent: string }[];
  links: { from: string; kind: 'slaves' | 'holders'; to: string }[];
} {
  const devices = new Set<string>();
  const partitions = new Map<string, string>();
  const links: { from: string; kind: 'slaves' | 'holders'; to: string }[] = [];
  for (const p of sysTree) {
    if (!p.startsWith(SYS)) continue;
    const parts = p
      .slice(SYS.length)
      .split('/')
      .filter((x) => x !== '');
    if (parts.some((x) => x.startsWith('.'))) continue;
    const dev = parts[0];
    if (!dev) continue;
    devices.add(dev);
    if (parts.length === 3 && (parts[1] === 'slaves' || parts[1] === 'holders')) links.push({ from: dev, kind: parts[1], to: parts[2]! });
    // A partition is a sub-directory named after its disk (sda1, nvme0n1p2, mmcblk0p1).
    if (parts.length >= 2 && parts[1]!.startsWith(dev) && /^p?\d+$/.test(parts[1]!.slice(dev.length))) {
      partitions.set(parts[1]!, dev);
      if (parts.length === 4 && parts[2] === 'holders') links.push({ from: parts[1]!, kind: 'holders', to: parts[3]! });
    }
  }
  return { devices: [...devices].sort(), partitions: [...partitions].map(([name, parent]) => ({ name, parent })), links };
}

const intOf = (s: string | undefined) => (s !== undefined && /^\s*-?\d+\s*$/.test(s) ? Number(s.trim()) : null);

/** /proc/self/mountinfo → mounts with maj:min; options are the per-mount and super-block options together. */
export function parseMountinfo(text: string): { target: string; majMin: string; source: string; fstype: string; options: string[] }[] {
  const out: { target: string; majMin: string; source: string; fstype: string; options: string[] }[] = [];
  const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));
  for (const line of text.split('\n')) {
    const dash = line.indexOf(' - ');
    if (dash < 0) continue;
    const a = line.slice(0, dash).split(' ');
    const b = line.slice(dash + 3).split(' ');
    if (a.length < 6 || b.length < 2) continue;
    const options = [...new Set([...(a[5] ?? '').split(','), ...(b[2] ?? '').split(',')].filter((o) => o !== ''))];
    out.push({ target: unescape(a[4]!), majMin: a[2]!, source: unescape(b[1]!), fstype: b[0]!, options });
  }
  return out;
}

/** The mount whose target is the longest prefix of path. */
export function mountFor<T extends { target: string }>(mounts: T[], path: string): T | null {
  let best: T | null = null;
  for (const m of mounts) {
    const t = m.target === '/' ? '/' : m.target.replace(/\/+$/, '');
    if (path === t || path.startsWith(t === '/' ? '/' : `${t}/`)) {
      if (best === null || t.length > best.target.length) best = m;
    }
  }
  return best;
}

export function factsFromHost(s: HostSnapshot): StorageFacts {
  const f = emptyFacts(s.origin, s.product);
  f.unread.push(...s.unread);
  const file = (p: string) => s.files[p];
  const layout = blockLayout(s.sysTree);
  const byDev = new Map<string, StorageDevice>();
  for (const name of layout.devices) {
    const base = `${SYS}${name}/`;
    const queueDump = DEVICE_FILES.filter((k) => k.startsWith('queue/') && file(base + k) !== undefined)
      .map((k) => `${base}${k}:${file(base + k)!.trim()}`)
      .join('\n');
    const q = parseSysBlockQueue(queueDump);
    const d = q.ok && q.value.devices[0] ? deviceFromQueue(name, q.value.devices[0]) : emptyDevice(name);
    const sectors = intOf(file(`${base}size`));
    d.sizeBytes = sectors === null ? null : sectors * 512;
    d.model = file(`${base}device/model`)?.trim() || null;
    const level = file(`${base}md/level`)?.trim();
    d.type = level ? level : /^dm-/.test(name) ? 'dm' : /^loop\d+$/.test(name) ? 'loop' : /^sr\d+$/.test(name) ? 'rom' : 'disk';
    d.startSector = 0;
    d.holders = layout.links.filter((l) => l.from === name && l.kind === 'holders').map((l) => l.to);
    byDev.set(name, d);
    f.devices.push(d);
    if (level) {
      const chunk = intOf(file(`${base}md/chunk_size`));
      const members = layout.links.filter((l) => l.from === name && l.kind === 'slaves').map((l) => l.to);
      f.md.push({
        name,
        level,
        chunkBytes: chunk === 0 ? null : chunk,
        members,
        layout: null,
        raidDisks: intOf(file(`${base}md/raid_disks`)) ?? (members.length || null),
      });
    }
  }
  for (const p of layout.partitions) {
    const parent = byDev.get(p.parent);
    const base = `${SYS}${p.parent}/${p.name}/`;
    const d: StorageDevice = parent ? { ...parent, holders: [], model: null } : emptyDevice(p.name);
    d.name = p.name;
    d.type = 'part';
    d.parent = p.parent;
    const sectors = intOf(file(`${base}size`));
    d.sizeBytes = sectors === null ? null : sectors * 512;
    d.startSector = intOf(file(`${base}start`));
    d.holders = layout.links.filter((l) => l.from === p.name && l.kind === 'holders').map((l) => l.to);
    byDev.set(p.name, d);
    f.devices.push(d);
    if (parent) parent.holders = [...(parent.holders ?? []), p.name];
  }
  // md arrays from /proc/mdstat fill what sysfs lacked (layout for raid10) and arrays sysfs did not list.
  const mdstatText = file('/proc/mdstat');
  if (mdstatText !== undefined) {
    const m = parseMdstat(mdstatText);
    if (m.ok) {
      for (const a of mdFromMdstat(m.value)) {
        const known = f.md.find((x) => x.name === a.name);
        if (!known) f.md.push(a);
        else {
          known.layout = a.layout;
          known.degraded = a.degraded ?? null;
          known.sync = a.sync ?? null;
          if (known.chunkBytes === null) known.chunkBytes = a.chunkBytes;
          if (known.members.length === 0) known.members = a.members;
        }
      }
    }
  }
  for (const [key, text] of Object.entries(s.commands)) {
    const m = /^mdadm --detail \/dev\/(.+)$/.exec(key);
    const known = m ? f.md.find((x) => x.name === m[1]) : undefined;
    if (!known) continue;
    const d = parseMdadmDetail(text);
    if (!d.ok) continue;
    known.layout = d.value.layout ?? known.layout;
    known.degraded = known.level === 'raid0' ? false : /degraded/i.test(d.value.state ?? '') || (d.value.failedDevices ?? 0) > 0;
  }
  // maj:min → device name, for mounts.
  const byMajMin = new Map<string, string>();
  for (const name of layout.devices) {
    const dev = file(`${SYS}${name}/dev`)?.trim();
    if (dev) byMajMin.set(dev, name);
  }
  for (const p of layout.partitions) {
    const dev = file(`${SYS}${p.parent}/${p.name}/dev`)?.trim();
    if (dev) byMajMin.set(dev, p.name);
  }
  const dmByName = new Map<string, string>();
  for (const name of layout.devices) {
    const n = file(`${SYS}${name}/dm/name`)?.trim();
    if (n) dmByName.set(n, name);
  }
  const mi = file('/proc/self/mountinfo');
  if (mi !== undefined) {
    for (const m of parseMountinfo(mi)) {
      const src = m.source.replace(/^\/dev\//, '');
      const device = byMajMin.get(m.majMin) ?? dmByName.get(src.replace(/^mapper\//, '')) ?? (byDev.has(src) ? src : m.source);
      const mount: MountFacts = { target: m.target, device, fstype: m.fstype, options: m.options };
      f.mounts.push(mount);
      const d = byDev.get(device);
      if (d) {
        if (!d.mountpoints.includes(m.target)) d.mountpoints.push(m.target);
        d.fstype = d.fstype ?? m.fstype;
      }
    }
  }
  // lsblk adds what sysfs does not say: file-system types of unmounted devices and models of partitions' disks.
  const lsblkText = s.commands.lsblk;
  if (lsblkText !== undefined) {
    const l = parseLsblk(lsblkText);
    if (l.ok) {
      for (const x of l.value.devices) {
        const d = byDev.get(x.kname ?? x.name);
        if (!d) continue;
        if (d.fstype === null && x.fstype) d.fstype = x.fstype;
        if (d.model === null && x.model && d.type !== 'part') d.model = x.model;
      }
    }
  }
  for (const [key, text] of Object.entries(s.commands)) {
    const m = /^xfs_info (.+)$/.exec(key);
    if (!m) continue;
    const g = parseMkfsXfs(text);
    if (!g.ok) {
      f.unread.push({ what: key, why: g.reason });
      continue;
    }
    const x = xfsFromGeometry(g.value, m[1]);
    // xfs_info names the device as mounted (/dev/md0, /dev/mapper/vg-data); use the mount's kernel name.
    const mount = f.mounts.find((mm) => mm.target === m[1]);
    if (mount) x.device = mount.device;
    f.xfs.push(x);
  }
  for (const d of s.dirs) f.dirs.push(resolveDir(f, d.role, d.path, d.realPath ?? d.path));
  const io = file('/etc/scylla.d/io_properties.yaml');
  if (io !== undefined) {
    const p = parseIoProperties(io);
    if (p.ok) f.ioProperties = p.value;
    else f.unread.push({ what: '/etc/scylla.d/io_properties.yaml', why: p.reason });
  }
  return f;
}

/** Whole disks under a device: through partitions (parent), md members and dm slaves. */
export function physicalUnder(f: StorageFacts, name: string, seen = new Set<string>()): string[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const d = f.devices.find((x) => x.name === name);
  if (!d) return [name];
  const md = f.md.find((m: MdFacts) => m.name === name);
  const below = md ? md.members : f.devices.filter((x) => (x.holders ?? []).includes(name)).map((x) => x.name!);
  if (d.type === 'part' && d.parent) return physicalUnder(f, d.parent, seen);
  if (below.length === 0) return [name];
  return [...new Set(below.flatMap((b) => physicalUnder(f, b, seen)))];
}

function resolveDir(f: StorageFacts, role: DirRole, path: string, real: string): DirFacts {
  const m = mountFor(f.mounts, real);
  if (!m) return { role, path, mountpoint: null, device: null, fstype: null, physical: [] };
  const isBlock = f.devices.some((d) => d.name === m.device);
  return { role, path, mountpoint: m.target, device: m.device, fstype: m.fstype, physical: isBlock ? physicalUnder(f, m.device) : [] };
}
