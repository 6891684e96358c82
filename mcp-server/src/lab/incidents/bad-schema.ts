import { createIncidentKeyspace, dropIncidentTable, range } from './common.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const USERS = 400;
const ROWS_PER_USER = 6;
const DELETED_PER_USER = 3;

/**
 * A schema choice that loses data: a table with gc_grace_seconds 0 that takes deletes. Its tombstones may be
 * purged by the first compaction, before a replica that missed the delete has it, so the data comes back.
 * Reads then walk the tombstones, which is how the node shows the table has deletes.
 */
export const badSchema: Incident = {
  name: 'bad-schema',
  title: 'A bad schema choice: gc_grace_seconds 0 on a table with deletes',
  description:
    `Creates ${KS}.sessions with gc_grace_seconds = 0, writes ${ROWS_PER_USER} rows in each of ${USERS} partitions, deletes ` +
    `${DELETED_PER_USER} of them in each and reads every partition.`,
  nodes: 1,
  needs: [],
  expect: ['schema.gc-grace-zero'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(`CREATE TABLE IF NOT EXISTS ${KS}.sessions (user int, id int, v text, PRIMARY KEY (user, id)) WITH gc_grace_seconds = 0`);
    const cells = range(USERS).flatMap((u) => range(ROWS_PER_USER).map((i) => [u, i]));
    await ctx.cqlMany(`INSERT INTO ${KS}.sessions (user, id, v) VALUES (?, ?, 'x')`, cells);
    await ctx.cqlMany(
      `DELETE FROM ${KS}.sessions WHERE user = ? AND id = ?`,
      cells.filter(([, i]) => i! < DELETED_PER_USER),
    );
    await ctx.cqlMany(
      `SELECT * FROM ${KS}.sessions WHERE user = ?`,
      range(USERS).map((u) => [u]),
    );
  },
  async heal(ctx) {
    await dropIncidentTable(ctx, 'sessions');
  },
};
