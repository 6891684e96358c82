/**
 * The built-in latte workload (Rune script) used for write / read / mixed runs: one table of small
 * partitions (bigint key, 100-byte blob). Parameters: keyspace (a quoted identifier), rf, rows, sequential.
 * The runner writes it into the run folder; argv-latte.ts passes the -P values.
 */
export const LATTE_KV_WORKLOAD = `//! cql-tuner built-in key-value workload: write and read single-row partitions.
const KEYSPACE = latte::param!("keyspace", "cql_tuner_stress");
const RF = latte::param!("rf", 1);
const ROWS = latte::param!("rows", 100000);
const SEQUENTIAL = latte::param!("sequential", 0);
const TABLE = "kv";
const WRITE = "write";
const READ = "read";

pub async fn schema(ctx) {
    ctx.execute(\`CREATE KEYSPACE IF NOT EXISTS \${KEYSPACE} WITH REPLICATION = { 'class' : 'SimpleStrategy', 'replication_factor' : \${RF} }\`).await?;
    ctx.execute(\`CREATE TABLE IF NOT EXISTS \${KEYSPACE}.\${TABLE}(id bigint PRIMARY KEY, v blob)\`).await?;
}

pub async fn erase(ctx) {
    ctx.execute(\`TRUNCATE TABLE \${KEYSPACE}.\${TABLE}\`).await
}

pub async fn prepare(ctx) {
    ctx.load_cycle_count = ROWS;
    ctx.prepare(WRITE, \`INSERT INTO \${KEYSPACE}.\${TABLE}(id, v) VALUES (:id, :v)\`).await?;
    ctx.prepare(READ, \`SELECT * FROM \${KEYSPACE}.\${TABLE} WHERE id = :id\`).await?;
}

fn key(i) {
    if SEQUENTIAL == 1 { i % ROWS } else { latte::hash_range(i, ROWS) }
}

pub async fn load(ctx, i) {
    ctx.execute_prepared(WRITE, [i, latte::blob(i, 100)]).await?
}

pub async fn write(ctx, i) {
    let id = key(i);
    ctx.execute_prepared(WRITE, [id, latte::blob(i, 100)]).await?
}

pub async fn read(ctx, i) {
    ctx.execute_prepared(READ, [key(i)]).await?
}
`;
