import { createIncidentKeyspace, dropIncidentTable, range } from './common.js';
import { KV_TABLE } from './workloads.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const DOWN = 3;
const WRITES = 2000;

/**
 * Node 3 frozen with SIGSTOP (its process and data stay; SIGCONT brings it back), so gossip marks it down while
 * writes at consistency ONE keep landing on nodes 1–2, which store hints for it.
 */
export const nodeDown: Incident = {
  name: 'node-down',
  title: 'A node down, hints piling up on the others',
  description: `Freezes node ${DOWN} (SIGSTOP), waits until gossip marks it down, then writes ${WRITES} rows at RF 3 / CL ONE through node 1.`,
  nodes: 3,
  needs: [],
  expect: ['topology.node-down', 'topology.unreachable'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(KV_TABLE);
    await ctx.signal(DOWN, 'SIGSTOP');
    // The failure detector convicts after ~10–20 s of silence (phi_convict_threshold 8).
    await ctx.sleep(25_000);
    const blob = Buffer.alloc(512, 1);
    await ctx.cqlMany(
      `INSERT INTO ${KS}.kv (id, v) VALUES (?, ?)`,
      range(WRITES).map((i) => [i, blob]),
    );
  },
  async heal(ctx) {
    await ctx.signal(DOWN, 'SIGCONT');
    await ctx.sleep(15_000);
    await dropIncidentTable(ctx, 'kv');
  },
};
