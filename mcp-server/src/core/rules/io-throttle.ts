/**
 * A cgroup cap on the block I/O of a node's process on its data device (cgroup v1 blkio.throttle.*, v2 io.max).
 * The cap holds requests before the block layer counts them, so iostat shows an idle, fast device while the node
 * waits: only the cgroup files tell. Facts from collect/io-throttle.ts; PURE.
 */
import type { Finding, RuleOutcome } from '../findings.js';
import type { IoLimit, ThrottleKind } from '../parse/host/io-throttle.js';
import type { CpuThrottle } from '../parse/host/cpu-throttle.js';
import { grade, PACK, partly, skipped } from './rule.js';

export const IO_THROTTLE_RULE = 'io-throttle';
export const IO_THROTTLE_CHECKS =
  "cgroup caps on each node's process (host): block I/O on its data disk (blkio.throttle.*, io.max) and CPU time (cpu.cfs_quota_us, cpu.max) with how " +
  'often it was throttled';

export interface NodeIoThrottle {
  node: string;
  pid: number | null;
  /** Each data directory and the major:minor of the filesystem it is on (from the process's own mountinfo). */
  dataDirs: { path: string; majMin: string | null }[];
  /** The tightest cap of each kind per device, from the process's cgroup and its ancestors. */
  limits: IoLimit[];
  /** The CPU cap on the process (CFS bandwidth) and how often it was throttled, when its cgroups were read. */
  cpu?: CpuThrottle;
  error?: string;
}

export interface IoThrottleHost {
  target: string;
  nodes: NodeIoThrottle[];
  error?: string;
}

const KIND_TEXT: Record<ThrottleKind, (v: number) => string> = {
  readBps: (v) => `reads at ${mibps(v)}`,
  writeBps: (v) => `writes at ${mibps(v)}`,
  readIops: (v) => `reads at ${v} IOPS`,
  writeIops: (v) => `writes at ${v} IOPS`,
};

function mibps(bps: number): string {
  const m = bps / 2 ** 20;
  return m >= 10 ? `${Math.round(m)} MiB/s` : m >= 1 ? `${m.toFixed(1)} MiB/s` : `${Math.round(bps / 1024)} KiB/s`;
}

/** One finding per node whose data device is capped; checked when at least one node's process was read. */
export function ioThrottleOutcome(hosts: readonly IoThrottleHost[]): RuleOutcome {
  const findings: Finding[] = [];
  const problems: string[] = [];
  let read = 0;
  for (const h of hosts) {
    if (h.error !== undefined) problems.push(h.error);
    for (const n of h.nodes) {
      if (n.pid === null) {
        problems.push(`${n.node}: ${n.error ?? 'process not found'}`);
        continue;
      }
      read++;
      const cpu = n.cpu ? cpuThrottleFinding(n.node, n.pid, n.cpu) : null;
      if (cpu) findings.push(cpu);
      const devices = new Map<string, string[]>();
      for (const d of n.dataDirs) if (d.majMin !== null) devices.set(d.majMin, [...(devices.get(d.majMin) ?? []), d.path]);
      const onData = n.limits.filter((l) => devices.has(l.majMin));
      if (!onData.length) continue;
      const dirs = [...new Set(onData.flatMap((l) => devices.get(l.majMin) ?? []))];
      const caps = onData.map((l) => KIND_TEXT[l.kind](l.value));
      findings.push({
        id: 'host.io-throttle',
        severity: 'warning',
        node: n.node,
        title: `${n.node}: ${caps.join(', ')} on its data disk, capped by a cgroup I/O limit`,
        evidence: [
          ...onData.map((l) => `${l.file}: ${l.majMin} ${KIND_TEXT[l.kind](l.value)} (the process, pid ${n.pid}, is in this cgroup or below it)`),
          `device ${[...new Set(onData.map((l) => l.majMin))].join(', ')} holds ${dirs.join(', ')} (/proc/${n.pid}/mountinfo)`,
          'a cgroup cap delays I/O before the block layer counts it: /proc/diskstats and iostat show the device idle and fast while the node waits',
        ],
        recommendation:
          'Raise or remove the limit where it is set (container runtime --device-read-bps/--device-read-iops, a Kubernetes or systemd ' +
          'IOReadBandwidthMax/IOReadIOPSMax setting, or the cgroup file itself), or give the node a disk whose cap matches its load.',
        knowledgeIds: ['os.cgroup.io-throttle'],
        confidence: 'high',
        when: 'now',
      });
    }
  }
  if (read === 0) {
    return skipped(IO_THROTTLE_RULE, problems.join('; ') || 'no node process was found on the hosts reached');
  }
  return partly(IO_THROTTLE_RULE, findings, problems);
}

const pct = (x: number) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)} %`;

/**
 * A CFS quota on the node's process: information when it is rarely hit, graded by the share of periods in which
 * the kernel stopped the process for having used its quota (since its cgroup was created).
 */
function cpuThrottleFinding(node: string, pid: number, t: CpuThrottle): Finding | null {
  if (!t.cap) return null;
  const { cap, stat } = t;
  const share = stat && stat.periods > 0 ? stat.throttled / stat.periods : null;
  const sev = share === null ? null : grade(PACK, 100 * share, 'os.cgroup.cpu-throttle');
  const cpus = cap.cpus >= 10 ? cap.cpus.toFixed(0) : cap.cpus.toFixed(2).replace(/\.?0+$/, '');
  return {
    id: 'host.cpu-throttle',
    severity: sev ?? 'info',
    node,
    title:
      share !== null && share > 0
        ? `${node}: the process may use ${cpus} CPU(s) (cgroup CPU quota) and was stopped for it in ${pct(share)} of periods`
        : `${node}: the process is capped at ${cpus} CPU(s) by a cgroup CPU quota`,
    evidence: [
      `${cap.file}: quota ${cap.quotaUs} µs per ${cap.periodUs} µs period = ${cpus} CPU(s) (the process, pid ${pid}, is in this cgroup or below it)`,
      ...(stat
        ? [
            `${stat.dir}/cpu.stat: ${stat.throttled} of ${stat.periods} periods throttled, ${(stat.throttledMs / 1000).toFixed(2)} s throttled in all ` +
              '(since the cgroup was created)',
          ]
        : ["cpu.stat of the process's cgroup was not read: how often the quota stopped it is unknown"]),
      'a throttled process is runnable and stopped by the kernel until the next period: the host looks idle while every thread of the node waits',
    ],
    recommendation:
      'Raise or remove the quota where it is set (a Kubernetes CPU limit, docker --cpus, systemd CPUQuota=, or the cgroup file): a JVM needs ' +
      'its GC, compaction and request threads to run together, and a quota that stops them all mid-period turns into latency and timeouts.',
    knowledgeIds: ['os.cgroup.cpu-throttle'],
    confidence: 'high',
    when: 'now',
  };
}
