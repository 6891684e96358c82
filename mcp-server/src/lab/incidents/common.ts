import { INCIDENT_KEYSPACE, type IncidentContext } from './types.js';

/** The incident keyspace, replicated to every lab node (RF 1 on a 1-node lab, 3 on a 3-node one). */
export async function createIncidentKeyspace(ctx: IncidentContext): Promise<void> {
  const rf = Math.min(3, ctx.state.nodes.length);
  await ctx.cql(`CREATE KEYSPACE IF NOT EXISTS ${INCIDENT_KEYSPACE} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': ${rf}}`);
}

export async function dropIncidentTable(ctx: IncidentContext, table: string): Promise<void> {
  await ctx.cql(`DROP TABLE IF EXISTS ${INCIDENT_KEYSPACE}.${table}`);
}

/** 0..n-1 */
export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** Flush one table on every node, so its memtable becomes an SSTable. */
export async function flushAll(ctx: IncidentContext, table: string): Promise<void> {
  for (const n of ctx.state.nodes) await ctx.nodetool(n.index, ['flush', INCIDENT_KEYSPACE, table]);
}
