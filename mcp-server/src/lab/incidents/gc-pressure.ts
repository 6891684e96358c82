import { createIncidentKeyspace, dropIncidentTable, flushAll, range } from './common.js';
import { FAT_READ_WORKLOAD } from './workloads.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const PARTITIONS = 4;
const CELLS = 48;
const CELL_BYTES = 256 * 1024;
const LOAD = 'gc-pressure';

/**
 * A small heap (384M) and whole-partition reads of 12 MiB partitions, 6 at a time, kept up in the background.
 * Measured on 4.1.10: on 512M G1 keeps up (5.6 % of the time in GC, pauses ≤ 64 ms); on 256M it spends 40 % of the
 * time in GC with no pause over 126 ms but dies of OutOfMemoryError under a continuous load, as at concurrency 12+
 * on 512M. Pressure shows as the share of time in GC (jvm.gc.time-share), not as long pauses.
 */
export const gcPressure: Incident = {
  name: 'gc-pressure',
  title: 'GC pressure (small heap, large reads)',
  description:
    `Writes ${PARTITIONS} partitions of ${(CELLS * CELL_BYTES) / 2 ** 20} MiB into ${KS}.fat ` +
    'and reads them whole, 6 at a time, until healed (lab heap 384M).',
  nodes: 1,
  heap: '384M',
  needs: ['latte'],
  // log.stop-the-world: safepoint stops whose time went into the VM operation (GC work), read from the GC log.
  expect: ['jvm.gc.time-share', 'log.gc-pause', 'jvm.gc.pause', 'log.stop-the-world', 'jvm.heap.used-ratio', 'log.oom'],
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
    // The reads go on in the background (GC pressure is a rate: a diagnosis after the load ended would see none);
    // 20 s of them before diagnose can look.
    await ctx.startLoad(LOAD, { workload: FAT_READ_WORKLOAD, fn: 'read', seconds: 600, concurrency: 6, params: { partitions: PARTITIONS } });
    await ctx.sleep(20_000);
  },
  async heal(ctx) {
    await ctx.stopLoad(LOAD);
    await dropIncidentTable(ctx, 'fat');
  },
};
