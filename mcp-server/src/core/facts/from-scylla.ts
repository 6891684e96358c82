import type { TsvTable } from '../parse/tsv.js';
import { parseNumber } from '../units.js';
import { clientFromRow } from './from-vtables.js';
import type { CacheFact, GossipEndpointFact, NodeFacts, SnapshotFact, TableFact } from './node-facts.js';

/**
 * ScyllaDB keeps its node-local views in the `system` keyspace (docs/dev/system_keyspace.md in
 * scylladb/scylladb): versions, config, clients, snapshots, cluster_status, runtime_info, and the
 * large_partitions table that compaction fills. They map onto the same NodeFacts as Cassandra's system_views.
 * This is the set factsFromScyllaTables interprets; which of them a node has depends on its release, so the
 * sweep reads only those its system_schema.tables lists (scyllaTablesToRead).
 */
export const SCYLLA_TABLES = ['versions', 'config', 'clients', 'snapshots', 'cluster_status', 'runtime_info', 'large_partitions'] as const;

/** The tables of the `system` keyspace, as the sweep asks each ScyllaDB node. */
export const SCYLLA_SYSTEM_TABLES_QUERY = "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'system'";

/**
 * Which known tables to read, given that node's listing of the `system` keyspace (null: the listing failed).
 * system.versions already answered (it is how the node was recognised as ScyllaDB), so a listing without it
 * does not cover the virtual tables: then, as when the listing failed, every known table is read and the ones
 * missing fail visibly. versions itself is never in the result (it has been read).
 */
export function scyllaTablesToRead(listing: TsvTable | null): { tables: string[]; discovered: boolean } {
  const rest = SCYLLA_TABLES.filter((t) => t !== 'versions');
  const listed = new Set((listing?.rows ?? []).map((r) => r['table_name']).filter((n): n is string => !!n));
  if (!listed.has('versions')) return { tables: [...rest], discovered: false };
  return { tables: rest.filter((t) => listed.has(t)), discovered: true };
}

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
    facts.snapshots = snapshots.rows.map((r): SnapshotFact => ({
      name: str(r, 'snapshot_name') ?? '?',
      keyspace: str(r, 'keyspace_name'),
      table: str(r, 'table_name'),
      // "total" is what the snapshot holds on disk; "live" the part still shared with live SSTables.
      sizeOnDiskBytes: num(r, 'total'),
      trueSizeBytes: num(r, 'live'),
      createdAt: null,
    }));
  }
  const status = t('cluster_status');
  if (status) {
    facts.gossip = status.rows.map((r): GossipEndpointFact => ({
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
    }));
  }
  const runtime = t('runtime_info');
  if (runtime) Object.assign(facts, factsFromRuntimeInfo(runtime));

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

/**
 * system.runtime_info: rows of (group, item, value), all text. Written by runtime_info_table in
 * scylladb/scylladb db/virtual_tables.cc: group "generic" holds single items (uptime as "<n> seconds",
 * gossip_active, load, trace_probability, incremental_backup_enabled); groups "memory", "memtable" and "cache"
 * hold several (cache: memory_total, memory_used, entries, hits, misses, requests_total, hit_rate_total …).
 * Used here: the uptime, and the row cache as a CacheFact named "rows" like Cassandra's row cache.
 */
export function factsFromRuntimeInfo(runtime: TsvTable): Pick<NodeFacts, 'uptimeSeconds' | 'caches'> {
  const get = (group: string, item: string): string | null => runtime.rows.find((r) => r['group'] === group && r['item'] === item)?.['value'] ?? null;
  const out: Pick<NodeFacts, 'uptimeSeconds' | 'caches'> = {};
  const uptime = /^(\d+)\s*seconds?$/.exec(get('generic', 'uptime') ?? '');
  if (uptime) out.uptimeSeconds = Number(uptime[1]);
  if (runtime.rows.some((r) => r['group'] === 'cache')) {
    const n = (item: string) => parseNumber(get('cache', item) ?? undefined);
    const hits = n('hits');
    const requests = n('requests_total') ?? (hits !== null && n('misses') !== null ? hits + n('misses')! : null);
    const cache: CacheFact = {
      name: 'rows',
      capacityBytes: n('memory_total'),
      sizeBytes: n('memory_used'),
      entries: n('entries'),
      hits,
      requests,
      // Computed, not the printed hit_rate_total (two significant digits, "nan" with no requests).
      hitRatio: hits !== null && requests ? hits / requests : null,
    };
    out.caches = [cache];
  }
  return out;
}
