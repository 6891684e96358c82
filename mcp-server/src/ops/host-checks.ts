/**
 * The plumbing every host-side check of a diagnosis shares (df, cgroup I/O caps, ScyllaDB set-up): run one read per
 * host that the window's host sampling reaches (the lab's own machine, or each node's nodetoolVia target), and add
 * a rule's outcome to the rules' result, "not checked" with the reason when no host could be read.
 */
import type { Target } from '../collect/target.js';
import { worstFirst, type Finding } from '../core/findings.js';
import type { RulesResult } from '../core/rules/index.js';
import { hostGroups } from './diagnose-window.js';

export type HostGroupInput = Parameters<typeof hostGroups>[0];

/** One read per host holding some of `nodes`; `note` says why there are none (no nodetoolVia, not the lab…). */
export async function perHost<T>(
  input: HostGroupInput,
  nodes: string[],
  local: () => Target,
  read: (target: Target, nodes: string[]) => Promise<T>,
): Promise<{ hosts: T[]; note?: string }> {
  const { groups, note } = hostGroups(input, nodes, local);
  const hosts = await Promise.all(groups.map((g) => read(g.target, g.nodes)));
  return { hosts, ...(note ? { note } : {}) };
}

export interface HostRuleOutcome {
  rule: string;
  checked: boolean;
  skippedBecause?: string;
  findings: Finding[];
}

/** The rules' result with one host rule's findings and outcome added. */
export function withHostOutcome(r: RulesResult, o: HostRuleOutcome, checks: string): RulesResult {
  return {
    findings: worstFirst([...r.findings, ...o.findings]),
    outcomes: [
      ...r.outcomes,
      { rule: o.rule, checks, checked: o.checked, ...(o.skippedBecause ? { skippedBecause: o.skippedBecause } : {}), findings: o.findings.length },
    ],
  };
}
