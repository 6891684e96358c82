import type { RuleOutcome } from '../findings.js';
import { judgeOf } from '../detect.js';

/**
 * Rules for outputs that are not a node's state: a stress run, a disk listing, a config file. Each kind in
 * detect.ts's KINDS names the rules that read it (its `judge`); `interpret` runs them on the parsed value.
 */
export interface KindRules {
  run(kind: string, value: unknown): KindRuleOutcome[];
}

/** A rule outcome plus what the rule checks, for the report's "what was checked" list. */
export type KindRuleOutcome = RuleOutcome & { checks: string };

/** The rules registered with a kind, when it is judged by its own rules (not the node or log rules). */
export function kindRulesFor(kind: string): KindRules | undefined {
  const j = judgeOf(kind);
  return j?.by === 'kind-rules' ? j.rules : undefined;
}
