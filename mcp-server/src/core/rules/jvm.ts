import type { Finding } from '../findings.js';
import { finding, grade, outcome, pushFinding, skipped, type Rule } from './rule.js';

/** JVM: heap nearly full and long GC pauses (nodetool info and gcstats; logs add more in the log rules). */
export const jvmRule: Rule = {
  id: 'jvm',
  checks: 'heap use (nodetool info) and the longest GC pause (nodetool gcstats)',
  run(input, ctx) {
    const findings: Finding[] = [];
    const withHeap = input.nodes.filter((n) => n.facts.heap?.maxMb);
    const withGc = input.nodes.filter((n) => n.facts.gc);
    if (!withHeap.length && !withGc.length) {
      // Say what went wrong where it is known: a failed or unreadable nodetool info/gcstats is not "no JMX".
      const why = input.nodes.flatMap((n) =>
        n.errors
          .filter((e) => /nodetool:(info|gcstats)$/.test(e.source))
          .map((e) => `${n.node} ${e.source} ${e.code === 'UNPARSED' ? `output not readable (${e.message})` : `failed [${e.code}]`}`),
      );
      return skipped(
        'jvm',
        why.length
          ? `no heap or GC data: ${why.slice(0, 3).join('; ')}${why.length > 3 ? ` (+${why.length - 3} more)` : ''}`
          : 'no heap or GC data (nodetool info / gcstats need JMX)',
      );
    }
    for (const n of withHeap) {
      const { usedMb, maxMb } = n.facts.heap!;
      if (usedMb === null || !maxMb) continue;
      let sev = grade(ctx, usedMb / maxMb, 'jvm.heap.used-ratio');
      // Used heap includes garbage not collected yet (G1 fills eden before each young collection): one high
      // reading only matters when GC shows pressure too. Without long pauses it is lowered one step.
      const pressure = grade(ctx, n.facts.gc?.maxPauseMs ?? null, 'jvm.gc.pause') !== null;
      if (sev && !pressure) sev = sev === 'critical' ? 'warning' : 'info';
      if (sev) {
        findings.push({
          id: 'jvm.heap.used-ratio',
          severity: sev,
          title: `Heap ${((100 * usedMb) / maxMb).toFixed(0)} % used on ${n.node}`,
          evidence: [
            `${n.node}: nodetool info heap ${usedMb.toFixed(0)} / ${maxMb.toFixed(0)} MB`,
            `${n.node}: longest GC pause ${n.facts.gc?.maxPauseMs ?? '?'} ms (nodetool gcstats)${pressure ? '' : ' — no GC pressure, so this reading alone says little'}`,
          ],
          node: n.node,
          recommendation:
            'A single reading can catch the heap just before a collection; if it stays high across readings, or GC pauses grow, look for large partitions, big batches, or a heap too small for the memtable and cache settings.',
          knowledgeIds: ['jvm.heap.used-ratio'],
          confidence: 'low',
        });
      }
    }
    for (const n of withGc) {
      const g = n.facts.gc!;
      pushFinding(
        findings,
        finding(ctx, 'jvm.gc.pause', g.maxPauseMs, () => ({
          title: `GC paused ${n.node} for up to ${g.maxPauseMs} ms`,
          evidence: [
            `${n.node}: nodetool gcstats over ${g.intervalMs ?? '?'} ms: max ${g.maxPauseMs} ms, total ${g.totalPauseMs ?? '?'} ms, ${g.collections ?? '?'} collections`,
          ],
          node: n.node,
          recommendation:
            'Long pauses stall every request on the node and can make peers mark it down. Check the GC log for the pause cause (humongous allocations, evacuation failure, time to safepoint), heap size vs. data model (large partitions), and consider G1 pause targets or ZGC on JDK 17+.',
          confidence: 'high',
        })),
      );
    }
    return outcome('jvm', findings);
  },
};
