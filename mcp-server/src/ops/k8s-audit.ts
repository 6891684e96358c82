/**
 * audit_config on Kubernetes operator resources (CassandraDatacenter, K8ssandraCluster, ScyllaCluster): the text
 * is parsed once, then each datacenter or rack gets core/rules/k8s-config.ts. Pure (texts in, outcomes out):
 * audit-config.ts calls it for inputs that look like operator resources.
 */
import { parseK8sResources } from '../core/parse/k8s/resources.js';
import type { ConfigContext } from '../core/rules/config.js';
import { containerQos, storageKindOf } from '../core/rules/k8s.js';
import { k8sGroupAudit, type EmbeddedInput } from '../core/rules/k8s-config.js';
import type { KindRuleOutcome } from '../core/rules/per-kind.js';

export interface K8sAudit {
  inputs: EmbeddedInput[];
  outcomes: KindRuleOutcome[];
}

/** One pasted or file text of operator resources → its input lines and rule outcomes. */
export function auditK8sText(source: string, text: string, ctx: ConfigContext = {}): K8sAudit {
  const r = parseK8sResources(text);
  if (!r.ok) return { inputs: [{ source, ok: false, reason: r.reason, warnings: [] }], outcomes: [] };
  const summary = r.value.groups
    .map((g) => {
      const storage = `${g.storage.storageClass ?? 'default class'} (${storageKindOf(g.storage.storageClass)})`;
      return `${g.resource} ${g.group}: ${g.members ?? '?'} pod(s), ${containerQos(g.resources)} (db container), storage ${storage}`;
    })
    .join('; ');
  const ignored = r.value.ignoredKinds.length ? [`other kinds ignored: ${r.value.ignoredKinds.join(', ')}`] : [];
  const inputs: EmbeddedInput[] = [{ source, ok: true, detail: summary, warnings: [...r.warnings, ...ignored] }];
  const outcomes: KindRuleOutcome[] = [];
  for (const g of r.value.groups) {
    const a = k8sGroupAudit(g, source, ctx);
    inputs.push(...a.inputs);
    outcomes.push(...a.outcomes);
  }
  return { inputs, outcomes };
}
