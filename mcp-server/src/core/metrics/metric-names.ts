/**
 * Two more Cassandra namings, as data with their sources (the same signal ids as signals.ts, so the analysis and the
 * report do not care which one a cluster uses):
 *
 * - mcac: DataStax Metric Collector for Apache Cassandra. Its agent writes collectd names (`collectd_mcac_*` with an
 *   `mcac` label carrying the Dropwizard name); the `mcac_*` names below exist only after the metric_relabel_configs
 *   that MCAC ships for Prometheus. Source: github.com/datastax/metric-collector-for-apache-cassandra @ v0.3.5
 *   (f97a258e): dashboards/prometheus/prometheus.yaml (relabelling: client_request.<name>.<type> →
 *   mcac_client_request_<name>{request_type}, table.<name>.<ks>.<table> → mcac_table_<name>{keyspace,table},
 *   `_bucket_<µs>` → `le`), and the names its own dashboards query (generated-dashboards/overview.json,
 *   cassandra-condensed.json: latency buckets shown in µs, `rate(mcac_jvm_gc_time) / 1000` as a fraction of time).
 *   A raw MCAC page cannot be read by a direct scrape for that reason: no `scrape` expressions.
 * - mgmtapi: the k8ssandra Management API agent's /metrics (port 9000). Source: github.com/k8ssandra/
 *   management-api-for-apache-cassandra @ v0.1.125 (7a2b61f8): management-api-agent-common/src/main/resources/
 *   default-metric-settings.yaml (ClientRequest.<name>.<scope> → org_apache_cassandra_metrics_client_request_<name>
 *   {request_type=<scope>, case kept}; Table.<name>.<ks>.<table> → org_apache_cassandra_metrics_table_<name>
 *   {keyspace,table}), CassandraMetricNameParser.clean (CamelCase → snake_case), CassandraMetricRegistryListener
 *   (timers → _bucket/_count/_sum with `le` in µs from LATENCY_OFFSETS; meters → _total; histograms →
 *   {quantile="0.99"} and _count). The page is served with these names, so a direct scrape works too.
 * Neither was checked on a recorded page (none found in public material): the PROVENANCE file says so.
 */
import type { ScrapeExpr } from './scrape-eval.js';
import type { SignalId, SignalSpec } from './signals.js';

const TABLE_LABELS = { keyspace: 'keyspace', table: 'table' };

type Shape =
  | { kind: 'rate'; metric: string; match?: Record<string, string | string[]> }
  | { kind: 'p99hist'; metric: string; match?: Record<string, string | string[]> }
  | { kind: 'p99gauge'; metric: string }
  | { kind: 'gauge'; metric: string };

/** PromQL label matchers: one value `k="v"`, several `k=~"v1|v2"`. */
function matchers(match: Record<string, string | string[]> | undefined, extra = ''): string {
  const parts = Object.entries(match ?? {}).map(([k, v]) => (Array.isArray(v) ? `${k}=~"${v.join('|')}"` : `${k}="${v}"`));
  if (extra) parts.push(extra);
  return parts.length ? `{${parts.join(',')}}` : '';
}

interface Def {
  id: SignalId;
  title: string;
  unit: SignalSpec['unit'];
  shape: Shape;
  bad: SignalSpec['bad'];
  minAbsolute: number;
  perTable?: boolean;
}

function build(exporter: 'mcac' | 'mgmtapi', d: Def, withScrape: boolean): SignalSpec {
  const by = d.perTable ? 'instance, keyspace, table' : 'instance';
  const s = d.shape;
  let query: string;
  let scrape: ScrapeExpr;
  let probe = s.metric;
  let scale: number | undefined;
  switch (s.kind) {
    case 'rate':
      query = `sum by (${by}) (rate(${s.metric}${matchers(s.match)}[$W]))`;
      scrape = { op: 'rate', metric: s.metric, ...(s.match ? { match: s.match } : {}) };
      break;
    case 'p99hist':
      query = `histogram_quantile(0.99, sum by (${by}, le) (rate(${s.metric}_bucket${matchers(s.match)}[$W])))`;
      scrape = { op: 'quantile', q: 0.99, metric: s.metric, ...(s.match ? { match: s.match } : {}) };
      probe = `${s.metric}_bucket`;
      scale = 1e-6;
      break;
    case 'p99gauge':
      query = `max by (${by}) (${s.metric}{quantile="0.99"})`;
      scrape = { op: 'gauge', metric: s.metric, agg: 'max', match: { quantile: '0.99' } };
      break;
    default:
      query = `sum by (${by}) (${s.metric})`;
      scrape = { op: 'gauge', metric: s.metric, agg: 'sum' };
  }
  return {
    id: d.id,
    exporter,
    title: d.title,
    unit: d.unit,
    query,
    ...(scale ? { scale } : {}),
    bad: d.bad,
    minAbsolute: d.minAbsolute,
    probe,
    ...(withScrape ? { scrape } : {}),
    ...(d.perTable ? { table: TABLE_LABELS } : {}),
  };
}

type Match = Record<string, string | string[]>;
const rate = (metric: string, match?: Match): Shape => ({ kind: 'rate', metric, ...(match ? { match } : {}) });
const hist = (metric: string, match?: Match): Shape => ({ kind: 'p99hist', metric, ...(match ? { match } : {}) });
const gauge = (metric: string): Shape => ({ kind: 'gauge', metric });
const p99 = (metric: string): Shape => ({ kind: 'p99gauge', metric });
const def = (id: SignalId, title: string, unit: SignalSpec['unit'], shape: Shape, bad: SignalSpec['bad'], minAbsolute: number): Def => ({
  id,
  title,
  unit,
  shape,
  bad,
  minAbsolute,
});
const table = (d: Def): Def => ({ ...d, perTable: true });

const M = 'mcac_';
const MCAC_DEFS: Def[] = [
  def('reads', 'client reads', 'ops/s', rate(`${M}client_request_latency_total`, { request_type: 'read' }), 'down', 5),
  def('writes', 'client writes', 'ops/s', rate(`${M}client_request_latency_total`, { request_type: 'write' }), 'down', 5),
  def('read_p99', 'read p99 (coordinator)', 's', hist(`${M}client_request_latency`, { request_type: 'read' }), 'up', 0.001),
  def('write_p99', 'write p99 (coordinator)', 's', hist(`${M}client_request_latency`, { request_type: 'write' }), 'up', 0.001),
  def('timeouts', 'client timeouts', '/s', rate(`${M}client_request_timeouts_total`), 'up', 0.1),
  def('dropped', 'dropped messages', '/s', rate(`${M}dropped_message_dropped_total`), 'up', 0.1),
  def('pending_compactions', 'pending compactions (sum of tables)', 'tasks', gauge(`${M}table_pending_compactions`), 'up', 5),
  table(def('table_reads', 'table reads', 'ops/s', rate(`${M}table_read_latency_total`), 'either', 5)),
  table(def('table_writes', 'table writes', 'ops/s', rate(`${M}table_write_latency_total`), 'either', 5)),
  table(def('table_read_p99', 'table read p99 (local)', 's', hist(`${M}table_read_latency`), 'up', 0.001)),
  table(def('table_write_p99', 'table write p99 (local)', 's', hist(`${M}table_write_latency`), 'up', 0.001)),
  table(def('table_pending_compactions', 'table pending compactions', 'tasks', gauge(`${M}table_pending_compactions`), 'up', 5)),
];

/** GC time is in ms in MCAC (its dashboards divide the rate by 1000): a query of its own, not a Shape. */
const MCAC_GC: SignalSpec = {
  id: 'gc_time',
  exporter: 'mcac',
  title: 'GC time',
  unit: 's/s',
  query: 'sum by (instance) (rate(mcac_jvm_gc_time[$W])) / 1000',
  bad: 'up',
  minAbsolute: 0.02,
  probe: 'mcac_jvm_gc_time',
};

const A = 'org_apache_cassandra_metrics_';
/** The scope keeps its case ("Read"); a lowercase spelling is accepted too. */
const READ = { request_type: ['Read', 'read'] };
const WRITE = { request_type: ['Write', 'write'] };
const MGMTAPI_DEFS: Def[] = [
  def('reads', 'client reads', 'ops/s', rate(`${A}client_request_latency_count`, READ), 'down', 5),
  def('writes', 'client writes', 'ops/s', rate(`${A}client_request_latency_count`, WRITE), 'down', 5),
  def('read_p99', 'read p99 (coordinator)', 's', hist(`${A}client_request_latency`, READ), 'up', 0.001),
  def('write_p99', 'write p99 (coordinator)', 's', hist(`${A}client_request_latency`, WRITE), 'up', 0.001),
  def('timeouts', 'client timeouts', '/s', rate(`${A}client_request_timeouts_total`), 'up', 0.1),
  def('dropped', 'dropped messages', '/s', rate(`${A}dropped_message_dropped_total`), 'up', 0.1),
  def('pending_compactions', 'pending compactions', 'tasks', gauge(`${A}compaction_pending_tasks`), 'up', 5),
  def('hints', 'hints written', '/s', rate(`${A}storage_total_hints_total`), 'up', 1),
  table(def('table_reads', 'table reads', 'ops/s', rate(`${A}table_read_latency_count`), 'either', 5)),
  table(def('table_writes', 'table writes', 'ops/s', rate(`${A}table_write_latency_count`), 'either', 5)),
  table(def('table_read_p99', 'table read p99 (local)', 's', hist(`${A}table_read_latency`), 'up', 0.001)),
  table(def('table_write_p99', 'table write p99 (local)', 's', hist(`${A}table_write_latency`), 'up', 0.001)),
  table(def('table_sstables_per_read', 'SSTables per read (p99)', 'per read', p99(`${A}table_ss_tables_per_read_histogram`), 'up', 1)),
  table(def('table_tombstones', 'tombstones scanned per read (p99)', 'per read', p99(`${A}table_tombstone_scanned_histogram`), 'up', 100)),
  table(def('table_pending_compactions', 'table pending compactions', 'tasks', gauge(`${A}table_pending_compactions`), 'up', 5)),
];

export const MCAC_SIGNALS: SignalSpec[] = [...MCAC_DEFS.map((d) => build('mcac', d, false)), MCAC_GC];
export const MGMTAPI_SIGNALS: SignalSpec[] = MGMTAPI_DEFS.map((d) => build('mgmtapi', d, true));
