/**
 * A real JDK 8 G1 gc.log written with -XX:+PrintTenuringDistribution (DSE 6.8.1 defaults; datastax-labs/sperf
 * tests/testdata/dse68/.../gc.log.0.current, see tests/fixtures/sperf/SOURCES.tsv). Each young/mixed pause spans
 * several lines: "[GC pause (G1 Evacuation Pause) (young)", "Desired survivor size …", then ", 0.0257072 secs]".
 * All 1,116 of them were lost. The expected figures are counted from the file itself: 1,116 "[GC pause" records
 * (1,114 young, 2 mixed) whose ", N secs]" lines sum to 57,710.506 ms with a maximum of 160.7524 ms, plus 14
 * one-line remark/cleanup pauses: 1,130 records, one per "[Times: … real=" line.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLogFile } from '../../mcp-server/src/collect/log-reader.js';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';

const GC_LOG = join(import.meta.dirname, '..', 'fixtures', 'sperf', 'dse681-gc.log.0.current.gz');

describe('JDK 8 G1 gc.log with PrintTenuringDistribution (real DSE 6.8.1 file)', () => {
  it('counts every young and mixed pause whose times come on a later line', async () => {
    const r = await readLogFile(GC_LOG);
    if (!r.ok) throw new Error(r.reason);
    const gc = r.value.gc;
    const by = Object.fromEntries(gc.byCollector.map((c) => [c.collector, c]));
    expect(by['G1 young']?.count).toBe(1114);
    expect(by['G1 mixed']?.count).toBe(2);
    expect((by['G1 remark']?.count ?? 0) + (by['G1 cleanup']?.count ?? 0)).toBe(14);
    expect(gc.pauses).toBe(1130);
    expect(gc.maxPauseMs).toBe(160.752);
    expect((by['G1 young']?.totalMs ?? 0) + (by['G1 mixed']?.totalMs ?? 0)).toBeCloseTo(57710.506, 2);
    expect(r.value.safepoint.count).toBe(1279);
    expect(r.value.notes.filter((n) => n.includes('never got their times'))).toEqual([]);
  });

  it('a ParNew record split by the tenuring table keeps its outer total', () => {
    const text = [
      '2018-07-27T04:52:27.413+0000: 187831.482: [GC (Allocation Failure) 2018-07-27T04:52:27.413+0000: 187831.482: [ParNew',
      'Desired survivor size 41943040 bytes, new threshold 1 (max 1)',
      '- age   1:    1234567 bytes,    1234567 total',
      ': 327680K->40960K(368640K), 0.0234000 secs] 400000K->120000K(1000000K), 0.0250000 secs] [Times: user=0.08 sys=0.01, real=0.03 secs]',
      '',
    ].join('\n');
    const r = parseLogs(text);
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.gc.pauses).toBe(1);
    expect(r.value.gc.byCollector[0]).toMatchObject({ collector: 'ParNew', count: 1, maxMs: 25 });
    expect(r.value.events.gcPause.worst[0]?.t).toBe(Date.parse('2018-07-27T04:52:27.413Z'));
  });

  it('a Parallel GC record split the same way closes on its "[PSYoungGen: …" line', () => {
    const text = [
      '2019-03-01T10:00:00.000+0000: 12.000: [GC (Allocation Failure) ',
      'Desired survivor size 11010048 bytes, new threshold 7 (max 15)',
      '[PSYoungGen: 65536K->10720K(76288K)] 65536K->10800K(251392K), 0.0123400 secs] [Times: user=0.02 sys=0.01, real=0.01 secs] ',
      '',
    ].join('\n');
    const r = parseLogs(text);
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.gc.byCollector[0]).toMatchObject({ collector: 'PS Scavenge', count: 1, maxMs: 12.34 });
  });
});
