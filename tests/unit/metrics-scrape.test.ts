/**
 * `metrics --scrape` / metrics_window { scrape: true } without a Prometheus, against real HTTP servers on loopback
 * serving a recorded ScyllaDB 5 /metrics page (tests/fixtures/scylla/metrics, provenance in SOURCES.md).
 * Node 127.0.0.1 serves the recording first and then the same page with counters advanced by `advance` below (a
 * modified second scrape, not a second recording); node 127.0.0.2 serves the recording every time (idle).
 * Also: the endpoint is never a tool argument, and the limits (size, time, redirects) hold.
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInProcess } from '../helpers/mcp-client.js';
import { servePages, type PageNode } from '../helpers/metrics-page-server.js';
import { parseScrapeEndpoint, scrapePage } from '../../mcp-server/src/collect/metrics/scrape.js';
import { metricsWindow, type MetricsReport } from '../../mcp-server/src/ops/metrics.js';

const RECORDED = readFileSync(new URL('../fixtures/scylla/metrics/scylla5_metrics_excerpt.txt', import.meta.url), 'utf8');

/** The second scrape of the busy node: what changed, line by line. */
function advance(page: string): string {
  const bump = (line: string, by: number) => line.replace(/ (\d+(?:\.\d+)?)$/, (_, v: string) => ` ${Number(v) + by}`);
  return page
    .split('\n')
    .map((line) => {
      // 1,500 CQL requests served per shard (6,000 in all)
      if (line.startsWith('scylla_transport_requests_served{')) return bump(line, 1500);
      // 40 requests shed on shard 0
      if (line.startsWith('scylla_transport_requests_shed{shard="0"}')) return bump(line, 40);
      // reactor busy 85/80/90/75 % (average 82.5 %)
      const util = /^scylla_reactor_utilization\{shard="(\d)"\}/.exec(line);
      if (util) return `${util[0]} ${['85.000000', '80.000000', '90.000000', '75.000000'][Number(util[1])]}`;
      if (line.startsWith('scylla_compaction_manager_normalized_backlog{shard="2"}')) return 'scylla_compaction_manager_normalized_backlog{shard="2"} 3.500000';
      if (line.startsWith('scylla_storage_proxy_coordinator_foreground_writes{scheduling_group_name="main",shard="1"}')) {
        return 'scylla_storage_proxy_coordinator_foreground_writes{scheduling_group_name="main",shard="1"} 250.000000';
      }
      // 900 row-cache hits and 100 misses on shard 0
      if (line.startsWith('scylla_cache_row_hits{shard="0"}')) return bump(line, 900);
      if (line.startsWith('scylla_cache_row_misses{shard="0"}')) return bump(line, 100);
      // 1,000 writes in the main group: 900 of at most 1,024 µs, 100 between 16,384 and 20,480 µs
      const w = /^scylla_storage_proxy_coordinator_write_latency_(bucket|count|sum)\{(?:le="([^"]+)",)?scheduling_group_name="main"\}/.exec(line);
      if (w) {
        if (w[1] === 'count') return bump(line, 1000);
        if (w[1] === 'sum') return bump(line, 900 * 800 + 100 * 18000);
        const le = w[2] === '+Inf' ? Infinity : Number(w[2]);
        return le >= 20480 ? bump(line, 1000) : le >= 1024 ? bump(line, 900) : line;
      }
      return line;
    })
    .join('\n');
}

const serve = (host: string, pages: (n: number) => string, extra?: (url: string, res: ServerResponse) => boolean) =>
  servePages(pages, { host, ...(extra ? { extra } : {}) });

let busy: PageNode;
let idle: PageNode;
let odd: PageNode;
const held: import('node:http').ServerResponse[] = [];

beforeAll(async () => {
  busy = await serve(
    '127.0.0.1',
    (n) => (n === 1 ? RECORDED : advance(RECORDED)),
    (url, res) => {
      if (url === '/big') return (res.writeHead(200).end('x'.repeat(200 * 1024)), true);
      if (url === '/slow') return (held.push(res), true);
      if (url === '/elsewhere')
        return (res.writeHead(302, { location: `http://127.0.0.2:${(idle.server.address() as AddressInfo).port}/metrics` }).end(), true);
      if (url === '/moved') return (res.writeHead(301, { location: '/metrics' }).end(), true);
      return false;
    },
  );
  idle = await serve('127.0.0.2', () => RECORDED);
  odd = await serve('127.0.0.3', () => '# TYPE go_goroutines gauge\ngo_goroutines 12\n');
});

afterAll(async () => {
  for (const r of held) r.destroy();
  for (const n of [busy, idle, odd]) await new Promise((r) => n?.server.close(r));
});

const signalOf = (r: MetricsReport, node: string, id: string) => r.nodes.find((n) => n.node === node)?.signals.find((s) => s.signal === id);

describe('direct scrape of recorded ScyllaDB pages', () => {
  it('turns two scrapes into the ScyllaDB signals, per node, with findings and what the page lacks', async () => {
    const r = await metricsWindow({ scrape: true, scrapeFor: '1s', raw: true }, { scrapeEndpoints: [busy.endpoint, idle.endpoint] });
    expect(r.exporters).toEqual(['scylla']);
    expect(r.nodes.map((n) => n.node)).toEqual(['127.0.0.1', '127.0.0.2']);
    // the interval actually measured, from a gauge's two points
    const cpuRaw = r.raw!.find((x) => x.signal === 'cpu' && x.node === busy.endpoint.instance)!.points;
    expect(cpuRaw).toHaveLength(2);
    const dt = cpuRaw[1]![0] - cpuRaw[0]![0];
    expect(dt).toBeGreaterThan(0.9);
    expect(dt).toBeLessThan(3);
    // reactor utilisation is a percentage on the page: 0.15–0.18 % idle, 82.5 % busy
    expect(signalOf(r, '127.0.0.1', 'cpu')!.summary.min).toBeCloseTo((0.182733 + 0.149806 + 0.172964 + 0.171145) / 4 / 100, 9);
    expect(signalOf(r, '127.0.0.1', 'cpu')!.summary.last).toBeCloseTo(0.825, 9);
    expect(signalOf(r, '127.0.0.1', 'cql_requests')!.summary.last * dt).toBeCloseTo(6000, 6);
    expect(signalOf(r, '127.0.0.1', 'writes')!.summary.last * dt).toBeCloseTo(1000, 6);
    // p99 of the 1,000 writes: 16,384 + 4,096 × 90/100 µs, shown in seconds
    expect(signalOf(r, '127.0.0.1', 'write_p99')!.summary.last).toBeCloseTo(0.0200704, 9);
    expect(signalOf(r, '127.0.0.1', 'pending_compactions')!.summary.last).toBe(3.5);
    expect(signalOf(r, '127.0.0.1', 'foreground_writes')!.summary.last).toBe(250);
    expect(signalOf(r, '127.0.0.1', 'cache_hit_ratio')!.summary.last).toBeCloseTo(0.9, 9);
    expect(signalOf(r, '127.0.0.1', 'dropped')!.summary.last * dt).toBeCloseTo(40, 6);
    // the idle node: no client request, nothing shed, no write to take a p99 of
    expect(signalOf(r, '127.0.0.2', 'cql_requests')!.summary.last).toBe(0);
    expect(signalOf(r, '127.0.0.2', 'dropped')!.summary.last).toBe(0);
    expect(signalOf(r, '127.0.0.2', 'write_p99')).toBeUndefined();
    expect(signalOf(r, '127.0.0.2', 'scrape_up')!.summary.min).toBe(1);
    // shed requests are a finding on the busy node only
    const shed = r.findings.filter((f) => f.id === 'metrics.level.dropped');
    expect(shed.map((f) => [f.node, f.severity])).toEqual([['127.0.0.1', 'critical']]);
    expect(shed[0]!.evidence.join('\n')).toContain('scrape: rate(scylla_transport_requests_shed)');
    expect(shed[0]!.sources).toEqual(['direct scrape (scylla exporter)']);
    // what the page does not have is said, with why
    const timeouts = r.missing.find((m) => m.signal === 'timeouts')!;
    expect(timeouts.reason).toMatch(/scylla_storage_proxy_coordinator_read_timeouts.*leaves out counters that are still zero/);
    expect(r.missing.find((m) => m.signal === 'read_p99')!.reason).toMatch(/no value/);
    expect(r.source).toBe('direct scrape of 2 endpoint(s) from the command line');
  });

  it('through MCP: endpoints come from CQL_TUNER_SCRAPE_URLS; the tool has no URL argument and refuses unconfigured names', async () => {
    const saved = process.env.CQL_TUNER_SCRAPE_URLS;
    process.env.CQL_TUNER_SCRAPE_URLS = `${idle.endpoint.url}`;
    const client = await connectInProcess('metrics-scrape');
    try {
      const before = idle.hits;
      const ok = await client.callTool({
        name: 'metrics_window',
        arguments: { scrape: true, scrapeFor: '1s', url: `http://${busy.endpoint.instance}/metrics` },
      });
      expect(ok.isError).toBeFalsy();
      expect(idle.hits - before).toBe(2);
      const text = JSON.stringify(ok.content);
      expect(text).toContain('127.0.0.2');
      expect(text).not.toContain('127.0.0.1');
      const refused = await client.callTool({ name: 'metrics_window', arguments: { scrape: true, scrapeFor: '1s', nodes: [busy.endpoint.instance] } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/UNKNOWN_SCRAPE_NODE[\s\S]*127\.0\.0\.2/);
      const mixed = await client.callTool({ name: 'metrics_window', arguments: { scrape: true, last: '5m' } });
      expect(JSON.stringify(mixed.content)).toMatch(/BAD_WINDOW/);
    } finally {
      await client.close();
      if (saved === undefined) delete process.env.CQL_TUNER_SCRAPE_URLS;
      else process.env.CQL_TUNER_SCRAPE_URLS = saved;
    }
  });

  it('says so when no endpoint answers, or when the pages are not a known exporter', async () => {
    const dead = parseScrapeEndpoint('127.0.0.1:1');
    await expect(metricsWindow({ scrape: true, scrapeFor: '1s' }, { scrapeEndpoints: [dead] })).rejects.toMatchObject({
      code: 'SCRAPE_FAILED',
      message: expect.stringMatching(/127\.0\.0\.1:1 \(unreachable/),
    });
    await expect(metricsWindow({ scrape: true, scrapeFor: '1s' }, { scrapeEndpoints: [odd.endpoint] })).rejects.toMatchObject({
      code: 'UNKNOWN_METRIC_NAMES',
      message: expect.stringContaining('prefixes: go'),
    });
    // one node down among others: reported, not fatal
    const r = await metricsWindow({ scrape: true, scrapeFor: '1s' }, { scrapeEndpoints: [idle.endpoint, dead] });
    expect(r.scrapeFailures).toEqual([{ instance: '127.0.0.1:1', failed: 2, of: 2, error: expect.stringMatching(/^unreachable/) }]);
    expect(r.findings.find((f) => f.id === 'metrics.level.scrape_up')).toMatchObject({ node: '127.0.0.1', severity: 'critical' });
  });
});

describe('scrape limits', () => {
  const at = (path: string) => ({ url: `http://${busy.endpoint.instance}${path}`, instance: busy.endpoint.instance });

  it('caps the size, times out, refuses a redirect to another host and follows one within the origin', async () => {
    expect(await scrapePage(at('/big'), { maxBytes: 64 * 1024 })).toEqual({ ok: false, error: 'the page exceeded 64 KiB' });
    expect(await scrapePage(at('/slow'), { timeoutMs: 300 })).toEqual({ ok: false, error: 'no answer within 0.3 s' });
    const away = await scrapePage(at('/elsewhere'));
    expect(away).toMatchObject({
      ok: false,
      error: expect.stringMatching(/redirected to http:\/\/127\.0\.0\.2:\d+; only redirects within http:\/\/127\.0\.0\.1:\d+/),
    });
    const moved = await scrapePage(at('/moved'));
    expect(moved.ok && moved.text.startsWith('# HELP scylla_cache_row_hits')).toBe(true);
    expect(await scrapePage(at('/nothing'))).toEqual({ ok: false, error: 'HTTP 404' });
  });

  it('takes endpoints as URLs or host:port, http(s) only, without credentials', () => {
    expect(parseScrapeEndpoint('10.0.0.3:9180')).toEqual({ url: 'http://10.0.0.3:9180/metrics', instance: '10.0.0.3:9180' });
    expect(parseScrapeEndpoint('https://node-1.example:8443/prom')).toEqual({ url: 'https://node-1.example:8443/prom', instance: 'node-1.example:8443' });
    expect(() => parseScrapeEndpoint('file:///etc/passwd')).toThrow(expect.objectContaining({ code: 'BAD_SCRAPE_ENDPOINT' }));
    expect(() => parseScrapeEndpoint('http://u:secret@10.0.0.3:9180')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('secret') }));
  });
});
