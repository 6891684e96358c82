import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { parseCassandraStress } from '../../mcp-server/src/core/parse/stress/index.js';
import { runStressRules } from '../../mcp-server/src/core/rules/stress.js';
import { stressFacts } from '../../mcp-server/src/core/stress/facts.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

// One test per stress sample, asserting what SOURCES.tsv says an expert concludes.
const byId = (r: ReturnType<typeof interpretText>, id: string) => r.findings.filter((f) => f.id === id);
const text = (f: { title: string; evidence: string[]; recommendation: string }) => [f.title, ...f.evidence, f.recommendation].join('\n');

describe.skipIf(!HAVE_CORPUS)('stress rules on the labelled corpus', () => {
  it('auto-rate sweep: saturation plateau ~28-29k op/s while p99 climbs 0.8 → 319 ms; GC not the cause', () => {
    const r = interpretText(corpus('stress/cassandra_stress_read_autorate_saturation_dse.txt'));
    expect(r.kind).toBe('stress.cassandra-stress');
    const s = byId(r, 'stress.saturation');
    expect(s).toHaveLength(1);
    expect(s[0]!.severity).toBe('warning');
    expect(s[0]!.title).toMatch(/plateaus at ~29,260 op\/s from 121 threads/);
    const t = text(s[0]!);
    expect(t).toMatch(/0\.8 ms \(4 thr\)/);
    expect(t).toMatch(/319 ms \(609 thr\)/);
    expect(t).toMatch(/useful capacity ≈ 25,455 op\/s at p99 53\.8 ms \(81 threads/);
    expect(t).toMatch(/avg 8\.4 ms\), so the limit is CPU/);
    // An auto-rate sweep is closed-loop by construction.
    expect(byId(r, 'stress.closed-loop')).toHaveLength(1);
    expect(byId(r, 'stress.gc-max-latency')).toEqual([]);
  });

  it('4-thread insert: max 286.8 ms is the single 285 ms GC pause', () => {
    const r = interpretText(corpus('stress/cassandra_stress_write_gc_pause_equals_max_latency_dse.txt'));
    const g = byId(r, 'stress.gc-max-latency');
    expect(g).toHaveLength(1);
    expect(g[0]!.severity).toBe('warning'); // ≥ 200 ms: the server's own gc_log_threshold
    expect(g[0]!.title).toBe('Max latency 286.8 ms matches a 285 ms server GC pause');
    expect(g[0]!.evidence.join('\n')).toMatch(/interval at 8 s: gc # 1, max 285 ms/);
    // The run is 10 s long and ramps from 1,957 op/s: both methodology findings.
    expect(byId(r, 'stress.too-short')[0]?.severity).toBe('warning');
    expect(byId(r, 'stress.warm-up-in-window')[0]?.title).toMatch(/1,957 op\/s/);
    // p99 0.8 ms vs p95 0.6 ms is one population.
    expect(byId(r, 'stress.bimodal-tail')).toEqual([]);
  });

  it('WCA docstring: bimodal tail, p99 74 ms vs p95 0.4 ms, no client-seen GC', () => {
    const r = interpretText(corpus('stress/cassandra_stress_write_bimodal_p99_wca_docstring.txt'));
    const b = byId(r, 'stress.bimodal-tail');
    expect(b).toHaveLength(1);
    expect(b[0]!.severity).toBe('warning');
    expect(b[0]!.title).toBe('Bimodal latency: p99 74 ms is 185× p95 0.4 ms');
    expect(text(b[0]!)).toMatch(/no server GC was recorded/);
    expect(byId(r, 'stress.saturation')).toEqual([]);
    expect(byId(r, 'stress.errors')).toEqual([]);
  });

  it('latte vs baseline: -2.9 % throughput is not significant (p 0.054 / 0.059); client slots saturated', () => {
    const r = interpretText(corpus('stress/latte_read_vs_baseline_report.txt'));
    expect(r.kind).toBe('stress.latte');
    const c = byId(r, 'stress.comparison');
    expect(c).toHaveLength(1);
    expect(c[0]!.severity).toBe('info');
    expect(c[0]!.title).toMatch(/^No significant difference/);
    expect(c[0]!.evidence.join('\n')).toMatch(/throughput \[req\/s\]: 133849 vs baseline 137884 \(-2\.9%\), p = 0\.054/);
    expect(c[0]!.evidence.join('\n')).toMatch(/p = 0\.0591/);
    const cl = byId(r, 'stress.client-bottleneck');
    expect(cl[0]?.title).toMatch(/98\.2 % of its 1024 request slots/);
    expect(byId(r, 'stress.closed-loop')).toHaveLength(1);
  });
});

describe.skipIf(!HAVE_CORPUS)('stress rules on local cassandra-stress and latte runs', () => {
  it('4.1.10 write (16 threads, 5.8 s): too short, closed loop, max 93.7 ms near the 76 ms GC pause (info)', () => {
    const r = interpretText(corpus('local-runs/cassandra-4.1.10-single/stress/stress_write.txt'));
    expect(byId(r, 'stress.too-short')[0]?.severity).toBe('warning');
    expect(byId(r, 'stress.closed-loop')[0]?.evidence.join()).toMatch(/16 threads/);
    const g = byId(r, 'stress.gc-max-latency');
    expect(g[0]?.severity).toBe('info');
    expect(g[0]?.title).toBe('Max latency 93.7 ms matches a 76 ms server GC pause');
    expect(r.findings.filter((f) => f.severity === 'critical')).toEqual([]);
  });

  it('5.0.9 read: GC sum of 97 ms in two pauses explains the 101.8 ms max', () => {
    const r = interpretText(corpus('local-runs/cassandra-5.0.9-single/stress_read.txt'));
    expect(byId(r, 'stress.gc-max-latency')[0]?.title).toBe('Max latency 101.8 ms matches a 97 ms server GC pause');
  });

  it('5.0.9 3-node read with 512 MB heaps: no GC, so no GC finding, and no bimodal tail', () => {
    const r = interpretText(corpus('local-runs/cassandra-5.0.9-cluster3/stress/stress_read_512M.txt'));
    expect(byId(r, 'stress.gc-max-latency')).toEqual([]);
    expect(byId(r, 'stress.bimodal-tail')).toEqual([]);
    expect(byId(r, 'stress.too-short')).toHaveLength(1);
  });

  it('latte 0.29 JSON and text of the same run agree: closed loop, short, no errors', () => {
    for (const f of ['latte_read.json', 'latte_read.txt']) {
      const r = interpretText(corpus(`local-runs/cassandra-5.0.9-cluster3/latte/${f}`));
      expect(r.ok).toBe(true);
      expect(byId(r, 'stress.closed-loop')).toHaveLength(1);
      expect(byId(r, 'stress.too-short')[0]?.title).toMatch(/11\.5\d* s is too short/);
      expect(byId(r, 'stress.errors')).toEqual([]);
    }
  });

  it('every cassandra-stress local run gets the methodology checks run, not skipped', () => {
    const p = parseCassandraStress(corpus('local-runs/cassandra-5.0.9-cluster3/stress/stress_write_rf3.txt'));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    const out = runStressRules(stressFacts(p.kind, p.value)!);
    for (const id of ['stress.closed-loop', 'stress.too-short', 'stress.errors', 'stress.bimodal-tail']) {
      expect(out.find((o) => o.rule === id)?.checked, id).toBe(true);
    }
  });
});

describe('stress rules on synthetic edge cases', () => {
  it('an Infinity op rate is reported as impossible, not as a number', () => {
    const txt = [
      'type       total ops,    op/s,    pk/s,   row/s,    mean,     med,     .95,     .99,    .999,     max,   time,   stderr, errors,  gc: #,  max ms,  sum ms,  sdv ms,      mb',
      'total,          1957, Infinity,    1957,    1957,     0.6,     0.6,     1.0,     1.4,     4.1,     4.2,    0.0,  0.00000,      0,      0,       0,       0,       0,       0',
      'total,          9200,    7243,    7243,    7243,     0.5,     0.5,     0.9,     1.4,     3.9,     8.5,    2.0,  0.40729,      0,      0,       0,       0,       0,       0',
    ].join('\n');
    const r = interpretText(txt);
    expect(r.kind).toBe('stress.cassandra-stress');
    const i = byId(r, 'stress.impossible-value');
    expect(i).toHaveLength(1);
    expect(i[0]!.evidence[0]).toMatch(/Infinity/);
  });

  it('errors above 1 % are critical', () => {
    const txt = corpus('stress/cassandra_stress_write_bimodal_p99_wca_docstring.txt').replace(
      'Total errors              :          0 [WRITE: 0]',
      'Total errors              :     20,000 [WRITE: 20,000]',
    );
    const r = interpretText(txt);
    const e = byId(r, 'stress.errors');
    expect(e[0]?.severity).toBe('critical');
    expect(e[0]?.title).toMatch(/20000 errors \(1\.5 % of 1350028 operations\)/);
  });
});

describe('stall and retries (latte JSON shape)', () => {
  // A latte 0.29 JSON report reduced to the fields the parser reads; the rates are those of the fault test's
  // node kill (throughput to 0 while latte retried, 0 errors).
  const report = (rates: number[], retries: number) =>
    JSON.stringify({
      percentiles: [50, 99, 100],
      conf: { workload: 'write.rn', threads: 1, concurrency: 16, rate: null, warmup_duration: { Count: 0 } },
      result: {
        elapsed_time_s: rates.length,
        cycle_count: rates.reduce((a, b) => a + b, 0),
        cycle_error_count: 0,
        error_count: 0,
        request_retry_count: retries,
        cycle_throughput: { value: 1000 },
        log: rates.map((r, i) => ({
          time_s: i,
          duration_s: 1,
          cycle_throughput: r,
          cycle_count: r,
          cycle_error_count: 0,
          cycle_latency: { mean: { value: 2 }, percentiles: [1, 5, 9] },
        })),
      },
    });

  it('a node lost mid-run: throughput at 0 for several intervals is a stall, with the retries as evidence', () => {
    const r = interpretText(report([5200, 5400, 5300, 0, 0, 0, 0, 0, 0, 0, 0, 4100, 5000], 96));
    expect(r.kind).toMatch(/^stress\.latte/);
    const stall = r.findings.find((f) => f.id === 'stress.stall');
    expect(stall?.severity).toBe('warning');
    expect(stall!.title).toMatch(/stalled once mid-run \(8 intervals from t=4 s/);
    expect(stall!.evidence.join('\n')).toContain('retries: 96; errors: 0');
  });

  it('an even run has no stall; retries alone are an info finding', () => {
    const r = interpretText(report([5200, 5400, 5300, 5100, 5250, 5350, 5000], 3));
    expect(r.findings.find((f) => f.id === 'stress.stall')).toBeUndefined();
    expect(r.findings.find((f) => f.id === 'stress.retries')?.severity).toBe('info');
    const clean = interpretText(report([5200, 5400, 5300, 5100, 5250, 5350, 5000], 0));
    expect(clean.findings.filter((f) => f.id === 'stress.retries' || f.id === 'stress.stall')).toEqual([]);
  });
});
