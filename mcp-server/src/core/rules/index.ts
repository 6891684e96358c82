import type { DiagnosisInput } from '../diagnosis/evidence.js';
import { worstFirst, type Finding } from '../findings.js';
import { compactionRule } from './compaction.js';
import { coordinatorLatencyRule } from './coordinator-latency.js';
import { jarDriftRule } from './jar-drift.js';
import { jvmRule } from './jvm.js';
import { logsRule } from './logs.js';
import { slowQueriesRule } from './slow-queries.js';
import { outliersRule } from './outliers.js';
import { ruleContext, runRule, skipped, type Rule } from './rule.js';
import { tablesRule } from './tables.js';
import { threadPoolsRule } from './threadpools.js';
import { topologyRule } from './topology.js';
import { trapsRule } from './traps.js';
import { pushAll } from '../arrays.js';
import { CLUSTER_WIDE_RULES } from './cluster-wide.js';
import type { PolicyEffect, RulePolicy } from './policy.js';

export const RULES: readonly Rule[] = [
  topologyRule,
  threadPoolsRule,
  compactionRule,
  tablesRule,
  coordinatorLatencyRule,
  jvmRule,
  logsRule,
  jarDriftRule,
  slowQueriesRule,
  outliersRule,
  trapsRule,
  ...CLUSTER_WIDE_RULES,
];

export interface RulesResult {
  findings: Finding[];
  /** What the operator's rule policy switched off or changed in this run (absent without a policy). */
  policy?: PolicyEffect;
  /** Per rule: checked or skipped (and why), and how many findings — "what was checked". */
  outcomes: { rule: string; checks: string; checked: boolean; skippedBecause?: string; findings: number }[];
}

/**
 * Runs every rule; a rule that throws is reported as skipped with the error, never fatal, and a rule whose facts
 * (dependsOn) no node has is skipped with the same kind of reason. A policy switches rules or findings off and
 * overrides thresholds (handed to each rule in its RuleContext); what it did is returned with the result.
 */
export function runRules(input: DiagnosisInput, rules: readonly Rule[] = RULES, policy?: RulePolicy): RulesResult {
  const findings: Finding[] = [];
  const outcomes: RulesResult['outcomes'] = [];
  const off = new Set(policy?.off ?? []);
  const effect: PolicyEffect | undefined = policy ? { source: policy.source, rulesOff: [], findingsOff: {}, thresholds: [] } : undefined;
  const overrides = new Map(Object.entries(policy?.thresholds ?? {}));
  const ctx = ruleContext(overrides);
  for (const [id, o] of overrides) {
    effect?.thresholds.push(
      `${id}: ${[o.warning !== undefined ? `warning ${o.warning}` : '', o.critical !== undefined ? `critical ${o.critical}` : ''].filter(Boolean).join(', ')}`,
    );
  }
  for (const r of rules) {
    const switchedOff = off.has(r.id);
    if (switchedOff) effect?.rulesOff.push(r.id);
    const o = switchedOff ? skipped(r.id, `switched off by the rule policy in ${policy!.source}`) : runRule(r, input, ctx);
    const kept = o.findings.filter((f) => !off.has(f.id));
    for (const f of o.findings) if (off.has(f.id) && effect) effect.findingsOff[f.id] = (effect.findingsOff[f.id] ?? 0) + 1;
    pushAll(findings, kept);
    outcomes.push({
      rule: r.id,
      checks: r.checks,
      checked: o.checked,
      ...(o.skippedBecause ? { skippedBecause: o.skippedBecause } : {}),
      findings: kept.length,
    });
  }
  return { findings: worstFirst(findings), outcomes, ...(effect ? { policy: effect } : {}) };
}
