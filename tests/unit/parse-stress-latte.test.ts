import { describe, expect, it } from 'vitest';
import { parseLatteJson, parseLatteStat, parseLatteText } from '../../mcp-server/src/core/parse/stress/index.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

const BASELINE = 'stress/latte_read_vs_baseline_report.txt';
const DIR = 'local-runs/cassandra-5.0.9-cluster3/latte';

function expectTotalOnEveryTruncation(parse: (t: string) => { ok: boolean }, text: string, step = 1) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i += step) {
    const r = parse(lines.slice(0, i).join('\n')) as { ok: true } | { ok: false; reason: string };
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('latte stat cells', () => {
  it('this ± err, other ± err, change, significance, p-value', () => {
    expect(parseLatteStat('133849 ± 6084               137884 ± 2342               -2.9%  (   ) 0.0540')).toEqual({
      value: 133849,
      err: 6084,
      baseline: 137884,
      baselineErr: 2342,
      changePercent: -2.9,
      significance: '',
      pValue: 0.054,
    });
    expect(parseLatteStat('54.574          ( 18.2%)    53.283          ( 18.4%)    +2.4%')).toMatchObject({
      value: 54.574,
      baseline: 53.283,
      changePercent: 2.4,
      pValue: null,
    });
    expect(parseLatteStat('1.0 ± 0.1   2.0 ± 0.1   +100.0%  ( ** ) 0.0012')).toMatchObject({ significance: '**', pValue: 0.0012 });
    expect(parseLatteStat('1736 ± 453')).toMatchObject({ value: 1736, err: 453, baseline: null, changePercent: null });
    expect(parseLatteStat('Tue, 13 Oct 2020')).toBeNull();
  });
});

describe('latte text report', () => {
  it.skipIf(!HAVE_CORPUS)('README comparison: 133.8k vs 137.9k req/s (-2.9%), p = 0.054 / 0.059, not significant', () => {
    const r = parseLatteText(corpus(BASELINE));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value;
    expect(v.format).toBe('legacy');
    expect(v.hasBaseline).toBe(true);
    expect(v.workload).toBe('read');
    expect(v.concurrency).toBe(1024);
    expect(v.threads).toBe(1);
    expect(v.throughputUnit).toBe('req/s');
    expect(v.throughput).toEqual({ value: 133849, err: 6084, baseline: 137884, baselineErr: 2342, changePercent: -2.9, significance: '', pValue: 0.054 });
    expect(v.meanLatency).toMatchObject({ value: 7.54, baseline: 7.31, changePercent: 3.1, pValue: 0.0591 });
    expect(v.elapsedS).toBe(37.395);
    expect(v.errors).toBe(0);
    expect(v.completed).toBe(5_000_000);
    expect(v.summary['parallelism [req]']?.value).toBe(1005.7);
    // no p-value below 0.05: the regression is not significant
    expect(Object.values(v.pValues).every((p) => p >= 0.05)).toBe(true);
    expect(v.pValues['SUMMARY STATS: throughput [req/s]']).toBe(0.054);
    expect(v.p50Ms).toBe(7.11);
    expect(v.p99Ms).toBe(16.15);
    expect(v.p999Ms).toBe(23.97);
    expect(v.maxMs).toBe(30.53);
    expect(v.latencyPercentiles['99']).toMatchObject({ baseline: 15.19, changePercent: 6.3, pValue: 0.0802 });
    expect(v.throughputDistribution['Min']).toMatchObject({ value: 117656, baseline: 129696 });
    // LOG: 18 two-second samples with the dip to 117,656 req/s at t = 22 s
    expect(v.log).toHaveLength(18);
    expect(v.series.timeS[0]).toBe(2);
    expect(Math.min(...v.series.throughput.map((x) => x ?? Infinity))).toBe(117656);
    expect(v.series.timeS[v.series.throughput.indexOf(117656)]).toBe(22);
    expect(v.log[0]!.latencyMs).toMatchObject({ Min: 0.56, '95': 11.9, '99': 15.52, Max: 28.11 });
    expect(v.sections).toContain('RESPONSE TIME DISTRIBUTION');
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('latte 0.2x read on 5.0.9 x3 RF3: 1,736 op/s, p99 23.5 ms, max 129.9 ms at t = 7-8 s', () => {
    const r = parseLatteText(corpus(`${DIR}/latte_read.txt`));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value;
    expect(v.format).toBe('modern');
    expect(v.hasBaseline).toBe(false);
    expect(v.cluster).toBe('feas3');
    expect(v.cassandraVersion).toBe('5.0.9');
    expect(v.workload).toBe('kv.rn');
    expect(v.config['consistency']).toBe('LocalQuorum');
    expect(v.concurrency).toBe(16);
    expect(v.throughputUnit).toBe('op/s');
    expect(v.throughput).toMatchObject({ value: 1736, err: 453, baseline: null, pValue: null });
    expect(v.meanLatency).toMatchObject({ value: 9.027, err: 0.443 });
    expect(v.summary['concurrency [%]']?.value).toBe(78);
    expect(v.summary['throughput [row/s]']?.value).toBe(1736);
    expect(v.elapsedS).toBe(11.523);
    expect(v.errors).toBe(0);
    expect(v.completed).toBe(20000);
    expect(v.p50Ms).toBe(8.098);
    expect(v.p99Ms).toBe(23.478);
    expect(v.p999Ms).toBe(34.963);
    expect(v.maxMs).toBe(129.892);
    expect(Object.keys(v.latencyByFunction)).toEqual(['read']);
    expect(v.log).toHaveLength(12);
    expect(v.log[0]).toMatchObject({ timeS: 1.001, cycles: 1322, errors: 0, throughput: 1321, p50Ms: 11.3, p99Ms: 25.2, maxMs: 31 });
    expect(v.series.maxMs.slice(6, 8)).toEqual([128.4, 129.9]);
    expect(v.pValues).toEqual({});
  });

  it.skipIf(!HAVE_CORPUS)('latte 0.2x write: 1,550 op/s, rows 0 (writes return no rows)', () => {
    const r = parseLatteText(corpus(`${DIR}/latte_write.txt`));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.config['function(s)']).toBe('write:1');
    expect(r.value.throughput?.value).toBe(1550);
    expect(r.value.summary['rows [row]']?.value).toBe(0);
    expect(r.value.p99Ms).toBe(27.148);
    expect(r.value.log).toHaveLength(13);
  });

  it.skipIf(!HAVE_CORPUS)('schema-creation output (info: lines only) is not a report', () => {
    const r = parseLatteText(corpus(`${DIR}/latte_schema.txt`));
    expect(r.ok).toBe(false);
  });

  it('modern comparison rows: "─── This ─── ─── Other ───" header, both columns, p-value', () => {
    const text = [
      'CONFIG ═══════════════════════════════════════════',
      '            Date            Sat, 21 Nov 2026           Fri, 20 Nov 2026',
      '     Concurrency     [req]         16                     16            +0.0%',
      'SUMMARY STATS ════════════════════════════════════',
      '                    ───────── This ───────── ───────── Other ─────────   Change     P-value',
      '      Throughput    [op/s]       1736 ± 453            1900 ± 120        -8.6%  ( * )   0.0210',
      '              ├─   [req/s]       1736 ± 453            1900 ± 120        -8.6%  ( * )   0.0210',
      '   Cycle latency      [ms]      9.027 ± 0.443         8.100 ± 0.200     +11.4%  ( ** )  0.0040',
    ].join('\n');
    const r = parseLatteText(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.format).toBe('modern');
    expect(r.value.hasBaseline).toBe(true);
    expect(r.value.config['date']).toBe('Sat, 21 Nov 2026');
    expect(r.value.concurrency).toBe(16);
    expect(r.value.throughput).toEqual({ value: 1736, err: 453, baseline: 1900, baselineErr: 120, changePercent: -8.6, significance: '*', pValue: 0.021 });
    expect(r.value.summary['throughput [req/s]']?.pValue).toBe(0.021);
    expect(r.value.meanLatency).toMatchObject({ changePercent: 11.4, significance: '**', pValue: 0.004 });
  });

  it('ok:false with a reason on empty and unrelated text', () => {
    for (const t of ['', 'Results:\nOp rate : 3 op/s', 'hello world', '{"result": {}}']) {
      const r = parseLatteText(t);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/latte/);
    }
  });

  it.skipIf(!HAVE_CORPUS)('never throws when cut at any line', () => {
    expectTotalOnEveryTruncation(parseLatteText, corpus(BASELINE));
    expectTotalOnEveryTruncation(parseLatteText, corpus(`${DIR}/latte_read.txt`));
    expectTotalOnEveryTruncation(parseLatteText, corpus(`${DIR}/latte_write.txt`));
    const text = corpus(BASELINE);
    for (let i = 0; i < text.length; i += 61) {
      const r = parseLatteText(text.slice(0, i));
      if (!r.ok) expect(r.reason).not.toMatch(/^parser error/);
    }
  });
});

describe('latte JSON report', () => {
  it.skipIf(!HAVE_CORPUS)('read: conf and result, percentiles labelled from the top-level list, 12 log samples', () => {
    const r = parseLatteJson(corpus(`${DIR}/latte_read.json`));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value;
    expect(v).toMatchObject({
      workload: 'workloads/kv.rn',
      functions: ['read:1'],
      cluster: 'feas3',
      cassandraVersion: '5.0.9',
      consistency: 'LocalQuorum',
      threads: 1,
      concurrency: 16,
      rate: null,
      baseline: null,
      cycles: 20000,
      errors: 0,
      errorMessages: [],
    });
    expect(v.elapsedS).toBeCloseTo(11.523, 3);
    expect(v.throughput).toBeCloseTo(1735.66, 2);
    expect(v.meanLatencyMs).toBeCloseTo(9.027, 3);
    expect(v.p50Ms).toBeCloseTo(8.098, 3);
    expect(v.p99Ms).toBeCloseTo(23.478, 3);
    expect(v.p999Ms).toBeCloseTo(34.963, 3);
    expect(v.maxMs).toBeCloseTo(129.892, 3);
    expect(Object.keys(v.latencyPercentilesMs)).toHaveLength(15);
    expect(v.log).toHaveLength(12);
    expect(v.log[0]!.cycles).toBe(1322);
    expect(v.series.throughput[0]).toBeCloseTo(1321.19, 2);
    expect(v.series.maxMs[7]).toBeCloseTo(129.892, 3);
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('write: 1,550 op/s, p99 27.1 ms, 13 samples, the text and JSON agree', () => {
    const r = parseLatteJson(corpus(`${DIR}/latte_write.json`));
    const t = parseLatteText(corpus(`${DIR}/latte_write.txt`));
    expect(r.ok && t.ok).toBe(true);
    if (!r.ok || !t.ok) return;
    expect(r.value.functions).toEqual(['write:1']);
    expect(r.value.rows).toBe(0);
    expect(Math.round(r.value.throughput!)).toBe(t.value.throughput!.value);
    expect(r.value.p99Ms!.toFixed(3)).toBe(t.value.p99Ms!.toFixed(3));
    expect(r.value.log).toHaveLength(13);
  });

  it('ok:false with a reason on empty, unrelated and broken JSON; never throws on truncation', () => {
    for (const t of ['', 'not json', '{"a": 1}', '[1,2]', '{"result": 3}', '{"result": {"x": ']) {
      const r = parseLatteJson(t);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason.length).toBeGreaterThan(0);
    }
    const minimal = parseLatteJson('{"result": {"cycle_throughput": 10}}');
    expect(minimal.ok && minimal.value.throughput).toBe(10);
    expect(minimal.ok && minimal.warnings.length).toBeGreaterThan(0);
    if (HAVE_CORPUS) expectTotalOnEveryTruncation(parseLatteJson, corpus(`${DIR}/latte_read.json`), 97);
  });
});
