/**
 * Per-thread CPU from `nodetool sjk ttop`: which thread pools use the JVM's CPU, compaction taking most of it,
 * and CPU spent outside Java threads (GC, JIT). PURE; thresholds in knowledge/host-metrics.yaml.
 */
import type { Finding } from '../findings.js';
import { fmtNum, grade, outcomeOf, PACK } from './rule.js';
import type { KindRuleOutcome } from './per-kind.js';
import type { Ttop, TtopSample } from '../parse/host/ttop.js';

const f1 = (v: number) => fmtNum(Math.round(v * 100) / 100, 2);

export interface ThreadGroupCpu {
  group: string;
  threads: number;
  /** user + sys, and each apart: a pool whose CPU is mostly sys is in the kernel (I/O, locks, page faults). */
  cpuPct: number;
  userPct: number;
  sysPct: number;
  allocBytesPerS: number;
}

/** Thread groups of one sample, busiest first (user + sys CPU, % of one core). */
export function groupsOf(s: TtopSample): ThreadGroupCpu[] {
  const m = new Map<string, ThreadGroupCpu>();
  for (const t of s.threads) {
    const g = m.get(t.group) ?? { group: t.group, threads: 0, cpuPct: 0, userPct: 0, sysPct: 0, allocBytesPerS: 0 };
    g.threads++;
    g.cpuPct += t.userPct + t.sysPct;
    g.userPct += t.userPct;
    g.sysPct += t.sysPct;
    g.allocBytesPerS += t.allocBytesPerS ?? 0;
    m.set(t.group, g);
  }
  return [...m.values()].sort((a, b) => b.cpuPct - a.cpuPct);
}

const at = (s: TtopSample) => `ttop ${s.time}, line ${s.line}`;
const groupText = (g: ThreadGroupCpu) => `${g.group} (${g.threads} thread${g.threads > 1 ? 's' : ''}) ${f1(g.cpuPct)} %`;
/** The sample with the most application CPU: the one that says the most. */
const busiest = (v: Ttop) => v.samples.reduce((a, b) => ((b.applicationCpuPct ?? 0) > (a.applicationCpuPct ?? 0) ? b : a));

type TtopRule = { id: string; checks: string; run(v: Ttop): Finding[] | string };

const topGroups: TtopRule = {
  id: 'host.ttop.top-threads',
  checks: 'the thread pools using the most CPU in the busiest ttop sample',
  run(v) {
    const s = busiest(v);
    const gs = groupsOf(s).slice(0, 5);
    if (gs.length === 0) return 'no thread rows under the process summaries';
    return [
      {
        id: 'host.ttop.top-threads',
        severity: 'info',
        title: `Busiest threads at ${s.time}: ${gs.slice(0, 3).map(groupText).join(', ')} (application CPU ${f1(s.applicationCpuPct ?? 0)} % of one core)`,
        evidence: [
          `${at(s)}: process cpu ${f1(s.processCpuPct ?? 0)} %, application ${f1(s.applicationCpuPct ?? 0)} %, other ${f1(s.otherCpuPct ?? 0)} %` +
            `${s.threadCount !== null ? `, ${s.threadCount} threads` : ''}`,
          ...gs.map(
            (g) => `${groupText(g)} (user ${f1(g.userPct)}, sys ${f1(g.sysPct)})${g.allocBytesPerS ? `, allocating ${f1(g.allocBytesPerS / 1024)} KiB/s` : ''}`,
          ),
          `${v.samples.length} sample(s); thread groups join pool members (CoreThread-0…n → CoreThread)`,
        ],
        recommendation:
          'Read the busiest pools against what the node should be doing: request stages (Native-Transport-Requests, ReadStage, ' +
          'MutationStage/CoreThread) follow client load; CompactionExecutor, MemtableFlushWriter, ValidationExecutor and streaming threads are ' +
          'background work you can throttle.',
        knowledgeIds: ['host.ttop.compaction-share'],
        confidence: 'high',
      },
    ];
  },
};

const compaction: TtopRule = {
  id: 'host.ttop.compaction-cpu',
  checks: 'compaction threads taking most of the application CPU',
  run(v) {
    const hits = v.samples.flatMap((s) => {
      const app = s.applicationCpuPct ?? 0;
      const c = groupsOf(s).find((g) => /^CompactionExecutor/i.test(g.group));
      if (!c || app <= 0 || c.cpuPct < 50) return [];
      const sev = grade(PACK, c.cpuPct / app, 'host.ttop.compaction-share');
      return sev ? [{ s, c, app, sev }] : [];
    });
    if (hits.length === 0) return [];
    const w = hits.reduce((a, b) => (b.c.cpuPct > a.c.cpuPct ? b : a));
    return [
      {
        id: 'host.ttop.compaction-cpu',
        severity: hits.some((h) => h.sev === 'critical') ? 'critical' : 'warning',
        title:
          `Compaction takes ${f1((100 * w.c.cpuPct) / w.app)} % of the JVM's CPU (${groupText(w.c)} of ${f1(w.app)} %) ` +
          `in ${hits.length} of ${v.samples.length} sample(s)`,
        evidence: hits.slice(0, 3).map((h) => `${at(h.s)}: ${groupText(h.c)} of application ${f1(h.app)} %`),
        recommendation:
          'Compaction competes with requests for CPU: lower concurrent_compactors or compaction_throughput while serving, check for a ' +
          'compaction backlog (nodetool compactionstats) and its cause (a strategy change, a repair, tombstone-heavy tables).',
        knowledgeIds: ['host.ttop.compaction-share'],
        confidence: 'high',
      },
    ];
  },
};

const nonJava: TtopRule = {
  id: 'host.ttop.non-java-cpu',
  checks: 'process CPU spent outside Java threads (GC, JIT compiler)',
  run(v) {
    const hits = v.samples.flatMap((s) => {
      const p = s.processCpuPct ?? 0;
      const o = s.gcCpuPct ?? s.otherCpuPct ?? 0;
      if (p < 100) return [];
      const sev = grade(PACK, o / p, 'host.ttop.non-java-share');
      return sev ? [{ s, p, o, sev }] : [];
    });
    if (hits.length === 0) return [];
    const w = hits.reduce((a, b) => (b.o > a.o ? b : a));
    return [
      {
        id: 'host.ttop.non-java-cpu',
        severity: hits.some((h) => h.sev === 'critical') ? 'critical' : 'warning',
        title: `${f1((100 * w.o) / w.p)} % of the process CPU is outside Java threads (${f1(w.o)} of ${f1(w.p)} %): GC or JIT, not requests`,
        evidence: hits.slice(0, 3).map((h) => {
          const what = h.s.gcCpuPct !== null ? 'GC' : 'other';
          return `${at(h.s)}: process ${f1(h.p)} %, ${what} ${f1(h.o)} %, application ${f1(h.s.applicationCpuPct ?? 0)} %`;
        }),
        recommendation:
          'The JVM spends its CPU on itself: read the GC log for the same minutes (pause times, allocation rate, heap occupancy after GC) ' +
          'and the heap allocation rate ttop prints; a heap too small for the live set or an allocation storm shows up here first.',
        knowledgeIds: ['host.ttop.non-java-share'],
        confidence: 'medium',
      },
    ];
  },
};

export const TTOP_RULES: TtopRule[] = [topGroups, compaction, nonJava];

export function runTtopRules(v: Ttop): KindRuleOutcome[] {
  return TTOP_RULES.map((r) => {
    return outcomeOf(r.id, r.checks, r.run(v));
  });
}
