import type { RuleOutcome } from '../findings.js';
import { STORAGE_KIND_RULES } from './storage.js';
import { STRESS_KIND_RULES } from './stress.js';
import { SCHEMA_KIND_RULES } from './schema.js';
import { CONFIG_KIND_RULES } from './config.js';
import { CQL_TABLE_KIND_RULES } from './cql-table-kind.js';
import { HOST_KIND_RULES } from './host.js';
import { SLOW_QUERY_KIND_RULES } from './slow-queries.js';
import { K8S_KIND_RULES } from './k8s-config.js';

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
KIND_RULES.push(STORAGE_KIND_RULES);
KIND_RULES.push(STRESS_KIND_RULES);
KIND_RULES.push(SCHEMA_KIND_RULES);
KIND_RULES.push(CONFIG_KIND_RULES);
KIND_RULES.push(...CQL_TABLE_KIND_RULES);
KIND_RULES.push(HOST_KIND_RULES);
KIND_RULES.push(SLOW_QUERY_KIND_RULES);
KIND_RULES.push(K8S_KIND_RULES);

export function kindRulesFor(kind: string): KindRules | undefined {
  return KIND_RULES.find((k) => kind.startsWith(k.prefix));
}
