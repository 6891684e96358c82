import type { DiagnosisInput } from '../diagnosis/evidence.js';
import { worstFirst, type Finding, type RuleOutcome } from '../findings.js';
import { compactionRule } from './compaction.js';
import { jvmRule } from './jvm.js';
import { logsRule } from './logs.js';
import { outliersRule } from './outliers.js';
import type { Rule } from './rule.js';
import { tablesRule } from './tables.js';
import { threadPoolsRule } from './threadpools.js';
import { topologyRule } from './topology.js';
import { trapsRule } from './traps.js';
import { pushAll } from '../arrays.js';
import { CLUSTER_WIDE_RULES } from './cluster-wide.js';

export const RULES: readonly Rule[] = [topologyRule, threadPoolsRule, compactionRule, tablesRule, jvmRule, logsRule, outliersRule, trapsRule, ...CLUSTER_WIDE_RULES];

export interface RulesResult {
  findings: Finding[];
  /** Per rule: checked or skipped (and why), and how many findings — "what was checked". */
  outcomes: { rule: string; checks: string; checked: boolean; skippedBecause?: string; findings: number }[];
}

/** Runs every rule; a rule that throws is reported as skipped with the error, never fatal. */
export function runRules(input: DiagnosisInput, rules: readonly Rule[] = RULES): RulesResult {
  const findings: Finding[] = [];
  const outcomes: RulesResult['outcomes'] = [];
  for (const r of rules) {
    let o: RuleOutcome;
    try {
      o = r.run(input);
    } catch (e) {
      o = { rule: r.id, checked: false, skippedBecause: `rule error: ${e instanceof Error ? e.message : String(e)}`, findings: [] };
    }
    pushAll(findings, o.findings);
    outcomes.push({ rule: r.id, checks: r.checks, checked: o.checked, ...(o.skippedBecause ? { skippedBecause: o.skippedBecause } : {}), findings: o.findings.length });
  }
  return { findings: worstFirst(findings), outcomes };
}
