import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { goDurationMs, parseScyllaBench, parseYcsb, stressSignature } from '../../mcp-server/src/core/parse/stress/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { fixture } from '../helpers/corpus.js';

// Real outputs from public sources (tests/fixtures/stress/README.md says where each comes from).
const ycsbText = fixture('stress/ycsb_0.17_cassandra_balanced_closed_loop_benchant.txt');
const sb52 = fixture('stress/scylla-bench_pr52_read_maxrate_unreached.txt');
const sb80 = fixture('stress/scylla-bench_issue80_high_latency_intervals.txt');
const ids = (r: ReturnType<typeof interpretText>) => r.findings.map((f) => f.id);

describe('scylla-bench parser', () => {
  it('reads Go durations', () => {
    expect(goDurationMs('803ms')).toBe(803);
    expect(goDurationMs('1.6s')).toBe(1600);
    expect(goDurationMs('1m2.5s')).toBe(62_500);
    expect(goDurationMs('850µs')).toBeCloseTo(0.85);
    expect(goDurationMs('2.416392808s')).toBeCloseTo(2416.392808);
    expect(goDurationMs('fast')).toBeNull();
  });

  it('PR 52 output: configuration (rate 32000 op/s, concurrency 7) and six interval rows', () => {
    const r = parseScyllaBench(sb52);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ mode: 'read', workload: 'uniform', concurrency: 7, maxRate: 32000, rateKnown: true, opRate: null });
    expect(r.value.intervals).toHaveLength(6);
    expect(r.value.intervals[1]).toEqual({
      timeS: 2,
      opRate: 6347,
      rowRate: 0,
      errors: 0,
      maxMs: 1600,
      p999Ms: 1600,
      p99Ms: 1600,
      p95Ms: 1600,
      p90Ms: 1500,
      medianMs: 1200,
      meanMs: 1200,
    });
    expect(r.warnings[0]).toMatch(/no Results block/);
  });

  it('issue 80 output ("operations/s" header, nanosecond-precision times) parses to 4 intervals near 1 s latency', () => {
    const r = parseScyllaBench(sb80);
    expect(r.ok && r.value.intervals.map((i) => i.opRate)).toEqual([4027, 3485, 3630, 3734]);
    expect(r.ok && r.value.intervals[0]!.p99Ms).toBeCloseTo(1007.681535);
    expect(r.ok && r.value.rateKnown).toBe(false);
  });

  it('is detected and interpreted: the 32k op/s target is not reached (~6.5k) while latency climbs', () => {
    expect(detect(sb52)).toMatchObject({ ok: true, kind: 'stress.scylla-bench' });
    const r = interpretText(sb52);
    const f = r.findings.find((x) => x.id === 'stress.rate-not-reached');
    expect(f?.severity).toBe('warning');
    expect(f?.title).toBe('Target rate not reached: 6,483 op/s of the 32,000 op/s asked (20.3 %) while p99 went 793 ms → 4700 ms');
    expect(ids(r)).not.toContain('stress.closed-loop');
    expect(ids(r)).toContain('stress.too-short');
  });
});

describe('YCSB parser', () => {
  it('reads the command line, status lines and the summary (µs → ms)', () => {
    const r = parseYcsb(ycsbText);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value;
    expect(v).toMatchObject({ version: '0.17.0', threads: 100, target: null, runTimeMs: 1802231, clientGcCount: 7318, clientGcTimeMs: 14458 });
    expect(v.throughput).toBeCloseTo(24144.83, 1);
    expect(v.properties['hosts']).toBe('172.31.19.128,172.31.17.153,172.31.19.194');
    expect(v.intervals).toHaveLength(18);
    expect(v.intervals[1]).toMatchObject({ timeS: 10, operations: 374, opRate: 37.4 });
    expect(v.intervals[1]!.ops['READ']).toEqual({ count: 125, avgMs: 104.49689, maxMs: 1256.447, p90Ms: 368.895, p99Ms: 850.431, p999Ms: 1256.447 });
    // An empty READ-FAILED bucket (Min=Long.MAX_VALUE, Avg=NaN) has no latencies.
    expect(v.intervals[10]!.ops['READ-FAILED']).toMatchObject({ count: 0, avgMs: null, p99Ms: null });
    expect(v.ops['READ']).toMatchObject({ operations: 21761547, p95Ms: 9.703, p99Ms: 15.983, returns: { OK: 21761547, NOT_FOUND: 120 } });
    expect(v.ops['INSERT']!.p99Ms).toBeCloseTo(15.359);
  });

  it('is detected and interpreted: closed loop (no -target) with an 80-second warm-up inside the window; 120 reads found no row', () => {
    expect(detect(ycsbText)).toMatchObject({ ok: true, kind: 'stress.ycsb' });
    const r = interpretText(ycsbText);
    expect(ids(r)).toContain('stress.closed-loop');
    const w = r.findings.find((f) => f.id === 'stress.warm-up-in-window');
    expect(w?.title).toMatch(
      /^Warm-up inside the measured window: the first 5 interval\(s\) ran at 37 op\/s, 68 op\/s, 187 op\/s, 554 op\/s, 1,434 op\/s vs a steady/,
    );
    // the 120 READ-FAILED are Return=NOT_FOUND (YCSB times every status but OK under -FAILED): reads of absent keys, not errors
    expect(ids(r)).not.toContain('stress.errors');
    const nf = r.findings.find((f) => f.id === 'stress.not-found');
    expect(nf?.severity).toBe('info');
    expect(nf?.title).toBe('120 read(s) found no row (under 0.1 % of 21761667): the run read keys that are not there');
    // 30 minutes: long enough.
    expect(ids(r)).not.toContain('stress.too-short');
    expect(ids(r)).not.toContain('stress.bimodal-tail');
  });

  it('YCSB 0.1 (brianfrankcooper/YCSB#519): Return=ERROR are the errors, Return=NOT_FOUND the reads that found no row', () => {
    const r = interpretText(fixture('stress/ycsb_0.1_notfound-errors-cut_ycsb519.txt'));
    expect(r.kind).toBe('stress.ycsb');
    expect(r.findings.find((f) => f.id === 'stress.not-found')).toMatchObject({
      severity: 'warning',
      title: '249320 read(s) found no row (55.3 % of 451206): the run read keys that are not there',
      knowledgeIds: ['benchmarking.ycsb-not-found'],
    });
    expect(r.findings.find((f) => f.id === 'stress.errors')?.title).toMatch(/^544 errors /);
  });

  it('a summary cut to its Return= lines is still YCSB (#1092); old status lines with [OP AverageLatency(us)=…] and their -FAILED (#639)', () => {
    const cut = '[UPDATE], Return=OK, 25104\n[READ], Return=NOT_FOUND, 16780\n[READ], Return=OK, 8116';
    expect(detect(cut)).toMatchObject({ ok: true, kind: 'stress.ycsb' });
    expect(interpretText(cut).findings.find((f) => f.id === 'stress.not-found')?.title).toBe(
      '16780 read(s) found no row (67.4 % of 24896): the run read keys that are not there',
    );
    const line = (t: number, ops: number) =>
      `2016-03-02 14:58:23:453 ${t} sec: ${ops} operations; 912.3 current ops/sec; est completion in 1 minutes [READ AverageLatency(us)=10945.5] [READ-FAILED AverageLatency(us)=4593.01] `;
    const text = [line(100, 97621), line(100, 97621), line(110, 107778)].join('\n');
    const p = parseYcsb(text);
    if (!p.ok) throw new Error(p.reason);
    expect(p.value.intervals.map((i) => [i.timeS, i.ops['READ']?.avgMs, i.ops['READ-FAILED']?.count])).toEqual([
      [100, 10.9455, null],
      [110, 10.9455, null],
    ]);
    expect(p.warnings.join()).toMatch(/1 status line\(s\) repeated the one before/);
    expect(interpretText(text).findings.find((f) => f.id === 'stress.errors')).toMatchObject({
      severity: 'warning',
      title: 'Operations failed in 2 of 2 status line(s) (READ-FAILED); this YCSB prints no count',
    });
  });

  it('each fixture matches exactly one stress signature', () => {
    const kinds = Object.keys(stressSignature) as (keyof typeof stressSignature)[];
    expect(kinds.filter((k) => stressSignature[k].test(ycsbText))).toEqual(['stress.ycsb']);
    expect(kinds.filter((k) => stressSignature[k].test(sb52))).toEqual(['stress.scylla-bench']);
    expect(kinds.filter((k) => stressSignature[k].test(sb80))).toEqual(['stress.scylla-bench']);
  });

  it('refuses text that is not YCSB output', () => {
    expect(parseYcsb('hello').ok).toBe(false);
    expect(parseScyllaBench('hello').ok).toBe(false);
  });
});
