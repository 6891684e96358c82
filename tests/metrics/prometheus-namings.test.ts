/**
 * The MCAC and Management API namings through a real Prometheus: three pretend nodes serve pages written by this
 * test in those names (core/metrics/metric-names.ts has the sources; no recorded page of either was found, see
 * tests/fixtures/metrics/PROVENANCE.md), Prometheus scrapes them every second, and metrics_window must pick the naming
 * by itself, read the signals, and say which naming it expected when it finds MCAC's raw collectd page instead.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsWindow } from '../../mcp-server/src/ops/metrics.js';
import { PROMETHEUS_BIN, PROMETHEUS_MISSING, startPrometheus, type Running } from '../helpers/prometheus.js';

if (!PROMETHEUS_BIN) process.stderr.write(`note: ${PROMETHEUS_MISSING}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LE_US = ['35', '60', '103', '179', '310', '535', '924', '1597', '2759', '4768', '8239', '14237', '24601', '42510', '+Inf'];

/** A cumulative histogram with `n` observations: 90 % at ≤ 924 µs, 10 % at ≤ slowUs. */
function buckets(name: string, labels: string, n: number, slowUs: number): string[] {
  return LE_US.map((le) => {
    const v = le === '+Inf' ? n : Number(le) >= slowUs ? n : Number(le) >= 924 ? Math.round(n * 0.9) : 0;
    return `${name}_bucket{${labels}${labels ? ',' : ''}le="${le}"} ${v}`;
  });
}

/** Management API names (v0.1.125 default relabels): request_type keeps the scope's case. */
function mgmtPage(t: number, slowTable: boolean): string {
  const reads = 500 * t;
  return [
    '# TYPE org_apache_cassandra_metrics_client_request_latency histogram',
    ...buckets('org_apache_cassandra_metrics_client_request_latency', 'request_type="Read"', reads, 2759),
    `org_apache_cassandra_metrics_client_request_latency_count{request_type="Read"} ${reads}`,
    ...buckets('org_apache_cassandra_metrics_client_request_latency', 'request_type="Write"', 800 * t, 924),
    `org_apache_cassandra_metrics_client_request_latency_count{request_type="Write"} ${800 * t}`,
    '# TYPE org_apache_cassandra_metrics_client_request_timeouts_total counter',
    'org_apache_cassandra_metrics_client_request_timeouts_total{request_type="Read"} 0',
    '# TYPE org_apache_cassandra_metrics_compaction_pending_tasks gauge',
    'org_apache_cassandra_metrics_compaction_pending_tasks 3',
    '# TYPE org_apache_cassandra_metrics_table_read_latency histogram',
    ...buckets('org_apache_cassandra_metrics_table_read_latency', 'keyspace="shop",table="orders"', 300 * t, slowTable ? 42510 : 924),
    `org_apache_cassandra_metrics_table_read_latency_count{keyspace="shop",table="orders"} ${300 * t}`,
    ...buckets('org_apache_cassandra_metrics_table_read_latency', 'keyspace="shop",table="carts"', 200 * t, 924),
    `org_apache_cassandra_metrics_table_read_latency_count{keyspace="shop",table="carts"} ${200 * t}`,
    '# TYPE org_apache_cassandra_metrics_table_tombstone_scanned_histogram summary',
    `org_apache_cassandra_metrics_table_tombstone_scanned_histogram{keyspace="shop",table="orders",quantile="0.99"} ${slowTable ? 5000 : 2}`,
    '',
  ].join('\n');
}

/** MCAC names as its Prometheus relabel rules produce them (v0.3.5 dashboards/prometheus/prometheus.yaml). */
function mcacPage(t: number): string {
  return [
    ...buckets('mcac_client_request_latency', 'request_type="read"', 400 * t, 1597),
    `mcac_client_request_latency_total{request_type="read"} ${400 * t}`,
    ...buckets('mcac_client_request_latency', 'request_type="write"', 600 * t, 924),
    `mcac_client_request_latency_total{request_type="write"} ${600 * t}`,
    `mcac_jvm_gc_time{collector_type="g1_young_generation"} ${50 * t}`,
    'mcac_table_pending_compactions{keyspace="shop",table="orders"} 4',
    '',
  ].join('\n');
}

/** What MCAC's agent serves itself (collectd names, the Dropwizard name in a label): only Prometheus relabelling makes mcac_*. */
const collectdPage = (t: number) =>
  [
    `collectd_mcac_counter_total{mcac="org.apache.cassandra.metrics.client_request.total_latency.read"} ${100 * t}`,
    `collectd_mcac_histogram_count_total{mcac="org.apache.cassandra.metrics.keyspace.validation_time.system"} 0`,
    '',
  ].join('\n');

describe.skipIf(!PROMETHEUS_BIN)('MCAC and Management API namings through a real Prometheus', () => {
  const servers: Server[] = [];
  let prom: Running;
  const t0 = Date.now();
  const secs = () => Math.floor((Date.now() - t0) / 1000) + 1;

  async function serve(page: () => string): Promise<number> {
    const s = createHttpServer((req, res) => {
      if (req.url !== '/metrics') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(page());
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
    return (s.address() as AddressInfo).port;
  }

  beforeAll(async () => {
    const mgmt1 = await serve(() => mgmtPage(secs(), false));
    // node 2's shop.orders turns slow after 6 s
    const mgmt2 = await serve(() => mgmtPage(secs(), secs() > 6));
    const mcac = await serve(() => mcacPage(secs()));
    const raw = await serve(() => collectdPage(secs()));
    prom = await startPrometheus(
      [
        {
          name: 'mgmt',
          targets: [
            { target: `127.0.0.1:${mgmt1}`, instance: '10.1.0.1:9000' },
            { target: `127.0.0.1:${mgmt2}`, instance: '10.1.0.2:9000' },
          ],
        },
        { name: 'mcac', targets: [{ target: `127.0.0.1:${mcac}`, instance: '10.2.0.1:9103' }] },
        { name: 'raw', targets: [{ target: `127.0.0.1:${raw}`, instance: '10.3.0.1:9103' }] },
      ],
      1,
    );
    await sleep(16_000);
  }, 120_000);

  afterAll(async () => {
    await prom?.stop();
    for (const s of servers) await new Promise((r) => s.close(r));
  });

  it('picks the Management API and MCAC namings by themselves and reads their signals', async () => {
    const r = await metricsWindow({ last: '40s' }, { prometheus: { url: prom.url } });
    expect(r.exporters).toEqual(['mcac', 'mgmtapi']);
    const node = (n: string) => r.nodes.find((x) => x.node === n)!.signals;
    const reads = node('10.1.0.1').find((s) => s.signal === 'reads' && s.exporter === 'mgmtapi')!;
    expect(reads.summary.median).toBeGreaterThan(400);
    expect(reads.summary.median).toBeLessThan(600);
    // p99 of the read histogram: 10 % of reads at ≤ 2,759 µs → inside (1597, 2759]
    const p99 = node('10.1.0.1').find((s) => s.signal === 'read_p99')!;
    expect(p99.summary.median).toBeGreaterThan(0.0016);
    expect(p99.summary.median).toBeLessThanOrEqual(0.00276);
    expect(node('10.2.0.1').find((s) => s.signal === 'gc_time' && s.exporter === 'mcac')!.summary.median).toBeCloseTo(0.05, 2);
    // per table, with the Management API's keyspace/table labels
    const tables = r.tables.find((t) => t.signal === 'table_read_p99' && t.exporter === 'mgmtapi')!;
    expect(tables).toMatchObject({ series: 4, tables: 2 });
    expect(tables.top[0]).toMatchObject({ table: 'shop.orders', node: '10.1.0.2' });
    const tomb = r.tables.find((t) => t.signal === 'table_tombstones' && t.exporter === 'mgmtapi')!;
    expect(tomb.top[0]).toMatchObject({ table: 'shop.orders', node: '10.1.0.2' });
    expect(r.tables.find((t) => t.signal === 'table_pending_compactions' && t.exporter === 'mcac')!.top[0]).toMatchObject({ table: 'shop.orders' });
  });

  it("says which naming it expected and what it found instead: MCAC's raw collectd page", async () => {
    // a Prometheus that scrapes only the raw page; it applies discovered targets after up to 5 s
    const rawPort = (servers[3]!.address() as AddressInfo).port;
    const only = await startPrometheus([{ name: 'raw', targets: [{ target: `127.0.0.1:${rawPort}`, instance: '10.3.0.1:9103' }] }], 1);
    try {
      await sleep(12_000);
      await expect(metricsWindow({ last: '1m' }, { prometheus: { url: only.url } })).rejects.toMatchObject({
        code: 'UNKNOWN_METRIC_NAMES',
        message: expect.stringMatching(
          /expected from .*Management API.*org_apache_cassandra_metrics_client_request_latency_count.*collectd_mcac_\* metric\(s\).*relabel/s,
        ),
      });
    } finally {
      await only.stop();
    }
  }, 60_000);
});
