import type { Finding } from '../findings.js';
import { outcome, type Rule } from './rule.js';

/**
 * Numbers that must not be taken at face value, reported as such so no one acts on them:
 * ScyllaDB's pending compaction estimate, and the idle 4.1 node whose proxyhistograms fails.
 */
export const trapsRule: Rule = {
  id: 'traps',
  checks: 'known misleading outputs (ScyllaDB pending compaction estimates, 4.1 idle-node proxyhistograms)',
  run(input) {
    const findings: Finding[] = [];
    for (const n of input.nodes) {
      const cs = n.nodetool.compactionstats;
      if (cs && cs.pendingTasksReliable === false && (cs.pendingTasks ?? 0) > 0) {
        findings.push({
          id: 'trap.scylla.compactionstats-pending',
          severity: 'info',
          title: `ScyllaDB's ${cs.pendingTasks} pending compactions on ${n.node} are an estimate, not a backlog`,
          evidence: [`${n.node}: compactionstats pending tasks ${cs.pendingTasks}, ${cs.compactions.length} running (ScyllaDB output)`],
          node: n.node,
          recommendation:
            'Do not tune on this number. Judge compaction on ScyllaDB by its compaction backlog metrics, the running compactions and SSTable counts per table.',
          knowledgeIds: ['trap.scylla.compactionstats-pending'],
          confidence: 'high',
        });
      }
      for (const e of n.errors) {
        if (e.code === 'NO_METRIC_YET') {
          findings.push({
            id: 'trap.nodetool.proxyhistograms-idle-node',
            severity: 'info',
            title: `${n.node} has served no client reads yet, so proxyhistograms has nothing to show`,
            evidence: [`${n.node}: ${e.source} [${e.code}] ${e.message}`.slice(0, 300)],
            node: n.node,
            recommendation:
              'Not a fault: Cassandra 4.1 creates the coordinator latency metric on the first read. Read latency from the virtual tables, or after traffic reaches this node.',
            knowledgeIds: ['trap.nodetool.proxyhistograms-idle-node'],
            confidence: 'high',
          });
        }
      }
    }
    return outcome('traps', findings);
  },
};
