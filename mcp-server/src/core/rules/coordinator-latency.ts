import type { Finding } from '../findings.js';
import type { Percentiles } from '../parse/nodetool/percentiles.js';
import { fmtNum, grade, outcome, skipped, type Rule } from './rule.js';
import type { KnowledgeId } from '../knowledge/index.js';

const COLUMNS = [
  ['read', 'readLatencyMicros', 'latency.coordinator-read-p99'],
  ['write', 'writeLatencyMicros', 'latency.coordinator-write-p99'],
] as const satisfies readonly [string, 'readLatencyMicros' | 'writeLatencyMicros', KnowledgeId][];

const ms = (micros: number | null) => (micros === null ? '?' : `${fmtNum(micros / 1000, 2)} ms`);

/**
 * What clients see: nodetool proxyhistograms' coordinator read and write p99 against the coordinator thresholds
 * (the virtual tables' per-table coordinator latencies are judged by the tables rule). Range, CAS and view writes
 * have no threshold of their own and are not graded.
 */
export const coordinatorLatencyRule: Rule = {
  id: 'coordinator-latency',
  checks: 'coordinator read and write latency p99 (nodetool proxyhistograms; per table from the virtual tables, graded by the tables rule)',
  run(input, ctx) {
    const views = input.nodes.filter((n) => n.nodetool.proxyhistograms);
    if (!views.length) {
      // a live sweep reads the coordinator latency virtual tables instead: the tables rule grades them per table
      const perTable = input.nodes.some((n) => (n.facts.tables ?? []).some((t) => t.coordinatorRead || t.coordinatorWrite));
      return perTable
        ? outcome('coordinator-latency', [])
        : skipped('coordinator-latency', 'no nodetool proxyhistograms and no coordinator latency virtual table was read');
    }
    const findings: Finding[] = [];
    for (const n of views) {
      const h = n.nodetool.proxyhistograms!;
      for (const [what, key, id] of COLUMNS) {
        const p: Percentiles | null = h[key];
        if (!p || p.p99 === null) continue;
        const graded = grade(ctx, p.p99 / 1000, id);
        if (!graded) continue;
        // the thresholds are sourced for Cassandra and DSE (kb appliesTo): on ScyllaDB the value is said, not graded
        const scylla = n.facts.product === 'scylla';
        findings.push({
          id,
          severity: scylla ? 'info' : graded,
          title: `Coordinator ${what} p99 on ${n.node} is ${ms(p.p99)}${scylla ? ' (not graded on ScyllaDB)' : ''}`,
          evidence: [
            `${n.node}: nodetool proxyhistograms ${what} latency: p50 ${ms(p.p50)}, p95 ${ms(p.p95)}, p99 ${ms(p.p99)}, max ${ms(p.max)}`,
            ...(scylla ? [`the ${graded} threshold this p99 reaches is Cassandra's and DSE's (kb:${id}); none is sourced for ScyllaDB`] : []),
          ],
          node: n.node,
          recommendation:
            what === 'read'
              ? 'This is what clients wait for a read, replicas included. Compare with tablehistograms on the replicas: a slow replica read (SSTables per read, tombstones, large partitions, disk) or GC pauses show there; if the replicas are fast, look at the consistency level (cross-DC), the network and the coordinator itself.'
              : 'This is the time until enough replicas acknowledged. One slow replica (GC, commit log disk), large batches or a cross-DC consistency level are the usual causes: compare the local write latency of the replicas.',
          knowledgeIds: [id],
          confidence: 'medium',
        });
      }
    }
    return outcome('coordinator-latency', findings);
  },
};
