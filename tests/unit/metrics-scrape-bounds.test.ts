/**
 * CI on 014d44d: a real node exporter scraped three times gave "host CPU busy" −0.1 %: the idle counters advanced by a
 * little more than the interval between the scrapes' own times. A share of time is clamped to [0, 1].
 */
import { describe, expect, it } from 'vitest';
import { RATIO_BOUNDS, scrapeSeries, type Scrape } from '../../mcp-server/src/core/metrics/scrape-eval.js';
import { SIGNALS } from '../../mcp-server/src/core/metrics/signals.js';

const cpu = SIGNALS.find((s) => s.id === 'cpu' && s.exporter === 'node')!;
const page = (at: number, idle: number[]): Scrape => ({
  at,
  samples: idle.map((v, i) => ({ name: 'node_cpu_seconds_total', labels: { cpu: String(i), mode: 'idle' }, value: v })),
});

describe('direct scrape: shares of time stay in [0, 1]', () => {
  const scrapes = [page(100, [50, 50]), page(102, [52.002, 52.002]), page(104, [53, 53])];
  it('idle advancing past the interval is 0 % busy, not negative; other points are left as they are', () => {
    expect(scrapeSeries(cpu.scrape!, scrapes)[0]![1]).toBeLessThan(0); // what the raw arithmetic gives
    const pts = scrapeSeries(cpu.scrape!, scrapes, RATIO_BOUNDS);
    expect(pts).toEqual([
      [102, 0],
      [104, expect.closeTo(0.501, 3)],
    ]);
  });
});
