/**
 * The cgroup I/O cap check of a diagnosis: on each Cassandra node's host (the lab's own machine, or each node's
 * nodetoolVia target, as the df check reaches them), the block I/O limits of the node's process on its data disk
 * (collect/io-throttle.ts, core/rules/io-throttle.ts). ScyllaDB nodes are left to the ScyllaDB host check.
 */
import { readIoThrottle } from '../collect/io-throttle.js';
import type { Target } from '../collect/target.js';
import { IO_THROTTLE_CHECKS, IO_THROTTLE_RULE, ioThrottleOutcome, type IoThrottleHost } from '../core/rules/io-throttle.js';
import { nodeDirsFromSettings } from '../core/rules/disk-space.js';
import type { RulesResult } from '../core/rules/index.js';
import { perHost, withHostOutcome, type HostGroupInput } from './host-checks.js';
import type { ClusterSnapshot } from './snapshot.js';
import { labPaths, readLabState } from '../lab/index.js';

export interface IoThrottleCheck {
  hosts: IoThrottleHost[];
  note?: string;
}

/** undefined when no reachable node is Cassandra (nothing to look for). */
export async function checkIoThrottle(
  input: HostGroupInput,
  s: ClusterSnapshot,
  local: () => Target,
  signal?: AbortSignal,
): Promise<IoThrottleCheck | undefined> {
  // Unreachable nodes too: a node starved by a CPU quota may not answer CQL, and its cgroup is what says why.
  const nodes = s.nodes.filter((n) => n.facts.product !== 'scylla');
  if (nodes.length === 0) return undefined;
  // The lab's own record says where each node lives, for a node whose settings could not be read.
  const lab = input.lab ? await readLabState(labPaths().stateDir).catch(() => null) : null;
  const labDir = (address: string) => lab?.nodes.find((x) => x.host === address)?.dir;
  const dirs = new Map(
    nodes.map((n) => {
      const fromSettings = nodeDirsFromSettings(n.facts.settings as Record<string, unknown> | undefined)
        .filter((d) => d.setting === 'data_file_directories')
        .map((d) => d.path);
      const dir = labDir(n.address);
      return [n.address, fromSettings.length || dir === undefined ? fromSettings : [`${dir}/data`]];
    }),
  );
  return perHost(
    input,
    nodes.map((n) => n.address),
    local,
    (target, onHost) =>
      readIoThrottle(
        target,
        onHost.map((node) => ({ node, dataDirs: dirs.get(node) ?? [] })),
        signal ? { signal } : {},
      ),
  );
}

/** The rules' result with the cgroup I/O cap outcome added (skipped, with why, when no host could be reached). */
export function withIoThrottle(r: RulesResult, check: IoThrottleCheck | undefined): RulesResult {
  if (!check) return r;
  const o = check.hosts.length
    ? ioThrottleOutcome(check.hosts)
    : { rule: IO_THROTTLE_RULE, checked: false, skippedBecause: check.note ?? 'no host to read cgroups on', findings: [] };
  return withHostOutcome(r, o, IO_THROTTLE_CHECKS);
}
