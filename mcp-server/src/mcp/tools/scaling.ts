import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { estimateScaling, renderScaling } from '../../ops/scaling.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

const step = z.object({
  step: z.number(),
  fromNodes: z.number(),
  toNodes: z.number(),
  dataPerNodeGiB: z.number(),
  ratio: z.number(),
  minutes: z.number(),
  cumulativeMinutes: z.number(),
  peakDiskUsedPct: z.number().nullable(),
});

const planOutput = {
  fromNodes: z.number(),
  targetNodes: z.number(),
  targetReason: z.string(),
  nodesPerStep: z.number(),
  formula: z.string(),
  ratioReading: z.string(),
  exponent: z.number(),
  t0: z.object({ minutes: z.number(), dataPerNodeGiB: z.number(), source: z.enum(['last-bootstrap', 'first-step', 'stream-throughput']), detail: z.string() }),
  vnodes: z.object({ steps: z.array(step), bootstrapMinutes: z.number(), cleanupMinutes: z.number().nullable(), totalMinutes: z.number() }),
  tablets: z.object({ minutes: z.number().nullable(), detail: z.string() }).nullable(),
  disk: z.object({
    diskGiB: z.number().nullable(),
    startPct: z.number().nullable(),
    endPct: z.number().nullable(),
    peakPct: z.number().nullable(),
    limitPct: z.number(),
    limitSource: z.string(),
    verdict: z.enum(['ok', 'tight', 'over', 'unknown']),
  }),
  assumptions: z.array(z.string()),
  warnings: z.array(z.string()),
  knowledgeIds: z.array(z.string()),
};

const pos = () => z.number().positive().max(1e9);

export function registerScalingTools(server: McpServer): void {
  server.registerTool(
    'estimate_scaling',
    {
      title: 'Estimate a scale-out: steps, bootstrap time, cleanup, disk headroom',
      description:
        'Plans growing a cluster from `nodes` to a target (given, or ceil(targetThroughput / perNodeThroughput)). Bootstrap time per step uses the empirical model ' +
        'T_k = T0 · (d_k / d0)^0.6 from the ScyllaDB tablets-vs-vNodes benchmark, d_k being the data per existing node when the step starts. ' +
        'T0 comes from lastBootstrap (best), firstStepMinutes, or the stream throughput. Shows serial vNode steps plus cleanup, the parallel tablet alternative for ScyllaDB, disk use during the growth, the formula and every assumption. Pure computation.',
      inputSchema: {
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
      },
      outputSchema: planOutput,
      annotations: annotationsFor('estimate_scaling'),
    },
    async (args) => {
      try {
        const plan = estimateScaling(args);
        return toolResult(renderScaling(plan), plan);
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
