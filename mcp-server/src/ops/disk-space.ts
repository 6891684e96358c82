/**
 * The disk-space check of a diagnosis: df on each node's host (the lab's own machine, or each node's nodetoolVia
 * target, as the window's host sampling reaches them), matched to the directories the node reports.
 */
import { readDf } from '../collect/disk-free.js';
import type { Target } from '../collect/target.js';
import { DISK_SPACE_CHECKS, diskSpaceOutcome, nodeDirsFromSettings, type HostDf } from '../core/rules/disk-space.js';
import type { RulesResult } from '../core/rules/index.js';
import { perHost, withHostOutcome, type HostGroupInput } from './host-checks.js';
import type { ClusterSnapshot } from './snapshot.js';

export interface DiskSpaceCheck {
  hosts: HostDf[];
  dirs: Record<string, ReturnType<typeof nodeDirsFromSettings>>;
  note?: string;
}

export async function checkDiskSpace(input: HostGroupInput, s: ClusterSnapshot, local: () => Target, signal?: AbortSignal): Promise<DiskSpaceCheck> {
  const reachable = s.nodes.filter((n) => n.reachable);
  const { hosts, note } = await perHost(
    input,
    reachable.map((n) => n.address),
    local,
    async (target, nodes): Promise<HostDf> => {
      const r = await readDf(target, signal ? { signal } : {});
      return r.ok ? { target: target.describe(), nodes, dfText: r.text } : { target: target.describe(), nodes, error: r.error };
    },
  );
  const dirs = Object.fromEntries(reachable.map((n) => [n.address, nodeDirsFromSettings(n.facts.settings as Record<string, unknown> | undefined)]));
  return { hosts, dirs, ...(note ? { note } : {}) };
}

/** The rules' result with the disk-space outcome added (skipped, with why, when no host could be reached). */
export function withDiskSpace(r: RulesResult, check: DiskSpaceCheck | undefined): RulesResult {
  if (!check) return r;
  const o = check.hosts.length
    ? diskSpaceOutcome(check.hosts, check.dirs)
    : { rule: 'disk-space', checked: false, skippedBecause: check.note ?? 'no host to run df on', findings: [] };
  return withHostOutcome(r, o, DISK_SPACE_CHECKS);
}
