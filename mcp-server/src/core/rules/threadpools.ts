import type { Finding } from '../findings.js';
import { pendingKnowledgeIds } from './pending-limits.js';
import { finding, outcome, pushFinding, skipped, type Rule } from './rule.js';

/** The stages that run client requests, and the cassandra.yaml setting that sizes each. */
const STAGE_SETTING: Readonly<Record<string, string>> = {
  ReadStage: 'concurrent_reads',
  MutationStage: 'concurrent_writes',
  CounterMutationStage: 'concurrent_counter_writes',
};
const REQUEST_STAGES = new Set(Object.keys(STAGE_SETTING));

/**
 * Thread pools: a stage with work queued (pending) or turned away (blocked) is saturated; dropped
 * messages mean requests timed out inside the node before being served. Pool names differ per version
 * (e.g. MUTATION on ≤ 4.0, MUTATION_REQ on 4.1+), so the rule reports them as printed.
 */
export const threadPoolsRule: Rule = {
  id: 'threadpools',
  checks: 'pending, blocked and all-time-blocked tasks per thread pool; request stages held to a few threads; dropped messages by type',
  dependsOn: ['facts:threadPools', 'facts:droppedMessages'],
  run(input, ctx) {
    // The runner skips a run with neither fact; this catches the rest (an empty pool list and no dropped counts).
    const withPools = input.nodes.filter((n) => n.facts.threadPools?.length);
    const withDropped = input.nodes.filter((n) => n.facts.droppedMessages);
    if (!withPools.length && !withDropped.length)
      return skipped('threadpools', 'no thread-pool data (system_views.thread_pools or nodetool tpstats) was collected');
    const findings: Finding[] = [];
    for (const n of withPools) {
      for (const p of n.facts.threadPools ?? []) {
        // A request stage held to a few threads (concurrent_reads 2, a setconcurrency left behind) queues work the node could do.
        if (REQUEST_STAGES.has(p.name))
          pushFinding(
            findings,
            finding(ctx, 'threadpool.stage-threads-low', p.activeLimit, () => ({
              title: `${p.name} may run only ${p.activeLimit} threads on ${n.node}`,
              evidence: [
                `${n.node}: ${p.name} active ${p.active ?? '?'}/${p.activeLimit} (system_views.thread_pools active_tasks_limit), pending ${p.pending ?? '?'}`,
              ],
              node: n.node,
              recommendation: `Set ${STAGE_SETTING[p.name]} back to a sized value (default 32; the yaml suggests 16 per data drive for reads, 8 per core for writes) in cassandra.yaml, or at once with nodetool setconcurrency ${p.name} <n>; check which change set it this low.`,
              confidence: 'high',
            })),
          );
        // Compaction tasks queued in CompactionExecutor are a compaction backlog: graded and named as one, so they
        // meet compactionstats' pending count as one problem (core/diagnosis/identity.ts) instead of a generic queue.
        if (p.name === 'CompactionExecutor') {
          pushFinding(
            findings,
            finding(ctx, 'compaction.pending', p.pending, () => ({
              title: `${p.pending} compaction tasks queued in CompactionExecutor on ${n.node}`,
              evidence: [`${n.node}: CompactionExecutor active ${p.active ?? '?'}${p.activeLimit !== null ? `/${p.activeLimit}` : ''}, pending ${p.pending}`],
              node: n.node,
              recommendation:
                'Compaction is behind: check nodetool compactionstats (which tables, how much is left), the compaction throughput cap (nodetool getcompactionthroughput) and whether the disks keep up; raise the cap or concurrent_compactors only when disk and CPU have room.',
              confidence: 'high',
            })),
          );
        } else
          pushFinding(
            findings,
            // Graded per pool (client-request and write queues follow the load), reported as one finding id.
            finding(ctx, pendingKnowledgeIds(p.name), p.pending, () => ({
              id: 'threadpool.pending',
              title: `${p.name} has ${p.pending} pending tasks`,
              evidence: [
                `${n.node}: ${p.name} active ${p.active ?? '?'}${p.activeLimit !== null ? `/${p.activeLimit}` : ''}, pending ${p.pending}, blocked ${p.blocked ?? '?'}, completed ${p.completed ?? '?'}`,
              ],
              node: n.node,
              recommendation: `Find what saturates ${p.name}: compare with other nodes (one hot node points at a hot partition or a bad disk), check disk latency and GC pauses on ${n.node}, and the load the clients send.`,
              confidence: 'high',
            })),
          );
        const blocked = pushFinding(
          findings,
          finding(ctx, 'threadpool.blocked', p.blocked, () => ({
            title: `${p.name} is blocking tasks right now (${p.blocked})`,
            evidence: [`${n.node}: ${p.name} blocked ${p.blocked}, all-time blocked ${p.blockedAllTime ?? '?'}, pending ${p.pending ?? '?'}`],
            node: n.node,
            recommendation: `${p.name} is full and rejecting work. For flush writers this means disks cannot keep up; for Native-Transport-Requests, clients send more concurrent requests than the node admits.`,
            confidence: 'high',
          })),
        );
        // Blocked now already says it; the all-time count is only news when nothing is blocked at the moment.
        if (!blocked)
          pushFinding(
            findings,
            finding(ctx, 'threadpool.blocked-all-time', p.blockedAllTime, () => ({
              title: `${p.name} has blocked ${p.blockedAllTime} tasks since start`,
              evidence: [`${n.node}: ${p.name} all-time blocked ${p.blockedAllTime} (blocked now ${p.blocked ?? '?'})`],
              node: n.node,
              recommendation: `Past saturation of ${p.name}: correlate with the node's logs (StatusLogger lines) and load peaks; if it keeps growing, the pool or the disks are undersized for the load.`,
              confidence: 'medium',
            })),
          );
      }
    }
    for (const n of withDropped) {
      const dropped = Object.entries(n.facts.droppedMessages ?? {}).filter(([, v]) => v > 0);
      const total = dropped.reduce((a, [, v]) => a + v, 0);
      pushFinding(
        findings,
        finding(ctx, 'dropped.messages', total, () => ({
          title: `${total} messages dropped on ${n.node} (${dropped.map(([k]) => k).join(', ')})`,
          evidence: dropped.sort((a, b) => b[1] - a[1]).map(([k, v]) => `${n.node}: ${k} dropped ${v} (nodetool tpstats, since start)`),
          node: n.node,
          recommendation:
            'Dropped mutations mean writes acknowledged by other replicas were lost on this node until repair; dropped reads surface as client timeouts. Look for the cause at the time of the drops (GC pauses, disk stalls, overload) and run repair if mutations were dropped.',
          confidence: 'high',
        })),
      );
    }
    return outcome('threadpools', findings);
  },
};
