/**
 * Requests at CONSISTENCY ALL, from the per-consistency-level ClientRequest scopes ("Read-ALL", "Write-ALL") that
 * Cassandra 4.0+ registers beside "Read"/"Write": two real scrapes of a Cassandra 5.0 node with the JMX exporter's
 * example rules (tests/fixtures/metrics), as recorded (no ALL traffic) and with 600 of the reads between the scrapes
 * moved to ALL by this test (the only change).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { servePages, type PageNode } from '../helpers/metrics-page-server.js';
import { metricsWindow } from '../../mcp-server/src/ops/metrics.js';

const fixture = (f: string) => readFileSync(new URL(`../fixtures/metrics/${f}`, import.meta.url), 'utf8');
const PAGE1 = fixture('cassandra50-jmx-example-rules-page1.txt');
const PAGE2 = fixture('cassandra50-jmx-example-rules-page2.txt');

const count = (page: string, scope: string) =>
  Number(new RegExp(`^cassandra_clientrequest_latency_seconds_count\\{clientrequest="${scope}"\\} (\\S+)$`, 'm').exec(page)![1]);

const nodes: PageNode[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.close();
});

async function serve(pages: [string, string]) {
  const n = await servePages((hit) => pages[hit === 1 ? 0 : 1]);
  nodes.push(n);
  return n.endpoint;
}

describe('share of requests at CONSISTENCY ALL (ClientRequest Read-ALL / Write-ALL)', () => {
  const reads = count(PAGE2, 'Read') - count(PAGE1, 'Read');
  const writes = count(PAGE2, 'Write') - count(PAGE1, 'Write');

  it('the recorded pages: every CL scope present, no ALL traffic, no finding', async () => {
    expect(reads).toBeGreaterThan(600);
    const r = await metricsWindow({ scrape: true, scrapeFor: '1s' }, { scrapeEndpoints: [await serve([PAGE1, PAGE2])] });
    const share = r.nodes[0]!.signals.find((s) => s.signal === 'cl_all_share');
    expect(share?.summary.max).toBe(0);
    expect(r.findings.map((f) => f.id)).not.toContain('metrics.level.cl_all_share');
  });

  it('600 of the reads at ALL: the share and a warning naming the node, the knowledge entry and the fix', async () => {
    const all2 = PAGE2.replace(/^(cassandra_clientrequest_latency_seconds_count\{clientrequest="Read-ALL"\}) \S+$/m, `$1 ${count(PAGE1, 'Read-ALL') + 600}`);
    const r = await metricsWindow({ scrape: true, scrapeFor: '1s' }, { scrapeEndpoints: [await serve([PAGE1, all2])] });
    const share = r.nodes[0]!.signals.find((s) => s.signal === 'cl_all_share')!;
    expect(share.summary.max).toBeCloseTo(600 / (reads + writes), 9);
    const f = r.findings.find((x) => x.id === 'metrics.level.cl_all_share');
    expect(f).toMatchObject({ severity: 'warning', node: '127.0.0.1', knowledgeIds: ['client.consistency-all'] });
    expect(f!.title).toMatch(/CONSISTENCY ALL on 127\.0\.0\.1: \d+(\.\d+)? % \(median\)/);
    expect(f!.recommendation).toMatch(/LOCAL_QUORUM/);
  });
});
