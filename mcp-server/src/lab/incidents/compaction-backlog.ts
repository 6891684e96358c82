import { randomBytes } from 'node:crypto';
import { createIncidentKeyspace, range } from './common.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const TABLES = 32;
const FLUSHES = 4;
const ROWS_PER_FLUSH = 10;
const BLOB = 100 * 1024;
/** MiB/s: slow enough that ~128 MB of merges take minutes (random blobs: compression cannot shrink them). */
const THROTTLE = 1;
const DEFAULT_THROTTLE = 64;

const table = (i: number) => `backlog_${i}`;

/**
 * Many tables each holding 4 similar SSTables (one STCS merge each), then compaction throttled to 1 MiB/s and
 * released at once: the merges queue behind the throttle as pending tasks.
 */
export const compactionBacklog: Incident = {
  name: 'compaction-backlog',
  title: 'Compaction backlog under a throttled compaction_throughput',
  description:
    `Fills ${TABLES} STCS tables with ${FLUSHES} SSTables each (~4 MB of random, incompressible bytes) while autocompaction is off, ` +
    `sets compaction throughput to ${THROTTLE} MiB/s and turns autocompaction back on.`,
  nodes: 1,
  needs: [],
  expect: ['compaction.pending'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    for (const i of range(TABLES)) await ctx.cql(`CREATE TABLE IF NOT EXISTS ${KS}.${table(i)} (k int PRIMARY KEY, v blob)`);
    // Keyspace-wide commands: one nodetool JVM per step instead of one per table.
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['disableautocompaction', KS]);
    for (const f of range(FLUSHES)) {
      for (const i of range(TABLES)) {
        const rows = range(ROWS_PER_FLUSH).map((k) => [f * ROWS_PER_FLUSH + k, randomBytes(BLOB)]);
        await ctx.cqlMany(`INSERT INTO ${KS}.${table(i)} (k, v) VALUES (?, ?)`, rows, 10);
      }
      for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['flush', KS]);
    }
    for (const n of ctx.state.nodes) {
      await ctx.nodetool(n.index, ['setcompactionthroughput', String(THROTTLE)]);
      await ctx.nodetool(n.index, ['enableautocompaction', KS]);
    }
    // Let the compaction manager pick the tables up and estimate what is left.
    await ctx.sleep(5000);
  },
  async heal(ctx) {
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['setcompactionthroughput', String(DEFAULT_THROTTLE)]);
    for (const i of range(TABLES)) await ctx.cql(`DROP TABLE IF EXISTS ${KS}.${table(i)}`);
  },
};
