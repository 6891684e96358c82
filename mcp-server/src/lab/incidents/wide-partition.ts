import { createIncidentKeyspace, dropIncidentTable, flushAll, range } from './common.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const CELLS = 520;
const CELL_BYTES = 256 * 1024;

/** One ~130 MiB partition, flushed and compacted (compaction logs partitions past 100 MiB). */
export const widePartition: Incident = {
  name: 'wide-partition',
  title: 'A wide partition (>100 MiB)',
  description: `Writes ${CELLS} cells of ${CELL_BYTES / 1024} KiB into one partition of ${KS}.wide (~130 MiB), flushes and compacts it.`,
  nodes: 1,
  needs: [],
  expect: ['log.large-partition', 'table.partition-size'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(`CREATE TABLE IF NOT EXISTS ${KS}.wide (k int, c int, v blob, PRIMARY KEY (k, c))`);
    const blob = Buffer.alloc(CELL_BYTES, 7);
    await ctx.cqlMany(
      `INSERT INTO ${KS}.wide (k, c, v) VALUES (1, ?, ?)`,
      range(CELLS).map((i) => [i, blob]),
      16,
    );
    await flushAll(ctx, 'wide');
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['compact', KS, 'wide']);
  },
  async heal(ctx) {
    await dropIncidentTable(ctx, 'wide');
  },
};
