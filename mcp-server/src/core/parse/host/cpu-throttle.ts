/**
 * A CPU cap a cgroup puts on a database process (CFS bandwidth control): how many CPUs' worth of time the kernel
 * lets the group run per period, and how often it was stopped for having used it. A capped node is slow with an
 * idle host beside it; only the cgroup files tell. Per Linux's Documentation/scheduler/sched-bwc.rst:
 *   cgroup v1: <mount>/cpu/<path>/cpu.cfs_quota_us (-1: none) and cpu.cfs_period_us; cpu.stat nr_periods,
 *              nr_throttled, throttled_time (ns);
 *   cgroup v2: <mount>/<path>/cpu.max "QUOTA PERIOD" ("max": none); cpu.stat nr_periods, nr_throttled,
 *              throttled_usec (Documentation/admin-guide/cgroup-v2.rst, "CPU Interface Files").
 * Caps on ancestors apply too. Pure: /proc/PID/cgroup and the files' text in, typed facts out; never throws.
 */
import { CGROUP_ROOT, joinPath, withAncestors, type ProcCgroups } from './io-throttle.js';

export interface CpuCap {
  /** CPUs' worth of time per period (quota / period), the tightest along the process's cgroup and its ancestors. */
  cpus: number;
  quotaUs: number;
  periodUs: number;
  /** The file that sets it. */
  file: string;
}

export interface CpuThrottleStat {
  /** The cgroup directory whose cpu.stat this is (the process's own). */
  dir: string;
  periods: number;
  throttled: number;
  throttledMs: number;
}

export interface CpuThrottle {
  cap: CpuCap | null;
  /** Throttling counted since the process's own cgroup was created (null when its cpu.stat was not read). */
  stat: CpuThrottleStat | null;
}

const join = joinPath;

/** The v1 cpu hierarchy's directory name as /proc shows its controllers ("cpu", "cpu,cpuacct"), or null. */
function v1Cpu(cg: ProcCgroups): string | null {
  return Object.keys(cg.v1).find((c) => c.split(',').includes('cpu')) ?? null;
}

/** Directories whose cpu files can cap the process, own cgroup first: v1 cpu hierarchy, v2 (plain and hybrid). */
export function cpuCgroupDirs(cg: ProcCgroups): { dir: string; v: 1 | 2 }[] {
  const out: { dir: string; v: 1 | 2 }[] = [];
  const cpu = v1Cpu(cg);
  if (cpu !== null) for (const d of withAncestors(cg.v1[cpu]!)) out.push({ dir: join(CGROUP_ROOT, cpu, d), v: 1 });
  if (cg.v2 !== null) {
    for (const d of withAncestors(cg.v2)) {
      out.push({ dir: join(CGROUP_ROOT, d), v: 2 }, { dir: join(CGROUP_ROOT, 'unified', d), v: 2 });
    }
  }
  return out;
}

/** Every file to read for cpuThrottleFrom. */
export function cpuThrottleFiles(cg: ProcCgroups): string[] {
  return cpuCgroupDirs(cg).flatMap(({ dir, v }) =>
    v === 1 ? [join(dir, 'cpu.cfs_quota_us'), join(dir, 'cpu.cfs_period_us'), join(dir, 'cpu.stat')] : [join(dir, 'cpu.max'), join(dir, 'cpu.stat')],
  );
}

const INT = /^-?\d{1,20}$/;

/** `grep -s -H '' files…` ("file:line" per line) → the tightest cap and the process's own cgroup's throttling. */
export function cpuThrottleFrom(grepText: string, cg: ProcCgroups): CpuThrottle {
  const dirs = cpuCgroupDirs(cg);
  const files = cpuThrottleFiles(cg);
  const byLen = [...files].sort((a, b) => b.length - a.length);
  const lines = new Map<string, string[]>();
  for (const line of grepText.split('\n')) {
    const f = byLen.find((x) => line.startsWith(`${x}:`));
    if (f !== undefined) lines.set(f, [...(lines.get(f) ?? []), line.slice(f.length + 1).trim()]);
  }
  const first = (f: string) => lines.get(f)?.[0];
  let cap: CpuCap | null = null;
  for (const { dir, v } of dirs) {
    let quota: number | null = null;
    let period: number | null = null;
    let file = '';
    if (v === 1) {
      const q = first(join(dir, 'cpu.cfs_quota_us'));
      const p = first(join(dir, 'cpu.cfs_period_us'));
      if (q !== undefined && p !== undefined && INT.test(q) && INT.test(p)) [quota, period, file] = [Number(q), Number(p), join(dir, 'cpu.cfs_quota_us')];
    } else {
      const m = /^(max|\d{1,20})\s+(\d{1,20})$/.exec(first(join(dir, 'cpu.max')) ?? '');
      if (m && m[1] !== 'max') [quota, period, file] = [Number(m[1]), Number(m[2]), join(dir, 'cpu.max')];
    }
    if (quota === null || period === null || quota <= 0 || period <= 0) continue;
    const cpus = quota / period;
    if (!cap || cpus < cap.cpus) cap = { cpus, quotaUs: quota, periodUs: period, file };
  }
  // Throttling is read from the process's own cgroup (the first directory that has a cpu.stat).
  let stat: CpuThrottleStat | null = null;
  for (const { dir } of dirs) {
    const body = lines.get(join(dir, 'cpu.stat'));
    if (!body) continue;
    const kv = new Map(body.map((l) => l.split(/\s+/) as [string, string]).filter(([k, v]) => k && v !== undefined && INT.test(v)));
    const periods = Number(kv.get('nr_periods') ?? NaN);
    const throttled = Number(kv.get('nr_throttled') ?? NaN);
    const ms = kv.has('throttled_time') ? Number(kv.get('throttled_time')) / 1e6 : kv.has('throttled_usec') ? Number(kv.get('throttled_usec')) / 1e3 : NaN;
    if (Number.isFinite(periods) && Number.isFinite(throttled)) stat = { dir, periods, throttled, throttledMs: Number.isFinite(ms) ? ms : 0 };
    break;
  }
  return { cap, stat };
}
