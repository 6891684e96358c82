/**
 * A lab node's data directory on its own small filesystem: a sparse image file under the lab's state dir, attached
 * to a loop device, formatted (XFS when mkfs.xfs exists, else ext4) and mounted over <node>/data while the node is
 * down. Only the lab's own image is ever attached, formatted or detached: the device to detach is the one
 * `losetup -j <image>` names for that file, never a name read back from a state file. Every command is an argv.
 */
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, statfs, writeFile } from 'node:fs/promises';
import { basename, delimiter, join } from 'node:path';
import { execa } from 'execa';
import { OpError } from '../../core/errors.js';
import type { LabNode, LabState } from '../types.js';
import { nodeCommandLine, startNode, stopNode } from './node-restart.js';

/** What inject leaves for heal: where things are, and how the node was started. */
interface LoopRecord {
  node: number;
  image: string;
  mount: string;
  /** The node's data directory as it was, renamed aside while the loop filesystem is mounted in its place. */
  orig: string;
  argv: string[];
}

export interface LoopDisk {
  device: string;
  /** "major:minor" of the loop device, as blkio.throttle.* files want it. */
  majMin: string;
  fsType: 'xfs' | 'ext4';
  mount: string;
}

export interface DiskOps {
  /** Drains and stops the node, puts its data directory on a new loop filesystem of `sizeMiB`, starts it again. */
  moveDataToLoop(node: number, name: string, opts: { sizeMiB: number; readAheadKB?: number }): Promise<LoopDisk>;
  /** Fills the node's loop filesystem with one preallocated file until `usedPct` of it is used. */
  fill(node: number, name: string, usedPct: number): Promise<{ usedPct: number }>;
  /** Undoes moveDataToLoop (also after a half-done one): data copied back, unmounted, detached, node started. */
  restoreData(node: number, name: string): Promise<void>;
}

/** The file that fills a near-full filesystem: removed before data is copied back. */
export const FILLER = 'cql-tuner-filler';
const CMD_TIMEOUT_MS = 300_000;

/** XFS needs at least 300 MB; below that (or without mkfs.xfs) ext4. */
export function mkfsArgv(device: string, xfs: boolean): { argv: string[]; fsType: 'xfs' | 'ext4' } {
  return xfs ? { argv: ['mkfs.xfs', '-q', '-f', device], fsType: 'xfs' } : { argv: ['mkfs.ext4', '-q', '-F', '-m', '0', device], fsType: 'ext4' };
}

/** `losetup -j <image>` lines → the loop devices backed by exactly that file. */
export function loopDevicesOf(losetupJ: string): string[] {
  return losetupJ
    .split('\n')
    .map((l) => /^(\/dev\/loop\d+):/.exec(l.trim())?.[1])
    .filter((d): d is string => d !== undefined);
}

/** Mount points in /proc/self/mountinfo (field 5, octal escapes decoded). */
export function mountPoints(mountinfo: string): string[] {
  return mountinfo
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((m): m is string => !!m)
    .map((m) => m.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
}

/** Linux dev_t → major:minor (glibc's gnu_dev_major/minor). */
export function majMinOf(rdev: number): string {
  const major = Math.floor(rdev / 256) & 0xfff;
  const minor = (rdev & 0xff) | (Math.floor(rdev / 4096) & 0xfff00);
  return `${major}:${minor}`;
}

/** Bytes to preallocate so that `usedPct` of the filesystem is used (statfs figures, as df computes Use%). */
export function fillBytes(s: { blocks: number; bfree: number; bavail: number; bsize: number }, usedPct: number): number {
  const used = (s.blocks - s.bfree) * s.bsize;
  // df's Use% = used / (used + available): aim at that ratio, minus what is already used.
  const target = (usedPct / 100) * (used + s.bavail * s.bsize);
  return Math.max(0, Math.floor((target - used) / 4096) * 4096);
}

async function run(argv: string[]): Promise<string> {
  const r = await execa(argv[0]!, argv.slice(1), { timeout: CMD_TIMEOUT_MS, reject: false, stdin: 'ignore' });
  if (r.exitCode !== 0) {
    const why = (r.stderr || r.stdout || '').slice(-300);
    throw new OpError('INCIDENT_HOST_COMMAND_FAILED', `${argv.join(' ')} failed: ${why}`, 'Check the host (root, loop devices).');
  }
  return r.stdout;
}

async function onPath(name: string): Promise<boolean> {
  for (const d of [...(process.env['PATH'] ?? '').split(delimiter), '/sbin', '/usr/sbin'].filter(Boolean)) {
    if (
      await access(join(d, name), constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return true;
  }
  return false;
}

/** A node that just exited may still hold its mappings for a moment ("target is busy"): retried for 30 s. */
async function unmount(dir: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await run(['umount', dir]);
      return;
    } catch (e) {
      if (i >= 30) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function isMounted(dir: string): Promise<boolean> {
  return mountPoints(await readFile('/proc/self/mountinfo', 'utf8')).includes(dir);
}

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

export function realDiskOps(state: LabState, nodetool: (node: number, args: string[]) => Promise<string>, progress: (m: string) => void): DiskOps {
  const nodeOf = (index: number): LabNode => {
    const n = state.nodes.find((x) => x.index === index);
    if (!n) throw new OpError('INCIDENT_NEEDS_NODES', `the lab has no node ${index}`, 'Start a larger lab.');
    return n;
  };
  const recDir = (name: string) => {
    if (!/^[a-z0-9-]{1,40}$/.test(name)) throw new OpError('BAD_INCIDENT_DISK', `disk name ${name} is not a plain name`, 'This is a bug in an incident.');
    return join(state.stateDir, 'incident-disk', name);
  };
  const recPath = (name: string, index: number) => join(recDir(name), `node${index}.json`);
  const readRec = async (name: string, index: number): Promise<LoopRecord | null> => {
    const raw = await readFile(recPath(name, index), 'utf8').catch(() => null);
    return raw === null ? null : (JSON.parse(raw) as LoopRecord);
  };
  const devicesOf = async (image: string) => ((await exists(image)) ? loopDevicesOf(await run(['losetup', '-j', image])) : []);
  const drainAndStop = async (n: LabNode) => {
    progress(`draining and stopping node ${n.index}`);
    // Drain flushes every memtable, so the data directory holds everything the node acknowledged.
    await nodetool(n.index, ['drain']).catch(() => '');
    await stopNode(n);
  };

  const ops: DiskOps = {
    async moveDataToLoop(index, name, opts) {
      const n = nodeOf(index);
      const argv = await nodeCommandLine(state, n);
      const dir = recDir(name);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const rec: LoopRecord = { node: index, image: join(dir, `node${index}.img`), mount: join(n.dir, 'data'), orig: join(n.dir, 'data.cql-tuner-orig'), argv };
      if (await exists(rec.orig)) {
        const fix = `Heal it first: \`cql-tuner lab incident ${name} --heal\`.`;
        throw new OpError('INCIDENT_DISK_BUSY', `node ${index}'s data is already moved (${rec.orig} exists)`, fix);
      }
      await writeFile(recPath(name, index), JSON.stringify(rec), { mode: 0o600 });
      await drainAndStop(n);
      // Sparse: the image takes host disk only for what is written into it.
      const fh = await open(rec.image, 'w', 0o600);
      try {
        await fh.truncate(opts.sizeMiB * 2 ** 20);
      } finally {
        await fh.close();
      }
      const device = (await run(['losetup', '--find', '--show', rec.image])).trim();
      if (!loopDevicesOf(`${device}: x`).length) throw new OpError('INCIDENT_HOST_COMMAND_FAILED', `losetup answered ${device.slice(0, 80)}`, 'Check losetup.');
      const mk = mkfsArgv(device, opts.sizeMiB >= 320 && (await onPath('mkfs.xfs')));
      progress(`node ${index}: ${device} (${opts.sizeMiB} MiB ${mk.fsType} on ${rec.image})`);
      await run(mk.argv);
      await rename(rec.mount, rec.orig);
      await mkdir(rec.mount);
      await run(['mount', device, rec.mount]);
      await run(['cp', '-a', `${rec.orig}/.`, `${rec.mount}/`]);
      // Remounting drops the copy from the page cache: the node's first reads really go to the device.
      await unmount(rec.mount);
      await run(['mount', device, rec.mount]);
      if (opts.readAheadKB !== undefined) await writeFile(`/sys/block/${basename(device)}/queue/read_ahead_kb`, String(opts.readAheadKB));
      progress(`starting node ${index} on its new data directory`);
      await startNode(state, n, argv);
      return { device, majMin: majMinOf((await stat(device)).rdev), fsType: mk.fsType, mount: rec.mount };
    },

    async fill(index, name, usedPct) {
      const rec = await readRec(name, index);
      if (!rec || !(await isMounted(rec.mount))) {
        throw new OpError('INCIDENT_DISK_MISSING', `node ${index}'s data is not on a loop filesystem`, 'This is a bug in an incident.');
      }
      const bytes = fillBytes(await statfs(rec.mount), usedPct);
      if (bytes > 0) await run(['fallocate', '-l', String(bytes), join(rec.mount, FILLER)]);
      const s = await statfs(rec.mount);
      const used = (s.blocks - s.bfree) * s.bsize;
      return { usedPct: Math.round((100 * used) / (used + s.bavail * s.bsize)) };
    },

    async restoreData(index, name) {
      const rec = await readRec(name, index);
      if (!rec) return;
      const n = nodeOf(index);
      await drainAndStop(n);
      if (await isMounted(rec.mount)) {
        progress(`copying node ${index}'s data back from the loop filesystem`);
        await rm(join(rec.mount, FILLER), { force: true });
        if (await exists(rec.orig)) {
          // What the node wrote during the incident is on the loop filesystem: that copy is the current one.
          await rm(rec.orig, { recursive: true, force: true });
          await mkdir(rec.orig);
          await run(['cp', '-a', `${rec.mount}/.`, `${rec.orig}/`]);
        }
        await unmount(rec.mount);
      }
      for (const dev of await devicesOf(rec.image)) await run(['losetup', '-d', dev]);
      if (await exists(rec.orig)) {
        // The mount point is empty once unmounted; refuse to remove anything else.
        if ((await readdir(rec.mount).catch(() => [])).length === 0) await rmdir(rec.mount).catch(() => {});
        if (!(await exists(rec.mount))) await rename(rec.orig, rec.mount);
      }
      await rm(rec.image, { force: true });
      await rm(recPath(name, index), { force: true });
      await rmdir(recDir(name)).catch(() => {});
      progress(`starting node ${index} on its own data directory again`);
      await startNode(state, n, rec.argv);
    },
  };
  return ops;
}
