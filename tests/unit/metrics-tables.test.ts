/**
 * Per-table signals and the second ScyllaDB version, against real pages served on loopback
 * (tests/fixtures/metrics, provenance in PROVENANCE.md):
 * - two real scrapes of a Cassandra 5.0 node with the JMX exporter's example rules (50 tables): the per-table
 *   signals find app.orders, keep only a few tables per signal and say how many were left out;
 * - a real ScyllaDB 3.3 page (per-shard histograms, a `type` label, zero counters present), first as recorded, then
 *   with counters advanced by this test (said below): the signals it must yield and the ones 3.3 cannot give;
 * - the token budget on a day of 50 tables × 3 nodes (series built here, with one table that moved).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages, type PageNode } from '../helpers/metrics-page-server.js';
import { metricsWindow } from '../../mcp-server/src/ops/metrics.js';
import { renderMetrics } from '../../mcp-server/src/render/metrics.js';
import { analyseMetrics, type SignalData } from '../../mcp-server/src/core/metrics/analyse.js';
import { SIGNALS, exportersPresent } from '../../mcp-server/src/core/metrics/signals.js';
import { TOP_TABLES } from '../../mcp-server/src/core/metrics/tables.js';

const fixture = (f: string) => readFileSync(new URL(`../fixtures/metrics/${f}`, import.meta.url), 'utf8');
const JMX1 = fixture('cassandra50-jmx-example-rules-page1.txt');
const JMX2 = fixture('cassandra50-jmx-example-rules-page2.txt');
const SCYLLA33 = fixture('scylla33_metrics_excerpt.txt');

/** The second scrape of the 3.3 node: what changed, line by line. */
function advance33(page: string): string {
  const bump = (line: string, by: number) => line.replace(/ (\d+(?:\.\d+)?)$/, (_, v: string) => ` ${Number(v) + by}`);
  return page
    .split('\n')
    .map((line) => {
      // 1,000 reads on shard 2: 900 of at most 512 µs, 100 between 32,768 and 65,536 µs
      const r = /^scylla_storage_proxy_coordinator_read_latency_(bucket|count)\{(?:le="([^"]+)",)?shard="2",/.exec(line);
      if (r) {
        if (r[1] === 'count') return bump(line, 1000);
        const le = r[2] === '+Inf' ? Infinity : Number(r[2]);
        return le >= 65536 ? bump(line, 1000) : le >= 512 ? bump(line, 900) : line;
      }
      // 5 write timeouts on shard 1; 2,000 CQL requests on shard 0
      if (line.startsWith('scylla_storage_proxy_coordinator_write_timeouts{shard="1"')) return bump(line, 5);
      if (line.startsWith('scylla_transport_requests_served{shard="0"')) return bump(line, 2000);
      return line;
    })
    .join('\n');
}

const serve = (pages: (n: number) => string) => servePages(pages);

let cassandra: PageNode;
let scylla: PageNode;
beforeAll(async () => {
  cassandra = await serve((n) => (n === 1 ? JMX1 : JMX2));
  scylla = await serve((n) => (n === 1 ? SCYLLA33 : advance33(SCYLLA33)));
});
afterAll(async () => {
  for (const n of [cassandra, scylla]) await new Promise((r) => n.server.close(r));
});

describe('per-table signals on two real scrapes of Cassandra 5.0 (JMX exporter example rules)', () => {
  it('finds the busy and tombstone-heavy table, keeps a few tables per signal and counts the rest', async () => {
    const r = await metricsWindow({ scrape: true, scrapeFor: '1s' }, { scrapeEndpoints: [cassandra.endpoint] });
    expect(r.exporters).toEqual(['jmx']);
    const view = (id: string) => r.tables.find((t) => t.signal === id)!;
    // 50 tables on the page, one node
    expect(view('table_reads')).toMatchObject({ exporter: 'jmx', series: 50, tables: 50 });
    // 1,000 reads of app.orders between the scrapes; app.users had none
    const reads = view('table_reads').top;
    expect(reads[0]).toMatchObject({ table: 'app.orders', node: '127.0.0.1', why: 'busiest' });
    expect(reads.find((t) => t.table === 'app.users')).toBeUndefined();
    // tombstones scanned per read, p99 at the second scrape: 310 on app.orders
    const tomb = view('table_tombstones').top;
    expect(tomb[0]).toMatchObject({ table: 'app.orders', why: 'worst' });
    expect(tomb[0]!.summary.max).toBe(310);
    // writes: 300 deletes on app.orders, 100 inserts on app.users
    expect(
      view('table_writes')
        .top.slice(0, 2)
        .map((t) => t.table),
    ).toEqual(['app.orders', 'app.users']);
    for (const v of r.tables) {
      expect(v.top.length).toBeLessThanOrEqual(TOP_TABLES);
      expect(v.leftOut).toBe(v.series - v.top.length);
    }
    // every per-table signal the example rules have is read
    expect(r.tables.map((t) => t.signal).sort()).toEqual([
      'table_pending_compactions',
      'table_read_p99',
      'table_reads',
      'table_sstables_per_read',
      'table_tombstones',
      'table_write_p99',
      'table_writes',
    ]);
    const text = renderMetrics(r);
    expect(text).toContain('Per table');
    // a gauge gives one point per scrape: 20 then 310
    expect(text).toMatch(/app\.orders on 127\.0\.0\.1: median 165 per read, p99 307 per read \(worst\)/);
    expect(text).toMatch(/… \d+ more series not listed/);
    // never all 50 tables: system tables that did nothing are not listed
    expect(text).not.toContain('system_schema.dropped_columns');
  });

  it('the lab-style rules without table MBeans: the per-table signals say why they are missing, once', async () => {
    const noTables = (p: string) =>
      p
        .split('\n')
        .filter((l) => !l.includes('cassandra_table_'))
        .join('\n');
    const n = await serve((i) => noTables(i === 1 ? JMX1 : JMX2));
    try {
      const r = await metricsWindow({ scrape: true, scrapeFor: '1s' }, { scrapeEndpoints: [n.endpoint] });
      expect(r.tables).toEqual([]);
      expect(r.missing.filter((m) => m.signal.startsWith('table'))).toEqual([
        { signal: 'table_*', exporter: 'jmx', reason: expect.stringContaining('leave out the type=Table MBeans') },
      ]);
    } finally {
      await new Promise((r) => n.server.close(r));
    }
  });
});

describe('a second ScyllaDB major version: the recorded 3.3 page', () => {
  it('is detected as ScyllaDB and yields the signals 3.3 has, from per-shard histograms', async () => {
    const r = await metricsWindow({ scrape: true, scrapeFor: '1s', raw: true }, { scrapeEndpoints: [scylla.endpoint] });
    expect(r.exporters).toEqual(['scylla']);
    const sig = (id: string) => r.nodes[0]!.signals.find((s) => s.signal === id);
    // p99 of the 1,000 reads added on shard 2: rank 990 falls in (32768, 65536] holding 100 of them:
    // 32768 + 32768 × 90/100 = 62,259.2 µs
    expect(sig('read_p99')!.summary.max * 1e6).toBeCloseTo(62259.2, 1);
    // writes unchanged between the scrapes: no observation, so no p99 (as histogram_quantile returns nothing)
    expect(sig('write_p99')).toBeUndefined();
    expect(r.missing.find((m) => m.signal === 'write_p99')?.reason).toMatch(/no value in this window/);
    // 3.3 reports zero counters: timeouts are measured (5 on shard 1), where 5.x leaves the family out until it moves
    const raw = (id: string) => r.raw!.find((x) => x.signal === id)!.points;
    const [[, timeouts]] = raw('timeouts') as [[number, number]];
    expect(timeouts).toBeGreaterThan(0);
    expect(sig('cql_requests')!.summary.max).toBeGreaterThan(0);
    expect(sig('reads')!.summary.max).toBeGreaterThan(0);
    expect(sig('foreground_reads')!.summary.max).toBe(0);
    // timeouts above the threshold: a level finding on that node
    expect(r.findings.find((f) => f.id === 'metrics.level.timeouts')).toMatchObject({ node: '127.0.0.1' });
    // what 3.3 does not have: the compaction backlog, shed requests, per-table metrics
    const missing = Object.fromEntries(r.missing.map((m) => [m.signal, m.reason]));
    expect(missing.pending_compactions).toMatch(/not on the page: scylla_compaction_manager_normalized_backlog/);
    expect(missing.dropped).toMatch(/not on the page: scylla_transport_requests_shed/);
    expect(missing['table_*']).toMatch(/enable_keyspace_column_family_metrics/);
  });
});

describe('the token budget: a day of 50 tables × 3 nodes', () => {
  it('keeps 5 tables per signal, names the one that moved with its node and time, and stays small', () => {
    const start = Date.UTC(2026, 10, 24, 0, 0) / 1000;
    const step = 120;
    const spike = { from: start + 2 * 3600 + 14 * 60, to: start + 2 * 3600 + 42 * 60 };
    const spec = SIGNALS.find((s) => s.exporter === 'jmx' && s.id === 'table_read_p99')!;
    const series = [];
    for (let n = 1; n <= 3; n++) {
      for (let t = 0; t < 50; t++) {
        const points: [number, number][] = [];
        for (let ts = start, i = 0; ts <= start + 86400; ts += step, i++) {
          const base = 0.002 + ((i * 7 + t * 13 + n) % 10) * 0.0001;
          points.push([ts, n === 3 && t === 17 && ts >= spike.from && ts < spike.to ? 0.12 : base]);
        }
        series.push({ labels: { instance: `10.0.0.${n}:7070`, keyspace: 'shop', table: `t${t}` }, points });
      }
    }
    const data: SignalData[] = [{ spec, query: spec.query, series }];
    const a = analyseMetrics({ start, end: start + 86400, step, label: 'a day' }, data, ['jmx']);
    const v = a.tables[0]!;
    expect(v).toMatchObject({ series: 150, tables: 50, leftOut: 150 - TOP_TABLES });
    expect(v.top[0]).toMatchObject({ table: 'shop.t17', node: '10.0.0.3', why: 'moved' });
    const f = a.findings.find((x) => x.id === 'metrics.table.table_read_p99')!;
    expect(f).toMatchObject({ node: '10.0.0.3', table: 'shop.t17', when: 'from 2026-11-24T02:14:00Z to 2026-11-24T02:42:00Z' });
    expect(f.title).toContain('shop.t17');
    expect(f.knowledgeIds).toEqual(['latency.local-read-p99']);
    // summaries only: the report is a tiny fraction of the 150 × 721 points it read
    const rawBytes = JSON.stringify(series).length;
    const reportBytes = JSON.stringify(a).length;
    expect(reportBytes / rawBytes).toBeLessThan(0.01);
    // no node-level rows for per-table series
    expect(a.nodes).toEqual([]);
  });

  it('detects the MCAC and Management API namings by their own names', () => {
    expect(exportersPresent(new Set(['mcac_client_request_latency_total']))).toEqual(['mcac']);
    expect(exportersPresent(new Set(['org_apache_cassandra_metrics_client_request_latency_count', 'node_cpu_seconds_total']))).toEqual(['mgmtapi', 'node']);
    // the older Management API naming (consistency level in the name) is not the one mapped
    expect(exportersPresent(new Set(['org_apache_cassandra_metrics_client_request_latency_read_local_one_count']))).toEqual([]);
  });
});
