/**
 * The database directories a storage inspection resolves: from cassandra.yaml / scylla.yaml (same key
 * names) or, when the file omits them, the packaged defaults. PURE.
 */
import { parseCassandraYaml } from '../config/cassandra-yaml.js';
import type { DirRole, StorageProduct } from './facts.js';

export interface DbDir {
  role: DirRole;
  path: string;
  /** Where the path came from: the config key, or "default" when the file does not set it. */
  from: string;
}

/** Package defaults (Debian/RPM packages of Cassandra; ScyllaDB's /var/lib/scylla layout). */
const DEFAULTS: Record<StorageProduct, Record<'data' | 'commitlog' | 'hints', string>> = {
  cassandra: { data: '/var/lib/cassandra/data', commitlog: '/var/lib/cassandra/commitlog', hints: '/var/lib/cassandra/hints' },
  scylla: { data: '/var/lib/scylla/data', commitlog: '/var/lib/scylla/commitlog', hints: '/var/lib/scylla/hints' },
};

export function dbDirsFromConfig(text: string | null, product: StorageProduct): { dirs: DbDir[]; warnings: string[] } {
  const warnings: string[] = [];
  let settings: Record<string, unknown> = {};
  if (text !== null) {
    const y = parseCassandraYaml(text);
    if (y.ok) settings = y.value.settings;
    else warnings.push(`config not read: ${y.reason}; using ${product} package defaults`);
  }
  const dirs: DbDir[] = [];
  const data = settings.data_file_directories;
  if (Array.isArray(data) && data.length > 0) {
    for (const d of data) if (typeof d === 'string' && d !== '') dirs.push({ role: 'data', path: d, from: 'data_file_directories' });
  } else dirs.push({ role: 'data', path: DEFAULTS[product].data, from: 'default' });
  for (const [role, key] of [
    ['commitlog', 'commitlog_directory'],
    ['hints', 'hints_directory'],
  ] as const) {
    const v = settings[key];
    if (typeof v === 'string' && v !== '') dirs.push({ role, path: v, from: key });
    else dirs.push({ role, path: DEFAULTS[product][role], from: 'default' });
  }
  return { dirs, warnings };
}
