/** latte workloads (Rune) the incidents drive; tables are made by the incident first, so no schema() here. */
import { INCIDENT_KEYSPACE } from './types.js';

/** Single-row writes of a 1 KiB blob over `rows` keys (kv), or reads of them. */
export const KV_WORKLOAD = `//! cql-tuner incident workload: single-row writes and reads
const KEYSPACE = latte::param!("keyspace", "${INCIDENT_KEYSPACE}");
const ROWS = latte::param!("rows", 100000);

pub async fn prepare(ctx) {
    ctx.prepare("write", \`INSERT INTO \${KEYSPACE}.kv(id, v) VALUES (:id, :v)\`).await?;
    ctx.prepare("read", \`SELECT * FROM \${KEYSPACE}.kv WHERE id = :id\`).await?;
}

pub async fn write(ctx, i) {
    ctx.execute_prepared("write", [latte::hash_range(i, ROWS), latte::blob(i, 1024)]).await?
}

pub async fn read(ctx, i) {
    ctx.execute_prepared("read", [latte::hash_range(i, ROWS)]).await?
}
`;

/** Whole-partition reads of the big partitions in fat (k, c, v blob): many MiB per read, all on the heap. */
export const FAT_READ_WORKLOAD = `//! cql-tuner incident workload: whole-partition reads of big partitions
const KEYSPACE = latte::param!("keyspace", "${INCIDENT_KEYSPACE}");
const PARTITIONS = latte::param!("partitions", 4);

pub async fn prepare(ctx) {
    ctx.prepare("read", \`SELECT * FROM \${KEYSPACE}.fat WHERE k = :k\`).await?;
}

pub async fn read(ctx, i) {
    ctx.execute_prepared("read", [i % PARTITIONS]).await?
}
`;

export const KV_TABLE = `CREATE TABLE IF NOT EXISTS ${INCIDENT_KEYSPACE}.kv (id bigint PRIMARY KEY, v blob)`;
