/**
 * `metrics --scrape` against a real prometheus-node-exporter on loopback (no Prometheus): the host signals come
 * from its own page, the same names the Prometheus path queries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScrapeEndpoint } from '../../mcp-server/src/collect/metrics/scrape.js';
import { metricsWindow } from '../../mcp-server/src/ops/metrics.js';
import { NODE_EXPORTER_BIN, PROMETHEUS_MISSING, startNodeExporter, type Running } from '../helpers/prometheus.js';

if (!NODE_EXPORTER_BIN) process.stderr.write(`note: ${PROMETHEUS_MISSING}\n`);

describe.skipIf(!NODE_EXPORTER_BIN)('direct scrape of a real node exporter', () => {
  let exporter: Running;
  beforeAll(async () => {
    exporter = await startNodeExporter();
  }, 60_000);
  afterAll(async () => {
    await exporter?.stop();
  });

  it('host CPU busy, iowait and disk utilisation from three scrapes, as fractions', async () => {
    const r = await metricsWindow(
      { scrape: true, scrapeFor: '2s', scrapeEvery: '1s' },
      { scrapeEndpoints: [parseScrapeEndpoint(`127.0.0.1:${exporter.port}`)] },
    );
    expect(r.exporters).toEqual(['node']);
    const sig = (id: string) => r.nodes[0]!.signals.find((s) => s.signal === id && s.exporter === 'node');
    for (const id of ['cpu', 'iowait']) {
      const s = sig(id)!;
      expect(s.summary.points, id).toBe(2);
      expect(s.summary.min, id).toBeGreaterThanOrEqual(0);
      expect(s.summary.max, id).toBeLessThanOrEqual(1.0001);
    }
    // the test process itself keeps a core partly busy: host CPU is above zero
    expect(sig('cpu')!.summary.max).toBeGreaterThan(0);
    const util = sig('disk_util');
    if (util) expect(util.summary.max).toBeLessThanOrEqual(1.05);
    expect(r.scrapeFailures).toBeUndefined();
  }, 30_000);
});
