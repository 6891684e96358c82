/**
 * A node that refused its cassandra.yaml at startup (a ConfigurationException in the log): name the settings the
 * message names, what each one is on record as (removed, renamed, needs a unit) and the fix. The version rules come
 * from knowledge/config-renames.yaml through core/config/renames.ts.
 */
import { allKeyChanges, keyStatus } from '../config/renames.js';
import type { Finding } from '../findings.js';
import type { KnowledgeId } from '../knowledge/index.js';
import type { LogExample, LogFacts } from '../parse/logs/types.js';

/** What the record says about one setting, in a few words ("removed in 4.0", "renamed read_request_timeout in 4.1"). */
function verdict(key: string): { text: string; knowledgeId: KnowledgeId } | null {
  const s = keyStatus(key);
  if (s.status === 'removed')
    return { text: `${key}: removed in ${s.change.since}${s.change.replacement ? ` (use ${s.change.replacement})` : ''}`, knowledgeId: s.change.knowledgeId };
  if (s.status === 'renamed') return { text: `${key}: renamed ${s.change.replacement} in ${s.change.since}`, knowledgeId: s.change.knowledgeId };
  if (s.status === 'deprecated') return { text: `${key}: deprecated since ${s.change.since}`, knowledgeId: s.change.knowledgeId };
  // a new (4.1+) name: an older node does not know it, and its value needs a unit
  const asNew = allKeyChanges().find((c) => (c.change === 'renamed' || c.change === 'unit') && c.replacement === key);
  if (asNew)
    return {
      text: `${key}: the ${asNew.since}+ name of ${asNew.key}${asNew.valueType && asNew.valueType !== 'boolean' && asNew.valueType !== 'number' ? ` (its value needs a unit)` : ''}`,
      knowledgeId: asNew.knowledgeId,
    };
  return null;
}

const FIX: Record<string, { fix: string; knowledgeId: KnowledgeId }> = {
  'unknown-keys': {
    fix: 'Remove the named properties from cassandra.yaml (or rename them to what this version calls them), then start the node again.',
    knowledgeId: 'config.unknown-key-refused',
  },
  'old-and-new-keys': {
    fix: 'Keep one spelling of each pair (the new one on 4.1+) and delete the other; -Dcassandra.allow_new_old_config_keys=true only hides it.',
    knowledgeId: 'config.old-and-new-key',
  },
  'invalid-value': {
    fix: 'Correct the value of the named property: under the 4.1+ names durations, sizes and rates need a unit (5000ms, 16MiB, 64MiB/s).',
    knowledgeId: 'config.value-needs-unit',
  },
  'config-construct': {
    fix:
      'The file may well be fine: Cassandra could not build its Config object at all (its constructor threw), and the message names no ' +
      'property. Find the first "Caused by" of the full stack trace (5.0 keeps it; older loaders dropped it, so run once with the same ' +
      'classpath and a debugger or -verbose:class): most often a second version of a library Cassandra ships, Guava or SnakeYAML, on an ' +
      "embedded Cassandra's classpath (cassandra-unit, test runners). Align those jars with the Cassandra release's own lib/.",
    knowledgeId: 'config.yaml-config-construct-failed',
  },
  other: {
    fix:
      'Read the exception message: it names what was refused — a cassandra.yaml property or value, an address that is not one of this ' +
      'host\'s (listen_address, rpc_address), seeds that do not resolve ("The seed provider lists no seeds": on Kubernetes the seed ' +
      'service has no ready endpoint yet) — correct that and start the node again.',
    knowledgeId: 'config.unknown-key-refused',
  },
};

export function configErrorFinding(node: string, l: LogFacts, ex: (node: string, e: LogExample | undefined) => string | null): Finding | null {
  const c = l.configErrors;
  if (!c?.count) return null;
  const main = c.byType.find((t) => t.type !== 'other')?.type ?? 'other';
  const verdicts = c.settings.map(verdict).filter((v): v is { text: string; knowledgeId: KnowledgeId } => v !== null);
  const named = c.settings.length
    ? `: ${c.settings.slice(0, 6).join(', ')}${c.settings.length > 6 ? ', …' : ''}`
    : main === 'config-construct'
      ? ': its Config object could not be built (a classpath problem more often than the file)'
      : '';
  const line = ex(node, l.events.configError.worst[0]);
  return {
    id: 'log.config-error',
    severity: 'critical',
    // 'other' is any ConfigurationException (seeds, addresses): not always the yaml file itself
    title: main === 'other' ? `${node} stopped at startup on a configuration error${named}` : `${node} refused its cassandra.yaml at startup${named}`,
    evidence: [line, ...verdicts.slice(0, 4).map((v) => `${node}: ${v.text}`)].filter((e): e is string => !!e),
    node,
    recommendation: FIX[main]!.fix,
    knowledgeIds: [...new Set([FIX[main]!.knowledgeId, ...verdicts.map((v) => v.knowledgeId)])],
    confidence: 'high',
  };
}
