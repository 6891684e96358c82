/**
 * Per-thread CPU of the JVM from `top -H -b -n 1 -p PID`: one thread pegged at a core, or one thread family
 * (compaction, GC, JIT, request stages, event loops, streaming) taking most of the threads' CPU, and what to
 * look at next for each. PURE; thresholds in knowledge/jvm.yaml (jvm.threads.*).
 */
import type { TopSample, TopThread, TopThreads } from './parse.js';
import { fmtNum, grade, PACK } from '../../rules/rule.js';
import type { KindRule } from '../types.js';

export type ThreadFamily = 'compaction' | 'flush' | 'gc' | 'jit' | 'requests' | 'network' | 'streaming' | 'other';

/**
 * Families by Java thread-name prefixes. top shows at most 15 characters and, in a narrow batch layout, fewer with a
 * "+" ("C2 Compil+", "Native-Tr+"): a name matches when it starts with a prefix, or when what is left of a cut name
 * (6 characters or more) starts one. First family wins.
 */
const FAMILY: [ThreadFamily, string[]][] = [
  [
    'compaction',
    [
      'CompactionExecutor',
      'CompactionManager',
      'ValidationExecutor',
      'AntiCompaction',
      'Anticompaction',
      'ViewBuildExecutor',
      'SecondaryIndexManagement',
      'IndexSummaryManager',
    ],
  ],
  [
    'flush',
    [
      'MemtableFlushWriter',
      'PerDiskMemtableFlushWriter',
      'MemtablePostFlush',
      'MemtableReclaimMemory',
      'COMMIT-LOG-ALLOCATOR',
      'PERIODIC-COMMIT-LOG-SYNCER',
      'COMMIT-LOG-WRITER',
      'CommitLog',
    ],
  ],
  [
    'gc',
    [
      'GC Thread',
      'GC task thread',
      'G1 ',
      'Gang worker',
      'Parallel GC Threads',
      'ParGC',
      'Concurrent Mark-Sweep GC Thread',
      'ZWorker',
      'ZDirector',
      'ZDriver',
      'Shenandoah',
      'VM Thread',
    ],
  ],
  ['jit', ['C1 CompilerThread', 'C2 CompilerThread']],
  [
    'requests',
    [
      'Native-Transport-Requests',
      'ReadStage',
      'MutationStage',
      'SharedPool-Worker',
      'CounterMutationStage',
      'ViewMutationStage',
      'RequestResponseStage',
      'CoreThread',
      'TPC',
    ],
  ],
  ['network', ['epollEventLoopGroup', 'nioEventLoopGroup', 'Messaging-EventLoop', 'MessagingService', 'NettyEventLoop']],
  ['streaming', ['Stream', 'Repair', 'AntiEntropy']],
];

export function threadFamily(name: string): ThreadFamily {
  const cut = name.endsWith('+');
  const n = name.replace(/\+$/, '').toLowerCase();
  const hit = (p: string) => n.startsWith(p.toLowerCase()) || (n.length >= 6 && (cut || n.length >= 15) && p.toLowerCase().startsWith(n));
  return FAMILY.find(([, ps]) => ps.some(hit))?.[0] ?? 'other';
}

/** What a family busy on CPU means, and what to read next. */
const MEANING: Record<ThreadFamily, { what: string; next: string }> = {
  compaction: {
    what: 'background compaction (or validation for repair) competing with requests',
    next: 'nodetool compactionstats for the backlog and its tables; lower compaction_throughput or concurrent_compactors while serving',
  },
  flush: {
    what: 'memtable flushing and commit log work: write volume',
    next: 'nodetool tpstats (MemtableFlushWriter pending, blocked) and the write rate; memtable and commit-log disk settings',
  },
  gc: {
    what: 'garbage collection: a heap too small for the live set or an allocation storm',
    next: 'the GC log for the same minutes (pause times, heap after GC, allocation rate) and nodetool gcstats',
  },
  jit: {
    what: 'the JIT compiler: normal for minutes after a start, a JVM problem if it stays',
    next: "how long the node has run; a C2 thread busy for hours is a compiler loop: read the JVM version's known issues, a JDK update fixes most",
  },
  requests: {
    what: 'request execution: client load itself',
    next: 'nodetool tpstats and the coordinator latencies; expensive queries (slow-query log, ALLOW FILTERING, large partitions, tombstones)',
  },
  network: {
    what: 'network event loops (client or internode): many connections, small requests, TLS or compression',
    next: 'nodetool clientstats (connections per client), the TLS and compression settings, and the request rate per connection',
  },
  streaming: {
    what: 'streaming or repair (bootstrap, decommission, rebuild, a running repair)',
    next: 'nodetool netstats and the repair schedule; stream throughput limits',
  },
  other: {
    what: 'a thread outside the known Cassandra pools',
    next: "a thread dump (jstack) taken with the same top: the row's PID in hex is the dump's nid",
  },
};

const f1 = (v: number) => fmtNum(Math.round(v * 10) / 10, 1);
const hex = (tid: number) => `0x${tid.toString(16)}`;
const at = (s: TopSample) => `top${s.time ? ` ${s.time}` : ''}, line ${s.line}`;
const sum = (ts: TopThread[]) => ts.reduce((a, t) => a + t.cpuPct, 0);

export interface FamilyCpu {
  family: ThreadFamily;
  threads: number;
  cpuPct: number;
  /** The busiest groups in the family ("CompactionExecu" × 4). */
  groups: string[];
}

/** The rows that are threads: the leader row carrying the process total is left out. */
export const threadsOf = (s: TopSample): TopThread[] => s.threads.filter((t) => !t.processTotal);

export function familiesOf(s: TopSample): FamilyCpu[] {
  const m = new Map<ThreadFamily, { threads: TopThread[] }>();
  for (const t of threadsOf(s)) {
    const f = threadFamily(t.name);
    const e = m.get(f) ?? { threads: [] };
    e.threads.push(t);
    m.set(f, e);
  }
  return [...m]
    .map(([family, e]) => {
      const g = new Map<string, number>();
      for (const t of e.threads) g.set(t.group, (g.get(t.group) ?? 0) + t.cpuPct);
      const groups = [...g]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([k]) => k);
      return { family, threads: e.threads.length, cpuPct: sum(e.threads), groups };
    })
    .sort((a, b) => b.cpuPct - a.cpuPct);
}

const busiest = (v: TopThreads) => v.samples.reduce((a, b) => (sum(threadsOf(b)) > sum(threadsOf(a)) ? b : a));
const famText = (f: FamilyCpu) => `${f.family} ${f1(f.cpuPct)} % (${f.threads} thread${f.threads > 1 ? 's' : ''}: ${f.groups.join(', ')})`;

type Rule = KindRule<TopThreads>;

const summary: Rule = {
  id: 'jvm.top-threads.busiest',
  checks: "where the JVM's CPU goes per thread family in the busiest top -H sample",
  run(v) {
    if (v.unnamed) return 'every thread is named like the process: the JVM did not name its native threads (use nodetool sjk ttop)';
    const s = busiest(v);
    const fs = familiesOf(s).filter((f) => f.cpuPct > 0);
    if (fs.length === 0) return 'no thread used CPU in the sample';
    const top = [...threadsOf(s)].sort((a, b) => b.cpuPct - a.cpuPct).slice(0, 5);
    const lead = s.threads.find((t) => t.processTotal);
    return [
      {
        id: 'jvm.top-threads.busiest',
        severity: 'info',
        title: `JVM threads use ${f1(sum(threadsOf(s)))} % of one core in total; busiest: ${fs.slice(0, 3).map(famText).join('; ')}`,
        evidence: [
          `${at(s)}: ${s.threads.length} thread rows${s.threadsTotal !== null ? ` of ${s.threadsTotal}` : ''}` +
            (s.hostCpu ? `; host CPU ${f1(s.hostCpu.user)} us, ${f1(s.hostCpu.system)} sy, ${f1(s.hostCpu.iowait)} wa, ${f1(s.hostCpu.idle)} id` : '') +
            (s.loadAverage ? `; load ${s.loadAverage.join(', ')}` : ''),
          ...top.map((t) => `line ${t.line}: ${t.name} (tid ${t.tid} = nid ${hex(t.tid)}) ${f1(t.cpuPct)} %`),
          `${v.samples.length} sample(s); %CPU is of one core; names are cut to 15 characters by the kernel`,
          ...(lead ? [`line ${lead.line}: the "${lead.name}" row (tid ${lead.tid}) is the process total (TIME+ of all threads), left out`] : []),
        ],
        recommendation: `Read the busiest family against what the node should be doing: ${MEANING[fs[0]!.family].what}. Next: ${MEANING[fs[0]!.family].next}.`,
        knowledgeIds: ['jvm.threads.group-share'],
        confidence: 'high',
      },
    ];
  },
};

const hotThread: Rule = {
  id: 'jvm.top-threads.hot-thread',
  checks: 'a single thread pegged at one core (a serial bottleneck)',
  run(v) {
    if (v.unnamed) return 'thread names unavailable';
    const hits = v.samples.flatMap((s) =>
      threadsOf(s)
        .filter((t) => grade(PACK, t.cpuPct, 'jvm.threads.hot-thread'))
        .map((t) => ({ s, t })),
    );
    if (hits.length === 0) return [];
    const names = [...new Set(hits.map((h) => h.t.name))];
    const w = hits.reduce((a, b) => (b.t.cpuPct > a.t.cpuPct ? b : a));
    const fam = threadFamily(w.t.name);
    return [
      {
        id: 'jvm.top-threads.hot-thread',
        severity: 'warning',
        title: `${names.length} thread(s) at one full core: ${names.slice(0, 4).join(', ')} — a ${fam} thread at ${f1(w.t.cpuPct)} % is a serial bottleneck`,
        evidence: hits
          .slice(0, 6)
          .map(
            (h) =>
              `${at(h.s)} line ${h.t.line}: ${h.t.name} tid ${h.t.tid} (nid ${hex(h.t.tid)}) ${f1(h.t.cpuPct)} %` +
              `${h.t.cpuTimeS !== null ? `, ${f1(h.t.cpuTimeS / 60)} min CPU so far` : ''}`,
          ),
        recommendation:
          `One thread cannot use more than one core, so adding cores does not help it. It is ${MEANING[fam].what}. ` +
          `Take a thread dump now (jstack <pid>) and find nid=${hex(w.t.tid)} to see what it runs; then ${MEANING[fam].next}.`,
        knowledgeIds: ['jvm.threads.hot-thread'],
        confidence: 'high',
      },
    ];
  },
};

const familyShare: Rule = {
  id: 'jvm.top-threads.family-share',
  checks: "one thread family (compaction, GC, JIT, requests, event loops, streaming) taking most of the JVM threads' CPU",
  run(v) {
    if (v.unnamed) return 'thread names unavailable';
    const hits = v.samples.flatMap((s) => {
      const tot = sum(threadsOf(s));
      if (tot < 100) return []; // under one core in total: shares of an idle JVM mean nothing
      const f = familiesOf(s)[0];
      if (!f || (f.family === 'other' && f.groups.length > 1)) return [];
      const sev = grade(PACK, f.cpuPct / tot, 'jvm.threads.group-share');
      return sev ? [{ s, f, tot, sev }] : [];
    });
    if (hits.length === 0) return [];
    const w = hits.reduce((a, b) => (b.f.cpuPct / b.tot > a.f.cpuPct / a.tot ? b : a));
    const m = MEANING[w.f.family];
    return [
      {
        id: 'jvm.top-threads.family-share',
        severity: hits.some((h) => h.sev === 'critical') ? 'critical' : 'warning',
        title: `${w.f.family} threads take ${f1((100 * w.f.cpuPct) / w.tot)} % of the JVM threads' CPU (${f1(w.f.cpuPct)} of ${f1(w.tot)} % of one core)`,
        evidence: hits.slice(0, 3).map((h) => `${at(h.s)}: ${famText(h.f)} of ${f1(h.tot)} % in ${threadsOf(h.s).length} rows`),
        recommendation: `This is ${m.what}. Next: ${m.next}.`,
        knowledgeIds: ['jvm.threads.group-share'],
        confidence: w.f.family === 'other' ? 'medium' : 'high',
      },
    ];
  },
};

const unnamed: Rule = {
  id: 'jvm.top-threads.unnamed',
  checks: "whether top shows the JVM's thread names",
  run(v) {
    if (!v.unnamed) return [];
    const s = busiest(v);
    return [
      {
        id: 'jvm.top-threads.unnamed',
        severity: 'info',
        title: `top shows every thread as "${s.threads[0]!.name}": this JVM does not name its native threads, so top -H cannot say which pool is busy`,
        evidence: [`${at(s)}: ${s.threads.length} rows, all named ${s.threads[0]!.name}`],
        recommendation: "Use nodetool sjk ttop (per-thread CPU with Java names), or match the busiest row's PID in hex against nid=0x… in a jstack dump.",
        knowledgeIds: ['jvm.threads.hot-thread'],
        confidence: 'high',
      },
    ];
  },
};

export const TOP_THREADS_RULES: Rule[] = [summary, hotThread, familyShare, unnamed];
