/**
 * system.log and debug.log of the same node read together (real DSE 6.7.7 diag tarball from datastax-labs/sperf,
 * see tests/fixtures/sperf/SOURCES.tsv). debug.log repeats every INFO+ line of system.log, so counting both
 * doubled every event (2192 dropped and 24 GC pauses on 10.101.35.102 where the truth is 1096 and 12).
 * sperf's own tests, which read both files of the three nodes:
 * - tests/test_sperf_default.py:62 "MUTATION for a total of 1096 drops"
 * - tests/test_sperf_default.py:45 "worst gc pause (system logs) 800.00 ms (10.101.35.71)"
 * - tests/test_statuslogger.py:63-64 GC pauses max 800 ms, "total GC events: 236"
 * - tests/test_sperf_default.py:64 "there were 1951 total tombstones scanned"
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readNodeLogs } from '../../mcp-server/src/ops/node-logs.js';
import type { LogFacts } from '../../mcp-server/src/core/parse/logs/index.js';

const SPERF = join(import.meta.dirname, '..', 'fixtures', 'sperf');
const NODES = ['10.101.33.205', '10.101.35.102', '10.101.35.71'];

async function node(n: string, files: string[] = ['system.log', 'debug.log']): Promise<LogFacts> {
  const r = await readNodeLogs(
    n,
    files.map((f) => join(SPERF, `dse677-${n}-${f}.gz`)),
  );
  if (!r.logs) throw new Error(r.error);
  return r.logs;
}

describe('system.log + debug.log of one node count each event once (sperf DSE_CLUSTER)', () => {
  it('10.101.35.102: 1096 dropped mutations and 12 GC pauses, not 2192 and 24', async () => {
    const l = await node('10.101.35.102');
    expect(l.dropped.total).toBe(1096);
    expect(l.dropped.byType).toEqual([expect.objectContaining({ type: 'MUTATION', internal: 349, crossNode: 747, lines: 1 })]);
    expect(l.gc.pauses).toBe(12);
    expect(l.lines.duplicates).toBeGreaterThan(0);
    // the file order does not matter
    const reversed = await node('10.101.35.102', ['debug.log', 'system.log']);
    expect(reversed.dropped.total).toBe(1096);
    expect(reversed.gc.pauses).toBe(12);
  });

  it('each file alone gives the same figures as both together', async () => {
    for (const f of ['system.log', 'debug.log']) {
      const l = await node('10.101.35.102', [f]);
      expect([f, l.dropped.total, l.gc.pauses]).toEqual([f, 1096, 12]);
    }
  });

  it('three nodes: 236 GC events, worst 800 ms on 10.101.35.71, 1951 tombstones (as sperf reports)', async () => {
    const facts = await Promise.all(NODES.map((n) => node(n)));
    expect(facts.map((l) => l.gc.pauses)).toEqual([117, 12, 107]);
    expect(facts.reduce((a, l) => a + l.gc.pauses, 0)).toBe(236);
    const worst = Math.max(...facts.map((l) => l.gc.maxPauseMs));
    expect(worst).toBe(800);
    expect(facts[2]!.gc.maxPauseMs).toBe(800);
    // tests/test_sperf_default.py:64 "there were 1951 total tombstones scanned" (one warning, on 10.101.33.205)
    expect(facts.map((l) => l.tombstones.byTable.reduce((a, t) => a + t.totalTombstones, 0))).toEqual([1951, 0, 0]);
  });
});
