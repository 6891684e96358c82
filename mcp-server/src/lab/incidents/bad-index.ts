import { createIncidentKeyspace, dropIncidentTable, flushAll, range } from './common.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const USERS = 5000;
const LOOKUPS = 300;

/**
 * A legacy secondary index on a column whose every value is unique (an e-mail address), looked up by value: each
 * lookup asks every node's index to find one row. The index's hidden table then holds as many partitions as the
 * table itself, which is how the node shows the column's cardinality.
 */
export const badIndex: Incident = {
  name: 'bad-index',
  title: 'A bad schema choice: a secondary index on a high-cardinality column',
  description:
    `Creates ${KS}.accounts with a legacy index on its unique email column, writes ${USERS} accounts, flushes and looks ` + `${LOOKUPS} of them up by email.`,
  nodes: 1,
  needs: [],
  expect: ['schema.secondary-index'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(`CREATE TABLE IF NOT EXISTS ${KS}.accounts (id int PRIMARY KEY, email text, name text)`);
    await ctx.cql(`CREATE INDEX IF NOT EXISTS accounts_by_email ON ${KS}.accounts (email)`);
    await ctx.cqlMany(
      `INSERT INTO ${KS}.accounts (id, email, name) VALUES (?, ?, ?)`,
      range(USERS).map((i) => [i, `user${i}@example.org`, `user ${i}`]),
    );
    // Partition estimates come from SSTables: flush so tablestats counts the index's values.
    await flushAll(ctx, 'accounts');
    await ctx.cqlMany(
      `SELECT * FROM ${KS}.accounts WHERE email = ?`,
      range(LOOKUPS).map((i) => [`user${(i * 17) % USERS}@example.org`]),
    );
  },
  async heal(ctx) {
    await ctx.cql(`DROP INDEX IF EXISTS ${KS}.accounts_by_email`);
    await dropIncidentTable(ctx, 'accounts');
  },
};
