import { createIncidentKeyspace, dropIncidentTable, range } from './common.js';
import { KV_TABLE, KV_WORKLOAD } from './workloads.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

/** concurrent_reads as the lab's cassandra.yaml leaves it (the default, 32). */
const DEFAULT_CONCURRENT_READS = 32;
const ROWS = 5000;
const LOAD = 'config-mistake';

/**
 * concurrent_reads cut to 2 at runtime (nodetool setconcurrency, as a bad cassandra.yaml would set it) under a
 * read load much wider than that: reads queue in ReadStage. The load keeps going until heal.
 */
export const configMistake: Incident = {
  name: 'config-mistake',
  title: 'A config mistake: concurrent_reads 2',
  description: `Sets ReadStage to 2 threads (nodetool setconcurrency ReadStage 2) and starts a 10-minute latte read load (256 in flight) that heal stops.`,
  nodes: 1,
  needs: ['latte'],
  expect: ['threadpool.stage-threads-low', 'threadpool.pending', 'log.threadpool-pending'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(KV_TABLE);
    const blob = Buffer.alloc(1024, 2);
    await ctx.cqlMany(
      `INSERT INTO ${KS}.kv (id, v) VALUES (?, ?)`,
      range(ROWS).map((i) => [i, blob]),
    );
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['setconcurrency', 'ReadStage', '2']);
    await ctx.startLoad(LOAD, { workload: KV_WORKLOAD, fn: 'read', seconds: 600, concurrency: 256, params: { rows: ROWS } });
    await ctx.sleep(15_000);
  },
  async heal(ctx) {
    await ctx.stopLoad(LOAD);
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['setconcurrency', 'ReadStage', String(DEFAULT_CONCURRENT_READS)]);
    await dropIncidentTable(ctx, 'kv');
  },
};
