import { createIncidentKeyspace, dropIncidentTable } from './common.js';
import { KV_TABLE } from './workloads.js';
import { INCIDENT_KEYSPACE, INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

/** The key nine operations in ten go to (reads and writes), as in the recorded 5.0.9 sample. */
export const HOT_KEY = 42;
const RATE = 1000;
const OTHER_KEYS = 10000;

/** Nine cycles in ten on one key (5 reads, 4 writes of 200 bytes), the tenth writes a random key among 10 000. */
export const HOT_KEY_WORKLOAD = `//! cql-tuner incident workload: one hot partition key
const KEYSPACE = latte::param!("keyspace", "${INCIDENT_KEYSPACE}");
const HOT = latte::param!("hot", ${HOT_KEY});
const ROWS = latte::param!("rows", ${OTHER_KEYS});

pub async fn prepare(ctx) {
    ctx.prepare("write", \`INSERT INTO \${KEYSPACE}.kv(id, v) VALUES (:id, :v)\`).await?;
    ctx.prepare("read", \`SELECT * FROM \${KEYSPACE}.kv WHERE id = :id\`).await?;
}

pub async fn skewed(ctx, i) {
    let slot = i % 10;
    if slot == 9 {
        ctx.execute_prepared("write", [latte::hash_range(i, ROWS), latte::blob(i, 200)]).await?
    } else if slot % 2 == 0 {
        ctx.execute_prepared("read", [HOT]).await?
    } else {
        ctx.execute_prepared("write", [HOT, latte::blob(i, 200)]).await?
    }
}
`;

/** A steady latte load with 90 % of its operations on one partition key, left running until heal. */
export const hotPartition: Incident = {
  name: 'hot-partition',
  title: 'Hot partition (one key takes most of the load)',
  description:
    `Starts a 10-minute latte load (${RATE}/s) on ${KS}.kv where 9 operations in 10 read or write key ${HOT_KEY}; ` +
    'heal stops it. diagnose finds the key with nodetool profileload during its window (Cassandra 4.0+).',
  nodes: 1,
  needs: ['latte'],
  expect: ['table.hot-partition'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(KV_TABLE);
    await ctx.startLoad('hot-partition', { workload: HOT_KEY_WORKLOAD, fn: 'skewed', seconds: 600, rate: RATE, concurrency: 16 });
    // Let the load settle (prepared statements, JIT) before diagnose samples it.
    await ctx.sleep(15_000);
  },
  async heal(ctx) {
    await ctx.stopLoad('hot-partition');
    await dropIncidentTable(ctx, 'kv');
  },
};
