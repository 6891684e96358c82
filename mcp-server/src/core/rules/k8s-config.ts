/**
 * The checks for one operator datacenter or rack (PURE): the k8s rules, plus its embedded cassandra.yaml and JVM
 * options through the same config rules as files, with the container's memory limit standing for the host's RAM
 * and its CPU for cores. Used by audit_config (ops/k8s-audit.ts) and by interpret on a pasted resource.
 */
import { stringify } from 'yaml';
import { parseCassandraYaml, parseJvmOptions } from '../parse/config/index.js';
import type { K8sDbGroup, K8sResourceSet } from '../parse/k8s/resources.js';
import { cassandraYamlRules, jvmRules, type ConfigContext } from './config.js';
import { k8sGroupRules } from './k8s.js';
import type { KindRuleOutcome, KindRules } from './per-kind.js';

export interface EmbeddedInput {
  source: string;
  ok: boolean;
  reason?: string;
  detail?: string;
  warnings: string[];
}

/** The limit is what the OOM killer enforces; the request is the fallback. */
function ramOf(g: K8sDbGroup): number | undefined {
  return g.resources?.limits.memoryBytes ?? g.resources?.requests.memoryBytes ?? undefined;
}

function coresOf(g: K8sDbGroup): number | undefined {
  const c = g.resources?.limits.cpu ?? g.resources?.requests.cpu ?? null;
  return c !== null && c >= 1 ? Math.floor(c) : undefined;
}

/** Outcome rule names carry the group so two datacenters' checks stay apart in the report. */
const tagged = (o: KindRuleOutcome, g: K8sDbGroup): KindRuleOutcome => ({ ...o, rule: `${o.rule} (${g.group})` });

export function k8sGroupAudit(g: K8sDbGroup, source: string, ctx: ConfigContext = {}): { outcomes: KindRuleOutcome[]; inputs: EmbeddedInput[] } {
  const outcomes = k8sGroupRules(g);
  const inputs: EmbeddedInput[] = [];
  const ram = ramOf(g);
  const cores = coresOf(g);
  const version = ctx.version ?? (g.product === 'cassandra' && g.serverVersion && /^\d+\.\d+/.test(g.serverVersion) ? g.serverVersion : undefined);
  const groupCtx: ConfigContext = { ...ctx, ...(version ? { version } : {}), ...(ram ? { hostRamBytes: ram } : {}), ...(cores ? { cores } : {}) };
  if (g.cassandraYaml) {
    const where = `${source}: ${g.group} config.cassandraYaml`;
    const r = parseCassandraYaml(stringify(g.cassandraYaml));
    if (r.ok) {
      inputs.push({ source: where, ok: true, detail: `${Object.keys(r.value.settings).length} embedded settings`, warnings: r.warnings });
      outcomes.push(...cassandraYamlRules(r.value, { ...groupCtx, source: where }).map((o) => tagged(o, g)));
    } else inputs.push({ source: where, ok: false, reason: r.reason, warnings: [] });
  }
  if (g.jvmFlags.length) {
    const where = `${source}: ${g.group} JVM options${ram ? ` (container memory limit ${Math.round(ram / 2 ** 20)} MiB as RAM)` : ''}`;
    const r = parseJvmOptions(g.jvmFlags.join('\n'));
    if (r.ok) {
      inputs.push({ source: where, ok: true, detail: `${r.value.flags.length} flags from the resource`, warnings: r.warnings });
      outcomes.push(...jvmRules(r.value, { ...groupCtx, source: where }).map((o) => tagged(o, g)));
    } else inputs.push({ source: where, ok: false, reason: r.reason, warnings: [] });
  }
  return { outcomes, inputs };
}

/** interpret on a pasted `kubectl get -o yaml`: every group's checks. */
export const K8S_KIND_RULES: KindRules = {
  run(kind, value) {
    if (kind !== 'k8s.resources') return [];
    return (value as K8sResourceSet).groups.flatMap((g) => k8sGroupAudit(g, 'pasted resource').outcomes);
  },
};
