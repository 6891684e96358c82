// The healthy row's latte workload (Rune): a small key-value table, 90 % reads and 10 % writes.
export const KV = `//! cql-tuner scenarios: healthy mixed load
pub async fn schema(ctx) {
    ctx.execute("CREATE KEYSPACE IF NOT EXISTS scenario_healthy WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}").await?;
    ctx.execute("CREATE TABLE IF NOT EXISTS scenario_healthy.kv (id bigint PRIMARY KEY, v blob)").await?;
}

pub async fn prepare(ctx) {
    ctx.prepare("write", "INSERT INTO scenario_healthy.kv (id, v) VALUES (:id, :v)").await?;
    ctx.prepare("read", "SELECT * FROM scenario_healthy.kv WHERE id = :id").await?;
}

pub async fn mixed(ctx, i) {
    let id = latte::hash_range(i, 10000);
    if i % 10 == 0 {
        ctx.execute_prepared("write", [id, latte::blob(i, 200)]).await?
    } else {
        ctx.execute_prepared("read", [id]).await?
    }
}
`;
