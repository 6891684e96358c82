/**
 * A 50.8-minute "local pause" in a real DSE 6.7.7 system.log (datastax-labs/sperf DSE_CLUSTER node 10.101.33.205,
 * line 421: "Not marking nodes down due to local pause of 3050601573565 > 5000000000"). The node had logged nothing
 * since 15:29:43 ("DSE startup complete", alone in the cluster) and its GCInspector pauses never exceed 729 ms:
 * this is an idle failure detector, a suspended VM or a clock jump, never a 50-minute GC pause.
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
  it('10.101.33.205: the 50.8-minute local pause is called what it is', async () => {
    const r = await analyzeLogFiles(files('10.101.33.205'), { node: '10.101.33.205' });
    expect(r.facts.localPauses.maxMs).toBeCloseTo(3050601.574, 2);
    // nothing was logged from "DSE startup complete" (15:29:43,559) to the first gossip line (16:18:50,501)
    const silence = Date.parse('2020-01-10T16:18:50.501Z') - Date.parse('2020-01-10T15:29:43.559Z');
    expect(r.facts.events.localPause.worst[0]?.detail?.['longestSilenceMs']).toBe(silence);
    const lp = r.findings.find((f) => f.id === 'log.local-pause')!;
    expect(lp.title).toMatch(/50\.8 min that GC does not explain: a suspended VM, a clock jump or an idle detector, not a GC pause/);
    expect(lp.recommendation).toMatch(/^Not GC: the longest GC or safepoint stop in the log is 729 ms; the node logged nothing for about as long/);
    expect(lp.evidence).toContain('10.101.33.205: the node logged nothing for 49.1 min in the time the pause covers');
    expect(lp.severity).toBe('info');
    // no finding presents 50 minutes as a GC pause
    const gc = r.findings.find((f) => f.id === 'log.gc-pause')!;
    expect(gc.title).toBe('117 GC pauses in the log of 10.101.33.205, the longest 729 ms');
    for (const f of r.findings.filter((x) => x.id !== 'log.local-pause')) expect(`${f.title} ${f.evidence.join(' ')}`).not.toMatch(/3050|50\.8 min/);
  });

  it('10.101.35.102: a 10.7 s local pause during startup is not explained by its GC pauses (258 ms at most)', async () => {
    const r = await analyzeLogFiles(files('10.101.35.102'), { node: '10.101.35.102' });
    const lp = r.findings.find((f) => f.id === 'log.local-pause')!;
    expect(lp.title).toBe('10.101.35.102 reported a local pause of 10.7 s that GC does not explain');
    expect(lp.evidence[0]).toContain('longest GC/safepoint stop in the same log 258 ms');
    // the node was logging during those 10.7 s: not idle, so a warning
    expect(lp.severity).toBe('warning');
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
