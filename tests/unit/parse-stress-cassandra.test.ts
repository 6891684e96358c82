import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCassandraStress } from '../../mcp-server/src/core/parse/stress/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const SATURATION = 'stress/cassandra_stress_read_autorate_saturation_dse.txt';
const GC_PAUSE = 'stress/cassandra_stress_write_gc_pause_equals_max_latency_dse.txt';
const BIMODAL = 'stress/cassandra_stress_write_bimodal_p99_wca_docstring.txt';
const READ41 = 'local-runs/cassandra-4.1.10-single/stress/stress_read.txt';
const WRITE41 = 'local-runs/cassandra-4.1.10-single/stress/stress_write.txt';
const WRITE50 = 'local-runs/cassandra-5.0.9-cluster3/stress/stress_write_rf3.txt';
const READ50 = 'local-runs/cassandra-5.0.9-cluster3/stress/stress_read_rf3.txt';

// cassandra-stress 2.0 (tools/stress before the 2.1 rewrite): no type column, "key/s", lower-case results.
const LEGACY_20 = `Created keyspaces. Sleeping 1s for propagation.
Warming up WRITE with 50000 iterations...
Running WRITE with 50 threads  for 1000000 iterations
ops       ,    op/s,   key/s,    mean,     med,     .95,     .99,    .999,     max,   time,   stderr
25372     ,   25365,   25365,     1.9,     1.1,     4.7,    10.8,    54.5,    69.0,    1.0,  0.00000
61453     ,   36081,   36081,     1.4,     0.9,     2.9,     5.5,    44.2,    51.3,    2.0,  0.00000
1000000   ,   37217,   37217,     1.3,     0.9,     2.8,     5.2,    57.0,   178.9,   27.6,  0.00611


Results:
real op rate              : 36262
adjusted op rate stderr   : 0
key rate                  : 36262
latency mean              : 1.4
latency median            : 0.9
latency 95th percentile   : 3.0
latency 99th percentile   : 5.5
latency 99.9th percentile : 55.2
latency max               : 178.9
Total operation time      : 00:00:27
END
`;

// A mixed workload: two op types per interval, bracketed per-operation results.
const MIXED = `Running with 8 threadCount
Running [read, write] with 8 threads for 30 seconds
type       total ops,    op/s,    pk/s,   row/s,    mean,     med,     .95,     .99,    .999,     max,   time,   stderr, errors,  gc: #,  max ms,  sum ms,  sdv ms,      mb
read,           1000,    1000,    1000,    1000,     1.0,     0.9,     1.5,     2.0,     3.0,     4.0,    1.0,  0.00000,      0,      0,       0,       0,       0,       0
write,          3000,    3000,    3000,    3000,     0.5,     0.4,     0.8,     1.0,     2.0,     3.0,    1.0,  0.00000,      0,      0,       0,       0,       0,       0
total,          4000,    4000,    4000,    4000,     0.6,     0.5,     1.2,     1.8,     2.5,     4.0,    1.0,  0.00000,      0,      0,       0,       0,       0,       0

Results:
Op rate                   :    4,000 op/s  [read: 1,000 op/s, write: 3,000 op/s]
Latency 99th percentile   :    1.8 ms [read: 2.0 ms, write: 1.0 ms]
Total errors              :          0 [read: 0, write: 0]
java.io.IOException: Operation x10 on key(s) [4f50]: Error executing: (NoHostAvailableException): All host(s) tried
`;

// The full auto-rate log: one "Running with N threadCount" section per step, each with its own Results block.
const AUTORATE_LOG = `Running with 4 threadCount
Running [singletrans] with 4 threads 30 seconds
type       total ops,    op/s,    pk/s,   row/s,    mean,     med,     .95,     .99,    .999,     max,   time,   stderr, errors,  gc: #,  max ms,  sum ms,  sdv ms,      mb
total,          9800,    9800,    9800,    9800,     0.4,     0.4,     0.5,     0.8,     1.9,    23.1,    1.0,  0.00000,      0,      0,       0,       0,       0,       0
total,         20100,   10300,   10300,   10300,     0.4,     0.4,     0.5,     0.8,     1.9,    12.0,    2.0,  0.02000,      0,      1,      89,      89,       0,    2052


Results:
Op rate                   :   10,068 op/s  [singletrans: 10,068 op/s]
Latency 99th percentile   :    0.8 ms [singletrans: 0.8 ms]
Total operation time      : 00:00:34

Sleeping for 15s
Running with 8 threadCount
Running [singletrans] with 8 threads 30 seconds
type       total ops,    op/s,    pk/s,   row/s,    mean,     med,     .95,     .99,    .999,     max,   time,   stderr, errors,  gc: #,  max ms,  sum ms,  sdv ms,      mb
total,         14000,   14000,   14000,   14000,     0.6,     0.4,     1.1,     2.0,     4.4,    62.9,    1.0,  0.00000,      0,      0,       0,       0,       0,       0


Results:
Op rate                   :   14,222 op/s  [singletrans: 14,222 op/s]
Latency 99th percentile   :    2.0 ms [singletrans: 2.0 ms]
Total operation time      : 00:00:30

Improvement over 4 threadCount: 41%
Sleeping for 15s
`;

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseCassandraStress(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('cassandra-stress', () => {
  it.skipIf(!HAVE_CORPUS)('auto-rate saturation: throughput plateaus ~28-29k op/s from 181 threads while p99 climbs 0.8 -> 319 ms', () => {
    const r = parseCassandraStress(corpus(SATURATION));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value;
    expect(v.format).toBe('modern');
    const res = v.results!;
    expect(res.opRate).toBe(28080);
    expect(res.partitionRate).toBe(26862);
    expect(res.latencyMeanMs).toBe(21.6);
    expect(res.latencyMedianMs).toBe(3.9);
    expect(res.latencyP95Ms).toBe(128.3);
    expect(res.latencyP99Ms).toBe(319);
    expect(res.latencyP999Ms).toBe(503.6);
    expect(res.latencyMaxMs).toBe(913.3);
    expect(res.totalPartitions).toBe(5_373_009);
    expect(res.totalErrors).toBe(0);
    expect(res.gcCount).toBe(75);
    expect(res.gcMemoryBytes).toBe(Math.round(151.02 * 1024 ** 3));
    expect(res.gcTimeMs).toBe(600);
    expect(res.gcAvgMs).toBe(8.4);
    expect(res.gcStdDevMs).toBe(1.5);
    expect(res.operationTimeS).toBe(200);
    expect(res.byOperation['singletrans']?.opRate).toBe(28080);
    expect(v.runs.at(-1)?.improvementPercent).toBe(-4);

    // the per-threadCount summary: one "total" row per thread count, ascending
    expect(v.threadCounts.map((t) => t.threadCount)).toEqual([4, 8, 16, 24, 36, 54, 81, 121, 181, 271, 406, 609]);
    expect(v.threadCounts.every((t) => t.type === 'total')).toBe(true);
    const at = (n: number) => v.threadCounts.find((t) => t.threadCount === n)!;
    expect(at(4).opRate).toBe(10068);
    expect(at(4).p99Ms).toBe(0.8);
    expect(at(121).p99Ms).toBe(86.4);
    expect(at(609).p99Ms).toBe(319);
    expect(at(609).maxMs).toBe(913.3);
    expect(at(609).gcCount).toBe(75);
    expect(at(609).gcMb).toBe(154644);
    const plateau = v.threadCounts.filter((t) => t.threadCount! >= 181).map((t) => t.opRate!);
    expect(Math.min(...plateau)).toBeGreaterThanOrEqual(28000);
    expect(Math.max(...plateau)).toBeLessThan(29300);
    expect(at(609).p99Ms! / at(4).p99Ms!).toBeGreaterThan(300);
  });

  it.skipIf(!HAVE_CORPUS)('write: max latency 286.8 ms is the single 285 ms GC pause in the 8 s interval', () => {
    const r = parseCassandraStress(corpus(GC_PAUSE));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value;
    expect(v.command).toBe('insert');
    expect(v.runs).toHaveLength(1);
    expect(v.runs[0]!.threadCount).toBe(4);
    expect(v.runs[0]!.operation).toBe('insert');
    expect(v.runs[0]!.intervals).toHaveLength(11);
    const gcRow = v.runs[0]!.intervals.find((i) => (i.gcCount ?? 0) > 0)!;
    expect(gcRow.timeS).toBe(8);
    expect(gcRow.gcMaxMs).toBe(285);
    expect(gcRow.gcMb).toBe(2037);
    expect(Math.max(...v.series.maxMs.map((x) => x ?? 0))).toBe(286.8);
    expect(v.series.timeS.at(-1)).toBe(10.4);
    expect(v.series.opRate[0]).toBe(1957);
    const res = v.results!;
    expect(res.opRate).toBe(9645);
    expect(res.latencyMedianMs).toBe(0.3);
    expect(res.latencyP99Ms).toBe(0.8);
    expect(res.latencyMaxMs).toBe(286.8);
    expect(res.gcCount).toBe(1);
    expect(res.gcAvgMs).toBe(285);
    expect(res.gcMemoryBytes).toBe(Math.round(1.989 * 1024 ** 3));
    expect(res.operationTimeS).toBe(10);
    expect(v.gcCollected).toBe(true);
  });

  it.skipIf(!HAVE_CORPUS)('bimodal write (indented docstring): median 0.3 ms, p99 74 ms, p99.9 146.8 ms, Avg GC NaN -> null', () => {
    const r = parseCassandraStress(corpus(BIMODAL));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const res = r.value.results!;
    expect(res.opRate).toBe(14997);
    expect(res.latencyMedianMs).toBe(0.3);
    expect(res.latencyP95Ms).toBe(0.4);
    expect(res.latencyP99Ms).toBe(74);
    expect(res.latencyP999Ms).toBe(146.8);
    expect(res.latencyMaxMs).toBe(160.2);
    expect(res.totalPartitions).toBe(1_350_028);
    expect(res.gcCount).toBe(0);
    expect(res.gcMemoryBytes).toBe(0);
    expect(res.gcAvgMs).toBeNull();
    expect(res.operationTimeS).toBe(90);
    expect(res.byOperation['WRITE']?.latencyP99Ms).toBe(74);
    expect(r.value.series.opRate).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.1.10 local read: settings block, 6 intervals, 3,523 op/s, p99 12.4 ms', () => {
    const r = parseCassandraStress(corpus(READ41));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value;
    expect(v.command).toBe('read');
    expect(v.settings['Rate.Thread Count']).toBe('16');
    expect(v.settings['Command.Consistency Level']).toBe('LOCAL_ONE');
    expect(v.settings['Node.Nodes']).toBe('[127.0.0.1]');
    expect(v.runs).toHaveLength(1);
    expect(v.runs[0]).toMatchObject({ threadCount: 16, operation: 'READ' });
    expect(v.series.opRate).toEqual([3246, 3302, 3023, 3683, 4003, 4054]);
    expect(v.series.p99Ms).toEqual([12.4, 12.6, 13.1, 11.6, 13.5, 11.1]);
    expect(v.results).toMatchObject({
      opRate: 3523,
      latencyMeanMs: 4.5,
      latencyP99Ms: 12.4,
      latencyMaxMs: 23.6,
      totalPartitions: 20000,
      gcMemoryBytes: 0,
      operationTimeS: 5,
    });
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.1.10 local write: the 93.7 ms max sits in the interval with the one 76 ms GC', () => {
    const r = parseCassandraStress(corpus(WRITE41));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value;
    expect(v.command).toBe('write');
    const i = v.series.maxMs.indexOf(93.7);
    expect(v.series.gcMaxMs[i]).toBe(76);
    expect(v.results).toMatchObject({ opRate: 3422, latencyMaxMs: 93.7, gcCount: 1, gcAvgMs: 76, gcTimeMs: 100 });
    expect(v.results!.gcMemoryBytes).toBe(Math.round(143.855 * 1024 ** 2));
  });

  it.skipIf(!HAVE_CORPUS)('5.0.9 3-node RF3: JMX unavailable -> GC figures null, not zero; write p99 spikes to 332.9 ms', () => {
    const w = parseCassandraStress(corpus(WRITE50));
    expect(w.ok).toBe(true);
    if (!w.ok) return;
    expect(w.value.gcCollected).toBe(false);
    expect(w.warnings.join(' ')).toMatch(/JMX/);
    expect(w.value.results).toMatchObject({ opRate: 750, latencyP99Ms: 40.4, latencyP999Ms: 222.8, latencyMaxMs: 372.8, gcCount: null, gcMemoryBytes: null });
    expect(w.value.series.p99Ms.length).toBe(27);
    expect(Math.max(...w.value.series.p99Ms.map((x) => x ?? 0))).toBe(332.9);
    expect(w.value.series.gcMaxMs.every((x) => x === null)).toBe(true);
    expect(w.value.settings['Node.Nodes']).toBe('[127.0.0.1, 127.0.0.2, 127.0.0.3]');

    const rd = parseCassandraStress(corpus(READ50));
    expect(rd.ok && rd.value.results).toMatchObject({ opRate: 868, latencyP99Ms: 36.5, operationTimeS: 23 });
    expect(rd.ok && rd.value.series.opRate.length).toBe(24);
  });

  it('legacy 2.0 format: "ops, op/s, key/s" table and lower-case results', () => {
    const r = parseCassandraStress(LEGACY_20);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.format).toBe('legacy');
    expect(r.value.runs[0]).toMatchObject({ threadCount: 50, operation: 'WRITE' });
    expect(r.value.series.opRate).toEqual([25365, 36081, 37217]);
    expect(r.value.runs[0]!.intervals[2]).toMatchObject({
      type: 'total',
      totalOps: 1000000,
      partitionRate: 37217,
      p999Ms: 57,
      maxMs: 178.9,
      timeS: 27.6,
      gcCount: null,
    });
    expect(r.value.results).toMatchObject({ opRate: 36262, partitionRate: 36262, latencyP99Ms: 5.5, latencyMaxMs: 178.9, operationTimeS: 27 });
  });

  it('mixed workload: per-operation rows and bracketed results, client error lines collected', () => {
    const r = parseCassandraStress(MIXED);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const run = r.value.runs[0]!;
    expect(run.threadCount).toBe(8);
    expect(run.operation).toBe('read, write');
    expect(run.intervals.map((i) => i.type)).toEqual(['read', 'write', 'total']);
    expect(r.value.series.opRate).toEqual([4000]);
    expect(r.value.results!.byOperation).toEqual({
      read: { opRate: 1000, latencyP99Ms: 2, totalErrors: 0 },
      write: { opRate: 3000, latencyP99Ms: 1, totalErrors: 0 },
    });
    expect(r.value.errorLines).toHaveLength(1);
  });

  it('full auto-rate log: one run per thread count with its own intervals, results and improvement', () => {
    const r = parseCassandraStress(AUTORATE_LOG);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.runs.map((x) => [x.threadCount, x.operation, x.intervals.length, x.results?.opRate, x.improvementPercent])).toEqual([
      [4, 'singletrans', 2, 10068, null],
      [8, 'singletrans', 1, 14222, 41],
    ]);
    expect(r.value.results?.latencyP99Ms).toBe(2);
    expect(r.value.series.opRate).toEqual([9800, 10300]); // the run with the most interval rows
    expect(r.value.runs[0]!.intervals[1]).toMatchObject({ gcCount: 1, gcMaxMs: 89, gcMb: 2052 });
    expect(r.value.threadCounts).toEqual([]);
  });

  it('a settings block not followed by a blank line does not swallow the run', () => {
    const text = ['******************** Stress Settings ********************', 'Command:', '  Type: write', 'Rate:', '  Thread Count: 4', AUTORATE_LOG].join(
      '\n',
    );
    const r = parseCassandraStress(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.settings).toEqual({ 'Command.Type': 'write', 'Rate.Thread Count': '4' });
    expect(r.value.command).toBe('write');
    expect(r.value.runs).toHaveLength(2);
  });

  it('ok:false with a reason on empty and unrelated text', () => {
    for (const t of ['', '   \n  ', 'Pool Name   Active   Pending\nReadStage  0  0', 'Sleeping 2s...\nWarming up READ with 5000 iterations...']) {
      const r = parseCassandraStress(t);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/cassandra-stress/);
    }
    const nonText = parseCassandraStress(undefined as unknown as string);
    expect(nonText.ok).toBe(false);
  });

  it('never throws when cut at any line', () => {
    expectTotalOnEveryTruncation(LEGACY_20);
    expectTotalOnEveryTruncation(MIXED);
    expectTotalOnEveryTruncation(AUTORATE_LOG);
    // cut mid-line too
    for (let i = 0; i < AUTORATE_LOG.length; i += 7) {
      const r = parseCassandraStress(AUTORATE_LOG.slice(0, i));
      if (!r.ok) expect(r.reason).not.toMatch(/^parser error/);
    }
    for (const f of corpusFiles('stress', /^cassandra_stress_.*\.txt$/)) expectTotalOnEveryTruncation(corpus(f));
    for (const f of corpusFiles('local-runs', /^stress_.*\.txt$/)) expectTotalOnEveryTruncation(corpus(f));
  });

  it("ScyllaDB's cassandra-stress: lower-case Results rows with brackets and no Results: line (scylladb#23376) are the 3.x+ format", () => {
    const text = readFileSync(new URL('../fixtures/real-world/stress_lowercase-summary-wrapped-gc-lines-local-disk_scylla23376.txt', import.meta.url), 'utf8');
    const r = parseCassandraStress(text);
    expect(r.ok).toBe(true);
    const v = r.ok ? r.value : null;
    expect(v?.format).toBe('modern');
    expect(v?.results).toMatchObject({ opRate: 98008, latencyP99Ms: 2.9, latencyMaxMs: 162.9, operationTimeS: 120 });
    expect(v?.results?.byOperation['insert']?.opRate).toBe(98008);
  });
});
