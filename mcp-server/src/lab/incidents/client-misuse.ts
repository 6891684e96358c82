import { createIncidentKeyspace, dropIncidentTable, range } from './common.js';
import { KV_TABLE } from './workloads.js';
import { INCIDENT_KEYSPACE as KS, type Incident } from './types.js';

const ROWS = 2000;
const LOAD = 'client-misuse';
/** Reads per second of the misbehaving load left running: steady traffic, not enough to overload 2 cores. */
const RATE = 1500;
/**
 * Unprepared reads inject sends itself, past the 10,000 the rule needs (client.unprepared-statements.floor), so the
 * incident shows even when a busy host slows latte down; IN_FLIGHT at a time.
 */
const BURST = 12_000;
const IN_FLIGHT = 32;

/** Reads whose CQL text is built per request, the key written into the string: every one is unprepared. */
export const UNPREPARED_WORKLOAD = `//! cql-tuner incident workload: unprepared reads, CQL text built per request
const KEYSPACE = latte::param!("keyspace", "${KS}");
const ROWS = latte::param!("rows", ${ROWS});

pub async fn read(ctx, i) {
    let id = latte::hash_range(i, ROWS);
    ctx.execute(\`SELECT * FROM \${KEYSPACE}.kv WHERE id = \${id}\`).await?
}
`;

/**
 * An application that never prepares: a latte load sending each read as new CQL text (the key inside the string),
 * left running until heal. system_views.cql_metrics counts them as regular statements.
 */
export const clientMisuse: Incident = {
  name: 'client-misuse',
  title: 'Client misuse: unprepared statements',
  description:
    `Sends ${BURST} unprepared reads (CQL text built per request) to ${KS}.kv and leaves a 10-minute latte load of ${RATE} more per second ` +
    'running, which heal stops.',
  nodes: 1,
  needs: ['latte'],
  expect: ['clients.unprepared-statements'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(KV_TABLE);
    const blob = Buffer.alloc(256, 3);
    await ctx.cqlMany(
      `INSERT INTO ${KS}.kv (id, v) VALUES (?, ?)`,
      range(ROWS).map((i) => [i, blob]),
    );
    await ctx.startLoad(LOAD, { workload: UNPREPARED_WORKLOAD, fn: 'read', seconds: 600, rate: RATE, params: { rows: ROWS } });
    // A statement without parameters goes unprepared (IncidentContext.cql): the key is part of the text.
    for (let i = 0; i < BURST; i += IN_FLIGHT) {
      await Promise.all(range(IN_FLIGHT).map((j) => ctx.cql(`SELECT * FROM ${KS}.kv WHERE id = ${(i + j) % ROWS}`)));
    }
    await ctx.sleep(5_000);
  },
  async heal(ctx) {
    await ctx.stopLoad(LOAD);
    await dropIncidentTable(ctx, 'kv');
  },
};
