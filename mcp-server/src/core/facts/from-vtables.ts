import type { TsvTable } from '../parse/tsv.js';
import { parseNumber } from '../units.js';
import type {
  CacheFact,
  ClientFact,
  CountSummary,
  GossipEndpointFact,
  LatencySummary,
  NodeFacts,
  PendingHintsFact,
  SnapshotFact,
  SstableTaskFact,
  TableFact,
  ThreadPoolFact,
} from './node-facts.js';

/**
 * Virtual tables → NodeFacts. The mapping is data: which table feeds which fact, by column name, so a
 * version that adds or drops a column degrades to null instead of failing.
 */
type Row = Record<string, string | null>;

const num = (r: Row, ...cols: string[]): number | null => {
  for (const c of cols) {
    const v = parseNumber(r[c] ?? undefined);
    if (v !== null) return v;
  }
  return null;
};
const str = (r: Row, ...cols: string[]): string | null => {
  for (const c of cols) if (r[c] !== undefined && r[c] !== null) return r[c]!;
  return null;
};
const bool = (r: Row, col: string): boolean | null => (r[col] === 'true' ? true : r[col] === 'false' ? false : null);

function latency(r: Row): LatencySummary {
  return { count: num(r, 'count'), p50Ms: num(r, 'p50th_ms'), p99Ms: num(r, 'p99th_ms'), maxMs: num(r, 'max_ms'), perSecond: num(r, 'per_second') };
}
function counts(r: Row): CountSummary {
  return { count: num(r, 'count'), p50: num(r, 'p50th'), p99: num(r, 'p99th'), max: num(r, 'max') };
}

/** Tables with one row per (keyspace, table), and the TableFact field each fills. */
const PER_TABLE: Record<string, (f: TableFact, r: Row) => void> = {
  disk_usage: (f, r) => (f.diskMiB = num(r, 'mebibytes')),
  max_partition_size: (f, r) => (f.maxPartitionMiB = num(r, 'mebibytes')),
  local_read_latency: (f, r) => (f.localRead = latency(r)),
  local_write_latency: (f, r) => (f.localWrite = latency(r)),
  local_scan_latency: (f, r) => (f.localScan = latency(r)),
  coordinator_read_latency: (f, r) => (f.coordinatorRead = latency(r)),
  coordinator_write_latency: (f, r) => (f.coordinatorWrite = latency(r)),
  coordinator_scan_latency: (f, r) => (f.coordinatorScan = latency(r)),
  tombstones_per_read: (f, r) => (f.tombstonesPerRead = counts(r)),
  rows_per_read: (f, r) => (f.rowsPerRead = counts(r)),
};

/** The virtual tables a snapshot reads, in system_views; anything else discovered is kept raw only. */
export const VTABLES_FOR_FACTS = ['thread_pools', 'caches', 'settings', 'clients', 'sstable_tasks', 'gossip_info', 'snapshots', 'pending_hints', ...Object.keys(PER_TABLE)];

/** One connected client (system_views.clients, ScyllaDB system.clients: the same column names). */
export function clientFromRow(r: Row): ClientFact {
  return {
    address: str(r, 'address') ?? '?',
    port: num(r, 'port'),
    username: str(r, 'username'),
    driverName: str(r, 'driver_name'),
    driverVersion: str(r, 'driver_version'),
    protocolVersion: num(r, 'protocol_version'),
    requests: num(r, 'request_count'),
    sslEnabled: bool(r, 'ssl_enabled'),
    keyspace: str(r, 'keyspace_name'),
  };
}

export function factsFromVtables(tables: Record<string, TsvTable>): NodeFacts {
  const facts: NodeFacts = {};
  const t = (name: string) => tables[name] ?? tables[`system_views.${name}`];

  const pools = t('thread_pools');
  if (pools) {
    facts.threadPools = pools.rows.map(
      (r): ThreadPoolFact => ({
        name: str(r, 'name') ?? '?',
        active: num(r, 'active_tasks'),
        activeLimit: num(r, 'active_tasks_limit'),
        pending: num(r, 'pending_tasks'),
        blocked: num(r, 'blocked_tasks'),
        blockedAllTime: num(r, 'blocked_tasks_all_time'),
        completed: num(r, 'completed_tasks'),
      }),
    );
  }
  const caches = t('caches');
  if (caches) {
    facts.caches = caches.rows.map(
      (r): CacheFact => ({
        name: str(r, 'name') ?? '?',
        capacityBytes: num(r, 'capacity_bytes'),
        sizeBytes: num(r, 'size_bytes'),
        entries: num(r, 'entry_count'),
        hits: num(r, 'hit_count'),
        requests: num(r, 'request_count'),
        hitRatio: num(r, 'hit_ratio'),
      }),
    );
  }
  const settings = t('settings');
  if (settings) facts.settings = Object.fromEntries(settings.rows.map((r) => [str(r, 'name') ?? '?', r['value'] ?? null]));

  const byTable = new Map<string, TableFact>();
  for (const [name, fill] of Object.entries(PER_TABLE)) {
    const tbl = t(name);
    if (!tbl) continue;
    for (const r of tbl.rows) {
      const keyspace = str(r, 'keyspace_name');
      const table = str(r, 'table_name');
      if (!keyspace || !table) continue;
      const key = `${keyspace}.${table}`;
      let f = byTable.get(key);
      if (!f) byTable.set(key, (f = { keyspace, table }));
      fill(f, r);
    }
  }
  if (byTable.size) facts.tables = [...byTable.values()];

  const clients = t('clients');
  if (clients) facts.clients = clients.rows.map(clientFromRow);
  const tasks = t('sstable_tasks');
  if (tasks) {
    facts.sstableTasks = tasks.rows.map(
      (r): SstableTaskFact => ({
        keyspace: str(r, 'keyspace_name'),
        table: str(r, 'table_name'),
        kind: str(r, 'kind'),
        progress: num(r, 'progress'),
        total: num(r, 'total'),
        unit: str(r, 'unit'),
      }),
    );
  }
  const gossip = t('gossip_info');
  if (gossip) {
    facts.gossip = gossip.rows.map(
      (r): GossipEndpointFact => ({
        address: str(r, 'address') ?? '?',
        // STATUS_WITH_PORT is the 4.0+ form; the value looks like "NORMAL,-9223…"; keep the state word.
        status: (str(r, 'status_with_port', 'status') ?? '').split(',')[0] || null,
        dc: str(r, 'dc'),
        rack: str(r, 'rack'),
        hostId: str(r, 'host_id'),
        releaseVersion: str(r, 'release_version'),
        schema: str(r, 'schema'),
        load: num(r, 'load'),
        generation: num(r, 'generation'),
        heartbeat: num(r, 'heartbeat'),
      }),
    );
  }
  const snapshots = t('snapshots');
  if (snapshots) {
    facts.snapshots = snapshots.rows.map(
      (r): SnapshotFact => ({
        name: str(r, 'name', 'tag') ?? '?',
        keyspace: str(r, 'keyspace_name'),
        table: str(r, 'table_name'),
        sizeOnDiskBytes: num(r, 'size_on_disk'),
        trueSizeBytes: num(r, 'true_size'),
        createdAt: str(r, 'created_at'),
      }),
    );
  }
  const hints = t('pending_hints');
  if (hints) {
    facts.pendingHints = hints.rows.map(
      (r): PendingHintsFact => ({ hostId: str(r, 'host_id'), address: str(r, 'address'), files: num(r, 'files'), totalBytes: num(r, 'total_size', 'size') }),
    );
  }
  return facts;
}
