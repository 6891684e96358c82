/**
 * What changed on the servers during a stress run: a before/after snapshot difference, explained. PURE: takes
 * the per-node facts of both snapshots (ops/snapshot.ts) and returns evidence lines.
 */
import type { NodeFacts } from '../facts/node-facts.js';

export interface NodeSide {
  address: string;
  facts: NodeFacts;
}

export interface NodeDiff {
  address: string;
  pendingCompactionsBefore: number | null;
  pendingCompactionsAfter: number | null;
  droppedDelta: Record<string, number>;
  /** From nodetool gcstats of the after snapshot: it covers the time since the before call, i.e. the run. */
  gcMaxPauseMs: number | null;
  gcCollections: number | null;
  gcTotalPauseMs: number | null;
  heapUsedMbBefore: number | null;
  heapUsedMbAfter: number | null;
  /** Pools whose pending or blocked count grew. */
  poolGrowth: { pool: string; pendingBefore: number | null; pendingAfter: number | null; blockedDelta: number | null }[];
}

export interface ServerDiff {
  nodes: NodeDiff[];
  /** Sentences explaining the difference, worst first. */
  explanation: string[];
}

function pendingCompactions(f: NodeFacts): number | null {
  const pool = f.threadPools?.find((p) => p.name === 'CompactionExecutor');
  const tasks = f.sstableTasks?.filter((t) => (t.kind ?? '').toLowerCase().includes('compaction')).length;
  if (pool?.pending !== null && pool?.pending !== undefined) return pool.pending + (pool.active ?? 0);
  return tasks ?? null;
}

export function diffSnapshots(before: NodeSide[], after: NodeSide[]): ServerDiff {
  const nodes: NodeDiff[] = [];
  const explanation: string[] = [];
  for (const a of after) {
    const b = before.find((x) => x.address === a.address);
    const bf = b?.facts ?? {};
    const af = a.facts;
    const droppedDelta: Record<string, number> = {};
    for (const [k, v] of Object.entries(af.droppedMessages ?? {})) {
      const d = v - (bf.droppedMessages?.[k] ?? 0);
      if (d > 0) droppedDelta[k] = d;
    }
    const poolGrowth: NodeDiff['poolGrowth'] = [];
    for (const p of af.threadPools ?? []) {
      const q = bf.threadPools?.find((x) => x.name === p.name);
      const blockedDelta =
        p.blockedAllTime !== null && q?.blockedAllTime !== null && q?.blockedAllTime !== undefined ? p.blockedAllTime - q.blockedAllTime : null;
      if ((p.pending ?? 0) > (q?.pending ?? 0) || (blockedDelta ?? 0) > 0)
        poolGrowth.push({ pool: p.name, pendingBefore: q?.pending ?? null, pendingAfter: p.pending, blockedDelta });
    }
    const d: NodeDiff = {
      address: a.address,
      pendingCompactionsBefore: pendingCompactions(bf),
      pendingCompactionsAfter: pendingCompactions(af),
      droppedDelta,
      gcMaxPauseMs: af.gc?.maxPauseMs ?? null,
      gcCollections: af.gc?.collections ?? null,
      gcTotalPauseMs: af.gc?.totalPauseMs ?? null,
      heapUsedMbBefore: bf.heap?.usedMb ?? null,
      heapUsedMbAfter: af.heap?.usedMb ?? null,
      poolGrowth,
    };
    nodes.push(d);
    const dropped = Object.entries(droppedDelta);
    if (dropped.length)
      explanation.push(
        `${a.address}: ${dropped.map(([k, v]) => `${v} ${k}`).join(', ')} dropped during the run — the node shed load (requests older than their timeout); the client saw these as timeouts or retries.`,
      );
    const pa = d.pendingCompactionsAfter ?? 0;
    const pb = d.pendingCompactionsBefore ?? 0;
    if (pa > pb && pa > 0)
      explanation.push(
        `${a.address}: compactions pending went ${pb} → ${pa}: the run wrote faster than compaction keeps up; the next run starts with a backlog (read amplification), so let it drain or compare like with like.`,
      );
    if (d.gcMaxPauseMs !== null && d.gcMaxPauseMs > 0)
      explanation.push(
        `${a.address}: GC during the run: ${d.gcCollections ?? '?'} collections, longest pause ${d.gcMaxPauseMs} ms, ${d.gcTotalPauseMs ?? '?'} ms in all — compare with the run's max latency.`,
      );
    for (const g of poolGrowth.filter((g) => (g.blockedDelta ?? 0) > 0))
      explanation.push(`${a.address}: ${g.pool} blocked ${g.blockedDelta} tasks during the run (back-pressure).`);
  }
  if (!explanation.length && nodes.length)
    explanation.push('No dropped messages, no compaction backlog left and no notable GC on the nodes: the servers absorbed the run.');
  return { nodes, explanation };
}
