import { createIncidentKeyspace, dropIncidentTable, range } from './common.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const ROWS = 3000;

/** A queue-like table: 3,000 rows written then deleted in one partition, then read (tombstone_warn_threshold 1,000). */
export const tombstones: Incident = {
  name: 'tombstones',
  title: 'Tombstone-heavy reads',
  description: `Writes ${ROWS} rows into one partition of ${KS}.queue, deletes them all, then reads the partition: every read walks ${ROWS} tombstones.`,
  nodes: 1,
  needs: [],
  expect: ['log.tombstones', 'table.tombstones-per-read'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(`CREATE TABLE IF NOT EXISTS ${KS}.queue (q int, id int, v text, PRIMARY KEY (q, id))`);
    await ctx.cqlMany(
      `INSERT INTO ${KS}.queue (q, id, v) VALUES (0, ?, 'x')`,
      range(ROWS).map((i) => [i]),
    );
    await ctx.cqlMany(
      `DELETE FROM ${KS}.queue WHERE q = 0 AND id = ?`,
      range(ROWS).map((i) => [i]),
    );
    for (let i = 0; i < 5; i++) await ctx.cql(`SELECT * FROM ${KS}.queue WHERE q = 0`);
  },
  async heal(ctx) {
    await dropIncidentTable(ctx, 'queue');
  },
};
