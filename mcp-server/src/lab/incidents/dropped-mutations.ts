import { createIncidentKeyspace, dropIncidentTable } from './common.js';
import { KV_TABLE, KV_WORKLOAD } from './workloads.js';
import type { Incident } from './types.js';

/** write_request_timeout as the lab's cassandra.yaml leaves it (the 4.1/5.0 default). */
const DEFAULT_WRITE_TIMEOUT_MS = 2000;

/**
 * Writes that wait longer than write_request_timeout in the mutation stage are dropped, not applied. A 1 ms
 * timeout under a full-speed write load makes that happen on 2 cores the way an overloaded node does.
 */
export const droppedMutations: Incident = {
  name: 'dropped-mutations',
  title: 'Dropped mutations under overload',
  description: 'Sets the write timeout to 1 ms (nodetool settimeout write 1) and runs 30 s of unthrottled latte writes.',
  nodes: 1,
  needs: ['latte'],
  expect: ['dropped.messages', 'log.dropped'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(KV_TABLE);
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['settimeout', 'write', '1']);
    await ctx.latte({ workload: KV_WORKLOAD, fn: 'write', seconds: 30, concurrency: 256, params: { rows: 200000 } });
  },
  async heal(ctx) {
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['settimeout', 'write', String(DEFAULT_WRITE_TIMEOUT_MS)]);
    await dropIncidentTable(ctx, 'kv');
  },
};
