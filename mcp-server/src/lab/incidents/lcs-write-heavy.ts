import { createIncidentKeyspace, dropIncidentTable, flushAll, range } from './common.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const WRITES = 30_000;
const DEVICES = 300;
const READS = 200;

/**
 * LeveledCompactionStrategy on an append-mostly table (device readings): LCS rewrites each byte once per level it
 * climbs, for read benefit a table read a hundred times less than it is written does not use.
 */
export const lcsWriteHeavy: Incident = {
  name: 'lcs-write-heavy',
  title: 'A bad schema choice: LeveledCompactionStrategy on a write-heavy table',
  description: `Creates ${KS}.readings with LCS, writes ${WRITES} readings over ${DEVICES} devices (flushing between batches) and reads ${READS} devices.`,
  nodes: 1,
  needs: [],
  expect: ['schema.lcs-write-heavy'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(
      `CREATE TABLE IF NOT EXISTS ${KS}.readings (device int, seq int, v text, PRIMARY KEY (device, seq)) ` +
        `WITH compaction = {'class': 'LeveledCompactionStrategy'}`,
    );
    const batch = WRITES / 3;
    for (let b = 0; b < 3; b++) {
      await ctx.cqlMany(
        `INSERT INTO ${KS}.readings (device, seq, v) VALUES (?, ?, ?)`,
        range(batch).map((i) => [(b * batch + i) % DEVICES, b * batch + i, 'reading']),
      );
      await flushAll(ctx, 'readings');
    }
    await ctx.cqlMany(
      `SELECT * FROM ${KS}.readings WHERE device = ? LIMIT 10`,
      range(READS).map((d) => [d]),
    );
  },
  async heal(ctx) {
    await dropIncidentTable(ctx, 'readings');
  },
};
