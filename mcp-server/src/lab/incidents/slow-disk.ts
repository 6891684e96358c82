import { diskOpsOf } from './disk-near-full.js';
import { INCIDENT_KEYSPACE, type Incident, type IncidentContext } from './types.js';

const SLOW = 3;
const DISK = 'slow-disk';
const GROUP = `cql-tuner-lab-disk-node${SLOW}`;
/** RF 1, so a third of the keys live only on the slow node and no coordinator can read around it. */
const KS = `${INCIDENT_KEYSPACE}_rf1`;
/** 16 KiB rows: more bytes per write on a 2-core lab, so node 3 holds far more data than the throttle lets it cache. */
const ROWS = 40_000;
const ROW_KIB = 16;
const WRITE_SECONDS = 40;
/** latte -P values are Rune expressions: a string needs its quotes. */
const LATTE_KS = `"${KS}"`;
/** A throttled cloud volume at its cap: 10 IOPS and 256 KiB/s each way for the node's process on its data device. */
const IOPS = 10;
const BPS = 256 * 1024;
/** 4 KiB read-ahead on the loop device: each page miss is one small read, as on a random-read table. */
const READ_AHEAD_KB = 4;

/** Single-row writes of incompressible ROW_KIB blobs over ROWS keys, or reads of them (latte, Rune). */
const WORKLOAD = `//! cql-tuner incident workload: slow-disk rows
const KEYSPACE = latte::param!("keyspace", "${KS}");
const ROWS = latte::param!("rows", ${ROWS});

pub async fn prepare(ctx) {
    ctx.prepare("write", \`INSERT INTO \${KEYSPACE}.kv(id, v) VALUES (:id, :v)\`).await?;
    ctx.prepare("read", \`SELECT * FROM \${KEYSPACE}.kv WHERE id = :id\`).await?;
}

pub async fn write(ctx, i) {
    ctx.execute_prepared("write", [latte::hash_range(i, ROWS), latte::blob(i, ${ROW_KIB * 1024})]).await?
}

pub async fn read(ctx, i) {
    ctx.execute_prepared("read", [latte::hash_range(i, ROWS)]).await?
}
`;

async function unthrottle(ctx: IncidentContext): Promise<void> {
  await ctx.cgroupRemove('blkio', GROUP);
}

/**
 * Node 3's data directory on a loop-mounted filesystem whose I/O, for node 3's JVM only, is throttled with cgroup v1
 * blkio (read/write IOPS and bandwidth on the loop device's major:minor), under a random-read load whose keys
 * are a third on node 3 (RF 1). Page-cache misses on node 3 wait for the throttle: its local read latency climbs.
 */
export const slowDisk: Incident = {
  name: 'slow-disk',
  title: 'A slow data disk (I/O throttled)',
  description:
    `Writes up to ${ROWS} rows of ${ROW_KIB} KiB into ${KS}.kv (RF 1), moves node ${SLOW}'s data directory onto a loop-mounted filesystem, ` +
    `throttles node ${SLOW}'s I/O on it to ${IOPS} IOPS and ${BPS / 1024} KiB/s (cgroup blkio/${GROUP}), ` +
    'then starts a 10-minute latte read load that heal stops.',
  nodes: 3,
  needs: ['root', 'loop-devices', 'cgroup-v1-blkio', 'latte'],
  // The throttle holds I/O before the block layer counts it: the loop device shows its capped rate at a low await (measured:
  // 10 r/s, await 0.9 ms, util 0.7 %), so iostat cannot name it; the cgroup files of node 3's process can (host.io-throttle),
  // and the node's own latency is the symptom it explains.
  expect: ['host.io-throttle', 'latency.local-read-p99', 'latency.local-write-p99', 'cluster.outlier'],
  async inject(ctx) {
    const disk = diskOpsOf(ctx);
    await ctx.cql(`CREATE KEYSPACE IF NOT EXISTS ${KS} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`);
    // Uncompressed, with latte's incompressible blobs: the rows take their full size on disk, one page per read.
    await ctx.cql(`CREATE TABLE IF NOT EXISTS ${KS}.kv (id bigint PRIMARY KEY, v blob) WITH compression = {'enabled': 'false'}`);
    ctx.progress(`writing up to ${ROWS} rows of ${ROW_KIB} KiB (latte, ${WRITE_SECONDS} s)`);
    await ctx.latte({ workload: WORKLOAD, fn: 'write', seconds: WRITE_SECONDS, concurrency: 64, params: { rows: ROWS, keyspace: LATTE_KS } });
    for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['flush', KS, 'kv']);
    try {
      const d = await disk.moveDataToLoop(SLOW, DISK, { sizeMiB: 1024, readAheadKB: READ_AHEAD_KB });
      for (const dir of ['read', 'write']) await ctx.cgroupWrite('blkio', GROUP, `blkio.throttle.${dir}_iops_device`, `${d.majMin} ${IOPS}`);
      for (const dir of ['read', 'write']) await ctx.cgroupWrite('blkio', GROUP, `blkio.throttle.${dir}_bps_device`, `${d.majMin} ${BPS}`);
      await ctx.cgroupWrite('blkio', GROUP, 'cgroup.procs', String(await ctx.labPid(SLOW)));
      ctx.progress(`node ${SLOW}: data on ${d.device} (${d.fsType}, ${d.majMin}), throttled to ${IOPS} IOPS`);
    } catch (e) {
      await unthrottle(ctx).catch(() => {});
      await disk.restoreData(SLOW, DISK).catch(() => {});
      throw e;
    }
    await ctx.startLoad(DISK, { workload: WORKLOAD, fn: 'read', seconds: 600, rate: 300, concurrency: 32, params: { rows: ROWS, keyspace: LATTE_KS } });
    await ctx.sleep(30_000);
  },
  async heal(ctx) {
    await ctx.stopLoad(DISK);
    await unthrottle(ctx);
    await diskOpsOf(ctx).restoreData(SLOW, DISK);
    await ctx.cql(`DROP KEYSPACE IF EXISTS ${KS}`);
  },
};
