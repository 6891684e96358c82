import type { DiagnosisInput, NodeEvidence } from '../diagnosis/evidence.js';
import type { FactRef } from './rule.js';

/** Where each fact a rule depends on comes from, for the reason a rule was skipped (what to collect next time). */
const SOURCES: Partial<Record<FactRef, string>> = {
  'facts:threadPools': 'thread pools: system_views.thread_pools or nodetool tpstats',
  'facts:droppedMessages': 'dropped messages: nodetool tpstats',
  'facts:clients': 'client list: system_views.clients needs Cassandra 4.0+; ScyllaDB system.clients',
  'facts:cqlMetrics': 'statement counters: system_views.cql_metrics needs Cassandra 4.1+',
  logs: 'logs: give log files, or diagnose the lab, whose logs are local; slow-query reports are in debug.log, Cassandra 3.10+ / DSE 5.1+',
};

/** Where a fact comes from, as the skip reason names it; undefined when none is recorded. */
export const factSource = (ref: FactRef): string | undefined => SOURCES[ref];

function present(n: NodeEvidence, ref: FactRef): boolean {
  const [where, key] = ref.split(':') as [string, string | undefined];
  const v: unknown = where === 'logs' ? n.logs : where === 'facts' ? (n.facts as Record<string, unknown>)[key!] : (n.nodetool as Record<string, unknown>)[key!];
  return v !== undefined && v !== null;
}

/**
 * Null when some node has at least one of the facts; otherwise the reason the rule is skipped, the same words for
 * every rule: which facts none of the nodes had, and where each comes from.
 */
export function missingFacts(dependsOn: readonly FactRef[] | undefined, input: DiagnosisInput): string | null {
  if (!dependsOn?.length) return null;
  if (input.nodes.some((n) => dependsOn.some((ref) => present(n, ref)))) return null;
  return `not collected on any node: ${dependsOn.map((ref) => `${ref} (${SOURCES[ref] ?? 'no source recorded'})`).join('; ')}`;
}
