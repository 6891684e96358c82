import { describe, expect, it } from 'vitest';
import { mapBounded, withTimeout } from '../../mcp-server/src/collect/bounded.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mapBounded (the sweep’s fan-out)', () => {
  it('never has more than the limit in flight, uses the whole limit, and keeps input order', async () => {
    for (const limit of [1, 3, 8]) {
      let inFlight = 0;
      let peak = 0;
      const items = Array.from({ length: 20 }, (_, i) => i);
      const out = await mapBounded(items, limit, async (x) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await sleep(5 + ((x * 7) % 11)); // uneven durations: finish order differs from input order
        inFlight--;
        return x * 10;
      });
      expect(peak).toBe(limit);
      expect(out.map((r) => (r.status === 'fulfilled' ? r.value : null))).toEqual(items.map((x) => x * 10));
    }
  });

  it('keeps a failure as that item’s result and goes on with the others', async () => {
    const out = await mapBounded(['a', 'b', 'c'], 2, async (x) => {
      if (x === 'b') throw new Error('node b unreachable');
      return x.toUpperCase();
    });
    expect(out[0]).toEqual({ status: 'fulfilled', value: 'A' });
    expect(out[1]!.status).toBe('rejected');
    expect(((out[1] as PromiseRejectedResult).reason as Error).message).toBe('node b unreachable');
    expect(out[2]).toEqual({ status: 'fulfilled', value: 'C' });
  });

  it('handles no items and a limit above the item count', async () => {
    expect(await mapBounded([], 8, async () => 1)).toEqual([]);
    expect(await mapBounded([1], 64, async (x) => x)).toEqual([{ status: 'fulfilled', value: 1 }]);
  });
});

describe('withTimeout', () => {
  it('rejects with code TIMEOUT naming what did not finish, and passes results through', async () => {
    await expect(withTimeout(sleep(200), 20, 'node 10.0.0.3')).rejects.toMatchObject({ code: 'TIMEOUT', message: 'node 10.0.0.3 did not finish within 20 ms' });
    await expect(withTimeout(Promise.resolve(42), 1000, 'x')).resolves.toBe(42);
    await expect(withTimeout(Promise.reject(new Error('boom')), 1000, 'x')).rejects.toThrow('boom');
  });
});
