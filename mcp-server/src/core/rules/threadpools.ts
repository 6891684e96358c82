import type { Finding } from '../findings.js';
import { grade, outcome, skipped, type Rule } from './rule.js';

/**
 * Thread pools: a stage with work queued (pending) or turned away (blocked) is saturated; dropped
 * messages mean requests timed out inside the node before being served. Pool names differ per version
 * (e.g. MUTATION on ≤ 4.0, MUTATION_REQ on 4.1+), so the rule reports them as printed.
 */
export const threadPoolsRule: Rule = {
  id: 'threadpools',
  checks: 'pending, blocked and all-time-blocked tasks per thread pool; dropped messages by type',
  run(input) {
    const withPools = input.nodes.filter((n) => n.facts.threadPools?.length);
    const withDropped = input.nodes.filter((n) => n.facts.droppedMessages);
    if (!withPools.length && !withDropped.length)
      return skipped('threadpools', 'no thread-pool data (system_views.thread_pools or nodetool tpstats) was collected');
    const findings: Finding[] = [];
    for (const n of withPools) {
      for (const p of n.facts.threadPools ?? []) {
        const pending = grade(p.pending, 'threadpool.pending');
        if (pending) {
          findings.push({
            id: 'threadpool.pending',
            severity: pending,
            title: `${p.name} has ${p.pending} pending tasks`,
            evidence: [
              `${n.node}: ${p.name} active ${p.active ?? '?'}${p.activeLimit !== null ? `/${p.activeLimit}` : ''}, pending ${p.pending}, blocked ${p.blocked ?? '?'}, completed ${p.completed ?? '?'}`,
            ],
            node: n.node,
            recommendation: `Find what saturates ${p.name}: compare with other nodes (one hot node points at a hot partition or a bad disk), check disk latency and GC pauses on ${n.node}, and the load the clients send.`,
            knowledgeIds: ['threadpool.pending'],
            confidence: 'high',
          });
        }
        const blocked = grade(p.blocked, 'threadpool.blocked');
        if (blocked) {
          findings.push({
            id: 'threadpool.blocked',
            severity: blocked,
            title: `${p.name} is blocking tasks right now (${p.blocked})`,
            evidence: [`${n.node}: ${p.name} blocked ${p.blocked}, all-time blocked ${p.blockedAllTime ?? '?'}, pending ${p.pending ?? '?'}`],
            node: n.node,
            recommendation: `${p.name} is full and rejecting work. For flush writers this means disks cannot keep up; for Native-Transport-Requests, clients send more concurrent requests than the node admits.`,
            knowledgeIds: ['threadpool.blocked'],
            confidence: 'high',
          });
        }
        const allTime = grade(p.blockedAllTime, 'threadpool.blocked-all-time');
        if (allTime && !blocked) {
          findings.push({
            id: 'threadpool.blocked-all-time',
            severity: allTime,
            title: `${p.name} has blocked ${p.blockedAllTime} tasks since start`,
            evidence: [`${n.node}: ${p.name} all-time blocked ${p.blockedAllTime} (blocked now ${p.blocked ?? '?'})`],
            node: n.node,
            recommendation: `Past saturation of ${p.name}: correlate with the node's logs (StatusLogger lines) and load peaks; if it keeps growing, the pool or the disks are undersized for the load.`,
            knowledgeIds: ['threadpool.blocked-all-time'],
            confidence: 'medium',
          });
        }
      }
    }
    for (const n of withDropped) {
      const dropped = Object.entries(n.facts.droppedMessages ?? {}).filter(([, v]) => v > 0);
      const total = dropped.reduce((a, [, v]) => a + v, 0);
      const sev = grade(total, 'dropped.messages');
      if (sev) {
        findings.push({
          id: 'dropped.messages',
          severity: sev,
          title: `${total} messages dropped on ${n.node} (${dropped.map(([k]) => k).join(', ')})`,
          evidence: dropped.sort((a, b) => b[1] - a[1]).map(([k, v]) => `${n.node}: ${k} dropped ${v} (nodetool tpstats, since start)`),
          node: n.node,
          recommendation:
            'Dropped mutations mean writes acknowledged by other replicas were lost on this node until repair; dropped reads surface as client timeouts. Look for the cause at the time of the drops (GC pauses, disk stalls, overload) and run repair if mutations were dropped.',
          knowledgeIds: ['dropped.messages'],
          confidence: 'high',
        });
      }
    }
    return outcome('threadpools', findings);
  },
};
