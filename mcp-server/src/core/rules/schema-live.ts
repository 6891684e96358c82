/**
 * The schema review inside a diagnosis: the schema as the sweep read it (system_schema.tables compaction and
 * gc_grace_seconds, system_schema.keyspaces replication, all from the node that made the cluster-wide reads)
 * becomes a CqlSchema, and the schema rules judge it with the per-table numbers of every node (sizes,
 * tombstones per read). The same facts are in a bundle, so a saved bundle is reviewed the same way.
 */
import type { NodeEvidence } from '../diagnosis/evidence.js';
import type { NodeFacts } from '../facts/node-facts.js';
import { isSystemKeyspace } from '../facts/from-cluster.js';
import type { CqlSchema, SchemaKeyspace, SchemaOptions, SchemaTable } from '../parse/schema/types.js';
import { oldestVersion } from '../knowledge/index.js';
import { schemaRules, type IndexCardinality, type SchemaRuleInput } from './schema.js';
import { outcome, skipped, type Rule } from './rule.js';

/**
 * Schema rules a diagnosis runs. Replication is left to the ownership and repair rules (which weigh it against
 * the ring), and the rules that need DESCRIBE-only details (indexes, views, compression, counters) have nothing to
 * read in the sweep's schema facts: they are listed as not checked.
 */
const LIVE_RULES = new Set(['schema.stcs-large-table', 'schema.gc-grace-zero', 'schema.secondary-index', 'schema.lcs-write-heavy']);
const NOT_IN_SWEEP = 'materialized views, compression chunk length and counters (the sweep reads no DESCRIBE text: use review_schema)';

const shortClass = (cls: string | undefined) => (cls ? cls.split('.').pop()! : null);

function keyspaceOf(name: string, replication: Record<string, string>): SchemaKeyspace {
  const rf: Record<string, number> = {};
  for (const [k, v] of Object.entries(replication)) if (k !== 'class' && /^\d+$/.test(v)) rf[k] = Number(v);
  return { name, strategy: shortClass(replication['class']), replication: rf, durableWrites: null, tablets: null };
}

function optionsOf(compaction: string | null | undefined, gcGraceSeconds: number | null, tombstoneGcMode: string | null): SchemaOptions {
  return {
    raw: {},
    compaction: compaction ? { class: compaction, options: {} } : null,
    compression: null,
    gcGraceSeconds,
    defaultTtl: null,
    caching: null,
    speculativeRetry: null,
    tombstoneGcMode,
    compactStorage: false,
  };
}

/** The schema the sweep's facts describe; null when no node read system_schema. */
export function schemaFromFacts(facts: NodeFacts): CqlSchema | null {
  const opts = facts.cluster?.tableOptions ?? [];
  const compaction = facts.tableSchemas ?? [];
  if (!opts.length && !compaction.length) return null;
  const tables = new Map<string, SchemaTable>();
  const table = (keyspace: string, name: string): SchemaTable => {
    const key = `${keyspace}.${name}`;
    let t = tables.get(key);
    if (!t) {
      t = { keyspace, name, columns: [], partitionKey: [], clustering: [], options: optionsOf(null, null, null) };
      tables.set(key, t);
    }
    return t;
  };
  for (const c of compaction) table(c.keyspace, c.table).options.compaction = c.compaction ? { class: c.compaction, options: {} } : null;
  for (const o of opts) {
    const t = table(o.keyspace, o.table);
    t.options.gcGraceSeconds = o.gcGraceSeconds;
    t.options.tombstoneGcMode = o.tombstoneGcMode;
  }
  return {
    keyspaces: (facts.cluster?.keyspaces ?? []).map((k) => keyspaceOf(k.name, k.replication)),
    tables: [...tables.values()],
    // Indexes the server keeps on its own tables (system.paxos) are not the user's design.
    indexes: (facts.cluster?.indexes ?? [])
      .filter((ix) => !isSystemKeyspace(ix.keyspace))
      .map((ix) => ({
        keyspace: ix.keyspace,
        table: ix.table,
        name: ix.name,
        target: ix.target ?? '?',
        custom: ix.kind === 'CUSTOM' || ix.className !== null,
        using: ix.className,
      })),
    views: [],
    types: [],
    other: [],
    statements: 0,
  };
}

/**
 * Each node's legacy index tables beside their base tables. nodetool tablestats lists an index as
 * "Table (index): <table>.<index>" inside its keyspace; its partitions are the distinct indexed values there.
 */
export function indexCardinality(nodes: readonly NodeEvidence[]): IndexCardinality[] {
  const out: IndexCardinality[] = [];
  for (const n of nodes) {
    const tables = n.nodetool.tablestats?.tables ?? [];
    const base = new Map(tables.filter((t) => !t.isIndex).map((t) => [`${t.keyspace}.${t.name}`, t]));
    for (const t of tables) {
      if (!t.isIndex || t.keyspace === null || t.partitionsEstimate === null) continue;
      const dot = t.name.indexOf('.');
      if (dot <= 0) continue;
      const table = t.name.slice(0, dot);
      const b = base.get(`${t.keyspace}.${table}`);
      if (!b || b.partitionsEstimate === null) continue;
      out.push({
        node: n.node,
        keyspace: t.keyspace,
        table,
        index: t.name.slice(dot + 1),
        indexPartitions: t.partitionsEstimate,
        tablePartitions: b.partitionsEstimate,
      });
    }
  }
  return out;
}

/** The rule input: the schema from the node that read it, table numbers from every node. */
export function liveSchemaInput(nodes: readonly NodeEvidence[]): SchemaRuleInput | null {
  const reader = nodes.find((n) => n.facts.cluster?.tableOptions?.length || n.facts.tableSchemas?.length);
  const schema = reader ? schemaFromFacts(reader.facts) : null;
  if (!schema) return null;
  const products = new Set(nodes.map((n) => n.facts.product).filter((p): p is 'cassandra' | 'scylla' => p === 'cassandra' || p === 'scylla'));
  // The oldest version decides, as in review_schema: mid-upgrade the oldest node is the one that refuses things.
  const version = oldestVersion(nodes.map((n) => n.facts.releaseVersion).filter((v): v is string => !!v));
  const dcs = [...new Set(nodes.map((n) => n.facts.datacenter).filter((d): d is string => !!d))];
  return {
    schema,
    ...(products.size === 1 ? { product: [...products][0]! } : {}),
    ...(version ? { version } : {}),
    tableFacts: nodes.filter((n) => n.facts.tables?.length).map((n) => ({ node: n.node, tables: n.facts.tables! })),
    ...(dcs.length ? { datacenters: dcs } : {}),
    indexCardinality: indexCardinality(nodes),
  };
}

export const liveSchemaRule: Rule = {
  id: 'schema',
  checks:
    'table design in the live schema: gc_grace_seconds 0 on tables with deletes, STCS on large tables, LCS on write-heavy tables, ' +
    `legacy secondary indexes by their cardinality (system_schema.indexes + tablestats); not from the sweep: ${NOT_IN_SWEEP}`,
  run(input, ctx) {
    const ruleInput = liveSchemaInput(input.nodes);
    if (!ruleInput) return skipped('schema', 'no schema was read (system_schema.tables answers on the node that makes the cluster-wide reads)');
    // A bundle from before the sweep read system_schema.indexes has no index facts: not "no indexes".
    const indexesRead = input.nodes.some((n) => n.facts.cluster?.indexes !== undefined);
    const outcomes = schemaRules(ruleInput, ctx).filter((o) => LIVE_RULES.has(o.rule) && (indexesRead || o.rule !== 'schema.secondary-index'));
    const failed = outcomes.filter((o) => !o.checked);
    if (failed.length === outcomes.length) return skipped('schema', failed.map((o) => `${o.rule}: ${o.skippedBecause ?? '?'}`).join('; '));
    // The sweep does not read default_time_to_live: "no default TTL" (what DESCRIBE without the option means) would be a guess here.
    const unknownTtl = (e: string) => (e === 'no default TTL' ? 'default TTL not read by the sweep' : e);
    const findings = outcomes.flatMap((o) => o.findings).map((f) => ({ ...f, evidence: f.evidence.map(unknownTtl) }));
    return outcome('schema', findings);
  },
};
