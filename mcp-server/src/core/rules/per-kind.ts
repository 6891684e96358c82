import type { RuleOutcome } from '../findings.js';

/**
 * Rules for outputs that are not a node's state: a stress run, a disk listing, a config file. `interpret`
 * looks up the entry whose prefix matches the detected kind (e.g. "stress.", "storage.", "config.") and runs
 * it on the parsed value. Each domain registers its own entry here.
 */
export interface KindRules {
  prefix: string;
  run(kind: string, value: unknown): KindRuleOutcome[];
}

/** A rule outcome plus what the rule checks, for the report's "what was checked" list. */
export type KindRuleOutcome = RuleOutcome & { checks: string };

export const KIND_RULES: KindRules[] = [];

export function kindRulesFor(kind: string): KindRules | undefined {
  return KIND_RULES.find((k) => kind.startsWith(k.prefix));
}
