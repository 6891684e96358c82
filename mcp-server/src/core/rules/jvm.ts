import type { Finding } from '../findings.js';
import { finding, grade, outcome, pushFinding, skipped, type Rule } from './rule.js';

/** gcstats intervals shorter than this are not graded for the share of time in GC. */
/** A share needs a window long enough to hold several collections (gcstats here, jstat samples in kinds/jvm-jstat). */
export const MIN_SHARE_INTERVAL_MS = 5_000;

/** JVM: heap nearly full, long GC pauses and the share of time in GC (nodetool info and gcstats; logs add more). */
export const jvmRule: Rule = {
  id: 'jvm',
  checks: 'heap use (nodetool info), the longest GC pause and the share of time in GC pauses (nodetool gcstats)',
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
      // Used heap includes garbage not collected yet (G1 fills eden before each young collection): one reading is
      // only as alarming as the GC evidence beside it. Without long pauses it is lowered one step; with pauses that
      // are long but not critical (a 344 ms young pause on a busy 512 MB lab node) it is at most a warning.
      const pauseSev = grade(ctx, n.facts.gc?.maxPauseMs ?? null, 'jvm.gc.pause');
      const pressure = pauseSev !== null;
      if (sev && !pressure) sev = sev === 'critical' ? 'warning' : 'info';
      else if (sev === 'critical' && pauseSev !== 'critical') sev = 'warning';
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
    for (const n of withGc) {
      const g = n.facts.gc!;
      // A share needs an interval long enough to hold several collections; gcstats called twice in a row says little.
      if (g.totalPauseMs === null || !g.intervalMs || g.intervalMs < MIN_SHARE_INTERVAL_MS) continue;
      const pct = (100 * g.totalPauseMs) / g.intervalMs;
      // Graded without the longest pause: a share that one long stop makes is jvm.gc.pause's finding (seen on the lab: one
      // 707 ms metadata collection in a 7 s interval read as "10 % in GC"); a heap short for its load collects constantly.
      const restPct = (100 * Math.max(0, g.totalPauseMs - (g.maxPauseMs ?? 0))) / g.intervalMs;
      pushFinding(
        findings,
        finding(ctx, 'jvm.gc.time-share', restPct, () => ({
          title: `${n.node} spent ${pct.toFixed(1)} % of the time in GC pauses (${g.collections ?? '?'} collections, the longest ${g.maxPauseMs ?? '?'} ms)`,
          evidence: [
            `${n.node}: nodetool gcstats over ${(g.intervalMs! / 1000).toFixed(1)} s: ${g.totalPauseMs} ms in GC, ${g.collections ?? '?'} collections, ` +
              `max ${g.maxPauseMs ?? '?'} ms` +
              (g.reclaimedBytes !== null ? `, ${(g.reclaimedBytes / 2 ** 30 / (g.intervalMs! / 1000)).toFixed(2)} GiB/s reclaimed` : ''),
            `${n.node}: without the longest pause (${g.maxPauseMs ?? 0} ms) ${restPct.toFixed(1)} % — the share graded`,
          ],
          node: n.node,
          recommendation:
            'The collector misses its own throughput goal although no single pause is long: the heap is small for this load. Find what ' +
            'allocates (whole reads of large partitions, big batches, wide IN queries, on-heap memtables), then size the heap to it.',
          confidence: 'high',
        })),
      );
    }
    return outcome('jvm', findings);
  },
};
