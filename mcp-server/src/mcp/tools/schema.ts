import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { reviewSchema, reviewSchemaInputSchema } from '../../ops/review-schema.js';
import { renderSchemaReview } from '../../render/schema-review.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { checkedSchema, findingSchema } from './shared-schemas.js';
import { annotationsFor } from './annotations.js';

const reviewOutput = {
  source: z.string(),
  product: z.enum(['cassandra', 'scylla', 'unknown']),
  counts: z.object({ keyspaces: z.number(), tables: z.number(), indexes: z.number(), views: z.number(), types: z.number(), other: z.number() }),
  tables: z.array(
    z.object({
      table: z.string(),
      kind: z.enum(['table', 'view']),
      compaction: z.string().nullable(),
      chunkKb: z.number().nullable(),
      compression: z.string().nullable(),
      gcGraceSeconds: z.number().nullable(),
      defaultTtl: z.number().nullable(),
      caching: z.string().nullable(),
      speculativeRetry: z.string().nullable(),
      diskMiBMaxNode: z.number().nullable(),
      tombstonesMax: z.number().nullable(),
    }),
  ),
  findings: z.array(findingSchema),
  checked: checkedSchema,
  warnings: z.array(z.string()),
};

export function registerSchemaTools(server: McpServer): void {
  server.registerTool(
    'review_schema',
    {
      title: 'Review a CQL schema (DESCRIBE output or a live cluster)',
      description:
        'Parses DESCRIBE SCHEMA output (text or file) or runs server-side DESCRIBE SCHEMA on a live cluster (hosts, or lab: true), and reports per table: compaction, compression chunk length, gc_grace, caching, TTL, speculative retry, ' +
        'plus anti-patterns: STCS on large tables (needs sizes: give bundleDir from cluster_snapshot bundle: true), legacy/SASI secondary indexes, counters mixed with regular columns (invalid), materialized views, gc_grace 0, ' +
        'large/small compression chunks (weighted by the read/write mix when a bundle is given), SimpleStrategy in multi-DC clusters, RF 1. Read-only.',
      inputSchema: reviewSchemaInputSchema,
      outputSchema: reviewOutput,
      annotations: annotationsFor('review_schema'),
    },
    async (args, extra) => {
      try {
        const { detail, ...input } = args;
        const r = await reviewSchema(input, { onProgress: mcpProgress(extra), signal: extra.signal });
        return toolResult(renderSchemaReview(r, { detail }), r);
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
