import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseTtop, threadGroup } from '../../mcp-server/src/core/parse/host/index.js';
import { kindRulesFor } from '../../mcp-server/src/core/rules/per-kind.js';
import { groupsOf } from '../../mcp-server/src/core/rules/host-ttop.js';

// sperf's own test data (datastax-labs/sperf tests/testdata/ttop-cpu.out, Apache-2.0) and its tested figures.
const text = readFileSync(join(__dirname, '..', 'fixtures', 'host', 'ttop_dse-idle-parkedthreadsmonitor_sperf.txt'), 'utf8');

describe('sjk ttop', () => {
  it('groups threads into pools the way sperf does', () => {
    const names: [string, string][] = [
      ['CoreThread-4', 'CoreThread'],
      ['RMI TCP Connection(2)-127.0.0.1', 'RMI TCP Connection(2)'],
      ['ScheduledTasks:1', 'ScheduledTasks'],
      ['NodeHealthPlugin-Scheduler-thread-0', 'NodeHealthPlugin-Scheduler-thread'],
      ['RemoteMessageServer query worker - 15', 'RemoteMessageServer query worker'],
      ['JMX server connection timeout 425', 'JMX server connection timeout 425'],
      ['internode-messaging RemoteMessageServer acceptor-4-1', 'internode-messaging RemoteMessageServer acceptor'],
    ];
    for (const [name, group] of names) expect(threadGroup(name), name).toBe(group);
  });

  it('matches sperf test_ttop_report for the first sample (pool CPU and thread counts)', () => {
    const r = parseTtop(text);
    if (!r.ok) throw new Error(r.reason);
    const v = r.value;
    const s = v.samples[0]!;
    expect(s).toMatchObject({ time: '2020-01-09T16:08:06.535+0000', processCpuPct: 45.7, applicationCpuPct: 28.06, otherCpuPct: 17.64, threadCount: 120 });
    const g = groupsOf(s).map((x) => [x.group, x.threads, Math.round(x.cpuPct * 100) / 100]);
    expect(g.slice(0, 5)).toEqual([
      ['ParkedThreadsMonitor', 1, 23.52],
      ['RMI TCP Connection(2)', 1, 2.9],
      ['CoreThread', 5, 1.2],
      ['DseGossipStateUpdater', 1, 0.1],
      ['ScheduledTasks', 1, 0.08],
    ]);
  });

  it('is detected and reported: the busiest pools as information, no compaction or GC finding on this idle node', () => {
    const d = detect(text);
    expect(d).toMatchObject({ ok: true, kind: 'host.ttop' });
    if (!d.ok) return;
    const outcomes = kindRulesFor(d.kind)!.run(d.kind, d.parsed.value);
    const findings = outcomes.flatMap((o) => o.findings);
    expect(findings.map((f) => f.id)).toEqual(['host.ttop.top-threads']);
    expect(findings[0]!.title).toMatch(/^Busiest threads at 2020-01-09T16:08:\d\d\.\d+\+0000: ParkedThreadsMonitor \(1 thread\)/);
  });

  it('flags compaction taking most of the CPU and CPU outside Java threads', () => {
    const sample = [
      '2024-03-01T10:00:00.000+0000 Process summary',
      '  process cpu=420.00%',
      '  application cpu=180.00% (user=150.00% sys=30.00%)',
      '  other: cpu=240.00%',
      '  thread count: 300',
      '  heap allocation rate 900mb/s',
      '[000101] user=70.00% sys= 5.00% alloc=   10mb/s - CompactionExecutor:1',
      '[000102] user=65.00% sys= 5.00% alloc=   10mb/s - CompactionExecutor:2',
      '[000201] user=20.00% sys=15.00% alloc=  100mb/s - Native-Transport-Requests-1',
    ].join('\n');
    const d = detect(sample);
    if (!d.ok) throw new Error(d.reason);
    const ids = kindRulesFor(d.kind)!
      .run(d.kind, d.parsed.value)
      .flatMap((o) => o.findings);
    const c = ids.find((f) => f.id === 'host.ttop.compaction-cpu')!;
    expect(c.title).toMatch(/^Compaction takes 80.56 % of the JVM's CPU \(CompactionExecutor \(2 threads\) 145 % of 180 %\)/);
    expect(c.severity).toBe('critical');
    expect(ids.find((f) => f.id === 'host.ttop.non-java-cpu')!.title).toMatch(/^57.14 % of the process CPU is outside Java threads/);
  });
});
