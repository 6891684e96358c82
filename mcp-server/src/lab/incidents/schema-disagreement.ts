import { createIncidentKeyspace } from './common.js';
import { INCIDENT_KEYSPACE as KS, type Incident, type IncidentContext } from './types.js';

const STALE = 3;
const TABLE = 'schema_drift';
/** Past Cassandra's 60 s migration delay, with a margin for the time disablegossip takes to be seen. */
const MIN_UPTIME_S = 70;

/** Distinct schema versions in `nodetool describecluster` output, ignoring the UNREACHABLE group. */
export function schemaVersionCount(describecluster: string): number {
  // Each version line is followed by a blank line; the block ends at the next unindented heading ("Stats for all nodes:").
  const after = describecluster.split(/Schema versions:\s*\n/)[1] ?? '';
  const end = after.search(/^\S/m);
  const block = end < 0 ? after : after.slice(0, end);
  return block.split('\n').filter((l) => /^\s*[0-9a-f-]{36}:\s*\[/i.test(l)).length;
}

/** Polls `check` every second until it is true or `seconds` pass; returns whether it became true. */
async function waitFor(ctx: IncidentContext, seconds: number, check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < seconds; i++) {
    if (await check().catch(() => false)) return true;
    await ctx.sleep(1000);
  }
  return false;
}

const statusOf = async (ctx: IncidentContext, from: number, host: string) =>
  (await ctx.nodetool(from, ['status']))
    .split('\n')
    .find((l) => l.includes(` ${host} `))
    ?.slice(0, 2) ?? '??';

/**
 * Node 3 stops gossiping (`nodetool disablegossip`: it announces shutdown, the others mark it down), a table is
 * created through node 1 (pushed to node 2 only: node 3 is down), then node 3 gossips again. All three are up,
 * and node 3 keeps its old schema version until its scheduled pull, which Cassandra delays by a minute
 * (MigrationCoordinator's migration delay): long enough for one diagnosis, not longer.
 */
export const schemaDisagreement: Incident = {
  name: 'schema-disagreement',
  title: 'Schema disagreement between nodes',
  description:
    `Disables gossip on node ${STALE}, creates ${KS}.${TABLE} through node 1 while node ${STALE} is marked down, re-enables gossip; ` +
    'the nodes disagree on the schema version for about a minute (Cassandra delays the schema pull by 60 s once a node has been up a ' +
    'minute; on a lab just started it first waits for that). Diagnose right after.',
  nodes: 3,
  needs: [],
  expect: ['topology.schema-disagreement'],
  async inject(ctx) {
    await createIncidentKeyspace(ctx);
    await ctx.cql(`DROP TABLE IF EXISTS ${KS}.${TABLE}`);
    const host = ctx.state.nodes.find((n) => n.index === STALE)!.host;
    // A node up for less than a minute pulls a differing schema at once (MigrationCoordinator.shouldPullImmediately:
    // uptime < MIGRATION_DELAY_IN_MS, 60 s): on a lab just started, node 3 would agree within a second.
    const uptime = Number(/Uptime \(seconds\)\s*:\s*(\d+)/.exec(await ctx.nodetool(STALE, ['info']))?.[1] ?? 0);
    if (uptime < MIN_UPTIME_S) {
      ctx.progress(`node ${STALE} is up ${uptime} s: waiting ${MIN_UPTIME_S - uptime} s, a node up less than a minute pulls a new schema at once`);
      await ctx.sleep((MIN_UPTIME_S - uptime) * 1000);
    }
    await ctx.nodetool(STALE, ['disablegossip']);
    try {
      const down = await waitFor(ctx, 40, async () => (await statusOf(ctx, 1, host)) === 'DN');
      // Not fatal: the change then reaches node 3 too, and the check below says so.
      if (!down) ctx.progress(`warning: node 1 still sees node ${STALE} up 40 s after disablegossip`);
      await ctx.cql(`CREATE TABLE ${KS}.${TABLE} (id int PRIMARY KEY, v text)`);
    } finally {
      await ctx.nodetool(STALE, ['enablegossip']);
    }
    const up = await waitFor(ctx, 30, async () => (await statusOf(ctx, 1, host)) === 'UN');
    const versions = schemaVersionCount(await ctx.nodetool(1, ['describecluster']));
    ctx.progress(`node ${STALE} ${up ? 'up again' : 'not yet up'}; describecluster on node 1 lists ${versions} schema version(s)`);
    if (versions < 2) ctx.progress(`warning: the nodes already agree on the schema (${versions} version listed): heal and inject again`);
  },
  async heal(ctx) {
    await ctx.nodetool(STALE, ['enablegossip']).catch(() => '');
    // resetlocalschema drops node 3's schema and pulls it from the others now instead of after the delay.
    if (schemaVersionCount(await ctx.nodetool(1, ['describecluster'])) > 1) await ctx.nodetool(STALE, ['resetlocalschema']);
    await waitFor(ctx, 90, async () => schemaVersionCount(await ctx.nodetool(1, ['describecluster'])) === 1);
    await ctx.cql(`DROP TABLE IF EXISTS ${KS}.${TABLE}`);
  },
};
