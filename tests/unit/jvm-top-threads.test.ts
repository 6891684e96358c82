/**
 * `top -H -b -n 1 -p PID` per-thread CPU: parser, detection and rules. Real pastes from public issues
 * (tests/fixtures/real-world/top-threads_*, provenance in SOURCES.tsv) and Cassandra-named rows built here to
 * exercise each thread family (top cuts names to 15 characters, as below).
 */
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseTopThreads, topThreadGroup, type TopThreads } from '../../mcp-server/src/core/kinds/jvm-top-threads/parse.js';
import { kindRulesFor } from '../../mcp-server/src/core/rules/per-kind.js';
import { familiesOf, threadFamily } from '../../mcp-server/src/core/kinds/jvm-top-threads/rules.js';
import { fixture } from '../helpers/corpus.js';

const HEAD = `top - 10:01:02 up 3 days,  1 user,  load average: 3.10, 2.90, 2.70
Threads: 212 total,   3 running, 209 sleeping,   0 stopped,   0 zombie
%Cpu(s): 45.0 us,  5.0 sy,  0.0 ni, 49.0 id,  1.0 wa,  0.0 hi,  0.0 si,  0.0 st
MiB Mem :  15890.1 total,   1200.0 free,   9000.0 used,   5690.1 buff/cache

    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND
`;
const row = (tid: number, cpu: number, name: string, s = 'R') =>
  `${String(tid).padStart(7)} cassand+  20   0   12.3g   8.1g  30000 ${s} ${cpu.toFixed(1).padStart(5)}  52.0  12:01.33 ${name}`;
const parsed = (text: string): TopThreads => {
  const r = parseTopThreads(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const findings = (text: string) => {
  const d = detect(text);
  if (!d.ok) throw new Error('not detected');
  return kindRulesFor(d.kind)!
    .run(d.kind, d.parsed.value)
    .flatMap((o) => o.findings);
};

describe('top -H parser', () => {
  it('reads a procps-ng paste: summary, columns by header, names with spaces, TIME+', () => {
    const v = parsed(fixture('real-world/top-threads_pool-threads-busy-waiting_corretto8-202.txt'));
    expect(v.samples).toHaveLength(1);
    const s = v.samples[0]!;
    expect(s.time).toBe('12:16:34');
    expect(s.loadAverage).toEqual([10.64, 9.74, 9.72]);
    expect(s.threadsTotal).toBe(7123);
    expect(s.hostCpu).toEqual({ user: 28.3, system: 16, idle: 54.8, iowait: 0, steal: 0 });
    expect(s.threads.map((t) => [t.tid, t.cpuPct, t.name])).toEqual([
      [5660, 47, 'pool-5-thread-3'],
      [4804, 49.6, 'pool-5-thread-1'],
      [2695, 49.9, 'pool-5-thread-5'],
      [2392, 48, 'pool-5-thread-9'],
      [2284, 3.2, 'pool-5-thread-2'],
    ]);
    expect(s.threads[0]!.cpuTimeS).toBeCloseTo(128 * 60 + 42.34, 2);
    expect(s.threads[0]!.state).toBe('S');
  });

  it('reads the old procps 3.2 layout ("Cpu(s): 23.4%us", "Tasks:")', () => {
    const v = parsed(fixture('real-world/top-threads_jetty-pool-threads-cpu_jetty4453.txt'));
    const s = v.samples[0]!;
    expect(s.hostCpu).toEqual({ user: 23.4, system: 10.6, idle: 64.3, iowait: 0, steal: 0 });
    expect(s.threads.map((t) => t.group)).toEqual(['pool-5-thread', 'pool-5-thread', 'qtp', 'qtp']);
  });

  it('splits iterations (-n 2) into samples and keeps thread names that hold spaces', () => {
    const text = `${HEAD}${row(101, 99.7, 'C2 CompilerThre')}\n${row(102, 3, 'GC Thread#0', 'S')}\n\n${HEAD}${row(101, 98.1, 'C2 CompilerThre')}\n`;
    const v = parsed(text);
    expect(v.samples).toHaveLength(2);
    expect(v.samples[0]!.threads[0]!.name).toBe('C2 CompilerThre');
    expect(v.samples[1]!.threads.map((t) => t.cpuPct)).toEqual([98.1]);
  });

  it('groups 15-character names into pools and families', () => {
    expect(['CompactionExecu', 'ReadStage-12', 'GC Thread#3', 'MutationStage:1', 'G1 Conc#0', 'Native-Transpor'].map(topThreadGroup)).toEqual([
      'CompactionExecu',
      'ReadStage',
      'GC Thread',
      'MutationStage',
      'G1 Conc',
      'Native-Transpor',
    ]);
    const names = [
      'CompactionExecu',
      'GC task thread#',
      'C1 CompilerThre',
      'Native-Transpor',
      'epollEventLoopG',
      'MemtableFlushWr',
      'Stream-Deseria',
      'pool-5-thread-3',
    ];
    expect(names.map(threadFamily)).toEqual(['compaction', 'gc', 'jit', 'requests', 'network', 'flush', 'streaming', 'other']);
  });

  it('refuses text without a task table (never throws)', () => {
    for (const t of ['', 'top - 10:01:02 up 3 days, load average: 1.0, 1.0, 1.0\n', 'PID USER %CPU COMMAND\nnot a row\n', '\u0000'.repeat(50)]) {
      expect(parseTopThreads(t).ok).toBe(false);
    }
  });
});

describe('top -H of a real Cassandra 5.0.9 under latte writes (local lab, tests/fixtures/top-threads/SOURCES.tsv)', () => {
  const narrow = fixture('top-threads/top-H_cassandra509-latte-write-80col_local-lab.txt');
  const wide = fixture('top-threads/top-H_cassandra509-latte-write-w512_local-lab.txt');

  it('the leader row ("java", tid = pid) holds the process total, not a thread, and is left out', () => {
    const v = parsed(narrow);
    expect(v.samples).toHaveLength(2);
    const s = v.samples[1]!;
    expect(s.threads).toHaveLength(100);
    const lead = s.threads.find((t) => t.tid === 19973)!;
    expect([lead.name, lead.cpuPct, lead.cpuTimeS, lead.processTotal]).toEqual(['java', 99.9, 38.77, true]);
    expect(s.threads.filter((t) => t.processTotal)).toHaveLength(1); // the other "java" thread is a thread
    const fs = findings(narrow);
    expect(fs.map((f) => f.id)).toEqual(['jvm.top-threads.busiest']); // no "java at a full core" hot thread
    expect(fs[0]!.title).toMatch(/^JVM threads use 131\.2 % of one core in total; busiest: requests 52\.6 % .*; jit 49\.9 %/);
  });

  it('names cut by a narrow batch layout ("C2 Compil+") still find their family', () => {
    const names = new Map(parsed(narrow).samples[1]!.threads.map((t) => [t.name, threadFamily(t.name)]));
    expect(['C2 Compil+', 'Native-Tr+', 'MutationS+', 'epollEven+', 'PerDiskMe+', 'GC Thread+', 'MemtableF+'].map((n) => names.get(n))).toEqual([
      'jit',
      'requests',
      'requests',
      'network',
      'flush',
      'gc',
      'flush',
    ]);
  });

  it('the wide capture reads full 15-character names; JIT and compaction lead at one minute of uptime', () => {
    const s = parsed(wide).samples[0]!;
    expect(s.threads.slice(1, 3).map((t) => [t.name, t.cpuPct])).toEqual([
      ['C2 CompilerThre', 70.6],
      ['CompactionExecu', 70.6],
    ]);
    expect(
      familiesOf(s)
        .slice(0, 2)
        .map((f) => f.family)
        .sort(),
    ).toEqual(['compaction', 'jit']);
  });
});

describe('top -H detection and rules', () => {
  it('detects both real pastes as jvm.top-threads', () => {
    for (const f of ['top-threads_pool-threads-busy-waiting_corretto8-202.txt', 'top-threads_jetty-pool-threads-cpu_jetty4453.txt']) {
      const d = detect(fixture(`real-world/${f}`));
      expect(d.ok && d.kind, f).toBe('jvm.top-threads');
    }
  });

  it('compaction threads taking most of a busy JVM: family share, critical at ≥ 80 %', () => {
    const text =
      HEAD +
      [
        row(201, 92.3, 'CompactionExecu'),
        row(202, 88, 'CompactionExecu'),
        row(203, 85.5, 'CompactionExecu'),
        row(204, 12, 'Native-Transpor', 'S'),
        row(205, 4, 'GC Thread#0', 'S'),
      ].join('\n') +
      '\n';
    const fs = findings(text);
    const share = fs.find((f) => f.id === 'jvm.top-threads.family-share')!;
    expect(share.severity).toBe('critical');
    expect(share.title).toMatch(/^compaction threads take 94\.3 %/);
    expect(share.recommendation).toMatch(/compactionstats/);
    const hot = fs.find((f) => f.id === 'jvm.top-threads.hot-thread')!;
    expect(hot.title).toMatch(/CompactionExecu/);
    expect(hot.recommendation).toContain('nid=0xc9'); // tid 201
    expect(familiesOf(parsed(text).samples[0]!)[0]!.family).toBe('compaction');
  });

  it('GC threads dominating point at the GC log; a share under the threshold stays quiet', () => {
    const gc =
      HEAD + [row(301, 60, 'GC Thread#0'), row(302, 58, 'GC Thread#1'), row(303, 20, 'Native-Transpor'), row(304, 10, 'ReadStage-1')].join('\n') + '\n';
    const f = findings(gc).find((x) => x.id === 'jvm.top-threads.family-share')!;
    expect(f.severity).toBe('warning');
    expect(f.title).toMatch(/^gc threads take/);
    expect(f.recommendation).toMatch(/GC log/);
    const spread = HEAD + [row(401, 40, 'GC Thread#0'), row(402, 40, 'Native-Transpor'), row(403, 40, 'CompactionExecu')].join('\n') + '\n';
    expect(findings(spread).map((x) => x.id)).toEqual(['jvm.top-threads.busiest']);
  });

  it('an idle JVM (under one core in total) raises no share finding', () => {
    const idle = HEAD + [row(501, 30, 'CompactionExecu'), row(502, 2, 'Native-Transpor')].join('\n') + '\n';
    expect(findings(idle).map((x) => x.id)).toEqual(['jvm.top-threads.busiest']);
  });

  it('the real paste: pool-5-thread family at ~98 % of the threads CPU, no thread at a full core', () => {
    const fs = findings(fixture('real-world/top-threads_pool-threads-busy-waiting_corretto8-202.txt'));
    expect(fs.map((f) => f.id).sort()).toEqual(['jvm.top-threads.busiest', 'jvm.top-threads.family-share']);
    expect(fs.find((f) => f.id === 'jvm.top-threads.family-share')!.evidence[0]).toMatch(/pool-5-thread/);
  });

  it('a JVM that does not name its threads gets one note, not per-pool findings', () => {
    const text = HEAD + [row(601, 99, 'java'), row(602, 50, 'java')].join('\n') + '\n';
    expect(findings(text).map((f) => f.id)).toEqual(['jvm.top-threads.unnamed']);
  });
});

describe('top -H parser stays total', () => {
  it('every line-prefix of every sample parses or refuses, and the rules run on what parses', () => {
    const samples = [
      fixture('real-world/top-threads_pool-threads-busy-waiting_corretto8-202.txt'),
      fixture('real-world/top-threads_jetty-pool-threads-cpu_jetty4453.txt'),
      fixture('top-threads/top-H_cassandra509-latte-write-80col_local-lab.txt'),
    ];
    let parsedCount = 0;
    for (const text of samples) {
      const lines = text.split('\n');
      for (let n = 0; n <= lines.length; n++) {
        const r = parseTopThreads(lines.slice(0, n).join('\n'));
        if (!r.ok) continue;
        parsedCount++;
        expect(() => kindRulesFor('jvm.top-threads')!.run('jvm.top-threads', r.value)).not.toThrow();
      }
    }
    expect(parsedCount).toBeGreaterThan(200);
  });
});
