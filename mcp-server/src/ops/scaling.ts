import { planScaling, type ScalingInput, type ScalingPlan } from '../core/planners/scaling.js';
import { markdownTable } from '../render/markdown-table.js';
import { OpError } from './errors.js';
import { z } from 'zod';

const pos = () => z.number().positive().max(1e9);

/** estimate_scaling's input, registered by the MCP tool and checked by `cql-tuner estimate-scaling`. */
export const estimateScalingInputSchema = z.object({
  dataGiB: pos().describe('Total on-disk data of the cluster in GiB (sum of node loads, replicas included)'),
  nodes: z.number().int().min(1).max(10000),
  targetNodes: z.number().int().min(2).max(10000).optional(),
  targetThroughput: pos().optional().describe('Wanted throughput (ops/s or any unit, same as perNodeThroughput)'),
  perNodeThroughput: pos().optional(),
  nodesPerStep: z.number().int().min(1).max(1000).optional().describe('Nodes added per step (default: the current node count)'),
  streamMiBs: pos().optional().describe('Per-node stream throughput, MiB/s (Cassandra default from the knowledge base)'),
  diskGiB: pos().optional().describe('Disk capacity per node, GiB'),
  compactionMiBs: z.number().min(0).max(1e6).optional().describe('Compaction throughput for the cleanup estimate, MiB/s'),
  lastBootstrap: z.object({ minutes: pos(), dataPerNodeGiB: pos() }).optional().describe('Your last bootstrap: duration and data per node then'),
  firstStepMinutes: pos().optional().describe('Measured time of this plan’s first step (benchmark form)'),
  exponent: z.number().min(0.1).max(1.5).optional(),
  product: z.enum(['cassandra', 'scylla']).default('cassandra'),
  tablets: z.boolean().optional().describe('ScyllaDB: keyspaces use tablets (2024.2+)'),
});

/** estimate_scaling / `cql-tuner estimate-scaling`: the planner with input errors as OpErrors. */
export function estimateScaling(input: ScalingInput): ScalingPlan {
  try {
    return planScaling(input);
  } catch (e) {
    if (e instanceof RangeError)
      throw new OpError('BAD_ARGUMENT', e.message, 'Give dataGiB and nodes, and targetNodes (or targetThroughput with perNodeThroughput); see --help.');
    throw e;
  }
}

const f = (n: number | null | undefined, d = 1) => (n === null || n === undefined ? '—' : Number.isInteger(n) ? String(n) : n.toFixed(d));

/** Compact Markdown: the formula and its reading first, then the steps, cleanup, tablets, disk, assumptions. */
export function renderScaling(p: ScalingPlan): string {
  const lines = [
    `## Scale-out ${p.fromNodes} → ${p.targetNodes} nodes (${p.targetReason})`,
    `Model: ${p.formula} (kb:scaling.bootstrap.exponent). ${p.ratioReading}`,
    `T0: ${p.t0.detail}.`,
    '',
    markdownTable(
      ['step', 'nodes', 'data/node GiB (d_k)', 'd_k/d0', 'minutes', 'cumulative', 'peak disk %'],
      p.vnodes.steps.map((s) => [
        s.step,
        `${s.fromNodes}→${s.toNodes}`,
        f(s.dataPerNodeGiB),
        f(s.ratio, 3),
        f(s.minutes),
        f(s.cumulativeMinutes),
        f(s.peakDiskUsedPct),
      ]),
    ),
    '',
    `vNodes (serial): bootstrap ${f(p.vnodes.bootstrapMinutes)} min + cleanup ${f(p.vnodes.cleanupMinutes)} min = ${f(p.vnodes.totalMinutes)} min (kb:scaling.vnodes.serial-bootstrap).`,
  ];
  if (p.tablets) lines.push(`Tablets (parallel): ${p.tablets.minutes === null ? 'n/a' : `${f(p.tablets.minutes)} min`} — ${p.tablets.detail}`);
  const d = p.disk;
  lines.push(
    d.diskGiB === null
      ? 'Disk: not checked (no disk size).'
      : `Disk (${d.diskGiB} GiB/node): ${f(d.startPct)} % now, peak ${f(d.peakPct)} % during, ${f(d.endPct)} % after; limit ${d.limitPct} % (${d.limitSource}) → ${d.verdict}.`,
  );
  if (p.warnings.length) lines.push('', ...p.warnings.map((w) => `⚠ ${w}`));
  lines.push('', 'Assumptions:', ...p.assumptions.map((a) => `- ${a}`));
  return lines.join('\n');
}
