/**
 * jstat's GC counters (kind jvm.jstat): public pastes and this machine's real jstat (JDK 17.0.15, Temurin 25) in
 * tests/fixtures/jstat (SOURCES.tsv says where each comes from and what its thread concluded). Full collections in the
 * window (kb jvm.gc.full-collections), the share of time in GC (kb jvm.gc.time-share), the average young pause (kb
 * jvm.gc.pause); counters since start only for a heap whose old generation stays full.
 */
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseJstat } from '../../mcp-server/src/core/kinds/jvm-jstat/parse.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { fixture } from '../helpers/corpus.js';

const jstat = (f: string) => fixture(`jstat/${f}`);
const found = (text: string) => interpretText(text).findings.map((f) => `${f.severity}:${f.id}`);
const value = (text: string) => {
  const p = parseJstat(text);
  if (!p.ok) throw new Error(p.reason);
  return p.value;
};

describe('jstat (jvm.jstat)', () => {
  it('JDK 17 -gc -t: wide columns and the Timestamp window; 2 s is too short to call a share', () => {
    const t = jstat('local-jdk17-gc-t.txt');
    expect(detect(t)).toMatchObject({ ok: true, kind: 'jvm.jstat' });
    const v = value(t);
    expect(v).toMatchObject({ option: 'gc', concurrentColumns: true, permGen: false, intervalMs: 1000, command: 'jstat -gc -t 18386 1000 3' });
    expect(v.samples.map((s) => [s.uptimeS, s.values['YGC'], s.values['CGC'], s.values['GCT']])).toEqual([
      [14.8, 3650, 470, 3.091],
      [15.8, 3925, 506, 3.298],
      [16.8, 4196, 542, 3.514],
    ]);
    const r = interpretText(t);
    expect(r.checked.find((c) => c.rule === 'jvm.jstat.gc-time-share')?.skippedBecause).toMatch(/2 s sampled: a share needs 5 s or more/);
    expect(found(t)).toEqual([]);
  });

  it('JDK 17 -gcutil -t -h 5 over 7.1 s: the repeated header is skipped and a small G1 heap collecting constantly is a warning', () => {
    const t = jstat('local-jdk17-gcutil-t-h5.txt');
    const v = value(t);
    // "-h 5" as two words: 5 is the header repeat, not the vmid; the interval is 1000 ms
    expect(v).toMatchObject({ option: 'gcutil', intervalMs: 1000 });
    expect(v.samples).toHaveLength(8);
    const share = interpretText(t).findings.find((f) => f.id === 'jvm.jstat.gc-time-share')!;
    // (2.093 − 0.724) s of GC in 7.1 s, 1,342 collections: the heap (-Xmx64m) is small for the allocation loop
    expect(share).toMatchObject({ severity: 'warning', knowledgeIds: ['jvm.gc.time-share'] });
    expect(share.title).toBe('GC pauses took 19.3 % of the 7.1 s sampled (1342 collections, 1.369 s)');
  });

  it('rows cut out with "..." under an interval: the rows cannot tell the window, so no share is called', () => {
    const cols = '  S0     S1     E      O      M     CCS    YGC     YGCT     FGC    FGCT     CGC    CGCT       GCT   ';
    const row = (ygc: number, gct: string) => `  0.00  10.00  50.00  40.00  97.40  88.52   ${ygc}     1.000     0     0.000   10     0.100     ${gct}`;
    const text = ['$ jstat -gcutil 1 1000', cols, row(100, '1.100'), '...', row(2000, '23.100'), row(2100, '24.100')].join('\n');
    const r = interpretText(text);
    expect(r.findings.filter((f) => f.id === 'jvm.jstat.gc-time-share')).toEqual([]);
    expect(r.checked.find((c) => c.rule === 'jvm.jstat.gc-time-share')?.skippedBecause).toMatch(/lines between the samples/);
  });

  it('-gccause: a cause of 20 characters fills its column and one blank parts it from the next (G1 Humongous Allocation)', () => {
    const v = value(jstat('local-jdk17-gccause-humongous.txt'));
    expect(v.samples).toHaveLength(8);
    for (const s of v.samples) expect([s.lastCause, s.cause]).toEqual(['G1 Humongous Allocation', 'No GC']);
  });

  it('-gccause: the two cause columns, which hold blanks, are read apart', () => {
    const v = value(jstat('local-jdk17-gccause.txt'));
    expect(v.option).toBe('gccause');
    expect(v.samples.map((s) => [s.lastCause, s.cause])).toEqual([
      ['No GC', 'G1 Evacuation Pause'],
      ['G1 Evacuation Pause', 'No GC'],
      ['G1 Evacuation Pause', 'No GC'],
    ]);
  });

  it('a German locale prints decimal commas: 77,16 reads as 77.16', () => {
    const v = value(jstat('local-jdk17-gcutil-de-locale.txt'));
    expect(v.samples[0]!.values).toMatchObject({ S1: 77.16, O: 64.44, YGCT: 3.153, GCT: 3.576 });
  });

  it('JDK 8 CMS (Plumbr, -gc -t headed "Time", in markdown quotes): FGC 0 → 2 at 25 ms each reads as one normal CMS cycle', () => {
    const r = interpretText(jstat('plumbr-cms-gc-t-jdk8.txt'));
    expect(r.kind).toBe('jvm.jstat');
    const f = r.findings.find((x) => x.id === 'jvm.jstat.full-gc')!;
    // the thread's conclusion: the two "full GCs" are one CMS cycle's initial mark and remark
    expect(f.severity).toBe('info');
    expect(f.title).toBe("FGC rose by 2 in 11 s, 25 ms each: on JDK 8 most likely CMS's initial mark and remark (a normal cycle), not full collections");
    expect(f.evidence.join('\n')).toMatch(/no CGC column \(JDK 8 or older\): a CMS initial mark and remark also count as FGC/);
    expect(f.knowledgeIds).toEqual(['jvm.gc.full-collections', 'jvm.gc.pause']);
    expect(f.recommendation).toMatch(/^Likely nothing to fix: on JDK 8 jstat counts the two short stops of each CMS cycle as FGC/);
  });

  it('OrientDB -h10 every 10s, pasted from mid-stream: the row above the header is left, the window is 20 s, one full GC of 1.9 s', () => {
    const t = jstat('orientdb-2.2.18-gc-h10.txt');
    const v = value(t);
    expect(v.intervalMs).toBe(10_000);
    expect(v.samples).toHaveLength(3);
    const f = interpretText(t).findings.find((x) => x.id === 'jvm.jstat.full-gc')!;
    expect(f.title).toBe('1 full collection(s) in 20 s, 1.946 s stopped in them (1946 ms each on average)');
  });

  it('since start: an old generation 100 % full after 846 full collections that took 4152 s (cyanite on a 512 MiB heap)', () => {
    const r = interpretText(jstat('cyanite-on-cassandra-gc-jdk8.txt'));
    const f = r.findings.find((x) => x.id === 'jvm.jstat.full-gc')!;
    expect(f.title).toBe('Old generation 100.0 % full, and 846 full collections have taken 4152 s since the JVM started — more than all young ones (24 s)');
    expect(f).toMatchObject({ severity: 'warning', knowledgeIds: ['jvm.gc.full-collections', 'jvm.heap.used-ratio'] });
  });

  it('JDK 7 (P column): the same since start (JBoss, 303497 full collections); a calm 2.0 Cassandra node says nothing', () => {
    expect(found(jstat('jboss-jdk7-gcutil-old100.txt'))).toEqual(['warning:jvm.jstat.full-gc']);
    const calm = jstat('cassandra-zqhxuyuan-gcutil-jdk7.txt');
    expect(value(calm)).toMatchObject({ permGen: true, intervalMs: 1000 });
    // 6 young collections of ~32 ms, 0.19 s of GC in 9 s: the author found nothing wrong either
    expect(found(calm)).toEqual([]);
  });

  it('since start, "full" is the critical level of kb jvm.heap.used-ratio (0.9): 92 % is, 85 % is not', () => {
    const cols = '  S0     S1     E      O      P     YGC     YGCT    FGC    FGCT     GCT   ';
    const row = (o: string) => `  0.00   0.00  68.46 ${o}  57.08  44539 5829.704 303497 241552.104 247381.808`;
    expect(found([cols, row('92.00')].join('\n'))).toEqual(['warning:jvm.jstat.full-gc']);
    expect(found([cols, row('85.00')].join('\n'))).toEqual([]);
  });

  it('-gccapacity counts FGC without FGCT: the title says no time', () => {
    const f = interpretText(jstat('cassandra-zqhxuyuan-gccapacity-jdk7.txt')).findings.find((x) => x.id === 'jvm.jstat.full-gc')!;
    expect(f.title).toBe('2 full collection(s) in 40 s');
  });

  it('"-" under a collector without the counter (Serial: CGC; ZGC: nearly everything) reads as no value', () => {
    const serial = value(jstat('mackerel-jdk11-serialgc-gc-dash.txt'));
    expect(serial.samples[0]!.values).toMatchObject({ CGC: null, CGCT: null, FGC: 6, GCT: 10.927 });
    // 8.584 s over 22 young collections since start: 390 ms each
    expect(interpretText(jstat('mackerel-jdk11-serialgc-gc-dash.txt')).findings.map((f) => f.title)).toEqual([
      'Young collections pause 390 ms on average (22 of them since start)',
    ]);
    const z = value(jstat('kotlin-daemon-zgc-gc-t.txt'));
    expect(z.samples[0]!.values).toMatchObject({ YGC: null, FGC: null, CGC: 36 });
    expect(found(jstat('kotlin-daemon-zgc-gc-t.txt'))).toEqual([]);
  });

  it('JDK 9+: three full collections in the window are critical (the real JDK 17 rows, FGC raised by hand)', () => {
    const head = '$ jstat -gcutil 18386 5000';
    const cols = '  S0     S1     E      O      M     CCS    YGC     YGCT     FGC    FGCT     CGC    CGCT       GCT   ';
    const row = (fgc: number, fgct: string, gct: string) =>
      `  0.00  77.16  54.29  98.44  97.40  88.52   4232     3.153     ${fgc}     ${fgct}   546     0.423     ${gct}`;
    const text = [head, cols, row(0, '0.000', '3.576'), row(2, '2.100', '5.676'), row(3, '3.300', '6.876')].join('\n');
    const f = interpretText(text).findings.find((x) => x.id === 'jvm.jstat.full-gc')!;
    expect(f).toMatchObject({ severity: 'critical', confidence: 'high' });
    expect(f.title).toBe('3 full collection(s) in 10 s, 3.3 s stopped in them (1100 ms each on average)');
    expect(f.evidence).toContain('old generation 98.4 % occupied at the last sample (line 5)');
  });

  it('a counter that goes down is another JVM: the window starts after it', () => {
    const cols = '  S0     S1     E      O      M     CCS    YGC     YGCT     FGC    FGCT     CGC    CGCT       GCT   ';
    const row = (ygc: number, fgc: number, fgct: string, gct: string) =>
      `  0.00  10.00  50.00  40.00  97.40  88.52   ${ygc}     1.000     ${fgc}     ${fgct}   10     0.100     ${gct}`;
    const text = ['$ jstat -gcutil 1 5000', cols, row(900, 4, '4.000', '9.000'), row(5, 0, '0.000', '0.100'), row(9, 2, '2.400', '2.600')].join('\n');
    const f = interpretText(text).findings.find((x) => x.id === 'jvm.jstat.full-gc')!;
    // FGC 4 → 0 is a restart; the 2 full collections after it are counted over its 5 s, not −2 over 10 s
    expect(f.title).toBe('2 full collection(s) in 5 s, 2.4 s stopped in them (1200 ms each on average)');
    expect(f.evidence[0]).toMatch(/the 1 sample\(s\) before a counter went down \(another JVM or a restart\) are left out$/);
  });

  it('a row with more values than the header (two rows run together) is left out and counted', () => {
    const t = jstat('local-jdk17-gcutil-de-locale.txt').split('\n');
    const p = parseJstat([...t, `${t[2]} ${t[3]}`].join('\n'));
    expect(p.ok && p.value.samples).toHaveLength(2);
    expect(p.ok && p.warnings[0]).toMatch(/^1 row\(s\) did not fit the 13 columns/);
  });

  it('two jstat outputs in one block: the first is read and the warning says so', () => {
    const p = parseJstat(jstat('cassandra-bitnami-3.11.3-gc.txt') + '\n' + jstat('local-jdk17-gcutil-de-locale.txt'));
    expect(p.ok && p.warnings.some((w) => /another jstat output follows/.test(w))).toBe(true);
  });

  it('refuses text that is not jstat output', () => {
    expect(parseJstat('S0 S1 E O\nnothing here').ok).toBe(false);
    expect(parseJstat(' S0C    S1C    S0U    S1U      EC       EU        OC         OU    YGC     YGCT    FGC    FGCT     GCT\n').ok).toBe(false);
  });
});
