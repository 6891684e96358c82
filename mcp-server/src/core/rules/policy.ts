import { parse as parseYaml } from 'yaml';
/**
 * The operator's own rule policy (a trusted config file, never a tool argument): rules or findings switched off and
 * knowledge thresholds overridden, the way linters and scylla-doctor let a site say "we know, stop telling us".
 * Whatever it changed is reported with the diagnosis, so nobody reads a quiet report as a healthy cluster.
 */
export interface ThresholdOverride {
  warning?: number;
  critical?: number;
}

export interface RulePolicy {
  /** Where it came from (a path), named in the report. */
  source: string;
  /** Rule ids (skip the whole check) or finding ids (drop those findings). */
  off: readonly string[];
  /** Knowledge id → the thresholds to use instead of the pack's. */
  thresholds: Readonly<Record<string, ThresholdOverride>>;
}

/** What a policy did in one run: shown with the findings. */
export interface PolicyEffect {
  source: string;
  rulesOff: string[];
  /** Finding id → how many findings of it were dropped. */
  findingsOff: Record<string, number>;
  thresholds: string[];
}

export function describePolicy(e: PolicyEffect): string[] {
  const out: string[] = [];
  if (e.rulesOff.length) out.push(`rules switched off: ${e.rulesOff.join(', ')}`);
  const dropped = Object.entries(e.findingsOff);
  if (dropped.length) out.push(`findings switched off: ${dropped.map(([id, n]) => `${id} (${n} dropped)`).join(', ')}`);
  if (e.thresholds.length) out.push(`thresholds overridden: ${e.thresholds.join('; ')}`);
  return out.length
    ? [`Rule policy from ${e.source}:`, ...out.map((l) => `  - ${l}`)]
    : [`Rule policy from ${e.source}: in force; it changed nothing in this report`];
}

const ID = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * YAML text → policy, or every problem found (each names the key and the fix). Shape:
 *   off: [repair, repair.never-repaired]        # rule ids and/or finding ids
 *   thresholds:
 *     table.tombstones-per-read: { warning: 2000, critical: 20000 }
 * `hasThresholds(id)` says whether a knowledge id exists and has thresholds (passed in: core/knowledge stays the judge).
 */
export function parseRulePolicy(
  text: string,
  source: string,
  hasThresholds: (id: string) => boolean,
): { ok: true; policy: RulePolicy } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 0 });
  } catch (e) {
    return { ok: false, problems: [`not YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`] };
  }
  if (doc === null || doc === undefined) doc = {};
  if (typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, problems: ['the file must be a mapping with `off:` and/or `thresholds:`'] };
  const d = doc as Record<string, unknown>;
  for (const k of Object.keys(d)) if (k !== 'off' && k !== 'thresholds') problems.push(`unknown key "${k}" (allowed: off, thresholds)`);
  const off: string[] = [];
  if (d['off'] !== undefined) {
    if (!Array.isArray(d['off'])) problems.push('`off` must be a list of rule or finding ids, e.g. [repair.never-repaired]');
    else
      for (const x of d['off']) {
        if (typeof x === 'string' && ID.test(x)) off.push(x);
        else problems.push(`off: ${JSON.stringify(x)} is not a rule or finding id (lower-case, dots and dashes)`);
      }
  }
  const thresholds: Record<string, ThresholdOverride> = {};
  const t = d['thresholds'];
  if (t !== undefined) {
    if (t === null || typeof t !== 'object' || Array.isArray(t)) problems.push('`thresholds` must map knowledge ids to { warning, critical }');
    else
      for (const [id, v] of Object.entries(t as Record<string, unknown>)) {
        if (!hasThresholds(id)) {
          problems.push(`thresholds: "${id}" is not a knowledge id with thresholds (the findings catalogue names each finding's knowledge ids)`);
          continue;
        }
        if (v === null || typeof v !== 'object' || Array.isArray(v)) {
          problems.push(`thresholds.${id} must be { warning: <number>, critical: <number> }`);
          continue;
        }
        const o: ThresholdOverride = {};
        for (const [k, n] of Object.entries(v as Record<string, unknown>)) {
          if (k !== 'warning' && k !== 'critical') problems.push(`thresholds.${id}.${k}: unknown (allowed: warning, critical)`);
          else if (typeof n !== 'number' || !Number.isFinite(n)) problems.push(`thresholds.${id}.${k} must be a number`);
          else o[k] = n;
        }
        if (Object.keys(o).length) thresholds[id] = o;
      }
  }
  return problems.length ? { ok: false, problems } : { ok: true, policy: { source, off, thresholds } };
}
