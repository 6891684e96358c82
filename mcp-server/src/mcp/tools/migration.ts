import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { migrationReview, renderMigrationReview } from '../../ops/migration.js';
import { toolError, toolResult } from '../tool-result.js';

const endpoint = z.object({ product: z.enum(['cassandra', 'scylla']), version: z.string().min(1).max(40) });

const reviewOutput = {
  kind: z.enum(['cassandra-upgrade', 'cassandra-to-scylla', 'vnodes-to-tablets']),
  from: endpoint,
  to: endpoint,
  path: z.array(z.string()),
  items: z.array(
    z.object({
      id: z.string(),
      area: z.enum(['path', 'config', 'schema', 'clients', 'cluster', 'procedure']),
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
  inputs: z.object({ config: z.boolean(), schema: z.boolean(), cluster: z.boolean() }),
  warnings: z.array(z.string()),
};

export function registerMigrationTools(server: McpServer): void {
  server.registerTool(
    'migration_review',
    {
      title: 'Review a migration: Cassandra upgrade, Cassandra → ScyllaDB, vnodes → tablets',
      description:
        'Builds a checklist (status ok / action / blocker, with the evidence found) for: a Cassandra upgrade 3.11 → 4.0/4.1 → 5.0 (path, config renames and removed keys, COMPACT STORAGE, client protocol/driver versions, ' +
        'schema agreement, mixed versions, repair state, snapshot, rolling order, upgradesstables, storage_compatibility_mode); Cassandra → ScyllaDB (feature gaps, compaction mapping to ICS, shard/tablet-aware drivers, ' +
        'config mapping, tablets vs vnodes keyspaces); ScyllaDB vnodes → tablets. Optional inputs sharpen it: cassandra.yaml text or file, DESCRIBE SCHEMA text or file, a snapshot bundle (clients, versions, schema versions). Read-only.',
      inputSchema: {
        from: endpoint.describe('Current product and version, e.g. {product: cassandra, version: 3.11.16}'),
        to: endpoint.describe('Target product and version'),
        kind: z.enum(['cassandra-upgrade', 'cassandra-to-scylla', 'vnodes-to-tablets']).optional().describe('Default: from the products'),
        configText: z.string().max(32 * 1024 * 1024).optional(),
        configFile: z.string().max(4096).optional(),
        schemaText: z.string().max(32 * 1024 * 1024).optional(),
        schemaFile: z.string().max(4096).optional(),
        bundleDir: z.string().max(4096).optional().describe('Snapshot bundle (cluster_snapshot bundle: true)'),
      },
      outputSchema: reviewOutput,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
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
