import { planScaling, type ScalingInput, type ScalingPlan } from '../core/planners/scaling.js';
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
