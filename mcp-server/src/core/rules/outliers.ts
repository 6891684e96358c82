import type { NodeEvidence } from '../diagnosis/evidence.js';
import type { Finding } from '../findings.js';
import { outcome, skipped, type Rule } from './rule.js';
import { maxOf } from '../arrays.js';

/**
 * The USE method across nodes: a node whose pending work, read latency, GC pause or data size is a
 * multiple of the cluster median is the place to look first, even when no absolute threshold fires.
 */
interface Metric {
  name: string;
  unit: string;
  /** Below this, differences are noise (an idle lab node at 0.02 ms vs 0.01 ms is not an outlier). */
  floor: number;
  read(n: NodeEvidence): number | null;
}

const USER = (ks: string) => !/^system/.test(ks);

const METRICS: Metric[] = [
  { name: 'pending tasks', unit: 'tasks', floor: 5, read: (n) => (n.facts.threadPools ? n.facts.threadPools.reduce((a, p) => a + (p.pending ?? 0), 0) : null) },
  {
    name: 'worst local read p99',
    unit: 'ms',
    floor: 5,
    read: (n) => {
      const xs = (n.facts.tables ?? []).filter((t) => USER(t.keyspace) && (t.localRead?.count ?? 0) > 0).map((t) => t.localRead?.p99Ms ?? 0);
      return xs.length ? maxOf(xs) : null;
    },
  },
  { name: 'max GC pause', unit: 'ms', floor: 200, read: (n) => n.facts.gc?.maxPauseMs ?? null },
  {
    name: 'user data on disk',
    unit: 'MiB',
    floor: 1024,
    read: (n) => (n.facts.tables ? n.facts.tables.filter((t) => USER(t.keyspace)).reduce((a, t) => a + (t.diskMiB ?? 0), 0) : null),
  },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const outliersRule: Rule = {
  id: 'outliers',
  checks: 'nodes at a multiple of the cluster median in pending tasks, read p99, GC pause or data size',
  run(input, ctx) {
    const reachable = input.nodes.filter((n) => n.reachable);
    if (reachable.length < 3) return skipped('outliers', `needs at least 3 reachable nodes to compare (have ${reachable.length})`);
    const ratio = ctx.threshold('cluster.outlier-ratio').warning ?? 3;
    const findings: Finding[] = [];
    for (const m of METRICS) {
      const values = reachable.map((n) => ({ node: n.node, v: m.read(n) })).filter((x): x is { node: string; v: number } => x.v !== null);
      if (values.length < 3) continue;
      const med = median(values.map((x) => x.v));
      for (const x of values) {
        if (x.v < m.floor) continue;
        if (x.v >= ratio * Math.max(med, m.floor / ratio)) {
          findings.push({
            id: 'cluster.outlier',
            severity: 'warning',
            title: `${x.node} stands out: ${m.name} ${x.v.toFixed(m.unit === 'ms' ? 1 : 0)} ${m.unit} vs cluster median ${med.toFixed(m.unit === 'ms' ? 1 : 0)}`,
            evidence: values.map((y) => `${y.node}: ${m.name} ${y.v.toFixed(m.unit === 'ms' ? 2 : 0)} ${m.unit}`),
            node: x.node,
            recommendation: `Look at ${x.node} first: its disk, GC, and whether a hot partition or an uneven client load lands on it.`,
            knowledgeIds: ['cluster.outlier-ratio'],
            confidence: 'medium',
          });
        }
      }
    }
    return outcome('outliers', findings);
  },
};
