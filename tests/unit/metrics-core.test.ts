import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findChange, findOutage } from '../../mcp-server/src/core/metrics/change-point.js';
import { summarise } from '../../mcp-server/src/core/metrics/series.js';
import { exportersPresent, nodeOfInstance, queryFor, SIGNALS } from '../../mcp-server/src/core/metrics/signals.js';
import { MAX_POINTS, parseDuration, parseInstant, resolveWindow } from '../../mcp-server/src/core/metrics/window.js';

const NOW = Date.UTC(2026, 10, 24, 16, 0, 0) / 1000; // 2026-11-24T16:00:00Z

/** A series of n points every `step` s with a level per point, plus deterministic noise of ±noise. */
function series(levels: number[], step = 15, noise = 0): [number, number][] {
  return levels.map((v, i) => [NOW - (levels.length - i) * step, v + noise * Math.sin(i * 12.9898)]);
}

describe('metrics window', () => {
  it('reads durations and rejects what is not one', () => {
    expect(parseDuration('2h')).toBe(7200);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration('90s')).toBe(90);
    for (const bad of ['', '2', 'h', '2 hours', '-5m', '0s']) expect(parseDuration(bad)).toBeNull();
  });

  it("a clock time is its latest occurrence at or before now, in the user's local time", () => {
    expect(parseInstant('02:13', NOW, 0)).toBe(Date.UTC(2026, 10, 24, 2, 13) / 1000);
    // 17:00 UTC is in the future at 16:00Z: yesterday's
    expect(parseInstant('17:00', NOW, 0)).toBe(Date.UTC(2026, 10, 23, 17, 0) / 1000);
    // UTC+1: local 02:13 is 01:13Z
    expect(parseInstant('02:13', NOW, 60)).toBe(Date.UTC(2026, 10, 24, 1, 13) / 1000);
    expect(parseInstant('2026-11-24T02:13:00Z', NOW, 60)).toBe(Date.UTC(2026, 10, 24, 2, 13) / 1000);
    expect(parseInstant('2026-11-24T02:13:00+02:00', NOW, 0)).toBe(Date.UTC(2026, 10, 24, 0, 13) / 1000);
    expect(parseInstant('25:00', NOW, 0)).toBeNull();
    expect(parseInstant('2026-13-01', NOW, 0)).toBeNull();
  });

  it('resolves last / around / from-to, caps the points and refuses empty or ambiguous windows', () => {
    const last = resolveWindow({ last: '2h' }, NOW, 0, 15);
    expect(last).toMatchObject({ start: NOW - 7200, end: NOW, step: 15, label: 'last 2h' });
    const day = resolveWindow({ last: '1d' }, NOW, 0, 15);
    expect((day.end - day.start) / day.step).toBeLessThanOrEqual(MAX_POINTS);
    const around = resolveWindow({ around: '02:13' }, NOW, 0);
    expect(around.end - around.start).toBe(1800);
    expect(() => resolveWindow({}, NOW)).toThrow(/No time window/);
    expect(() => resolveWindow({ last: '1h', around: '02:13' }, NOW)).toThrow(/only one way/);
    expect(() => resolveWindow({ from: '2026-11-24T10:00:00Z', to: '2026-11-24T09:00:00Z' }, NOW)).toThrow(/empty/);
    expect(() => resolveWindow({ last: '60d' }, NOW)).toThrow(/31 days/);
    expect(() => resolveWindow({ last: 'yesterday' }, NOW)).toThrow(expect.objectContaining({ code: 'BAD_WINDOW', fix: expect.stringMatching(/--last 2h/) }));
  });
});

describe('change points', () => {
  it('finds a step that started and ended inside the window, with the right times and levels', () => {
    const levels = [...Array(40).fill(5), ...Array(20).fill(180), ...Array(30).fill(5)];
    const pts = series(levels, 15, 0.5);
    const c = findChange(pts, { minAbsolute: 1 })!;
    expect(c.direction).toBe('up');
    expect(c.start).toBe(pts[40]![0]);
    expect(c.end).toBe(pts[60]![0]);
    expect(c.during).toBeCloseTo(180, 0);
    expect(c.baseline).toBeCloseTo(5, 0);
  });

  it('a change that lasts to the end has no end; one that was there from the start is read as its end', () => {
    const stays = findChange(series([...Array(30).fill(100), ...Array(10).fill(10)], 15, 1))!;
    expect(stays).toMatchObject({ direction: 'down', end: null });
    expect(stays.during).toBeCloseTo(10, 0);
    const fromStart = findChange(series([...Array(10).fill(50), ...Array(30).fill(2)], 15, 0.2))!;
    expect(fromStart.direction).toBe('down');
    expect(fromStart.end).toBeNull();
    expect(fromStart.during).toBeCloseTo(2, 0);
  });

  it('noise, tiny shifts and short series are not changes', () => {
    expect(findChange(series(Array(100).fill(50), 15, 3))).toBeNull();
    expect(findChange(series([...Array(30).fill(50), ...Array(30).fill(52)], 15, 0.1), { minAbsolute: 5 })).toBeNull();
    expect(findChange(series([1, 1, 100, 1]))).toBeNull();
  });

  it('property: a clean step of at least 5 points anywhere is found at its first point', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 60 }),
        fc.integer({ min: 5, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.double({ min: 2, max: 1000, noNaN: true }),
        (before, len, after, factor) => {
          const levels = [...Array(before).fill(10), ...Array(len).fill(10 * factor), ...Array(after).fill(10)];
          const pts = series(levels);
          const c = findChange(pts);
          if (before + after < 3) return;
          expect(c).not.toBeNull();
          expect(c!.start).toBe(pts[before]![0]);
          expect(c!.end).toBe(after > 0 ? pts[before + len]![0] : null);
        },
      ),
      { numRuns: 200 },
    );
  });

  // CI on cdbd684: the paused node's 20 s outage was not reported at all. A 0/1 series with an early dip and the pause
  // a while later: the one segment CUSUM picks spans both and the healthy stretch between them (median "answering").
  it('answering scrapes: the longest outage is found even with an earlier dip, where one mean shift finds nothing', () => {
    const up = [1, 1, ...Array(7).fill(0), ...Array(20).fill(1), ...Array(11).fill(0), 1, 0, ...Array(33).fill(1)];
    const pts = series(up, 2);
    expect(findChange(pts, { minAbsolute: 0.5 })).toBeNull(); // what the pause test hit
    const c = findOutage(pts)!;
    expect(c).toMatchObject({ direction: 'down', during: 0, baseline: 1 });
    expect(c.start).toBe(pts[29]![0]);
    expect(c.end).toBe(pts[42]![0]); // the one answered scrape at 40 is bridged: the JVM was catching up
    // a shorter earlier dip beside a longer later one: CUSUM spans both from the first; the outage is the later one
    const early = series([1, 1, 0, 0, ...Array(5).fill(1), ...Array(11).fill(0), 1, 0, ...Array(53).fill(1)], 2);
    expect(findChange(early, { minAbsolute: 0.5 })!.start).toBe(early[2]![0]);
    expect(findOutage(early)!.start).toBe(early[9]![0]);
  });

  it('answering scrapes: one missed scrape and a node never answering are not outages; one down from the start came back', () => {
    expect(findOutage(series([...Array(20).fill(1), 0, ...Array(20).fill(1)], 2))).toBeNull();
    expect(findOutage(series(Array(20).fill(0), 2))).toBeNull();
    expect(findOutage(series([...Array(5).fill(0), ...Array(20).fill(1)], 2))).toMatchObject({ direction: 'up', end: null });
    expect(findOutage(series([...Array(30).fill(1), 0, 0, 0], 2))).toMatchObject({ direction: 'down', end: null });
  });

  it('summaries count gaps and never carry the points', () => {
    const pts: [number, number][] = [
      [0, 1],
      [15, 2],
      [60, 3],
      [75, 10],
    ];
    expect(summarise(pts, 15)).toEqual({ min: 1, median: 2.5, p99: expect.closeTo(9.79, 1), max: 10, last: 10, points: 4, gaps: 2 });
    expect(summarise([], 15)).toBeNull();
  });
});

describe('exporter naming', () => {
  it('an exporter counts only by a name that only it has (process_* and jvm_* prove nothing)', () => {
    expect(exportersPresent(new Set(['process_cpu_seconds_total', 'jvm_gc_collection_seconds_sum', 'node_cpu_seconds_total']))).toEqual(['node']);
    expect(exportersPresent(new Set(['cassandra_clientrequest_latency_seconds_count']))).toEqual(['jmx']);
    expect(exportersPresent(new Set(['scylla_storage_proxy_coordinator_read_latency_count', 'node_cpu_seconds_total']))).toEqual(['scylla', 'node']);
  });

  it('instances map to node hosts; rate windows cover at least 4 scrapes', () => {
    expect(nodeOfInstance('10.0.0.3:7070')).toBe('10.0.0.3');
    expect(nodeOfInstance('[fe80::1]:9180')).toBe('fe80::1');
    expect(nodeOfInstance('fe80::1')).toBe('fe80::1');
    expect(nodeOfInstance('node-a.example')).toBe('node-a.example');
    const reads = SIGNALS.find((s) => s.id === 'reads' && s.exporter === 'jmx')!;
    expect(queryFor(reads, 15, 15)).toContain('[60s]');
    expect(queryFor(reads, 120, 15)).toContain('[240s]');
    expect(queryFor(reads, 15, 15)).not.toContain('$W');
  });
});
