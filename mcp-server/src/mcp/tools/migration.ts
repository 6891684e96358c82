import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { migrationReview, migrationReviewInputSchema } from '../../ops/migration.js';
import { renderMigrationReview } from '../../render/migration-review.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

const endpoint = z.object({ product: z.enum(['cassandra', 'scylla', 'postgres']), version: z.string().min(1).max(40) });

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
      inputSchema: migrationReviewInputSchema,
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
