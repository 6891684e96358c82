/**
 * A Prometheus that has the exporter's metric names in the window but not one sample the signals' queries return
 * (a retention gap, a window between two scrapes of a very slow job): EMPTY_WINDOW, naming the window in UTC and
 * what to check — never an empty report that reads as "nothing changed". The server is a PrometheusClient that
 * answers exactly that (a real Prometheus gives a range query a point whenever the names exist, so it cannot be made
 * to answer this on purpose).
 */
import { describe, expect, it } from 'vitest';
import type { PrometheusClient } from '../../mcp-server/src/collect/metrics/prometheus.js';
import { metricsWindow } from '../../mcp-server/src/ops/metrics.js';

function namesButNoSamples(): PrometheusClient & { queries: string[] } {
  const queries: string[] = [];
  return {
    origin: 'http://prometheus.example:9090',
    queries,
    async presentNames(names) {
      return new Set(names.filter((n) => n.startsWith('cassandra_') || n === 'up'));
    },
    async scrapeInterval() {
      return 15;
    },
    async queryRange(query) {
      queries.push(query);
      return [{ labels: { instance: '10.0.0.1:7070' }, points: [] }];
    },
  };
}

describe('an empty window', () => {
  it('is EMPTY_WINDOW with the window in UTC and the fix, after every signal was asked', async () => {
    const client = namesButNoSamples();
    const nowS = Date.UTC(2026, 10, 29, 3, 0, 0) / 1000;
    const err = await metricsWindow({ last: '1h' }, { client, nowS }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; fix: string },
    );
    expect(err).toMatchObject({ code: 'EMPTY_WINDOW', fix: expect.stringMatching(/UTC.*retention/) });
    expect(err!.message).toContain('http://prometheus.example:9090 has jmx metrics, but no sample in');
    expect(err!.message).toContain('2026-11-29T02:00:00.000Z to 2026-11-29T03:00:00.000Z');
    expect(client.queries.length).toBeGreaterThan(5);
  });
});
