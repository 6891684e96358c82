/**
 * What to ask a Prometheus for, per exporter naming. Every query returns one series per scrape target
 * (`instance`), so a node's signals line up by host. Names are data with their sources:
 * - jmx: the Prometheus JMX exporter java agent with its example Cassandra rule set
 *   (github.com/prometheus/jmx_exporter example_configs/cassandra.yml: lowercased `cassandra_<type>_<name>`,
 *   latencies in seconds, `_count` counters; JVM metrics from the agent itself), checked on the lab's 4.1/5.0 nodes.
 * - scylla: ScyllaDB's own /metrics (port 9180) as the ScyllaDB Monitoring Stack reads it
 *   (github.com/scylladb/scylla-monitoring @8338154e: prometheus/prom_rules/prometheus.latency.rules.yml,
 *   grafana/scylla-overview.template.json, scylla-detailed.template.json); latency histograms are in microseconds.
 * - node: prometheus-node-exporter's standard collectors (node_cpu_seconds_total, node_disk_*), checked on 1.5.0.
 * - mcac and mgmtapi (DataStax MCAC, the k8ssandra Management API's /metrics on :9000): metric-names.ts.
 * Per-table signals (`table` set) group by node and table; names and labels checked on real pages
 * (tests/fixtures/metrics/PROVENANCE.md): the JMX exporter's example rules give `cassandra_table_*{keyspace,table}`,
 * ScyllaDB `scylla_column_family_*{ks,cf}` (only with enable_keyspace_column_family_metrics).
 */
import type { ScrapeExpr } from './scrape-eval.js';
import { MCAC_SIGNALS, MGMTAPI_SIGNALS } from './metric-names.js';

/** `prometheus` is the server's own view of each target (`up`), present whatever the exporters. */
export type Exporter = 'jmx' | 'scylla' | 'mcac' | 'mgmtapi' | 'node' | 'prometheus';

export type SignalId =
  | 'scrape_up'
  | 'reads'
  | 'writes'
  | 'read_p99'
  | 'write_p99'
  | 'pending_compactions'
  | 'compaction_bytes'
  | 'dropped'
  | 'timeouts'
  | 'hints'
  | 'gc_time'
  | 'cpu'
  | 'iowait'
  | 'disk_util'
  | 'disk_await'
  | 'cql_requests'
  | 'foreground_reads'
  | 'foreground_writes'
  | 'cache_hit_ratio'
  | 'cl_all_share'
  | 'table_reads'
  | 'table_writes'
  | 'table_read_p99'
  | 'table_write_p99'
  | 'table_sstables_per_read'
  | 'table_tombstones'
  | 'table_pending_compactions';

export interface SignalSpec {
  id: SignalId;
  exporter: Exporter;
  title: string;
  /** Unit of the values after `scale` ('s' latencies are shown in ms). */
  unit: 'ops/s' | 's' | 'tasks' | 'requests' | 'B/s' | '/s' | 's/s' | 'ratio' | 'cores' | 'per read';
  /** PromQL; `$W` is replaced by the rate window. */
  query: string;
  /** Multiply the returned values by this (ScyllaDB's µs histograms → s). */
  scale?: number;
  /** A rise is bad (latency, drops) or a fall is bad (throughput). */
  bad: 'up' | 'down' | 'either';
  /** Smallest change that matters, in `unit` (below it a shift is noise even when it is many σ). */
  minAbsolute: number;
  /** One metric name that proves this exporter is scraped (looked up before querying). */
  probe: string;
  /** The same signal from two scrapes of a node's page, without a Prometheus (scrape-eval.ts); absent = not available that way. */
  scrape?: ScrapeExpr;
  /** A per-table signal: the labels naming the keyspace and the table (the query keeps them, one series per node and table). */
  table?: { keyspace: string; table: string };
}

const ONLY_CASSANDRA = 'and on (instance) cassandra_clientrequest_latency_seconds_count{clientrequest="Read"}';

const jmx = (
  id: SignalId,
  title: string,
  unit: SignalSpec['unit'],
  query: string,
  bad: SignalSpec['bad'],
  minAbsolute: number,
  probe: string,
  scrape: ScrapeExpr,
): SignalSpec => ({ id, exporter: 'jmx', title, unit, query, bad, minAbsolute, probe, scrape });

type Agg = 'sum' | 'avg' | 'max';
const rate = (metric: string, match?: Record<string, string | string[]>, agg?: Agg): ScrapeExpr => ({
  op: 'rate',
  metric,
  ...(match ? { match } : {}),
  ...(agg ? { agg } : {}),
});
const gauge = (metric: string, agg: Agg, match?: Record<string, string>): ScrapeExpr => ({ op: 'gauge', metric, agg, ...(match ? { match } : {}) });
const READ = { clientrequest: 'Read' };

type TableKind = 'rate' | 'p99' | 'gauge';
const JMX_TABLE = { keyspace: 'keyspace', table: 'table' };
const SCYLLA_TABLE = { keyspace: 'ks', table: 'cf' };
const JMX_BY = 'instance, keyspace, table';

/** A JMX-exporter per-table signal (the example rules give quantile gauges and `_count` counters). */
function jmxTable(
  id: SignalId,
  title: string,
  unit: SignalSpec['unit'],
  kind: TableKind,
  metric: string,
  bad: SignalSpec['bad'],
  minAbsolute: number,
): SignalSpec {
  const q = { quantile: '0.99' };
  const query =
    kind === 'rate'
      ? `sum by (${JMX_BY}) (rate(${metric}[$W]))`
      : kind === 'p99'
        ? `max by (${JMX_BY}) (${metric}{quantile="0.99"})`
        : `sum by (${JMX_BY}) (${metric})`;
  const scrape = kind === 'rate' ? rate(metric) : kind === 'p99' ? gauge(metric, 'max', q) : gauge(metric, 'sum');
  return { id, exporter: 'jmx', title, unit, query, bad, minAbsolute, probe: metric, scrape, table: JMX_TABLE };
}

/** A ScyllaDB per-table signal: per-shard series summed per table, histograms in µs. */
function scyllaTable(
  id: SignalId,
  title: string,
  unit: SignalSpec['unit'],
  kind: TableKind,
  metric: string,
  bad: SignalSpec['bad'],
  minAbsolute: number,
): SignalSpec {
  const by = 'instance, ks, cf';
  const query =
    kind === 'rate'
      ? `sum by (${by}) (rate(${metric}[$W]))`
      : kind === 'p99'
        ? `histogram_quantile(0.99, sum by (${by}, le) (rate(${metric}_bucket[$W])))`
        : `sum by (${by}) (${metric})`;
  const scrape: ScrapeExpr = kind === 'rate' ? rate(metric) : kind === 'p99' ? { op: 'quantile', q: 0.99, metric } : gauge(metric, 'sum');
  const probe = kind === 'p99' ? `${metric}_bucket` : metric;
  const scale = kind === 'p99' ? { scale: 1e-6 } : {};
  return { id, exporter: 'scylla', title, unit, query, ...scale, bad, minAbsolute, probe, scrape, table: SCYLLA_TABLE };
}
const WRITE = { clientrequest: 'Write' };

export const SIGNALS: SignalSpec[] = [
  // A node that stops answering scrapes (down, paused, partitioned) shows here first, even when its own series just stop.
  {
    id: 'scrape_up',
    exporter: 'prometheus',
    title: 'answering scrapes',
    unit: 'ratio',
    query: 'min by (instance) (up)',
    bad: 'down',
    minAbsolute: 0.5,
    probe: 'up',
    scrape: { op: 'up' },
  },
  jmx(
    'reads',
    'client reads',
    'ops/s',
    'sum by (instance) (rate(cassandra_clientrequest_latency_seconds_count{clientrequest="Read"}[$W]))',
    'down',
    5,
    'cassandra_clientrequest_latency_seconds_count',
    rate('cassandra_clientrequest_latency_seconds_count', READ),
  ),
  jmx(
    'writes',
    'client writes',
    'ops/s',
    'sum by (instance) (rate(cassandra_clientrequest_latency_seconds_count{clientrequest="Write"}[$W]))',
    'down',
    5,
    'cassandra_clientrequest_latency_seconds_count',
    rate('cassandra_clientrequest_latency_seconds_count', WRITE),
  ),
  jmx(
    'read_p99',
    'read p99 (coordinator)',
    's',
    'max by (instance) (cassandra_clientrequest_latency_seconds{clientrequest="Read",quantile="0.99"})',
    'up',
    0.001,
    'cassandra_clientrequest_latency_seconds',
    gauge('cassandra_clientrequest_latency_seconds', 'max', { ...READ, quantile: '0.99' }),
  ),
  jmx(
    'write_p99',
    'write p99 (coordinator)',
    's',
    'max by (instance) (cassandra_clientrequest_latency_seconds{clientrequest="Write",quantile="0.99"})',
    'up',
    0.001,
    'cassandra_clientrequest_latency_seconds',
    gauge('cassandra_clientrequest_latency_seconds', 'max', { ...WRITE, quantile: '0.99' }),
  ),
  // Coordinator requests per consistency level: ClientRequestsMetricsHolder registers scopes "Read-<CL>" / "Write-<CL>"
  // (cassandra-4.0+, checked in the 4.0.17, 4.1.10 and 5.0.9 jars and on a real 5.0 page). ALL fails a request as soon as
  // one replica is down or slow, so any steady share of it is an availability risk, whatever the latency says.
  jmx(
    'cl_all_share',
    'share of requests at CONSISTENCY ALL',
    'ratio',
    'sum by (instance) (rate(cassandra_clientrequest_latency_seconds_count{clientrequest=~"Read-ALL|Write-ALL"}[$W])) / ' +
      '(sum by (instance) (rate(cassandra_clientrequest_latency_seconds_count{clientrequest=~"Read|Write"}[$W])) > 0)',
    'up',
    0.01,
    'cassandra_clientrequest_latency_seconds_count',
    {
      op: 'div',
      left: rate('cassandra_clientrequest_latency_seconds_count', { clientrequest: ['Read-ALL', 'Write-ALL'] }),
      right: rate('cassandra_clientrequest_latency_seconds_count', { clientrequest: ['Read', 'Write'] }),
    },
  ),
  jmx(
    'pending_compactions',
    'pending compactions',
    'tasks',
    'sum by (instance) (cassandra_compaction_pendingtasks)',
    'up',
    5,
    'cassandra_compaction_pendingtasks',
    gauge('cassandra_compaction_pendingtasks', 'sum'),
  ),
  jmx(
    'compaction_bytes',
    'compacted bytes',
    'B/s',
    'sum by (instance) (rate(cassandra_compaction_bytescompacted_count[$W]))',
    'either',
    1024 * 1024,
    'cassandra_compaction_bytescompacted_count',
    rate('cassandra_compaction_bytescompacted_count'),
  ),
  jmx(
    'dropped',
    'dropped messages',
    '/s',
    'sum by (instance) (rate(cassandra_droppedmessage_dropped_count[$W]))',
    'up',
    0.1,
    'cassandra_droppedmessage_dropped_count',
    rate('cassandra_droppedmessage_dropped_count'),
  ),
  jmx(
    'timeouts',
    'client timeouts',
    '/s',
    'sum by (instance) (rate(cassandra_clientrequest_timeouts_count[$W]))',
    'up',
    0.1,
    'cassandra_clientrequest_timeouts_count',
    rate('cassandra_clientrequest_timeouts_count'),
  ),
  jmx(
    'hints',
    'hints written',
    '/s',
    'sum by (instance) (rate(cassandra_storage_totalhints_count[$W]))',
    'up',
    1,
    'cassandra_storage_totalhints_count',
    rate('cassandra_storage_totalhints_count'),
  ),
  // JVM and process metrics exist in any Java or Go exporter: keep only the instances that are Cassandra nodes.
  jmx(
    'gc_time',
    'GC time',
    's/s',
    `sum by (instance) (rate(jvm_gc_collection_seconds_sum[$W]) ${ONLY_CASSANDRA})`,
    'up',
    0.02,
    'jvm_gc_collection_seconds_sum',
    rate('jvm_gc_collection_seconds_sum'),
  ),
  jmx(
    'cpu',
    'Cassandra process CPU',
    'cores',
    `sum by (instance) (rate(process_cpu_seconds_total[$W]) ${ONLY_CASSANDRA})`,
    'either',
    0.2,
    'process_cpu_seconds_total',
    rate('process_cpu_seconds_total'),
  ),
  {
    id: 'reads',
    exporter: 'scylla',
    title: 'coordinator reads',
    unit: 'ops/s',
    query: 'sum by (instance) (rate(scylla_storage_proxy_coordinator_read_latency_count[$W]))',
    bad: 'down',
    minAbsolute: 5,
    probe: 'scylla_storage_proxy_coordinator_read_latency_count',
    scrape: rate('scylla_storage_proxy_coordinator_read_latency_count'),
  },
  {
    id: 'writes',
    exporter: 'scylla',
    title: 'coordinator writes',
    unit: 'ops/s',
    query: 'sum by (instance) (rate(scylla_storage_proxy_coordinator_write_latency_count[$W]))',
    bad: 'down',
    minAbsolute: 5,
    probe: 'scylla_storage_proxy_coordinator_write_latency_count',
    scrape: rate('scylla_storage_proxy_coordinator_write_latency_count'),
  },
  {
    id: 'read_p99',
    exporter: 'scylla',
    title: 'read p99 (coordinator)',
    unit: 's',
    query: 'histogram_quantile(0.99, sum by (instance, le) (rate(scylla_storage_proxy_coordinator_read_latency_bucket[$W])))',
    scale: 1e-6,
    bad: 'up',
    minAbsolute: 0.001,
    probe: 'scylla_storage_proxy_coordinator_read_latency_bucket',
    scrape: { op: 'quantile', q: 0.99, metric: 'scylla_storage_proxy_coordinator_read_latency' },
  },
  {
    id: 'write_p99',
    exporter: 'scylla',
    title: 'write p99 (coordinator)',
    unit: 's',
    query: 'histogram_quantile(0.99, sum by (instance, le) (rate(scylla_storage_proxy_coordinator_write_latency_bucket[$W])))',
    scale: 1e-6,
    bad: 'up',
    minAbsolute: 0.001,
    probe: 'scylla_storage_proxy_coordinator_write_latency_bucket',
    scrape: { op: 'quantile', q: 0.99, metric: 'scylla_storage_proxy_coordinator_write_latency' },
  },
  {
    id: 'timeouts',
    exporter: 'scylla',
    title: 'coordinator timeouts',
    unit: '/s',
    query:
      'sum by (instance) (rate(scylla_storage_proxy_coordinator_read_timeouts[$W])) + sum by (instance) (rate(scylla_storage_proxy_coordinator_write_timeouts[$W]))',
    bad: 'up',
    minAbsolute: 0.1,
    probe: 'scylla_storage_proxy_coordinator_read_timeouts',
    scrape: { op: 'add', left: rate('scylla_storage_proxy_coordinator_read_timeouts'), right: rate('scylla_storage_proxy_coordinator_write_timeouts') },
  },
  {
    id: 'dropped',
    exporter: 'scylla',
    title: 'CQL requests shed',
    unit: '/s',
    query: 'sum by (instance) (rate(scylla_transport_requests_shed[$W]))',
    bad: 'up',
    minAbsolute: 0.1,
    probe: 'scylla_transport_requests_shed',
    scrape: rate('scylla_transport_requests_shed'),
  },
  {
    id: 'pending_compactions',
    exporter: 'scylla',
    title: 'compaction backlog (normalised)',
    unit: 'tasks',
    query: 'max by (instance) (scylla_compaction_manager_normalized_backlog)',
    bad: 'up',
    minAbsolute: 0.5,
    probe: 'scylla_compaction_manager_normalized_backlog',
    scrape: gauge('scylla_compaction_manager_normalized_backlog', 'max'),
  },
  {
    id: 'hints',
    exporter: 'scylla',
    title: 'hints written',
    unit: '/s',
    query: 'sum by (instance) (rate(scylla_hints_manager_written[$W]))',
    bad: 'up',
    minAbsolute: 1,
    probe: 'scylla_hints_manager_written',
    scrape: rate('scylla_hints_manager_written'),
  },
  {
    id: 'cpu',
    exporter: 'scylla',
    title: 'reactor utilisation',
    unit: 'ratio',
    query: 'avg by (instance) (scylla_reactor_utilization) / 100',
    bad: 'either',
    minAbsolute: 0.1,
    probe: 'scylla_reactor_utilization',
    scrape: { op: 'div', left: gauge('scylla_reactor_utilization', 'avg'), right: { op: 'const', value: 100 } },
  },
  // ScyllaDB's own view of its front end (github.com/scylladb/scylladb docs/dev/metrics.md; names as in its /metrics).
  {
    id: 'cql_requests',
    exporter: 'scylla',
    title: 'CQL requests served',
    unit: 'ops/s',
    query: 'sum by (instance) (rate(scylla_transport_requests_served[$W]))',
    bad: 'down',
    minAbsolute: 5,
    probe: 'scylla_transport_requests_served',
    scrape: rate('scylla_transport_requests_served'),
  },
  {
    id: 'foreground_reads',
    exporter: 'scylla',
    title: 'reads waiting (foreground)',
    unit: 'requests',
    query: 'sum by (instance) (scylla_storage_proxy_coordinator_foreground_reads)',
    bad: 'up',
    minAbsolute: 10,
    probe: 'scylla_storage_proxy_coordinator_foreground_reads',
    scrape: gauge('scylla_storage_proxy_coordinator_foreground_reads', 'sum'),
  },
  {
    id: 'foreground_writes',
    exporter: 'scylla',
    title: 'writes waiting (foreground)',
    unit: 'requests',
    query: 'sum by (instance) (scylla_storage_proxy_coordinator_foreground_writes)',
    bad: 'up',
    minAbsolute: 10,
    probe: 'scylla_storage_proxy_coordinator_foreground_writes',
    scrape: gauge('scylla_storage_proxy_coordinator_foreground_writes', 'sum'),
  },
  {
    id: 'cache_hit_ratio',
    exporter: 'scylla',
    title: 'row cache hit ratio',
    unit: 'ratio',
    query:
      'sum by (instance) (rate(scylla_cache_row_hits[$W])) / ' +
      '(sum by (instance) (rate(scylla_cache_row_hits[$W])) + sum by (instance) (rate(scylla_cache_row_misses[$W])) > 0)',
    bad: 'down',
    minAbsolute: 0.1,
    probe: 'scylla_cache_row_hits',
    scrape: {
      op: 'div',
      left: rate('scylla_cache_row_hits'),
      right: { op: 'add', left: rate('scylla_cache_row_hits'), right: rate('scylla_cache_row_misses') },
    },
  },
  // Per table (JMX exporter example rules: MBean type=Table → cassandra_table_<name>{keyspace,table}, checked on a real 5.0 page).
  jmxTable('table_reads', 'table reads', 'ops/s', 'rate', 'cassandra_table_readlatency_seconds_count', 'either', 5),
  jmxTable('table_writes', 'table writes', 'ops/s', 'rate', 'cassandra_table_writelatency_seconds_count', 'either', 5),
  jmxTable('table_read_p99', 'table read p99 (local)', 's', 'p99', 'cassandra_table_readlatency_seconds', 'up', 0.001),
  jmxTable('table_write_p99', 'table write p99 (local)', 's', 'p99', 'cassandra_table_writelatency_seconds', 'up', 0.001),
  jmxTable('table_sstables_per_read', 'SSTables per read (p99)', 'per read', 'p99', 'cassandra_table_sstablesperreadhistogram', 'up', 1),
  jmxTable('table_tombstones', 'tombstones scanned per read (p99)', 'per read', 'p99', 'cassandra_table_tombstonescannedhistogram', 'up', 100),
  jmxTable('table_pending_compactions', 'table pending compactions', 'tasks', 'gauge', 'cassandra_table_pendingcompactions', 'up', 5),
  // ScyllaDB per table: histograms in µs and a gauge per shard, labels ks/cf (scylladb docs/dev/metrics.md).
  scyllaTable('table_reads', 'table reads', 'ops/s', 'rate', 'scylla_column_family_read_latency_count', 'either', 5),
  scyllaTable('table_writes', 'table writes', 'ops/s', 'rate', 'scylla_column_family_write_latency_count', 'either', 5),
  scyllaTable('table_read_p99', 'table read p99 (local)', 's', 'p99', 'scylla_column_family_read_latency', 'up', 0.001),
  scyllaTable('table_write_p99', 'table write p99 (local)', 's', 'p99', 'scylla_column_family_write_latency', 'up', 0.001),
  scyllaTable('table_pending_compactions', 'table pending compactions', 'tasks', 'gauge', 'scylla_column_family_pending_compaction', 'up', 5),
  ...MCAC_SIGNALS,
  ...MGMTAPI_SIGNALS,
  {
    id: 'cpu',
    exporter: 'node',
    title: 'host CPU busy',
    unit: 'ratio',
    query: '1 - avg by (instance) (rate(node_cpu_seconds_total{mode="idle"}[$W]))',
    bad: 'either',
    minAbsolute: 0.1,
    probe: 'node_cpu_seconds_total',
    scrape: { op: 'sub', left: { op: 'const', value: 1 }, right: rate('node_cpu_seconds_total', { mode: 'idle' }, 'avg') },
  },
  {
    id: 'iowait',
    exporter: 'node',
    title: 'host iowait',
    unit: 'ratio',
    query: 'avg by (instance) (rate(node_cpu_seconds_total{mode="iowait"}[$W]))',
    bad: 'up',
    minAbsolute: 0.05,
    probe: 'node_cpu_seconds_total',
    scrape: rate('node_cpu_seconds_total', { mode: 'iowait' }, 'avg'),
  },
  {
    id: 'disk_util',
    exporter: 'node',
    title: 'busiest disk utilisation',
    unit: 'ratio',
    query: 'max by (instance) (rate(node_disk_io_time_seconds_total[$W]))',
    bad: 'up',
    minAbsolute: 0.1,
    probe: 'node_disk_io_time_seconds_total',
    scrape: rate('node_disk_io_time_seconds_total', undefined, 'max'),
  },
  {
    id: 'disk_await',
    exporter: 'node',
    title: 'worst disk await',
    unit: 's',
    query:
      'max by (instance) ((rate(node_disk_read_time_seconds_total[$W]) + rate(node_disk_write_time_seconds_total[$W])) / ' +
      '(rate(node_disk_reads_completed_total[$W]) + rate(node_disk_writes_completed_total[$W]) > 0))',
    bad: 'up',
    minAbsolute: 0.002,
    probe: 'node_disk_read_time_seconds_total',
    scrape: {
      op: 'maxRatio',
      by: 'device',
      num: ['node_disk_read_time_seconds_total', 'node_disk_write_time_seconds_total'],
      den: ['node_disk_reads_completed_total', 'node_disk_writes_completed_total'],
    },
  },
];

/** One name only that exporter has, per exporter (process_* and jvm_* exist in many exporters, so they prove nothing). */
export const EXPORTER_PROBES: Record<Exclude<Exporter, 'prometheus'>, string> = {
  jmx: 'cassandra_clientrequest_latency_seconds_count',
  scylla: 'scylla_storage_proxy_coordinator_read_latency_count',
  mcac: 'mcac_client_request_latency_total',
  mgmtapi: 'org_apache_cassandra_metrics_client_request_latency_count',
  node: 'node_cpu_seconds_total',
};

/** What each naming is, for messages ("expected … found …"). */
export const EXPORTER_NAMES: Record<Exclude<Exporter, 'prometheus'>, string> = {
  jmx: 'the Prometheus JMX exporter with its example Cassandra rules',
  scylla: 'ScyllaDB',
  mcac: 'DataStax MCAC (through its Prometheus relabel rules)',
  mgmtapi: "the k8ssandra Management API's /metrics",
  node: 'node_exporter',
};

/** The exporters whose identifying metric names are among `names`. */
export function exportersPresent(names: ReadonlySet<string>): Exclude<Exporter, 'prometheus'>[] {
  return (['jmx', 'scylla', 'mcac', 'mgmtapi', 'node'] as const).filter((e) => names.has(EXPORTER_PROBES[e]));
}

/** "… (probe_name)" for each naming, to say what was expected. */
export function expectedNamings(): string {
  const all = Object.keys(EXPORTER_PROBES) as Exclude<Exporter, 'prometheus'>[];
  return all.map((e) => `${EXPORTER_NAMES[e]} (${EXPORTER_PROBES[e]})`).join(', ');
}

/** `instance` label → the node it is about: the host part ("10.0.0.3:7070" → "10.0.0.3"). */
export function nodeOfInstance(instance: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(instance);
  if (v6) return v6[1]!;
  const i = instance.lastIndexOf(':');
  return i > 0 && instance.indexOf(':') === i ? instance.slice(0, i) : instance;
}

/** The PromQL of a signal with its rate window: 4 steps, at least 4 scrape intervals (rate needs 2 samples). */
export function queryFor(spec: SignalSpec, stepS: number, scrapeIntervalS: number): string {
  const w = Math.max(4 * scrapeIntervalS, 2 * stepS);
  return spec.query.replaceAll('$W', `${w}s`);
}
