import type { QueueDepthPlan } from '../core/planners/queue-depth.js';

export function renderQueueDepth(p: QueueDepthPlan): string {
  return `${p.inFlight} requests in flight (${p.formula})\n${p.notes.map((n) => `- ${n}`).join('\n')}`;
}
