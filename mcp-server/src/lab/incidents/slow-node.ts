import { createIncidentKeyspace, dropIncidentTable } from './common.js';
import { KV_TABLE, KV_WORKLOAD } from './workloads.js';
import { type Incident } from './types.js';

const SLOW = 3;
const GROUP = `cql-tuner-lab-node${SLOW}`;
/** 5 ms of CPU per 100 ms period: 5 % of one core for the whole JVM. */
const QUOTA_US = 5000;
const PERIOD_US = 100_000;

/** Node 3 in its own cgroup v1 cpu group with a 5 % CFS quota, under a mixed latte load on all nodes. */
export const slowNode: Incident = {
  name: 'slow-node',
  title: 'A slow node (CPU quota)',
  description:
    `Moves node ${SLOW}'s JVM into cgroup cpu/${GROUP} with cpu.cfs_quota_us ${QUOTA_US} per ${PERIOD_US} µs, ` +
    'then starts a 10-minute latte write load (2,000/s) that heal stops.',
  nodes: 3,
  needs: ['root', 'cgroup-v1-cpu', 'latte'],
  // A JVM starved of CPU cannot bring its threads to a safepoint in time: long TTSP and stalls on that node are the fault itself.
  expect: [
    'host.cpu-throttle',
    'dropped.messages',
    'log.dropped',
    'log.time-to-safepoint',
    'log.stop-the-world',
    'log.threadpool-pending',
    'threadpool.pending',
    'cluster.outlier',
  ],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(KV_TABLE);
    const pid = await ctx.labPid(SLOW);
    await ctx.cgroupWrite('cpu', GROUP, 'cpu.cfs_period_us', String(PERIOD_US));
    await ctx.cgroupWrite('cpu', GROUP, 'cpu.cfs_quota_us', String(QUOTA_US));
    await ctx.cgroupWrite('cpu', GROUP, 'cgroup.procs', String(pid));
    await ctx.startLoad('slow-node', { workload: KV_WORKLOAD, fn: 'write', seconds: 600, rate: 2000, concurrency: 64, params: { rows: 100000 } });
    await ctx.sleep(30_000);
  },
  async heal(ctx) {
    await ctx.stopLoad('slow-node');
    await ctx.cgroupRemove('cpu', GROUP);
    await dropIncidentTable(ctx, 'kv');
  },
};
