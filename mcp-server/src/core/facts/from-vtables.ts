import type { TsvTable } from '../parse/tsv.js';
import { parseNumber } from '../units.js';
import type {
  CacheFact,
  ClientFact,
  CqlMetricsFact,
  CountSummary,
  GossipEndpointFact,
  LatencySummary,
  NodeFacts,
  PendingHintsFact,
  SnapshotFact,
  SstableTaskFact,
  StreamFact,
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
  for (const c of cols) if (r[c] !== undefined && r[c] !== null) return r[c];
  return null;
};
// "true"/"false" from the collector; "True"/"False" as cqlsh and the Python driver print booleans.
const bool = (r: Row, col: string): boolean | null => {
  const v = r[col]?.toLowerCase();
  return v === 'true' ? true : v === 'false' ? false : null;
};

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

/**
 * The system_views tables factsFromVtables interprets, and so the ones a snapshot reads where the node's
 * system_virtual_schema.tables lists them (a table this version lacks is simply not asked for). Anything else
 * discovered is read only for a bundle (allVirtualTables) and kept raw. Keep this list and the readers below in
 * step: tests/unit/snapshot-paths.test.ts checks that each name yields a fact from a real capture.
 */
export const VTABLES_FOR_FACTS = [
  'thread_pools',
  'caches',
  'settings',
  'clients',
  'sstable_tasks',
  'gossip_info',
  'snapshots',
  'pending_hints',
  'streaming',
  'cql_metrics',
  ...Object.keys(PER_TABLE),
];

/** A list cell as the driver wrote it (JSON, see cellText); anything else is kept as one opaque entry. */
function listCell(v: string | null): string[] {
  if (v === null || v === '') return [];
  try {
    const parsed: unknown = JSON.parse(v);
    if (Array.isArray(parsed)) return parsed.map((x) => String(x));
  } catch {
    // not JSON: fall through
  }
  return [v];
}

/**
 * system_views.streaming (Cassandra 4.1+). Columns as declared in apache/cassandra
 * src/java/org/apache/cassandra/db/virtual/StreamingVirtualTable.java: id, follower, operation, peers,
 * status (the StreamingState.Status name lower-cased: init, start, success, failure), progress_percentage,
 * last_updated_at, duration_millis, failure_cause, success_message, plus the per-session byte and file
 * counters (bytes_to_receive, bytes_received, bytes_to_send, bytes_sent, files_*) and status_*_timestamp.
 */
export function streamFromRow(r: Row): StreamFact {
  const status = str(r, 'status');
  return {
    id: str(r, 'id'),
    operation: str(r, 'operation'),
    follower: bool(r, 'follower'),
    peers: listCell(r['peers'] ?? null),
    status,
    active: status === 'init' || status === 'start',
    progressPercent: num(r, 'progress_percentage'),
    bytesToReceive: num(r, 'bytes_to_receive'),
    bytesReceived: num(r, 'bytes_received'),
    bytesToSend: num(r, 'bytes_to_send'),
    bytesSent: num(r, 'bytes_sent'),
    durationMs: num(r, 'duration_millis'),
    lastUpdatedAt: str(r, 'last_updated_at'),
    failureCause: str(r, 'failure_cause'),
  };
}

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
    ...(r['shard_id'] !== undefined ? { shardId: num(r, 'shard_id') } : {}),
  };
}

/** system_views.cql_metrics (Cassandra 4.1+): one (name, value) row per counter of CQLMetrics. */
export function cqlMetricsFromRows(rows: Row[]): CqlMetricsFact {
  const value = (name: string) => {
    const r = rows.find((x) => x['name'] === name);
    return r ? num(r, 'value') : null;
  };
  return {
    preparedExecuted: value('prepared_statements_executed'),
    regularExecuted: value('regular_statements_executed'),
    preparedCount: value('prepared_statements_count'),
    preparedEvicted: value('prepared_statements_evicted'),
  };
}

export function factsFromVtables(tables: Record<string, TsvTable>): NodeFacts {
  const facts: NodeFacts = {};
  const t = (name: string) => tables[name] ?? tables[`system_views.${name}`];

  const pools = t('thread_pools');
  if (pools) {
    facts.threadPools = pools.rows.map((r): ThreadPoolFact => ({
      name: str(r, 'name') ?? '?',
      active: num(r, 'active_tasks'),
      activeLimit: num(r, 'active_tasks_limit'),
      pending: num(r, 'pending_tasks'),
      blocked: num(r, 'blocked_tasks'),
      blockedAllTime: num(r, 'blocked_tasks_all_time'),
      completed: num(r, 'completed_tasks'),
    }));
  }
  const caches = t('caches');
  if (caches) {
    facts.caches = caches.rows.map((r): CacheFact => ({
      name: str(r, 'name') ?? '?',
      capacityBytes: num(r, 'capacity_bytes'),
      sizeBytes: num(r, 'size_bytes'),
      entries: num(r, 'entry_count'),
      hits: num(r, 'hit_count'),
      requests: num(r, 'request_count'),
      hitRatio: num(r, 'hit_ratio'),
    }));
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
  const cqlMetrics = t('cql_metrics');
  if (cqlMetrics) facts.cqlMetrics = cqlMetricsFromRows(cqlMetrics.rows);
  const tasks = t('sstable_tasks');
  if (tasks) {
    facts.sstableTasks = tasks.rows.map((r): SstableTaskFact => ({
      keyspace: str(r, 'keyspace_name'),
      table: str(r, 'table_name'),
      kind: str(r, 'kind'),
      progress: num(r, 'progress'),
      total: num(r, 'total'),
      unit: str(r, 'unit'),
    }));
  }
  const gossip = t('gossip_info');
  if (gossip) {
    facts.gossip = gossip.rows.map((r): GossipEndpointFact => ({
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
    }));
  }
  const snapshots = t('snapshots');
  if (snapshots) {
    facts.snapshots = snapshots.rows.map((r): SnapshotFact => ({
      name: str(r, 'name', 'tag') ?? '?',
      keyspace: str(r, 'keyspace_name'),
      table: str(r, 'table_name'),
      sizeOnDiskBytes: num(r, 'size_on_disk'),
      trueSizeBytes: num(r, 'true_size'),
      createdAt: str(r, 'created_at'),
    }));
  }
  const hints = t('pending_hints');
  if (hints) {
    facts.pendingHints = hints.rows.map((r): PendingHintsFact => ({
      hostId: str(r, 'host_id'),
      address: str(r, 'address'),
      files: num(r, 'files'),
      totalBytes: num(r, 'total_size', 'size'),
      status: str(r, 'status'),
      oldest: str(r, 'oldest'),
      newest: str(r, 'newest'),
    }));
  }
  const streaming = t('streaming');
  if (streaming) facts.streams = streaming.rows.map(streamFromRow);
  return facts;
}
