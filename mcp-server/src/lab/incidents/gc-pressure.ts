import { createIncidentKeyspace, dropIncidentTable, flushAll, range } from './common.js';
import { FAT_READ_WORKLOAD } from './workloads.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const PARTITIONS = 4;
const CELLS = 48;
const CELL_BYTES = 256 * 1024;

/** A small heap (the lab's 512M) and whole-partition reads of 12 MiB partitions, several at once. */
export const gcPressure: Incident = {
  name: 'gc-pressure',
  title: 'GC pressure (small heap, large reads)',
  description:
    `Writes ${PARTITIONS} partitions of ${(CELLS * CELL_BYTES) / 2 ** 20} MiB into ${KS}.fat ` + 'and reads them whole for 40 s, 6 at a time (lab heap 512M).',
  nodes: 1,
  heap: '512M',
  needs: ['latte'],
  // log.stop-the-world: safepoint stops whose time went into the VM operation (GC work), read from the GC log.
  expect: ['log.gc-pause', 'jvm.gc.pause', 'log.stop-the-world', 'jvm.heap.used-ratio', 'log.oom'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(`CREATE TABLE IF NOT EXISTS ${KS}.fat (k int, c int, v blob, PRIMARY KEY (k, c))`);
    const blob = Buffer.alloc(CELL_BYTES, 5);
    for (const p of range(PARTITIONS))
      await ctx.cqlMany(
        `INSERT INTO ${KS}.fat (k, c, v) VALUES (?, ?, ?)`,
        range(CELLS).map((c) => [p, c, blob]),
        8,
      );
    await flushAll(ctx, 'fat');
    await ctx.latte({ workload: FAT_READ_WORKLOAD, fn: 'read', seconds: 40, concurrency: 6, params: { partitions: PARTITIONS } });
  },
  async heal(ctx) {
    await dropIncidentTable(ctx, 'fat');
  },
};
