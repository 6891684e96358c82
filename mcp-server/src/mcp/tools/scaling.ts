import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { estimateScaling, estimateScalingInputSchema } from '../../ops/scaling.js';
import { renderScaling } from '../../render/scaling.js';
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

export function registerScalingTools(server: McpServer): void {
  server.registerTool(
    'estimate_scaling',
    {
      title: 'Estimate a scale-out: steps, bootstrap time, cleanup, disk headroom',
      description:
        'Plans growing a cluster from `nodes` to a target (given, or ceil(targetThroughput / perNodeThroughput)). Bootstrap time per step uses the empirical model ' +
        'T_k = T0 · (d_k / d0)^0.6 from the ScyllaDB tablets-vs-vNodes benchmark, d_k being the data per existing node when the step starts. ' +
        'T0 comes from lastBootstrap (best), firstStepMinutes, or the stream throughput. Shows serial vNode steps plus cleanup, the parallel tablet alternative for ScyllaDB, disk use during the growth, the formula and every assumption. Pure computation.',
      inputSchema: estimateScalingInputSchema,
      outputSchema: planOutput,
      annotations: annotationsFor('estimate_scaling'),
    },
    (args) => {
      try {
        const plan = estimateScaling(args);
        return toolResult(renderScaling(plan), plan);
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
