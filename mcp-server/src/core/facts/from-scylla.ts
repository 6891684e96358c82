import type { TsvTable } from '../parse/tsv.js';
import { parseNumber } from '../units.js';
import { clientFromRow } from './from-vtables.js';
import type { GossipEndpointFact, NodeFacts, SnapshotFact, TableFact } from './node-facts.js';

/**
 * ScyllaDB keeps its node-local views in the `system` keyspace (docs/dev/system_keyspace.md in
 * scylladb/scylladb): versions, config, clients, snapshots, cluster_status, runtime_info, and the
 * large_partitions table that compaction fills. They map onto the same NodeFacts as Cassandra's system_views.
 */
export const SCYLLA_TABLES = ['versions', 'config', 'clients', 'snapshots', 'cluster_status', 'runtime_info', 'large_partitions'] as const;

type Row = Record<string, string | null>;
const num = (r: Row, c: string) => parseNumber(r[c] ?? undefined);
const str = (r: Row, c: string) => r[c] ?? null;

export function factsFromScyllaTables(tables: Record<string, TsvTable>): NodeFacts {
  const facts: NodeFacts = { product: 'scylla' };
  const t = (name: string) => tables[`system.${name}`];

  const versions = t('versions');
  // The "local" row holds the running version; compatible_version is the Cassandra version it emulates.
  const local = versions?.rows.find((r) => r['key'] === 'local') ?? versions?.rows[0];
  if (local?.['version']) facts.releaseVersion = local['version'];

  const config = t('config');
  if (config) facts.settings = Object.fromEntries(config.rows.map((r) => [str(r, 'name') ?? '?', str(r, 'value')]));

  const clients = t('clients');
  if (clients) facts.clients = clients.rows.map(clientFromRow);
  const snapshots = t('snapshots');
  if (snapshots) {
    facts.snapshots = snapshots.rows.map(
      (r): SnapshotFact => ({
        name: str(r, 'snapshot_name') ?? '?',
        keyspace: str(r, 'keyspace_name'),
        table: str(r, 'table_name'),
        // "total" is what the snapshot holds on disk; "live" the part still shared with live SSTables.
        sizeOnDiskBytes: num(r, 'total'),
        trueSizeBytes: num(r, 'live'),
        createdAt: null,
      }),
    );
  }
  const status = t('cluster_status');
  if (status) {
    facts.gossip = status.rows.map(
      (r): GossipEndpointFact => ({
        address: str(r, 'peer') ?? '?',
        status: r['up'] === 'false' ? 'DOWN' : (str(r, 'status') ?? null),
        dc: str(r, 'dc'),
        rack: null,
        hostId: str(r, 'host_id'),
        releaseVersion: null,
        schema: null,
        load: null,
        generation: null,
        heartbeat: null,
      }),
    );
  }
  const large = t('large_partitions');
  if (large) {
    const byTable = new Map<string, TableFact>();
    for (const r of large.rows) {
      const keyspace = str(r, 'keyspace_name');
      const table = str(r, 'table_name');
      const size = num(r, 'partition_size');
      if (!keyspace || !table || size === null) continue;
      const key = `${keyspace}.${table}`;
      const f = byTable.get(key) ?? { keyspace, table, maxPartitionMiB: 0 };
      f.maxPartitionMiB = Math.max(f.maxPartitionMiB ?? 0, size / 1024 ** 2);
      byTable.set(key, f);
    }
    if (byTable.size) facts.tables = [...byTable.values()];
  }
  return facts;
}
