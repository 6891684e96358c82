/**
 * Block I/O limits a cgroup puts on a database process: what the kernel will let it read and write per device,
 * whatever the device could do. Such a cap never shows in /proc/diskstats as a busy disk (the throttle holds the
 * I/O before the block layer counts it), so it is read from the cgroup files themselves:
 *   cgroup v1: <mount>/blkio/<path>/blkio.throttle.{read,write}_{bps,iops}_device, lines "MAJ:MIN value";
 *   cgroup v2: <mount>/<path>/io.max, lines "MAJ:MIN rbps=N wbps=max riops=N wiops=max".
 * Both per Linux's Documentation/admin-guide/cgroup-v1/blkio-controller.rst and cgroup-v2.rst ("IO Interface
 * Files", io.max). Limits on ancestors apply too, so every cgroup from the process's up to the root is read.
 * Pure: the text of /proc/PID/cgroup, /proc/PID/cmdline and the throttle files in, typed facts out; never throws.
 */

export type ThrottleKind = 'readBps' | 'writeBps' | 'readIops' | 'writeIops';

export interface IoLimit {
  /** "7:0" */
  majMin: string;
  kind: ThrottleKind;
  /** Bytes per second or operations per second. */
  value: number;
  /** The cgroup file that sets it (the process's own cgroup or an ancestor). */
  file: string;
}

export interface ProcCgroups {
  /** v1 hierarchies: the controller list as /proc shows it ("blkio", "cpu,cpuacct") → the process's path. */
  v1: Record<string, string>;
  /** The v2 path ("0::/…"), null when the process is in no v2 hierarchy. */
  v2: string | null;
}

export const CGROUP_ROOT = '/sys/fs/cgroup';

const V1_FILES: Record<string, ThrottleKind> = {
  'blkio.throttle.read_bps_device': 'readBps',
  'blkio.throttle.write_bps_device': 'writeBps',
  'blkio.throttle.read_iops_device': 'readIops',
  'blkio.throttle.write_iops_device': 'writeIops',
};
const V2_KEYS: Record<string, ThrottleKind> = { rbps: 'readBps', wbps: 'writeBps', riops: 'readIops', wiops: 'writeIops' };

/** A cgroup path as /proc prints it, only when it is a plain absolute path (it becomes part of a file name to read). */
function safeCgroupPath(p: string): string | null {
  if (!p.startsWith('/') || p.length > 1024 || /[\0\n\\]/.test(p)) return null;
  const parts = p.split('/').filter((x) => x !== '');
  if (parts.some((x) => x === '.' || x === '..')) return null;
  return `/${parts.join('/')}`;
}

/** "/proc/PID/cgroup": "hierarchy-ID:controller-list:path" per line; a path that is not plain is dropped. */
export function parseProcCgroup(text: string): ProcCgroups {
  const out: ProcCgroups = { v1: {}, v2: null };
  for (const line of text.split('\n')) {
    const m = /^(\d+):([^:]*):(.*)$/.exec(line.trim());
    if (!m) continue;
    const path = safeCgroupPath(m[3]!);
    if (path === null) continue;
    if (m[1] === '0' && m[2] === '') out.v2 = path;
    else if (/^[\w.,=-]{1,64}$/.test(m[2]!) && !m[2]!.startsWith('name=')) out.v1[m[2]!] = path;
  }
  return out;
}

/** The path and each ancestor up to the root: "/a/b" → ["/a/b", "/a", "/"]. */
export function withAncestors(path: string): string[] {
  const parts = path.split('/').filter((x) => x !== '');
  const out: string[] = [];
  for (let i = parts.length; i >= 0; i--) out.push(`/${parts.slice(0, i).join('/')}`);
  return out;
}

export const joinPath = (...p: string[]) => p.join('/').replace(/\/{2,}/g, '/');
const join = joinPath;

/** Every throttle file that can limit the process: v1 blkio hierarchy and the v2 io.max (plain and hybrid mounts). */
export function throttleFiles(cg: ProcCgroups): string[] {
  const files: string[] = [];
  const blkio = Object.keys(cg.v1).find((c) => c.split(',').includes('blkio'));
  if (blkio !== undefined) {
    for (const dir of withAncestors(cg.v1[blkio]!)) for (const f of Object.keys(V1_FILES)) files.push(join(CGROUP_ROOT, blkio, dir, f));
  }
  if (cg.v2 !== null) {
    // The root cgroup has no io.max; a hybrid host mounts v2 at /sys/fs/cgroup/unified.
    for (const dir of withAncestors(cg.v2).filter((d) => d !== '/')) {
      files.push(join(CGROUP_ROOT, dir, 'io.max'), join(CGROUP_ROOT, 'unified', dir, 'io.max'));
    }
  }
  return files;
}

const MAJ_MIN = /^\d{1,4}:\d{1,8}$/;

/** `grep -s -H '' files…` output ("file:line" per line) → every limit set (0 and "max" mean none). */
export function parseThrottleGrep(text: string, files: readonly string[]): IoLimit[] {
  const byLen = [...files].sort((a, b) => b.length - a.length);
  const out: IoLimit[] = [];
  for (const line of text.split('\n')) {
    const file = byLen.find((f) => line.startsWith(`${f}:`));
    if (file === undefined) continue;
    const body = line
      .slice(file.length + 1)
      .trim()
      .split(/\s+/);
    const majMin = body[0] ?? '';
    if (!MAJ_MIN.test(majMin)) continue;
    const base = file.slice(file.lastIndexOf('/') + 1);
    if (base === 'io.max') {
      for (const kv of body.slice(1)) {
        const [k, v] = kv.split('=');
        const kind = V2_KEYS[k ?? ''];
        if (kind && v !== undefined && /^\d{1,20}$/.test(v) && Number(v) > 0) out.push({ majMin, kind, value: Number(v), file });
      }
    } else {
      const kind = V1_FILES[base];
      const v = body[1] ?? '';
      if (kind && /^\d{1,20}$/.test(v) && Number(v) > 0) out.push({ majMin, kind, value: Number(v), file });
    }
  }
  return out;
}

/** The tightest limit of each kind per device (a parent's lower cap wins over the child's). */
export function effectiveLimits(limits: readonly IoLimit[]): IoLimit[] {
  const best = new Map<string, IoLimit>();
  for (const l of limits) {
    const k = `${l.majMin} ${l.kind}`;
    const cur = best.get(k);
    if (!cur || l.value < cur.value) best.set(k, l);
  }
  return [...best.values()].sort((a, b) => a.majMin.localeCompare(b.majMin) || a.kind.localeCompare(b.kind));
}

/** /proc/PID/cmdline (NUL-separated; grep -a may show it as one line) → argv. */
export function parseCmdline(text: string): string[] {
  return text.split('\0').filter((a) => a !== '');
}

/** Directories a Cassandra command line names for itself (-Dcassandra.storagedir, the lab's node-dir marker). */
export function cmdlineDirs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of argv) {
    const m = /^-D(?:cassandra\.storagedir|cql_tuner\.lab_node_dir)=(\/.{0,4000})$/.exec(a);
    if (m) out.push(m[1]!.replace(/\/+$/, '') || '/');
  }
  return out;
}

/** True when `path` is `dir` or below it. */
export function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === '/' ? '/' : `${dir}/`);
}
