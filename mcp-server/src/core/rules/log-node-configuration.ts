/**
 * The settings a node logged at start ("Node configuration:[…]") judged by the cassandra.yaml value rules: a pasted
 * or given system.log says what the node ran with even when its cassandra.yaml is not at hand. Only the value rules
 * run: the line lists every Config field (defaults included), so key rules (unknown or renamed keys) would judge
 * Config.java, not the operator's file. Structured values (seed_provider{…}, options{…}) are left out; "null" means
 * unset (the default applies). PURE.
 */
import { parseCassandraYaml } from '../parse/config/cassandra-yaml.js';
import type { LogFacts } from '../parse/logs/types.js';
import { yamlValueRules } from './config.js';
import type { KindRuleOutcome } from './per-kind.js';

/** A plain YAML scalar as Java printed it (numbers, booleans, null, names, "64MiB/s", "5000ms"); the rest quoted. */
const PLAIN = /^(?:-?\d+(?:\.\d+)?|true|false|null|[A-Za-z0-9_./-]+)$/;

/** The logged settings as a cassandra.yaml text of scalars. */
export function nodeConfigurationYaml(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .filter(([, v]) => !/[{}[\]]/.test(v))
    .map(([k, v]) => `${k}: ${PLAIN.test(v) ? v : JSON.stringify(v)}`)
    .join('\n');
}

export const LOG_CONFIG_SOURCE = 'system.log "Node configuration" line';

/** The value rules over the last start's logged settings; none when the log has no such line. */
export function logNodeConfigurationOutcomes(logs: LogFacts): KindRuleOutcome[] {
  const c = logs.startup.nodeConfiguration;
  if (!c) return [];
  const y = parseCassandraYaml(nodeConfigurationYaml(c.settings));
  if (!y.ok) return [];
  const version = logs.startup.cassandraVersion ?? undefined;
  const source = `${LOG_CONFIG_SOURCE}${c.complete ? '' : ' (cut: only its first settings)'}`;
  return yamlValueRules(y.value, { source, ...(version ? { version } : {}) });
}
