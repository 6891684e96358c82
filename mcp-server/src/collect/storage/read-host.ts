/**
 * Reads a host's storage layout through any Target (local, ssh, kubectl, docker): sysfs under /sys/block,
 * /proc/self/mountinfo, /proc/mdstat, and when present `lsblk --json` and `xfs_info`. Every command is an
 * argv (find, grep, cat, readlink, lsblk, xfs_info); nothing is written.
 *
 * `root` prefixes every path so tests run on recorded trees (tests/fixtures/storage/<host>/). Under a root
 * other than "/", tool outputs come from recorded files <root>/.commands/<key>.txt (key = argv with "/" → "_")
 * instead of running the tools, which would describe the real machine.
 *
 * Nothing here throws for a missing file, tool or permission: each gap is recorded in `unread` with why.
 */
import { DEVICE_FILES, PARTITION_FILES, blockLayout, factsFromHost, mountFor, parseMountinfo, type HostSnapshot } from '../../core/parse/storage/host.js';
import type { DirRole, StorageFacts, StorageProduct } from '../../core/parse/storage/facts.js';
import type { RunResult, Target } from '../target.js';

export interface ReadHostOptions {
  /** Path prefix of the host's file system ("/" for the real one). */
  root?: string;
  product?: StorageProduct | null;
  /** Database directories to resolve to devices. */
  dirs?: { role: DirRole; path: string }[];
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with a short message before each step. */
  onStep?: (step: string) => void;
}

const DEFAULT_TIMEOUT = 20_000;

/** Where scylla_io_setup writes the disk model. */
export const IO_PROPERTIES = '/etc/scylla.d/io_properties.yaml';

export class HostFiles {
  readonly root: string;
  constructor(
    readonly target: Target,
    root: string,
    private readonly timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.root = root === '/' ? '' : root.replace(/\/+$/, '');
  }

  get recorded(): boolean {
    return this.root !== '';
  }

  path(p: string): string {
    return `${this.root}${p}`;
  }

  unroot(p: string): string {
    return this.root !== '' && p.startsWith(this.root) ? p.slice(this.root.length) || '/' : p;
  }

  run(argv: string[]): Promise<RunResult> {
    return this.target.run(argv, { timeoutMs: this.timeoutMs, ...(this.signal ? { signal: this.signal } : {}) });
  }

  /** A whole file, or why it could not be read. */
  async cat(p: string): Promise<{ ok: true; text: string } | { ok: false; why: string }> {
    const r = await this.run(['cat', this.path(p)]);
    if (r.exitCode === 0) return { ok: true, text: r.stdout };
    return { ok: false, why: failure(r) };
  }

  /**
   * Many one-line files at once: `grep -s -H . files…` prints "path:value" for each readable, non-empty
   * file. Missing files are simply absent from the result (sysfs varies by kernel and device type).
   */
  async values(paths: string[]): Promise<{ values: Record<string, string>; error: string | null }> {
    const values: Record<string, string> = {};
    let error: string | null = null;
    for (let i = 0; i < paths.length; i += 400) {
      const chunk = paths.slice(i, i + 400).map((p) => this.path(p));
      const r = await this.run(['grep', '-s', '-H', '.', ...chunk]);
      if (r.spawnError || r.timedOut || r.cancelled) error = failure(r);
      const byLen = [...chunk].sort((a, b) => b.length - a.length);
      for (const line of r.stdout.split('\n')) {
        const p = byLen.find((c) => line.startsWith(`${c}:`));
        if (p === undefined) continue;
        const key = this.unroot(p);
        // A multi-line file keeps its first line only; these are one-value files.
        if (values[key] === undefined) values[key] = line.slice(p.length + 1);
      }
    }
    return { values, error };
  }

  /** Every path under dir to a depth, following sysfs symlinks but not into the big device subtrees. */
  async walk(dir: string, depth: number): Promise<{ ok: true; paths: string[] } | { ok: false; why: string }> {
    // Values are read by explicit path afterwards; the walk only needs names (partitions, slaves, holders).
    const prune = ['device', 'bdi', 'subsystem', 'power', 'trace', 'mq', 'integrity', 'queue', 'md', 'dm'];
    const expr: string[] = ['('];
    prune.forEach((n, i) => expr.push(...(i > 0 ? ['-o'] : []), '-name', n));
    expr.push(')', '-prune', '-o', '-print');
    const r = await this.run(['find', '-L', this.path(dir), '-mindepth', '1', '-maxdepth', String(depth), ...expr]);
    if (r.spawnError || r.timedOut || r.cancelled || (r.exitCode !== 0 && r.stdout.trim() === '')) return { ok: false, why: failure(r) };
    return {
      ok: true,
      paths: r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => this.unroot(l)),
    };
  }

  /** A tool's output: run for real on "/", from <root>/.commands/<key>.txt on a recorded tree. */
  async tool(argv: string[]): Promise<{ ok: true; text: string } | { ok: false; why: string }> {
    if (this.recorded) {
      const key = argv.join(' ').replace(/\//g, '_');
      const r = await this.run(['cat', `${this.root}/.commands/${key}.txt`]);
      return r.exitCode === 0 ? { ok: true, text: r.stdout } : { ok: false, why: `not recorded (${key}.txt)` };
    }
    const r = await this.run(argv);
    if (r.exitCode === 0) return { ok: true, text: r.stdout };
    return { ok: false, why: failure(r) };
  }

  /** Real path of a directory (symlinks resolved); null when it does not exist or cannot be read. */
  async realPath(p: string): Promise<string | null> {
    const r = await this.run(['readlink', '-f', this.path(p)]);
    const out = r.stdout.trim();
    return r.exitCode === 0 && out !== '' ? this.unroot(out) : null;
  }
}

function failure(r: RunResult): string {
  if (r.spawnError) return /ENOENT/.test(r.spawnError) ? `${r.argv[0]} not installed on the target` : r.spawnError;
  if (r.timedOut) return `timed out after ${r.ms} ms`;
  if (r.cancelled) return 'cancelled';
  const err = r.stderr.trim().split('\n')[0] ?? '';
  if (/Permission denied|Operation not permitted/i.test(err)) return `permission denied (${err.slice(0, 160)}); run with root or sudo for this`;
  if (/not found|No such file/i.test(err) && r.exitCode === 127) return `${r.argv[0]} not installed on the target`;
  return err !== '' ? err.slice(0, 200) : `exit code ${r.exitCode}`;
}

/** Reads everything the storage rules use; never throws for what the host does not have. */
export async function readHostStorage(target: Target, opts: ReadHostOptions = {}): Promise<{ facts: StorageFacts; snapshot: HostSnapshot }> {
  const io = new HostFiles(target, opts.root ?? '/', opts.timeoutMs ?? DEFAULT_TIMEOUT, opts.signal);
  const step = opts.onStep ?? (() => {});
  const snapshot: HostSnapshot = {
    origin: `host ${target.describe()}${io.recorded ? ` (recorded tree ${io.root})` : ''}`,
    product: opts.product ?? null,
    sysTree: [],
    files: {},
    commands: {},
    dirs: [],
    unread: [],
  };

  step('listing /sys/block');
  const tree = await io.walk('/sys/block', 4);
  if (!tree.ok) snapshot.unread.push({ what: '/sys/block', why: tree.why });
  else snapshot.sysTree = tree.paths;
  const layout = blockLayout(snapshot.sysTree);

  step(`reading sysfs for ${layout.devices.length} block devices`);
  const paths = [
    ...layout.devices.flatMap((d) => DEVICE_FILES.map((f) => `/sys/block/${d}/${f}`)),
    ...layout.partitions.flatMap((p) => PARTITION_FILES.map((f) => `/sys/block/${p.parent}/${p.name}/${f}`)),
  ];
  if (paths.length > 0) {
    const v = await io.values(paths);
    Object.assign(snapshot.files, v.values);
    if (v.error) snapshot.unread.push({ what: 'sysfs values', why: v.error });
    const noQueue = layout.devices.filter((d) => snapshot.files[`/sys/block/${d}/queue/logical_block_size`] === undefined);
    if (noQueue.length > 0) snapshot.unread.push({ what: `queue settings of ${noQueue.join(', ')}`, why: 'no readable /sys/block/<dev>/queue files' });
  }

  step('reading mounts and md arrays');
  for (const [p, label] of [
    ['/proc/self/mountinfo', 'mounts'],
    ['/proc/mdstat', 'md arrays'],
  ] as const) {
    const r = await io.cat(p);
    if (r.ok) snapshot.files[p] = r.text;
    else if (p === '/proc/mdstat' && /No such file/i.test(r.why)) {
      // No md driver loaded: no software RAID on this host, not a failure.
    } else snapshot.unread.push({ what: `${label} (${p})`, why: r.why });
  }

  // mdadm --detail adds the array state and raid10 layout when the tool is there (sysfs has the rest).
  for (const md of layout.devices.filter((d) => snapshot.files[`/sys/block/${d}/md/level`] !== undefined)) {
    const r = await io.tool(['mdadm', '--detail', `/dev/${md}`]);
    if (r.ok) snapshot.commands[`mdadm --detail /dev/${md}`] = r.text;
    else snapshot.unread.push({ what: `mdadm --detail /dev/${md} (array state)`, why: r.why });
  }

  step('lsblk');
  const lsblk = await io.tool(['lsblk', '--json', '--bytes', '-o', 'NAME,KNAME,TYPE,FSTYPE,MODEL,MOUNTPOINT']);
  if (lsblk.ok) snapshot.commands.lsblk = lsblk.text;
  else snapshot.unread.push({ what: 'lsblk (file-system types of unmounted devices, models)', why: lsblk.why });

  const mounts = snapshot.files['/proc/self/mountinfo'] !== undefined ? parseMountinfo(snapshot.files['/proc/self/mountinfo']) : [];
  for (const d of opts.dirs ?? []) {
    const real = await io.realPath(d.path);
    if (real === null) snapshot.unread.push({ what: `${d.role} directory ${d.path}`, why: 'does not exist on the target (or is not readable)' });
    snapshot.dirs.push({ role: d.role, path: d.path, realPath: real });
  }
  // xfs_info for the XFS mounts behind the database directories (every XFS mount when none were given).
  const xfsMounts = new Set<string>();
  if (snapshot.dirs.length > 0) {
    for (const d of snapshot.dirs) {
      const m = mountFor(mounts, d.realPath ?? d.path);
      if (m && m.fstype === 'xfs') xfsMounts.add(m.target);
    }
  } else for (const m of mounts) if (m.fstype === 'xfs') xfsMounts.add(m.target);
  for (const m of [...xfsMounts].slice(0, 16)) {
    step(`xfs_info ${m}`);
    const r = await io.tool(['xfs_info', m]);
    if (r.ok) snapshot.commands[`xfs_info ${m}`] = r.text;
    else snapshot.unread.push({ what: `XFS geometry of ${m} (xfs_info)`, why: r.why });
  }
  // ScyllaDB's disk model: checked against the directories above (core/rules/storage.ts ioPropertiesRules).
  if (snapshot.product === 'scylla') {
    const r = await io.cat(IO_PROPERTIES);
    if (r.ok) snapshot.files[IO_PROPERTIES] = r.text;
    else snapshot.unread.push({ what: `ScyllaDB disk model (${IO_PROPERTIES})`, why: r.why });
  }
  return { facts: factsFromHost(snapshot), snapshot };
}
