/**
 * ScyllaDB's naming through a real Prometheus: two loopback servers answer a recorded ScyllaDB 5 /metrics page
 * (tests/fixtures/scylla/metrics, provenance in its SOURCES.md) with its counters advanced by the wall clock (a
 * steady 1,000 writes/s per node), a real Prometheus scrapes them every second, and metrics_window runs its ScyllaDB
 * PromQL (rates, histogram_quantile over µs buckets) against it. Half-way through, node 127.0.0.2 starts shedding
 * 40 requests/s on shard 0 for 20 s: the change must be found on that node, at that time, and nowhere else.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages, type PageNode } from '../helpers/metrics-page-server.js';
import { PROMETHEUS_BIN, PROMETHEUS_MISSING, startPrometheus, type Running } from '../helpers/prometheus.js';
import { metricsWindow } from '../../mcp-server/src/ops/metrics.js';
import { renderMetrics } from '../../mcp-server/src/render/metrics.js';

if (!PROMETHEUS_BIN) process.stderr.write(`note: ${PROMETHEUS_MISSING}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RECORDED = readFileSync(new URL('../fixtures/scylla/metrics/scylla5_metrics_excerpt.txt', import.meta.url), 'utf8');
const WRITES_PER_S = 1000;
const SHED_PER_S = 40;

/** The recorded page `secs` seconds later: writes (all under 1,024 µs) at a steady rate, shed requests from `shed`. */
function pageAt(secs: number, shedSecs: number): string {
  const bump = (line: string, by: number) => line.replace(/ (\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/, (_, v: string) => ` ${Number(v) + by}`);
  const writes = Math.floor(secs * WRITES_PER_S);
  return RECORDED.split('\n')
    .map((line) => {
      const w = /^scylla_storage_proxy_coordinator_write_latency_(bucket|count|sum)\{(?:le="([^"]+)",)?scheduling_group_name="main"\}/.exec(line);
      if (w) {
        if (w[1] === 'count') return bump(line, writes);
        if (w[1] === 'sum') return bump(line, writes * 600);
        const le = w[2] === '+Inf' ? Infinity : Number(w[2]);
        return le >= 1024 ? bump(line, writes) : line;
      }
      if (line.startsWith('scylla_transport_requests_served{')) return bump(line, writes);
      if (line.startsWith('scylla_transport_requests_shed{shard="0"}')) return bump(line, Math.floor(shedSecs * SHED_PER_S));
      return line;
    })
    .join('\n');
}

describe.skipIf(!PROMETHEUS_BIN)('ScyllaDB metrics through a real Prometheus', () => {
  const nodes: PageNode[] = [];
  let prom: Running;
  const t0 = Date.now() / 1000;
  let shedFrom = Infinity;
  let shedTo = Infinity;
  const shedSecs = (now: number) => Math.max(0, Math.min(now, shedTo) - shedFrom);

  beforeAll(async () => {
    nodes.push(await servePages(() => pageAt(Date.now() / 1000 - t0, 0), { host: '127.0.0.1' }));
    nodes.push(await servePages(() => pageAt(Date.now() / 1000 - t0, shedSecs(Date.now() / 1000)), { host: '127.0.0.2' }));
    prom = await startPrometheus([{ name: 'scylla', targets: nodes.map((n) => n.endpoint.instance) }], 1);
  }, 90_000);

  afterAll(async () => {
    await prom?.stop();
    for (const n of nodes) await n.close();
  });

  it('reads the ScyllaDB naming, per node, and finds the shedding on the node that shed, when it started', async () => {
    // Prometheus hands targets to its scrapers some seconds after start; then a quiet baseline
    const until = Date.now() + 60_000;
    while (nodes.some((n) => n.hits < 3) && Date.now() < until) await sleep(500);
    expect(nodes.map((n) => n.hits >= 3)).toEqual([true, true]);
    await sleep(20_000);
    shedFrom = Date.now() / 1000;
    await sleep(20_000);
    shedTo = Date.now() / 1000;
    await sleep(15_000);
    const r = await metricsWindow({ last: '60s' }, { prometheus: { url: prom.url } });
    process.stdout.write(`${renderMetrics(r)}\n`);
    expect(r.exporters).toEqual(['scylla']);
    expect(r.scrapeIntervalS).toBe(1);
    expect(r.nodes.map((n) => n.node)).toEqual(['127.0.0.1', '127.0.0.2']);
    // the steady write rate comes back through rate() of the recorded counter, on both nodes
    for (const n of r.nodes) {
      const writes = n.signals.find((s) => s.signal === 'writes' && s.exporter === 'scylla')!;
      expect(writes.summary.median).toBeGreaterThan(0.9 * WRITES_PER_S);
      expect(writes.summary.median).toBeLessThan(1.1 * WRITES_PER_S);
      // histogram_quantile over ScyllaDB's µs buckets: every write is under 1,024 µs
      const p99 = n.signals.find((s) => s.signal === 'write_p99' && s.exporter === 'scylla')!;
      expect(p99.summary.max).toBeLessThanOrEqual(0.001024 + 1e-9);
    }
    const shed = r.changes.find((c) => c.signal === 'dropped' && c.exporter === 'scylla' && c.bad);
    expect(shed, JSON.stringify(r.changes.map((c) => [c.node, c.signal, c.change.start]))).toBeDefined();
    expect(shed!.node).toBe('127.0.0.2');
    expect(shed!.change.during).toBeGreaterThan(0.8 * SHED_PER_S);
    // rate() over 4 scrapes smears each edge by a few seconds
    expect(Math.abs(shed!.change.start - shedFrom)).toBeLessThanOrEqual(6);
    expect(shed!.change.end).not.toBeNull();
    expect(Math.abs(shed!.change.end! - shedTo)).toBeLessThanOrEqual(8);
    const finding = r.findings.find((f) => f.id === 'metrics.change.dropped');
    expect(finding).toMatchObject({ severity: 'critical', node: '127.0.0.2' });
    expect(finding!.evidence.join('\n')).toContain('scylla_transport_requests_shed');
    expect(r.findings.filter((f) => f.node === '127.0.0.1' && f.severity !== 'info')).toEqual([]);
  }, 180_000);
});
