import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { migrationReview, renderMigrationReview } from '../../ops/migration.js';
import { MAX_TOOL_TEXT_CHARS } from '../limits.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

const endpoint = z.object({ product: z.enum(['cassandra', 'scylla', 'postgres']), version: z.string().min(1).max(40) });

const accessPattern = z.object({
  name: z.string().max(48).optional(),
  table: z.string().min(1).max(128),
  where: z.array(z.string().max(128)).max(16).describe('equality columns: the partition key'),
  range: z.array(z.string().max(128)).max(8).optional(),
  orderBy: z.array(z.object({ col: z.string().max(128), desc: z.boolean().optional() })).max(8).optional(),
  limit: z.number().int().positive().optional(),
  frequency: z.string().max(40).optional(),
  join: z.array(z.string().max(128)).max(8).optional().describe('related tables joined by foreign key'),
  rowsPerKeyPerDay: z.number().nonnegative().optional().describe('rows added per partition key per day (most active key): sizes the time bucket'),
  maxRowsPerKey: z.number().int().positive().optional(),
});

const proposedColumn = z.object({ name: z.string(), type: z.string(), kind: z.enum(['partition_key', 'clustering', 'regular']), from: z.string() });

const reviewOutput = {
  kind: z.enum(['cassandra-upgrade', 'cassandra-to-scylla', 'vnodes-to-tablets', 'postgres-to-cql']),
  from: endpoint,
  to: endpoint,
  path: z.array(z.string()),
  items: z.array(
    z.object({
      id: z.string(),
      area: z.enum(['path', 'config', 'schema', 'clients', 'cluster', 'procedure', 'model']),
      subject: z.string().optional(),
      title: z.string(),
      status: z.enum(['ok', 'action', 'blocker']),
      evidence: z.array(z.string()),
      action: z.string().optional(),
      knowledgeIds: z.array(z.string()),
      step: z.number().optional(),
    }),
  ),
  counts: z.object({ ok: z.number(), action: z.number(), blocker: z.number() }),
  verdict: z.enum(['blocked', 'actions', 'ready']),
  inputs: z.object({ config: z.boolean(), schema: z.boolean(), cluster: z.boolean(), ddl: z.boolean().optional(), patterns: z.number().optional() }),
  proposal: z
    .object({
      keyspace: z.string(),
      tables: z.array(
        z.object({
          name: z.string(),
          pattern: z.string(),
          sourceTable: z.string(),
          partitionKey: z.array(z.string()),
          clustering: z.array(z.object({ name: z.string(), order: z.enum(['ASC', 'DESC']) })),
          columns: z.array(proposedColumn),
          bucket: z.object({ column: z.string(), period: z.enum(['hour', 'day', 'week', 'month', 'year']), of: z.string() }).nullable(),
          denormalized: z.array(z.object({ table: z.string(), how: z.enum(['copied columns', 'nested list']), columns: z.array(z.string()) })),
          cql: z.string(),
        }),
      ),
      types: z.array(z.object({ name: z.string(), fields: z.array(z.object({ name: z.string(), type: z.string() })) })),
      ddl: z.string(),
    })
    .optional(),
  warnings: z.array(z.string()),
};

export function registerMigrationTools(server: McpServer): void {
  server.registerTool(
    'migration_review',
    {
      title: 'Review a migration: Cassandra upgrade, Cassandra → ScyllaDB, vnodes → tablets, PostgreSQL → CQL',
      description:
        'Builds a checklist (status ok / action / blocker, with the evidence found) for: a Cassandra upgrade 3.11 → 4.0/4.1 → 5.0 (path, config renames and removed keys, COMPACT STORAGE, client protocol/driver versions, ' +
        'schema agreement, mixed versions, repair state, snapshot, rolling order, upgradesstables, storage_compatibility_mode); Cassandra → ScyllaDB (feature gaps, compaction mapping to ICS, shard/tablet-aware drivers, ' +
        'config mapping, tablets vs vnodes keyspaces); ScyllaDB vnodes → tablets. Optional inputs sharpen it: cassandra.yaml text or file, DESCRIBE SCHEMA text or file, a snapshot bundle (clients, versions, schema versions). ' +
        'PostgreSQL → CQL data-model review (from {product: postgres}): give ddlText/ddlFile (pg_dump --schema-only) and accessPatterns (strings like "orders by user_id order by created_at desc limit 20 ~40/day", or objects); ' +
        'returns one query table per pattern (partition key from equality columns, clustering from range/order, parent columns copied along foreign keys, a time bucket sized against the partition ceiling), type mapping, ' +
        'and items for unbounded/hot partitions, denormalisation write amplification, secondary-index temptations, constraints/sequences/transactions CQL lacks (LWT cost), counters, plus the proposed CQL DDL checked by the CQL parser and schema rules. Read-only.',
      inputSchema: {
        from: endpoint.describe('Current product and version, e.g. {product: cassandra, version: 3.11.16}'),
        to: endpoint.describe('Target product and version'),
        kind: z.enum(['cassandra-upgrade', 'cassandra-to-scylla', 'vnodes-to-tablets', 'postgres-to-cql']).optional().describe('Default: from the products'),
        configText: z.string().max(MAX_TOOL_TEXT_CHARS).optional(),
        configFile: z.string().max(4096).optional(),
        schemaText: z.string().max(MAX_TOOL_TEXT_CHARS).optional(),
        schemaFile: z.string().max(4096).optional(),
        bundleDir: z.string().max(4096).optional().describe('Snapshot bundle (cluster_snapshot bundle: true)'),
        ddlText: z.string().max(MAX_TOOL_TEXT_CHARS).optional().describe('PostgreSQL → CQL: pg_dump --schema-only output'),
        ddlFile: z.string().max(4096).optional().describe('PostgreSQL → CQL: path of a pg_dump --schema-only file'),
        accessPatterns: z.array(z.union([z.string().max(500), accessPattern])).max(64).optional().describe('PostgreSQL → CQL: the queries, e.g. "orders by user_id order by created_at desc limit 20 ~40/day"'),
        keyspace: z.string().max(48).optional().describe('PostgreSQL → CQL: keyspace for the proposed tables (default: the PostgreSQL schema, or app)'),
      },
      outputSchema: reviewOutput,
      annotations: annotationsFor('migration_review'),
    },
    async (args) => {
      try {
        const r = await migrationReview(args);
        return toolResult(renderMigrationReview(r), r);
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
