/**
 * A cgroup cap on the block I/O of a node's process on its data device (cgroup v1 blkio.throttle.*, v2 io.max).
 * The cap holds requests before the block layer counts them, so iostat shows an idle, fast device while the node
 * waits: only the cgroup files tell. Facts from collect/io-throttle.ts; PURE.
 */
import type { Finding, RuleOutcome } from '../findings.js';
import type { IoLimit, ThrottleKind } from '../parse/host/io-throttle.js';
import { partly, skipped } from './rule.js';

export const IO_THROTTLE_RULE = 'io-throttle';
export const IO_THROTTLE_CHECKS = "cgroup block I/O caps (blkio.throttle.*, io.max) on the data disk of each node's process (host)";

export interface NodeIoThrottle {
  node: string;
  pid: number | null;
  /** Each data directory and the major:minor of the filesystem it is on (from the process's own mountinfo). */
  dataDirs: { path: string; majMin: string | null }[];
  /** The tightest cap of each kind per device, from the process's cgroup and its ancestors. */
  limits: IoLimit[];
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
