/**
 * The disk-space check of a diagnosis: df on each node's host (the lab's own machine, or each node's nodetoolVia
 * target, as the window's host sampling reaches them), matched to the directories the node reports.
 */
import { readDf } from '../collect/disk-free.js';
import type { Target } from '../collect/target.js';
import { DISK_SPACE_CHECKS, diskSpaceOutcome, nodeDirsFromSettings, type HostDf } from '../core/rules/disk-space.js';
import { worstFirst } from '../core/findings.js';
import type { RulesResult } from '../core/rules/index.js';
import { hostGroups } from './diagnose-window.js';
import type { ClusterSnapshot } from './snapshot.js';

export interface DiskSpaceCheck {
  hosts: HostDf[];
  dirs: Record<string, ReturnType<typeof nodeDirsFromSettings>>;
  note?: string;
}

export async function checkDiskSpace(
  input: Parameters<typeof hostGroups>[0],
  s: ClusterSnapshot,
  local: () => Target,
  signal?: AbortSignal,
): Promise<DiskSpaceCheck> {
  const reachable = s.nodes.filter((n) => n.reachable);
  const { groups, note } = hostGroups(input, reachable.map((n) => n.address), local);
  const hosts = await Promise.all(
    groups.map(async (g): Promise<HostDf> => {
      const r = await readDf(g.target, signal ? { signal } : {});
      return r.ok ? { target: g.target.describe(), nodes: g.nodes, dfText: r.text } : { target: g.target.describe(), nodes: g.nodes, error: r.error };
    }),
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
  return {
    findings: worstFirst([...r.findings, ...o.findings]),
    outcomes: [
      ...r.outcomes,
      {
        rule: o.rule,
        checks: DISK_SPACE_CHECKS,
        checked: o.checked,
        ...(o.skippedBecause ? { skippedBecause: o.skippedBecause } : {}),
        findings: o.findings.length,
      },
    ],
  };
}
