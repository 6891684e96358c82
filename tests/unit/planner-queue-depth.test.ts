import { describe, expect, it } from 'vitest';
import { parseBandwidth, parseBytes, planQueueDepth } from '../../mcp-server/src/core/planners/queue-depth.js';

describe("plan_queue_depth (Little's law)", () => {
  it('14.5 GB/s of 128 kB requests at 1 ms needs ≈ 113 in flight (SI units, as in the issue)', () => {
    const p = planQueueDepth({ bandwidth: '14.5 GB/s', requestSize: '128 kB', latencyMs: 1 });
    expect(p.outstanding).toBeCloseTo(113.28, 2);
    expect(p.inFlight).toBe(114);
    expect(p.formula).toMatch(/= 113\.3 outstanding/);
  });

  it('units are literal: 128 KiB gives ≈ 110.6, 14.5 GiB/s with 128 KiB ≈ 118.8', () => {
    expect(planQueueDepth({ bandwidth: '14.5 GB/s', requestSize: '128 KiB', latencyMs: 1 }).outstanding).toBeCloseTo(110.63, 2);
    expect(planQueueDepth({ bandwidth: '14.5 GiB/s', requestSize: '128 KiB', latencyMs: 1 }).outstanding).toBeCloseTo(118.78, 2);
    expect(parseBytes('4k')).toBe(4000);
    expect(parseBytes('4 KiB')).toBe(4096);
    expect(parseBandwidth('3200 MiB/s')).toBe(3200 * 1024 * 1024);
    expect(parseBytes('12 parsecs')).toBeNull();
  });

  it('from IOPS: 500k IOPS at 100 µs = 50 in flight', () => {
    expect(planQueueDepth({ iops: 500_000, latencyMs: 0.1 }).inFlight).toBe(50);
  });

  it('refuses incomplete or unreadable input with a fix', () => {
    expect(() => planQueueDepth({ bandwidth: '1 GB/s', latencyMs: 1 })).toThrow(/needs a request size/);
    expect(() => planQueueDepth({ latencyMs: 1 })).toThrow(/either bandwidth/);
    expect(() => planQueueDepth({ iops: 10, latencyMs: 0 })).toThrow(/positive/);
    expect(() => planQueueDepth({ bandwidth: 'fast', requestSize: '4k', latencyMs: 1 })).toThrow(/cannot read bandwidth/);
  });
});
