import { readFile, readdir, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { LocalTarget } from '../collect/local-target.js';
import { pidAlive, procStat } from '../collect/pid-alive.js';
import { labMarkerFlag } from './jvm-flags.js';

export async function readCmdline(pid: number): Promise<string[] | null> {
  const buf = await readFile(`/proc/${pid}/cmdline`).catch(() => null);
  if (buf === null) return null;
  const parts = buf.toString('utf8').split('\0');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function hasProcfs(): boolean {
  return process.platform === 'linux';
}

/** Alive = exists and is not a zombie (a zombie is dead, only not yet reaped by its parent). */
export const isAlive = (pid: number): Promise<boolean> => pidAlive(pid);

export async function procEntryExists(pid: number): Promise<boolean> {
  return (await procStat(pid)) !== null;
}

/**
 * True only when `pid` is a live java whose command line carries this node's marker: a PID from lab.json may
 * have been reused by an unrelated process since, and that one must never be signalled.
 */
export async function isLabProcess(pid: number | null, nodeDir: string): Promise<boolean> {
  if (pid === null || !(await isAlive(pid))) return false;
  if (!hasProcfs()) {
    // No /proc (macOS): ask ps for the command line instead; no answer means not provably ours.
    const r = await new LocalTarget().run(['ps', '-ww', '-o', 'command=', '-p', String(pid)], { timeoutMs: 10_000 });
    return r.exitCode === 0 && r.stdout.includes(labMarkerFlag(nodeDir));
  }
  const argv = await readCmdline(pid);
  if (!argv || argv.length === 0) return false;
  const exe = basename(argv[0] ?? '');
  return exe === 'java' && argv.includes(labMarkerFlag(nodeDir));
}

/** Signals the process group when the process leads one (our daemons are spawned detached), else the process. */
export async function signalLabProcess(pid: number, signal: NodeJS.Signals): Promise<void> {
  const st = hasProcfs() ? await procStat(pid) : null;
  const target = st !== null && st.pgid === pid ? -pid : pid;
  try {
    process.kill(target, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

export interface Listener {
  pid: number | null;
  command: string | null;
}

function v4Hex(host: string): string {
  // /proc/net/tcp prints an IPv4 address as a little-endian 32-bit hex number.
  return host
    .split('.')
    .map((o) => Number(o).toString(16).padStart(2, '0'))
    .reverse()
    .join('')
    .toUpperCase();
}

/** Best effort: which process listens on host:port (or on the wildcard address). Linux only; null when unknown. */
export async function findListener(host: string, port: number): Promise<Listener | null> {
  if (!hasProcfs()) return null;
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  const addrs = new Set([
    v4Hex(host),
    '00000000',
    '0'.repeat(32), // [::] dual-stack listener
    `0000000000000000FFFF0000${v4Hex(host)}`, // ::ffff:a.b.c.d
  ]);
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [addr, p] = (cols[1] ?? '').split(':');
      const state = cols[3];
      const inode = cols[9];
      if (addr && inode && state === '0A' && p === portHex && addrs.has(addr)) inodes.add(inode);
    }
  }
  if (inodes.size === 0) return null;
  const targets = new Set([...inodes].map((i) => `socket:[${i}]`));
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((d) => /^\d+$/.test(d));
  for (const p of pids) {
    const fds = await readdir(`/proc/${p}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const link = await readlink(`/proc/${p}/fd/${fd}`).catch(() => '');
      if (targets.has(link)) {
        const argv = await readCmdline(Number(p));
        return { pid: Number(p), command: argv ? summarizeCommand(argv) : null };
      }
    }
  }
  return { pid: null, command: null };
}

/** `java … CassandraDaemon` style summary: the executable plus the last argument (usually the main class). */
export function summarizeCommand(argv: readonly string[]): string {
  const exe = basename(argv[0] ?? '?');
  const last = argv.length > 1 ? argv[argv.length - 1] : undefined;
  return last && last !== argv[0] ? `${exe} … ${last}` : exe;
}
