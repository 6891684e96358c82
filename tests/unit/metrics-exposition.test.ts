/**
 * The text exposition parser on a real ScyllaDB 5 page (tests/fixtures/scylla/metrics, provenance in SOURCES.md)
 * and on the edge cases of the format; the scrape evaluator's PromQL-like arithmetic on known numbers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseExposition } from '../../mcp-server/src/core/parse/metrics/exposition.js';
import { bucketQuantile, evalScrapeExpr, scrapeSeries, type Scrape } from '../../mcp-server/src/core/metrics/scrape-eval.js';
import { SIGNALS } from '../../mcp-server/src/core/metrics/signals.js';

const SCYLLA5 = readFileSync(new URL('../fixtures/scylla/metrics/scylla5_metrics_excerpt.txt', import.meta.url), 'utf8');

describe('parseExposition', () => {
  it('reads the recorded ScyllaDB 5 page: every sample, the declared types, nothing skipped', () => {
    const p = parseExposition(SCYLLA5);
    expect(p.skipped).toBe(0);
    // 487 lines: 14 families × (HELP + TYPE) = 28 comment lines, the rest samples.
    expect(p.samples).toHaveLength(487 - 28);
    expect(p.types.get('scylla_storage_proxy_coordinator_write_latency')).toBe('histogram');
    expect(p.types.get('scylla_transport_requests_shed')).toBe('counter');
    expect(p.types.get('scylla_reactor_utilization')).toBe('gauge');
    const util = p.samples.filter((s) => s.name === 'scylla_reactor_utilization');
    expect(util.map((s) => [s.labels.shard, s.value])).toEqual([
      ['0', 0.182733],
      ['1', 0.149806],
      ['2', 0.172964],
      ['3', 0.171145],
    ]);
    const inf = p.samples.find(
      (s) => s.name === 'scylla_storage_proxy_coordinator_write_latency_bucket' && s.labels.le === '+Inf' && s.labels.scheduling_group_name === 'main',
    );
    expect(inf?.value).toBe(74);
    expect(p.names.has('scylla_storage_proxy_coordinator_read_latency_count')).toBe(true);
    // ScyllaDB 5 leaves zero counters out: no timeouts family on this page
    expect(p.names.has('scylla_storage_proxy_coordinator_read_timeouts')).toBe(false);
  });

  it('keeps only the names asked for, but records every name seen', () => {
    const p = parseExposition(SCYLLA5, (n) => n === 'scylla_cql_reads');
    expect(p.samples.map((s) => s.value)).toEqual([177, 65, 57, 55]);
    // 12 plain families + 2 histograms × (_sum, _count, _bucket)
    expect(p.names.size).toBe(18);
  });

  it('handles escapes, special values, timestamps, CRLF, spaces and trailing commas; counts malformed lines and goes on', () => {
    const text = [
      '# HELP x_total a "quoted" help',
      '# TYPE x_total counter',
      'x_total{path="C:\\\\dir",msg="say \\"hi\\"\\nbye",} 12 1700000000123\r',
      'y NaN',
      'y_inf{a="1"} +Inf',
      'y_neg -Inf',
      'z { a = "1" , b="2" } 3.5e2',
      'broken{a="1" 3',
      'novalue{a="1"}',
      '{a="1"} 2',
      'trailing 1 2 3',
      '# EOF',
    ].join('\n');
    const p = parseExposition(text);
    expect(p.skipped).toBe(4);
    const x = p.samples.find((s) => s.name === 'x_total')!;
    expect(x.labels).toEqual({ path: 'C:\\dir', msg: 'say "hi"\nbye' });
    expect(x.value).toBe(12);
    expect(x.timestampMs).toBe(1700000000123);
    expect(Number.isNaN(p.samples.find((s) => s.name === 'y')!.value)).toBe(true);
    expect(p.samples.find((s) => s.name === 'y_inf')!.value).toBe(Infinity);
    expect(p.samples.find((s) => s.name === 'y_neg')!.value).toBe(-Infinity);
    expect(p.samples.find((s) => s.name === 'z')).toEqual({ name: 'z', labels: { a: '1', b: '2' }, value: 350 });
  });

  it('never throws on arbitrary bytes', () => {
    for (const junk of ['\u0000\u0001{{{', 'a{b="', 'a{b="c"', '#', '# TYPE', 'x{=""} 1', '\n\n\r\n', 'é{a="1"} 1']) {
      expect(() => parseExposition(junk)).not.toThrow();
    }
  });
});

describe('scrape evaluator', () => {
  const page = (at: number, lines: string[]): Scrape => ({ at, samples: parseExposition(lines.join('\n')).samples });

  it('rate: per-second increase summed over series; a counter that went down was reset (its new value is the increase)', () => {
    const a = page(100, ['c{shard="0"} 100', 'c{shard="1"} 50']);
    const b = page(110, ['c{shard="0"} 300', 'c{shard="1"} 20']);
    // (300-100)/10 + 20/10 = 22
    expect(evalScrapeExpr({ op: 'rate', metric: 'c' }, a, b)).toBe(22);
    expect(evalScrapeExpr({ op: 'rate', metric: 'c', agg: 'max' }, a, b)).toBe(20);
    expect(evalScrapeExpr({ op: 'rate', metric: 'absent' }, a, b)).toBeNull();
    expect(evalScrapeExpr({ op: 'rate', metric: 'c' }, a, { at: 110, samples: null })).toBeNull();
  });

  it("quantile: histogram_quantile's interpolation over bucket increases, series summed by le", () => {
    // 900 observations ≤ 1 ms, 100 between 16 and 20 ms: p99 = 16384 + 4096 × (990 − 900) / 100 µs
    expect(
      bucketQuantile(0.99, [
        { le: 1024, count: 900 },
        { le: 16384, count: 900 },
        { le: 20480, count: 1000 },
        { le: Infinity, count: 1000 },
      ]),
    ).toBeCloseTo(20070.4, 6);
    // rank in the +Inf bucket: the largest finite bound, as Prometheus answers
    expect(
      bucketQuantile(0.99, [
        { le: 10, count: 1 },
        { le: Infinity, count: 100 },
      ]),
    ).toBe(10);
    expect(
      bucketQuantile(0.99, [
        { le: 10, count: 0 },
        { le: Infinity, count: 0 },
      ]),
    ).toBeNull();
    const a = page(0, ['h_bucket{le="10",g="a"} 5', 'h_bucket{le="+Inf",g="a"} 5', 'h_bucket{le="10",g="b"} 0', 'h_bucket{le="+Inf",g="b"} 0']);
    const b = page(5, ['h_bucket{le="10",g="a"} 5', 'h_bucket{le="+Inf",g="a"} 105', 'h_bucket{le="10",g="b"} 100', 'h_bucket{le="+Inf",g="b"} 100']);
    // increases: le=10 → 100, +Inf → 200; rank 198 falls in +Inf → 10
    expect(evalScrapeExpr({ op: 'quantile', q: 0.99, metric: 'h' }, a, b)).toBe(10);
    // rank 50 of 200 falls in the first bucket: 0 + 10 × 50/100
    expect(evalScrapeExpr({ op: 'quantile', q: 0.25, metric: 'h' }, a, b)).toBe(5);
  });

  it('series: counters give one point per interval at the later scrape, gauges one per scrape', () => {
    const scrapes = [page(0, ['c 0', 'g 1']), page(10, ['c 50', 'g 2']), page(20, ['c 150', 'g 3'])];
    expect(scrapeSeries({ op: 'rate', metric: 'c' }, scrapes)).toEqual([
      [10, 5],
      [20, 10],
    ]);
    expect(scrapeSeries({ op: 'gauge', metric: 'g', agg: 'sum' }, scrapes)).toEqual([
      [0, 1],
      [10, 2],
      [20, 3],
    ]);
    expect(scrapeSeries({ op: 'up' }, [...scrapes, { at: 30, samples: null }]).map((p) => p[1])).toEqual([1, 1, 1, 0]);
  });

  it("every signal but MCAC's has a scrape form, and its metric names match its PromQL", () => {
    for (const s of SIGNALS) {
      // MCAC's mcac_* names exist only after Prometheus relabelling: a raw page has collectd_mcac_* (metric-names.ts)
      if (s.exporter === 'mcac') {
        expect(s.scrape, `${s.exporter} ${s.id}`).toBeUndefined();
        continue;
      }
      expect(s.scrape, `${s.exporter} ${s.id}`).toBeDefined();
      if (s.exporter === 'prometheus') continue;
      const names = JSON.stringify(s.scrape).match(/"(?:metric|num|den)":(?:"[a-z_:]+"|\[[^\]]+\])/g) ?? [];
      for (const n of names.join(',').match(/[a-z][a-z0-9_:]+_[a-z0-9_:]+/g) ?? []) expect(s.query, `${s.id}: ${n}`).toContain(n);
    }
  });
});
