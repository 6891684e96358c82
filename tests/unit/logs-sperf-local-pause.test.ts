/**
 * A 50.8-minute "local pause" in a real DSE 6.7.7 system.log (datastax-labs/sperf DSE_CLUSTER node 10.101.33.205,
 * line 421: "Not marking nodes down due to local pause of 3050601573565 > 5000000000"). The node had logged nothing
 * since 15:29:43 ("DSE startup complete", alone in the cluster) and its GCInspector pauses never exceed 729 ms:
 * the failure detector's first check since start, never a 50-minute GC pause.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeLogFiles } from '../../mcp-server/src/ops/analyze-logs.js';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';

const SPERF = join(import.meta.dirname, '..', 'fixtures', 'sperf');
const files = (node: string) => ['system.log', 'debug.log'].map((f) => join(SPERF, `dse677-${node}-${f}.gz`));

describe('long local pauses are not reported as GC (real sperf logs)', () => {
  // Both nodes' reports are the failure detector's first check since start: it measures only between checks of a
  // peer it has heard from, so its first report is the time the node was alone since it started, not a pause
  // (accumulator.ts). Each is the node's first report after its "JVM Arguments" line and as long as the time since.
  it('10.101.33.205: the 50.8-minute "local pause" is the time the node was alone after start, set aside, never GC', async () => {
    const r = await analyzeLogFiles(files('10.101.33.205'), { node: '10.101.33.205' });
    // JVM Arguments at 15:28:04,586; the report at 16:18:51,390 (50.8 min later) says 3050.6 s
    expect(r.facts.localPauses).toMatchObject({ count: 0, startupSetAside: 1 });
    expect(r.facts.localPauses.startupMaxMs).toBeCloseTo(3050601.574, 2);
    expect(r.findings.find((f) => f.id === 'log.local-pause')).toBeUndefined();
    const gc = r.findings.find((f) => f.id === 'log.gc-pause')!;
    expect(gc.title).toBe('117 GC pauses in the log of 10.101.33.205, the longest 729 ms');
    for (const f of r.findings) expect(`${f.title} ${f.evidence.join(' ')}`).not.toMatch(/3050|50\.8 min/);
  });

  it('10.101.35.102: the 10.7 s report 6.6 s after its JVM Arguments line is the same start-up artefact', async () => {
    const r = await analyzeLogFiles(files('10.101.35.102'), { node: '10.101.35.102' });
    expect(r.facts.localPauses).toMatchObject({ count: 0, startupSetAside: 1 });
    expect(r.facts.localPauses.startupMaxMs).toBeCloseTo(10664.119, 2);
    expect(r.findings.find((f) => f.id === 'log.local-pause')).toBeUndefined();
  });

  it('a 50-minute GCInspector "pause" is reported as a suspension, not as GC', () => {
    const line = (t: string, ms: number) =>
      `INFO  [Service Thread] 2024-05-01 ${t},000 GCInspector.java:284 - G1 Young Generation GC in ${ms}ms.  G1 Eden Space: 1 -> 0`;
    const p = parseLogs([line('10:00:00', 250), line('10:00:10', 3_000_000), line('10:51:00', 300)].join('\n'));
    if (!p.ok) throw new Error(p.reason);
    const res = runRules({ origin: 't', nodes: [{ ...nodeEvidence('n1', true, { facts: {}, nodetool: {} }), logs: p.value }] });
    const gc = res.findings.find((f) => f.id === 'log.gc-pause')!;
    expect(gc.title).toBe('2 GC pauses in the log of n1, the longest 300 ms');
    const s = res.findings.find((f) => f.id === 'log.suspended-not-gc')!;
    expect(s.title).toContain('up to 50.0 min: too long for GC');
  });
});
