/**
 * Typed facts read from Cassandra / DSE / ScyllaDB logs (system.log, debug.log, gc.log, journald text).
 * Facts only: thresholds and verdicts belong to the rules. Every kind is always present (count 0 when
 * nothing matched) so a rule can tell "checked, none seen" from "not collected".
 */
import type { NodeConfiguration } from './node-configuration.js';
import type { SlowQueries } from './slow-queries.js';
import type { StartupStops } from './startup-window.js';
import type { ConfigErrorType, DiskFullKind } from './classify.js';

/** What the text mostly is. */
export type LogSourceKind = 'cassandra.system' | 'cassandra.debug' | 'gc.log' | 'scylla.journal' | 'scylla.log' | 'unknown';

export type LogProduct = 'cassandra' | 'dse' | 'scylla' | 'jvm' | 'unknown';

/** How a line's prefix was read. */
export type LineFormat =
  | 'cassandra' // "INFO  [main] 2024-05-01 10:00:00,123 File.java:12 - msg" (logback, system.log/debug.log)
  | 'scylla' // "WARN  2022-09-22 17:33:11,075 [shard 1] large_data - msg" (Scylla's own log format)
  | 'journald' // "May 01 10:00:00 host scylla[123]: msg" (syslog/journalctl short format)
  | 'gcUnified' // "[2024-05-01T10:00:00.123+0000][0.565s]… msg" (JDK 9+ -Xlog)
  | 'gcJdk8' // "2018-07-27T04:52:27.413+0000: 187831.482: msg" or "187831.482: [GC …" (JDK 8 -Xloggc)
  | 'isoPrefix'; // "2024-05-01T10:00:00Z msg" (kubectl --timestamps and the like), or a bare "11:22:01 msg", with no known line under it

/**
 * Time basis of every `t` in the facts:
 * - absolute: epoch ms (UTC; when the line carries no zone the wall-clock reading is taken as UTC, see `zone`)
 * - no-year: journald/syslog lines without a year: ms in a nominal year 2000 (leap year; a Dec→Jan wrap moves
 *   to 2001), good for ordering, spans and buckets but not for a calendar date
 * - uptime: ms since JVM start (gc.log decorated with uptime only)
 * - none: no line carried a timestamp
 */
export type TimeBasis = 'absolute' | 'no-year' | 'uptime' | 'none';

export type LogEventKind =
  | 'gcPause' // GCInspector pauses and gc.log pause lines (ms)
  | 'safepoint' // gc.log stopped-time / safepoint lines (ms stopped)
  | 'dropped' // "… messages were dropped in last 5000 ms" (messages)
  | 'threadPools' // one StatusLogger snapshot (magnitude: pending tasks summed over pools)
  | 'tombstoneWarn' // "Read N live rows and M tombstone cells …" / "Writing N tombstones to …" (tombstones)
  | 'tombstoneAbort' // "Scanned over N tombstones … query aborted" / TombstoneOverwhelmingException (tombstones)
  | 'largePartition' // "Writing/Compacting large partition …", partition_size guardrail, Scylla large_data (bytes)
  | 'largeRowCell' // Scylla large_data row / cell / collection (bytes)
  | 'oom' // java.lang.OutOfMemoryError, Scylla std::bad_alloc
  | 'localPause' // "Not marking nodes down due to local pause of N ns > M ns" (ms)
  | 'hintFailure' // hinted handoff finished partially / failed / timed out / corrupt hints file
  | 'repairFailure' // repair session / command failed, RepairException
  | 'bufferPoolFull' // "Maximum memory usage reached (…), cannot allocate chunk of …" (chunk cache / buffer pool)
  | 'commitlogSync' // "Out of N commit log syncs … exceeded the configured commit interval by an average of X ms" (ms)
  | 'flushTimeout' // "Timed out waiting …" for a flush / memtable / commit log (heuristic)
  | 'diskFull' // "No space left on device", "Insufficient disk space to …", "Not enough space for compaction"
  | 'commitlogFailure' // "Failed managing commit log segments. Commit disk failure policy is stop; terminating thread"
  | 'reactorStall' // Scylla "Reactor stalled for N ms on shard S" (ms)
  | 'scyllaTimeout' // Scylla read/write/semaphore timeouts
  | 'configError' // a startup ConfigurationException: cassandra.yaml refused (unknown keys, old and new names, bad value)
  | 'startupFailure' // "Exception encountered during startup" with its exception on the next line: the node exited
  | 'largeBatch'; // BatchStatement "Batch for … is of size X, exceeding specified threshold of Y …" (bytes)

export const LOG_EVENT_KINDS: readonly LogEventKind[] = [
  'gcPause',
  'safepoint',
  'dropped',
  'threadPools',
  'tombstoneWarn',
  'tombstoneAbort',
  'largePartition',
  'largeRowCell',
  'oom',
  'localPause',
  'hintFailure',
  'repairFailure',
  'bufferPoolFull',
  'commitlogSync',
  'flushTimeout',
  'diskFull',
  'commitlogFailure',
  'reactorStall',
  'scyllaTimeout',
  'configError',
  'startupFailure',
  'largeBatch',
];

export type MagnitudeUnit = 'ms' | 'bytes' | 'tombstones' | 'messages' | 'tasks' | null;

/** One remembered line: a worst example or a first occurrence. */
export interface LogExample {
  /** In the facts' time basis; null when the line had no timestamp or another basis. */
  t: number | null;
  /** Human-readable time ("2020-01-10T17:13:39.102Z", "05-01 10:00:00 (no year)", "+187831.482s"). */
  time: string | null;
  magnitude: number | null;
  /** 1-based line number in the input. */
  lineNo: number;
  node?: string;
  source?: string;
  /** The original line, cut to 300 characters. */
  line: string;
  /** Kind-specific fields (collector, table, shard, ttspMs …). */
  detail?: Record<string, string | number>;
}

export interface Timeline {
  /** Bucket width in ms (60 000, 300 000, 3 600 000 or 86 400 000). */
  bucketMs: number;
  /** Non-empty buckets only, ascending; `t` is the bucket start in the facts' time basis. */
  buckets: { t: number; n: number }[];
}

export interface KindSummary {
  kind: LogEventKind;
  count: number;
  unit: MagnitudeUnit;
  firstT: number | null;
  lastT: number | null;
  firstTime: string | null;
  lastTime: string | null;
  timeline: Timeline | null;
  /** Top 5 by magnitude (ties: the earlier line); for kinds without a magnitude, the first 5. */
  worst: LogExample[];
}

export interface GcCollectorStats {
  collector: string;
  /** GCInspector (system.log) or gc.log. */
  from: 'GCInspector' | 'gc.log';
  count: number;
  totalMs: number;
  maxMs: number;
  p99Ms: number;
}

export interface GcFacts {
  pauses: number;
  totalPauseMs: number;
  maxPauseMs: number;
  meanPauseMs: number;
  p50PauseMs: number;
  p99PauseMs: number;
  /** Sorted by totalMs, largest first. */
  byCollector: GcCollectorStats[];
  /**
   * GCInspector lines for concurrent collectors ("ZGC Cycles", "Shenandoah Cycles", "G1 Concurrent GC", JDK 11-16
   * "ZGC"): cycle time, mostly concurrent with the application, so kept out of the pause figures.
   */
  concurrentCycles: { collector: string; count: number; totalMs: number; maxMs: number }[];
  /** "Using G1" etc. from a gc.log, when present. */
  gcLogCollector: string | null;
  /** GCInspector "pool: before -> after" pairs: range of the after-GC occupancy per memory pool. */
  poolAfterBytes: { pool: string; min: number; max: number; samples: number }[];
}

export interface SafepointFacts {
  count: number;
  totalStoppedMs: number;
  /** Time to safepoint ("Stopping threads took" / "Reaching safepoint"). */
  totalTtspMs: number;
  /** Stopped minus time to safepoint: the VM operation (GC work, deoptimisation, …) itself. */
  totalOperationMs: number;
  maxStoppedMs: number;
  maxTtspMs: number;
  p99StoppedMs: number;
  p99TtspMs: number;
  /** totalTtspMs / totalStoppedMs (0 when nothing stopped). */
  ttspShare: number;
  /** Stops where reaching the safepoint took at least half of the stopped time. */
  ttspDominated: { count: number; totalStoppedMs: number; maxStoppedMs: number };
  /** VM operation names (JDK 13+ "Safepoint \"G1CollectForAllocation\"" lines), by total stopped time. */
  byOperation: { operation: string; count: number; totalMs: number; maxMs: number }[];
  /** Top 5 by time to safepoint. */
  worstTtsp: LogExample[];
  /** Stops while the node was still starting (boot to ready line), set aside from grading; absent when none. */
  startup?: StartupStops;
}

export interface DroppedFacts {
  /** Messages dropped, summed over every line. */
  total: number;
  internal: number;
  crossNode: number;
  /** Sorted by total dropped, largest first. */
  byType: {
    type: string;
    lines: number;
    internal: number;
    crossNode: number;
    maxPerLine: number;
    maxMeanInternalLatencyMs: number | null;
    maxMeanCrossNodeLatencyMs: number | null;
  }[];
  /** DSE "Top N destination tables for dropped reads/writes" blocks. */
  byTable: { table: string; messages: number }[];
}

export interface ThreadPoolStats {
  pool: string;
  /** Snapshots in which the pool appeared. */
  snapshots: number;
  snapshotsWithPending: number;
  maxActive: number | null;
  maxPending: number | null;
  maxBlocked: number | null;
  maxAllTimeBlocked: number | null;
  maxDelayed: number | null;
  lastPending: number | null;
  lastCompleted: number | null;
  /** Time of the snapshot with the largest pending count. */
  maxPendingT: number | null;
}

export interface ThreadPoolFacts {
  snapshots: number;
  /** Sorted by maxPending, then maxBlocked, largest first. */
  pools: ThreadPoolStats[];
  /**
   * StatusLogger's per-table section ("Memtable ops,data"): each table's largest memtable operation count and size
   * seen in a snapshot, busiest by operations first (at most 20).
   */
  memtables: { table: string; snapshots: number; maxOps: number; maxDataBytes: number }[];
}

export interface TombstoneFacts {
  warnings: number;
  aborts: number;
  /** Sorted by maxTombstones, largest first; "?" when the line named no table. */
  byTable: { table: string; warnings: number; aborts: number; maxTombstones: number; maxLiveRows: number | null; totalTombstones: number }[];
}

export interface LargeDataFacts {
  partitions: number;
  rowsOrCells: number;
  /** Sorted by maxBytes, largest first. */
  byTable: { table: string; what: 'partition' | 'row' | 'cell' | 'collection'; count: number; maxBytes: number; maxKey: string | null }[];
}

export interface ReactorStallFacts {
  count: number;
  totalMs: number;
  maxMs: number;
  p99Ms: number;
  /** Sorted by shard number. */
  byShard: { shard: number; count: number; totalMs: number; maxMs: number }[];
}

export interface LogFacts {
  source: {
    kind: LogSourceKind;
    product: LogProduct;
    gcLogFormat: 'unified' | 'jdk8' | null;
    /** Headed lines per prefix format. */
    formats: Record<LineFormat, number>;
    /** True when a second format holds more than 10% of the headed lines (concatenated files). */
    mixed: boolean;
  };
  time: {
    basis: TimeBasis;
    /** 'offset' when lines carried a zone; 'unspecified' when wall-clock times were read as UTC. */
    zone: 'offset' | 'unspecified' | 'n/a';
    /**
     * Earliest and latest time among the first and last timestamped lines and every event line (the dates of
     * other Cassandra lines are not read, for speed; logs are written in time order).
     */
    firstT: number | null;
    lastT: number | null;
    spanMs: number | null;
    firstTime: string | null;
    lastTime: string | null;
    /** Bucket width used by every timeline. */
    bucketMs: number | null;
  };
  lines: {
    total: number;
    bytes: number;
    blank: number;
    /** Lines with a recognised prefix (timestamp / level / decorators). */
    headed: number;
    /** Header-less lines that belong to the entry above (stack traces, StatusLogger and dropped-message tables). */
    continuation: number;
    /** Header-less lines that still matched an event pattern (a pasted message without its prefix). */
    bare: number;
    /** Everything else: counted, not kept. */
    unrecognised: number;
    /** Lines longer than 1 MiB, cut there. */
    overlong: number;
    /**
     * Event entries skipped because the very same line (timestamp to the millisecond, thread, logger and message)
     * was already read: debug.log repeats every INFO+ line of system.log, so a node's two files count once.
     */
    duplicates: number;
  };
  /** What the node said about itself when it started (the last start in the input wins). */
  startup: StartupFacts;
  levels: { error: number; warn: number; info: number; debug: number; trace: number };
  events: Record<LogEventKind, KindSummary>;
  gc: GcFacts;
  safepoint: SafepointFacts;
  dropped: DroppedFacts;
  threadPools: ThreadPoolFacts;
  tombstones: TombstoneFacts;
  largeData: LargeDataFacts;
  reactorStalls: ReactorStallFacts;
  bufferPool: { count: number; byPool: { pool: string; limitBytes: number | null; count: number }[] };
  /**
   * Local pauses counted; `startupSetAside`: first reports right after the first peer came UP since a boot, which
   * measure the time since start, not a pause (accumulator.ts, the failure detector's clock), with the longest.
   */
  localPauses: {
    count: number;
    totalMs: number;
    maxMs: number;
    startupSetAside: number;
    startupMaxMs: number;
    /** First reports after an operator restarted gossip (nodetool enablegossip), as long as gossip was off. */
    gossipOffSetAside: number;
    gossipOffMaxMs: number;
  };
  oom: { count: number; byKind: { kind: string; count: number }[] };
  /** Lines saying a disk is full, by which message said it (one per log entry). */
  diskFull: { count: number; byKind: { kind: DiskFullKind; count: number }[] };
  /** The commit log failed (CommitLog.handleCommitError), with the commit_failure_policy the node applied. */
  commitlogFailures: { count: number; policies: string[] };
  hints: { failures: number; partial: number; byEndpoint: { endpoint: string; count: number }[] };
  /** terminated: failures whose cause is "Terminate session is called" (sessions stopped over JMX on request). */
  repair: { failures: number; distinctSessions: number; terminated: number };
  commitlogSync: { warnings: number; laggingSyncs: number; maxAverageSyncMs: number; maxExceededByMs: number };
  /** Startup ConfigurationExceptions: the node refused its cassandra.yaml. Settings as the messages name them. */
  configErrors: { count: number; byType: { type: ConfigErrorType; count: number }[]; settings: string[] };
  /**
   * Startups that ended on an exception other than a refused cassandra.yaml (CassandraDaemon logs "Exception
   * encountered during startup" and exits): the exceptions as printed ("java.lang.X: message"), up to 5 distinct.
   */
  /** scylla: how many were ScyllaDB's "FATAL: Exception during startup, aborting" (main.cc, exit 7). */
  startupFailures: { count: number; exceptions: string[]; scylla: number };
  /**
   * Batches over batch_size_warn_threshold (logged at WARN) or over batch_size_fail_threshold (refused: the client
   * got "Batch too large"), per table set as logged ("[ks.t]", "ks.t, ks.u"), largest first.
   */
  largeBatches: {
    count: number;
    rejected: number;
    byTables: { tables: string; count: number; rejected: number; maxBytes: number | null; thresholdBytes: number | null }[];
  };
  scyllaTimeouts: { count: number; byType: { type: 'write' | 'read' | 'semaphore' | 'other'; count: number }[]; byTable: { table: string; count: number }[] };
  /** Plain-language remarks on how the text was read (time basis, zone, caps hit, …). */
  notes: string[];
  /** debug.log MonitoringTask slow/timed-out read reports; absent when the log has none. */
  slowQueries?: SlowQueries;
}

export interface StartupFacts {
  /** Startup banners seen ("JVM Arguments: […]" lines, gc.log "CommandLine flags:" headers). */
  starts: number;
  /** "DSE version: 6.7.7" / "Cassandra version: 3.11.5". */
  dseVersion: string | null;
  cassandraVersion: string | null;
  /** "JVM vendor/version: OpenJDK 64-Bit Server VM/1.8.0_232" or the gc.log banner's JRE. */
  jvm: string | null;
  /** -Xmx from the JVM arguments, else the max of "Heap size: used/max", else gc.log -XX:MaxHeapSize. */
  heapMaxBytes: number | null;
  heapFrom: 'jvm-arguments' | 'heap-size-line' | 'gc-log-flags' | null;
  heapMinBytes: number | null;
  /** G1, CMS, Parallel, Serial, ZGC, Shenandoah (from the -XX:+Use…GC flag). */
  gc: string | null;
  maxGcPauseMillis: number | null;
  /** "This instance appears to have 1 thread per CPU core and 8 total CPU threads." (DSE). */
  cpuThreads: number | null;
  threadsPerCore: number | null;
  /** -Ddse.system_memory_in_mb, else gc.log "Memory: 4k page, physical 7651440k". */
  memoryMb: number | null;
  /**
   * How SSTables, their indexes and (DSE 6) the commit log are read: mmap or standard, from DatabaseDescriptor's
   * "DiskAccessMode 'auto' determined to be mmap, indexAccessMode is mmap" / "DiskAccessMode is standard, …" line.
   */
  diskAccessMode: string | null;
  indexAccessMode: string | null;
  commitlogAccessMode: string | null;
  /**
   * The settings the node started with, from its "Node configuration:[…]" line (the last start's): values as Java
   * printed them, "null" where unset (the default applies).
   */
  nodeConfiguration: NodeConfiguration | null;
  /** The jar file names of the last start's "Classpath:" line, each once; null when no such line was read. */
  classpathJars: string[] | null;
  /** 1-based line of the last JVM arguments seen, null when none. */
  lineNo: number | null;
}

export interface LogReadOptions {
  /** File name or label shown on examples. */
  source?: string;
  /** Node (host / IP) when the caller knows it; journald lines name their own host. */
  node?: string;
  /**
   * How many files the stream holds, when the caller knows (one read file: 1): lines of the last one are not
   * remembered for repeats, which spares hashing every event line of a single file.
   */
  sources?: number;
  /**
   * False reads every line through the full reader; by default the common logback lines that carry no event are
   * counted in place (the facts are the same: tests compare the two).
   */
  fastLane?: boolean;
}
