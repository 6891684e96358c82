/**
 * The share of time in GC pauses (nodetool gcstats: total GC elapsed over its interval) against G1's own throughput
 * goal (GCTimeRatio 12, ~7.7 %; kb jvm.gc.time-share). Real gcstats of the gc-pressure lab incident on Cassandra
 * 4.1.10: a 256M heap spends 40 % of the time in GC with no pause over 126 ms (no long-pause finding could show it);
 * a 512M heap under the same reads stays within the goal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const read = (f: string) => readFileSync(join(FIXTURES_DIR, 'lab-incident-outputs', f), 'utf8');
const gc = (intervalMs: number, totalPauseMs: number) =>
  runRules({
    origin: 't',
    nodes: [
      nodeEvidence('10.0.0.1', true, { facts: { gc: { intervalMs, totalPauseMs, maxPauseMs: 90, collections: 100, reclaimedBytes: null } }, nodetool: {} }),
    ],
  }).findings.filter((f) => f.id === 'jvm.gc.time-share');

describe('share of time in GC (jvm.gc.time-share)', () => {
  it('256M heap under the gc-pressure reads: 40.2 % of 49.5 s in GC is critical, although the longest pause is 126 ms', () => {
    const r = interpretText(read('gcstats-gc-pressure-heap256M-4.1.10.txt'));
    expect(r.kind).toBe('nodetool.gcstats');
    const f = r.findings.find((x) => x.id === 'jvm.gc.time-share')!;
    expect(f.severity).toBe('critical');
    expect(f.title).toBe('this node spent 40.2 % of the time in GC pauses (2213 collections, the longest 126 ms)');
    expect(f.evidence[0]).toMatch(/over 49\.5 s: 19928 ms in GC, 2213 collections, max 126 ms, 1\.11 GiB\/s reclaimed$/);
    expect(f.knowledgeIds).toEqual(['jvm.gc.time-share']);
    // no pause is long, so the pause finding stays silent: the share is the only way to see it
    expect(r.findings.find((x) => x.id === 'jvm.gc.pause')).toBeUndefined();
  });

  it("512M heap under the same reads: 5.6 % is within G1's goal, no finding", () => {
    const r = interpretText(read('gcstats-gc-pressure-heap512M-4.1.10.txt'));
    expect(r.findings.filter((x) => x.id.startsWith('jvm.gc'))).toEqual([]);
  });

  it('grades at the knowledge thresholds (7.7 % warning, 25 % critical) and ignores intervals under 5 s', () => {
    expect(gc(100_000, 7_000)).toEqual([]);
    expect(gc(100_000, 8_000).map((f) => f.severity)).toEqual(['warning']);
    expect(gc(100_000, 24_000).map((f) => f.severity)).toEqual(['warning']);
    expect(gc(100_000, 26_000).map((f) => f.severity)).toEqual(['critical']);
    // gcstats run twice in a row: 4 s of interval says nothing about a share
    expect(gc(4_000, 2_000)).toEqual([]);
  });

  it("does not read one long stop as a share: the lab's 707 ms metadata collection in a 7.05 s gcstats interval", () => {
    const one = (collections: number, totalPauseMs: number) =>
      runRules({
        origin: 't',
        nodes: [
          nodeEvidence('127.0.0.1', true, {
            facts: { gc: { intervalMs: 7050, totalPauseMs, maxPauseMs: 707, collections, reclaimedBytes: null } },
            nodetool: {},
          }),
        ],
      }).findings.map((f) => `${f.severity}:${f.id}`);
    expect(one(1, 707)).toEqual(['warning:jvm.gc.pause']);
    // the same stop among 20 more collections that take 600 ms (8.5 % of the interval): both findings
    expect(one(21, 1307)).toEqual(['warning:jvm.gc.pause', 'warning:jvm.gc.time-share']);
  });
});
