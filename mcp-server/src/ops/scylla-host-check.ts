/**
 * The ScyllaDB host set-up check of a diagnosis: for each ScyllaDB node's host (the targets the window's host
 * sampling and the df check reach: each node's nodetoolVia), read the set-up (collect/host-scylla.ts) and run
 * core/rules/scylla-host.ts. Cassandra-only clusters are not touched. Never throws: a host that cannot be read is
 * a skipped check with the reason.
 */
import { readScyllaHost } from '../collect/host-scylla.js';
import type { Target } from '../collect/target.js';
import { withMoreFindings, type Finding } from '../core/findings.js';
import { scyllaHostRules, type ScyllaHostFacts } from '../core/rules/scylla-host.js';
import type { KindRuleOutcome } from '../core/rules/per-kind.js';
import { perHost, type HostGroupInput } from './host-checks.js';
import type { ClusterSnapshot } from './snapshot.js';

export interface ScyllaHostRead {
  target: string;
  nodes: string[];
  facts?: ScyllaHostFacts;
  error?: string;
}

export interface ScyllaHostCheck {
  hosts: ScyllaHostRead[];
  note?: string;
}

/** undefined when no reachable node is ScyllaDB (nothing to check, nothing to say). */
export async function checkScyllaHost(
  input: HostGroupInput,
  s: ClusterSnapshot,
  local: () => Target,
  signal?: AbortSignal,
): Promise<ScyllaHostCheck | undefined> {
  const scylla = s.nodes.filter((n) => n.reachable && n.facts.product === 'scylla').map((n) => n.address);
  if (scylla.length === 0) return undefined;
  return perHost(input, scylla, local, async (target, nodes): Promise<ScyllaHostRead> => {
    try {
      return { target: target.describe(), nodes, facts: await readScyllaHost(target, signal ? { signal } : {}) };
    } catch (e) {
      return { target: target.describe(), nodes, error: e instanceof Error ? e.message : String(e) };
    }
  });
}

type Outcome = { rule: string; checks: string; checked: boolean; skippedBecause?: string; findings: number };

/** Findings of every host (each naming its node), and one outcome per rule: checked when any host could be. */
export function scyllaHostOutcomes(check: ScyllaHostCheck): { findings: Finding[]; outcomes: Outcome[] } {
  const read = check.hosts.filter((h): h is ScyllaHostRead & { facts: ScyllaHostFacts } => h.facts !== undefined);
  if (read.length === 0) {
    const why = check.hosts.map((h) => `${h.target}: ${h.error ?? 'not read'}`).join('; ') || check.note || 'no ScyllaDB host reachable';
    const checks = 'ScyllaDB host set-up (perftune, cpuset, IRQs, AIO, descriptors)';
    return { findings: [], outcomes: [{ rule: 'scylla-host', checks, checked: false, skippedBecause: why, findings: 0 }] };
  }
  const findings: Finding[] = [];
  const byRule = new Map<string, { o: KindRuleOutcome; checked: boolean; n: number; why: string[] }>();
  for (const h of read) {
    for (const o of scyllaHostRules(h.facts)) {
      const node = h.nodes.length === 1 ? h.nodes[0]! : undefined;
      findings.push(...o.findings.map((f) => (node !== undefined && f.node === undefined ? { ...f, node } : f)));
      const e = byRule.get(o.rule) ?? { o, checked: false, n: 0, why: [] };
      e.checked ||= o.checked;
      e.n += o.findings.length;
      if (!o.checked && o.skippedBecause) e.why.push(`${h.target}: ${o.skippedBecause}`);
      byRule.set(o.rule, e);
    }
  }
  const outcomes = [...byRule.values()].map(({ o, checked, n, why }): Outcome => ({
    rule: o.rule,
    checks: o.checks,
    checked,
    ...(checked ? {} : { skippedBecause: why.join('; ') }),
    findings: n,
  }));
  return { findings, outcomes };
}

/** A diagnosis report with the ScyllaDB host findings and outcomes added, counts recomputed. */
export function withScyllaHost<R extends { findings: Finding[]; checked: Outcome[]; counts: { critical: number; warning: number; info: number } }>(
  report: R,
  check: ScyllaHostCheck | undefined,
): R {
  if (!check) return report;
  const { findings, outcomes } = scyllaHostOutcomes(check);
  return { ...withMoreFindings(report, findings), checked: [...report.checked, ...outcomes] };
}
