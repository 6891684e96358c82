/**
 * `metrics --scrape` on the real lab, without a Prometheus: a 1-node lab started with --metrics (the JMX exporter
 * agent), CQL writes from this test while the node's page is scraped three times 5 s apart. The endpoints come
 * from the lab's state, as the MCP tool finds them; the rates, p99 and JVM signals are read from the real page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cassandra from 'cassandra-driver';
import type { LabState } from '../../mcp-server/src/lab/index.js';
import { metricsWindow } from '../../mcp-server/src/ops/metrics.js';
import { tempLabHome } from '../helpers/lab-home.js';

const lab = tempLabHome('cql-tuner-metrics-scrape-');
const skip = process.env.CQL_TUNER_SKIP_LAB === '1';
let state: LabState;

beforeAll(async () => {
  if (skip) return;
  state = await lab.start({ nodes: 1, version: '5.0', metrics: true });
}, 600_000);

afterAll(async () => {
  if (skip) return;
  await lab.stop();
}, 180_000);

describe.skipIf(skip)('direct scrape of the lab', () => {
  it('reads write rate, p99, GC and CPU from two intervals of the JMX exporter page', async () => {
    const host = state.nodes[0]!.host;
    const session = new cassandra.Client({ contactPoints: [host], localDataCenter: state.nodes[0]!.datacenter });
    await session.connect();
    let writing = true;
    let written = 0;
    try {
      await session.execute("CREATE KEYSPACE IF NOT EXISTS scrape_lab WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      await session.execute('CREATE TABLE IF NOT EXISTS scrape_lab.t (k int PRIMARY KEY, v text)');
      const insert = 'INSERT INTO scrape_lab.t (k, v) VALUES (?, ?)';
      const writer = (async () => {
        while (writing) {
          await Promise.all(Array.from({ length: 8 }, () => session.execute(insert, [written++ % 10_000, 'x'.repeat(100)], { prepare: true })));
        }
      })();
      const r = await metricsWindow({ scrape: true, scrapeFor: '10s', scrapeEvery: '5s' }, {});
      writing = false;
      await writer;
      expect(r.source).toBe('direct scrape of 1 endpoint(s) from the lab');
      expect(r.exporters).toEqual(['jmx']);
      expect(r.scrapeFailures).toBeUndefined();
      const sig = (id: string) => r.nodes[0]!.signals.find((s) => s.signal === id);
      expect(r.nodes.map((n) => n.node)).toEqual([host]);
      expect(sig('scrape_up')!.summary).toMatchObject({ min: 1, points: 3 });
      // two intervals of writes at several hundred per second; the coordinator counts every one
      expect(sig('writes')!.summary.points).toBe(2);
      expect(sig('writes')!.summary.min).toBeGreaterThan(20);
      expect(sig('write_p99')!.summary.max).toBeGreaterThan(0);
      expect(sig('cpu')!.summary.max).toBeGreaterThan(0);
      expect(sig('gc_time')).toBeDefined();
      expect(written).toBeGreaterThan(200);
    } finally {
      writing = false;
      await session.shutdown();
    }
  }, 120_000);
});
