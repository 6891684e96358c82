import type { ClusterFacts } from './from-cluster.js';

/**
 * What is known about one node, whichever way it was collected (CQL virtual tables first, nodetool for the
 * rest). Rules read these; every field is optional because a version or a failure may leave it unknown.
 */
export interface ThreadPoolFact {
  name: string;
  active: number | null;
  activeLimit: number | null;
  pending: number | null;
  blocked: number | null;
  blockedAllTime: number | null;
  completed: number | null;
}

export interface CacheFact {
  name: string;
  capacityBytes: number | null;
  sizeBytes: number | null;
  entries: number | null;
  hits: number | null;
  requests: number | null;
  /** 0–1; null when there were no requests (the node prints NaN). */
  hitRatio: number | null;
}

export interface LatencySummary {
  count: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  perSecond: number | null;
}

export interface CountSummary {
  count: number | null;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

/** Per-table facts joined from several sources (disk_usage, max_partition_size, latency tables …). */
export interface TableFact {
  keyspace: string;
  table: string;
  diskMiB?: number | null;
  maxPartitionMiB?: number | null;
  localRead?: LatencySummary;
  localWrite?: LatencySummary;
  localScan?: LatencySummary;
  coordinatorRead?: LatencySummary;
  coordinatorWrite?: LatencySummary;
  coordinatorScan?: LatencySummary;
  tombstonesPerRead?: CountSummary;
  rowsPerRead?: CountSummary;
}

export interface ClientFact {
  address: string;
  port: number | null;
  username: string | null;
  driverName: string | null;
  driverVersion: string | null;
  protocolVersion: number | null;
  requests: number | null;
  sslEnabled: boolean | null;
  keyspace: string | null;
  /** ScyllaDB system.clients: the shard serving this connection. */
  shardId?: number | null;
}

export interface SstableTaskFact {
  keyspace: string | null;
  table: string | null;
  kind: string | null;
  progress: number | null;
  total: number | null;
  unit: string | null;
}

export interface GossipEndpointFact {
  address: string;
  /** Where the state was read when not from the node's own gossip table: a pasted or collected `nodetool gossipinfo`. */
  via?: 'nodetool gossipinfo';
  status: string | null;
  dc: string | null;
  rack: string | null;
  hostId: string | null;
  releaseVersion: string | null;
  schema: string | null;
  load: number | null;
  generation: number | null;
  heartbeat: number | null;
}

export interface SnapshotFact {
  name: string;
  keyspace: string | null;
  table: string | null;
  sizeOnDiskBytes: number | null;
  trueSizeBytes: number | null;
  createdAt: string | null;
}

export interface PendingHintsFact {
  hostId: string | null;
  address: string | null;
  files: number | null;
  totalBytes: number | null;
  /** The target as this node's failure detector sees it (UP, DOWN …), and its oldest and newest hint (4.1+). */
  status?: string | null;
  oldest?: string | null;
  newest?: string | null;
}

/** One streaming operation (system_views.streaming, Cassandra 4.1+): repair, bootstrap, rebuild, decommission … */
export interface StreamFact {
  id: string | null;
  /** As the node describes it: "Bootstrap", "Repair", "Rebuild" … */
  operation: string | null;
  /** true: the peer started it and this node follows. */
  follower: boolean | null;
  peers: string[];
  /** init | start | success | failure. */
  status: string | null;
  /** Still running (init or start): streams hold disk, network and compaction capacity. */
  active: boolean;
  progressPercent: number | null;
  bytesToReceive: number | null;
  bytesReceived: number | null;
  bytesToSend: number | null;
  bytesSent: number | null;
  durationMs: number | null;
  lastUpdatedAt: string | null;
  failureCause: string | null;
}

export interface GcFact {
  intervalMs: number | null;
  maxPauseMs: number | null;
  totalPauseMs: number | null;
  collections: number | null;
  /** nodetool labels it "GC Reclaimed (MB)" but the number is bytes. */
  reclaimedBytes: number | null;
}

export interface TableSchemaFact {
  keyspace: string;
  table: string;
  /** Short class name: SizeTieredCompactionStrategy, LeveledCompactionStrategy, UnifiedCompactionStrategy … */
  compaction: string | null;
}

export interface NodeFacts {
  /** Cluster-wide tables read once (replication, gc_grace, ring tokens, repair history): core/facts/from-cluster.ts. */
  cluster?: ClusterFacts;
  /** Table definitions (cluster-wide; collected once). */
  tableSchemas?: TableSchemaFact[];
  releaseVersion?: string;
  datacenter?: string;
  rack?: string;
  hostId?: string;
  schemaVersion?: string;
  heap?: { usedMb: number | null; maxMb: number | null };
  uptimeSeconds?: number | null;
  gc?: GcFact;
  /** Dropped messages by type since start (nodetool tpstats; no virtual table has them). */
  droppedMessages?: Record<string, number>;
  product?: 'cassandra' | 'scylla' | 'unknown';
  /** DataStax Enterprise's own version (nodetool version's "DSE version:"); its ReleaseVersion is then not Apache's. */
  dseVersion?: string;
  threadPools?: ThreadPoolFact[];
  caches?: CacheFact[];
  settings?: Record<string, string | null>;
  tables?: TableFact[];
  clients?: ClientFact[];
  sstableTasks?: SstableTaskFact[];
  gossip?: GossipEndpointFact[];
  snapshots?: SnapshotFact[];
  pendingHints?: PendingHintsFact[];
  /** Streaming operations the node remembers (active and recently finished). */
  streams?: StreamFact[];
  /** Statement counters since start (system_views.cql_metrics, Cassandra 4.1+). */
  cqlMetrics?: CqlMetricsFact;
}

/** system_views.cql_metrics: executions since the node started, prepared and not (regular). */
export interface CqlMetricsFact {
  preparedExecuted: number | null;
  regularExecuted: number | null;
  /** Statements in the prepared cache now, and evicted from it since start. */
  preparedCount: number | null;
  preparedEvicted: number | null;
}
