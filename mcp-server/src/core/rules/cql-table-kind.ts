import { PASTED_NODE, type NodeEvidence } from '../diagnosis/evidence.js';
import { clusterFactsFromTables } from '../facts/from-cluster.js';
import { factsFromVtables } from '../facts/from-vtables.js';
import type { NodeFacts } from '../facts/node-facts.js';
import type { CqlshTables } from '../parse/cqlsh-table.js';
import type { TsvTable } from '../parse/tsv.js';
import { CLUSTER_WIDE_RULES } from './cluster-wide.js';
import { PACK, runRule } from './rule.js';
import type { KindRuleOutcome, KindRules } from './per-kind.js';

/**
 * A pasted query result (cqlsh table, or the TSV a bundle stores) is one of the tables the sweep reads: named
 * by the SELECT above it when the paste has one, else recognised by its columns. It then feeds the same facts
 * and the same cluster-wide rules (clients, repair and hints, ownership) as a live sweep.
 */
const BY_COLUMNS: { name: string; has: string[] }[] = [
  { name: 'system.clients', has: ['driver_name', 'shard_id'] },
  { name: 'system_views.clients', has: ['driver_name', 'address'] },
  { name: 'system_views.pending_hints', has: ['host_id', 'files'] },
  { name: 'system_distributed.parent_repair_history', has: ['columnfamily_names', 'finished_at'] },
  { name: 'system.repair_history', has: ['table_uuid', 'repair_time'] },
  { name: 'system_schema.tables', has: ['table_name', 'gc_grace_seconds'] },
  { name: 'system_schema.keyspaces', has: ['keyspace_name', 'replication'] },
  { name: 'system.peers', has: ['peer', 'tokens'] },
  { name: 'system.local', has: ['tokens', 'data_center'] },
  { name: 'system.load_per_node', has: ['tablets_allocated'] },
  { name: 'system.tablets', has: ['last_token', 'repair_time'] },
];

export function nameTable(t: TsvTable, from: string | null): string | null {
  if (from && BY_COLUMNS.some((b) => b.name === from)) return from;
  return BY_COLUMNS.find((b) => b.has.every((c) => t.columns.includes(c)))?.name ?? null;
}

/** Facts from pasted tables, as from-raw builds them for a node. */
export function factsFromPastedTables(tables: Record<string, TsvTable>): NodeFacts {
  const facts = factsFromVtables(tables);
  if (tables['system.clients']) {
    facts.product = 'scylla';
    facts.clients = factsFromVtables({ clients: tables['system.clients'] }).clients ?? [];
  }
  if (tables['system.repair_history'] || tables['system.load_per_node'] || tables['system.tablets']) facts.product ??= 'scylla';
  const cluster = clusterFactsFromTables(tables);
  if (cluster) facts.cluster = cluster;
  return facts;
}

function run(named: Record<string, TsvTable>): KindRuleOutcome[] {
  if (!Object.keys(named).length) return [];
  const node: NodeEvidence = { node: PASTED_NODE, reachable: true, facts: factsFromPastedTables(named), nodetool: {}, errors: [] };
  return CLUSTER_WIDE_RULES.map((r) => ({ ...runRule(r, { nodes: [node], origin: 'pasted query result' }, PACK), checks: r.checks }));
}

/** cqlsh result tables pasted as cqlsh printed them (one or several). */
export const CQL_TABLE_RULES: KindRules = {
  run(_kind, value) {
    const named: Record<string, TsvTable> = {};
    for (const r of (value as CqlshTables).results) {
      const name = nameTable(r.table, r.from);
      if (name && !named[name]) named[name] = r.table;
    }
    return run(named);
  },
};

/** One table as tab-separated values (cqlsh's COPY TO or a script's output). */
export const CQL_TSV_RULES: KindRules = {
  run(_kind, value) {
    const t = value as TsvTable;
    const name = nameTable(t, null);
    return name ? run({ [name]: t }) : [];
  },
};
