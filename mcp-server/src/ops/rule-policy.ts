import { readNamedFile } from '../collect/safe-file.js';
import { hasKnowledge, knowledge } from '../core/knowledge/index.js';
import { parseRulePolicy, type RulePolicy } from '../core/rules/policy.js';
import { OpError } from './errors.js';

/** The environment variable naming the operator's rule policy file (trusted: the user's own environment). */
export const RULE_POLICY_ENV = 'CQL_TUNER_RULES';

const hasThresholds = (id: string) => hasKnowledge(id) && knowledge(id).thresholds !== undefined;

/**
 * The rule policy from the path the user gave (CLI `--rules`) or from CQL_TUNER_RULES; none when neither is set.
 * Never from a tool argument: a policy decides what the report stays silent about.
 */
export async function loadRulePolicy(path: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<RulePolicy | undefined> {
  const file = path ?? env[RULE_POLICY_ENV];
  if (!file) return undefined;
  const from = path ? '--rules' : RULE_POLICY_ENV;
  const r = await readNamedFile(file, { maxBytes: 1024 * 1024 });
  if (!r.ok) throw new OpError('BAD_RULE_POLICY', `rule policy ${file} (${from}): ${r.reason}`, `Point ${from} at a regular YAML file, or unset it.`);
  const p = parseRulePolicy(r.text, r.path, hasThresholds);
  if (!p.ok) {
    throw new OpError(
      'BAD_RULE_POLICY',
      `rule policy ${r.path} (${from}) has ${p.problems.length} problem(s): ${p.problems.join('; ')}`,
      'Fix the file (keys: off: [rule or finding ids], thresholds: {<knowledge id>: {warning, critical}}) or unset it; nothing was diagnosed with it.',
    );
  }
  return p.policy;
}
