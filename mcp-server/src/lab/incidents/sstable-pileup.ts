import { createIncidentKeyspace, dropIncidentTable, flushAll, range } from './common.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const FLUSHES = 30;
const KEYS = 50;

/** Autocompaction off and 30 flushes of the same keys: every read merges ~30 SSTables. */
export const sstablePileup: Incident = {
  name: 'sstable-pileup',
  title: 'SSTable pile-up (autocompaction disabled)',
  description: `Disables autocompaction on ${KS}.piled (STCS) and flushes ${FLUSHES} times over the same ${KEYS} keys, then reads them.`,
  nodes: 1,
  needs: [],
  expect: ['table.sstable-count', 'table.sstables-per-read'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(`CREATE TABLE IF NOT EXISTS ${KS}.piled (k int PRIMARY KEY, v text)`);
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['disableautocompaction', KS, 'piled']);
    for (let f = 0; f < FLUSHES; f++) {
      await ctx.cqlMany(
        `INSERT INTO ${KS}.piled (k, v) VALUES (?, ?)`,
        range(KEYS).map((k) => [k, `v${f}`]),
      );
      await flushAll(ctx, 'piled');
    }
    for (const k of range(KEYS)) await ctx.cql(`SELECT * FROM ${KS}.piled WHERE k = ?`, [k]);
  },
  async heal(ctx) {
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['enableautocompaction', KS, 'piled']);
    await dropIncidentTable(ctx, 'piled');
  },
};
