/** plan_queue_depth / `cql-tuner plan-queue-depth`: Little's law for block I/O, with its input schema and errors as OpErrors. */
import { z } from 'zod';
import { planQueueDepth, QueueDepthError, type QueueDepthInput, type QueueDepthPlan } from '../core/planners/queue-depth.js';
import { OpError } from './errors.js';

export const planQueueDepthInputSchema = z.object({
  bandwidth: z
    .union([z.string().max(64), z.number().positive()])
    .optional()
    .describe('e.g. "14.5 GB/s", "3200 MiB/s", or bytes per second'),
  iops: z.number().positive().optional(),
  requestSize: z
    .union([z.string().max(64), z.number().positive()])
    .optional()
    .describe('e.g. "128 KiB", "4k", or bytes'),
  latencyMs: z.number().positive().max(100_000).describe('device latency per request in ms (e.g. 1, or 0.1 for 100 µs)'),
});

/** The planner, its own error type turned into the OpError every adapter reports. */
export function planQueueDepthOp(input: QueueDepthInput): QueueDepthPlan {
  try {
    return planQueueDepth(input);
  } catch (e) {
    throw e instanceof QueueDepthError ? new OpError(e.code, e.message, e.fix) : e;
  }
}
