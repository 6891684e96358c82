import { parseCassandraYaml } from '../parse/config/cassandra-yaml.js';

/**
 * A cassandra.yaml's scalar settings as text, for comparing nodes (lists and maps are not compared, as in
 * audit_config's drift); null when the text is not a readable cassandra.yaml.
 */
export function yamlScalars(text: string): Record<string, string | null> | null {
  const y = parseCassandraYaml(text);
  if (!y.ok) return null;
  const settings: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(y.value.settings)) {
    if (v === null) settings[k] = null;
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') settings[k] = String(v);
  }
  return settings;
}
