import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { dataHome } from '../../collect/data-home.js';
import { analyzeBundle, analyzeBundleInputSchema, clusterSnapshotInputSchema, takeSnapshot, type ClusterSnapshot } from '../../ops/snapshot.js';
import { renderRawOutputs, renderSnapshot, snapshotView } from '../../render/snapshot.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

const nodeSummary = z.object({
  address: z.string(),
  datacenter: z.string().nullable(),
  rack: z.string().nullable(),
  releaseVersion: z.string().nullable(),
  product: z.string(),
  reachable: z.boolean(),
  status: z.enum(['complete', 'partial', 'unreachable']),
  upPerDriver: z.boolean(),
  heapUsedMb: z.number().nullable(),
  heapMaxMb: z.number().nullable(),
  gcMaxPauseMs: z.number().nullable(),
  pendingTasks: z.number(),
  blockedTasks: z.number(),
  blockedAllTime: z.number(),
  droppedMessages: z.number().nullable(),
  userDataMiB: z.number(),
  busyPools: z.array(
    z.object({
      name: z.string(),
      active: z.number().nullable(),
      pending: z.number().nullable(),
      blocked: z.number().nullable(),
      blockedAllTime: z.number().nullable(),
    }),
  ),
  dropped: z.record(z.string(), z.number()),
  topTables: z.array(
    z.object({
      table: z.string(),
      diskMiB: z.number().nullable(),
      maxPartitionMiB: z.number().nullable(),
      readP99Ms: z.number().nullable(),
      writeP99Ms: z.number().nullable(),
      tombstonesP99: z.number().nullable(),
    }),
  ),
  clients: z.number().nullable(),
  runningSstableTasks: z.number(),
  errors: z.array(z.string()),
  collected: z.array(z.string()),
});

const snapshotOutput = {
  collectedAt: z.string(),
  durationMs: z.number(),
  contactPoints: z.array(z.string()),
  bundleDir: z.string().optional(),
  bundleError: z.object({ code: z.string(), message: z.string(), fix: z.string() }).optional(),
  nodeCount: z.number(),
  reachableCount: z.number(),
  versions: z.array(z.string()),
  queries: z.object({ cql: z.number(), nodetool: z.number(), failed: z.number() }),
  nodes: z.array(nodeSummary),
  warnings: z.array(z.string()).optional(),
  /** Every fact of every node, only with detail: true. */
  detail: z.array(z.unknown()).optional(),
  /** Raw outputs, only when asked for with raw. */
  raw: z
    .object({
      request: z.object({ node: z.string().optional(), source: z.string().optional() }),
      outputs: z.array(z.object({ node: z.string(), source: z.string(), via: z.string(), text: z.string(), bytes: z.number(), truncated: z.boolean() })),
      omitted: z.number(),
    })
    .optional(),
};

function result(s: ClusterSnapshot, detail: boolean) {
  const view = snapshotView(s);
  const text = renderSnapshot(view) + (s.raw ? `\n\n${renderRawOutputs(s.raw)}` : '');
  return toolResult(text, { ...view, ...(detail ? { detail: s.nodes } : {}), ...(s.raw ? { raw: s.raw } : {}) });
}

export function registerSnapshotTools(server: McpServer): void {
  server.registerTool(
    'cluster_snapshot',
    {
      title: 'Snapshot a cluster (CQL virtual tables first)',
      description:
        'Discovers every node from the contact points (system.peers) and collects each one with bounded concurrency and a per-node timeout: ' +
        'CQL virtual tables first (thread pools, caches, settings, per-table disk/latency/tombstones/partition sizes, clients, compactions, gossip, hints, snapshots), ' +
        'nodetool only for what no table answers (heap via info, GC via gcstats, dropped messages via tpstats). ' +
        'Returns a compact per-node summary; unreachable nodes are marked, never fatal. bundle: true keeps every raw output in the cql-tuner data folder for offline re-analysis; raw: {node, source} returns chosen raw outputs inline (capped). ' +
        "CQL credentials/TLS from CQL_TUNER_CQL_USERNAME/PASSWORD/TLS/CA_FILE in the server environment or the user's cqlshrc (CQL_TUNER_CQLSHRC, default ~/.cassandra/cqlshrc), never from arguments; " +
        'the password goes only to hosts in CQL_TUNER_CREDENTIAL_HOSTS.',
      inputSchema: clusterSnapshotInputSchema,
      outputSchema: snapshotOutput,
      annotations: annotationsFor('cluster_snapshot'),
    },
    async (args, extra) => {
      try {
        const bundleDir = args.bundle ? join(dataHome(), 'bundles', `snapshot-${new Date().toISOString().replace(/[:.]/g, '-')}`) : undefined;
        // Tool arguments are untrusted: nodetoolVia may not name an ssh key or config (the environment does).
        const s = await takeSnapshot(
          { ...args, ...(bundleDir ? { bundleDir } : {}), targetOrigin: 'untrusted' },
          { onProgress: mcpProgress(extra), signal: extra.signal },
        );
        return result(s, args.detail);
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'analyze_bundle',
    {
      title: 'Re-analyse a saved snapshot bundle',
      description:
        'Reads a bundle folder written by cluster_snapshot (bundle: true) or `cql-tuner snapshot --bundle DIR` and parses it offline with the same parsers. ' +
        'Also reads an unpacked OpsCenter / ds-collector diagnostic tarball (the folder holding nodes/<address>/nodetool/…); diagnose with bundle reads its logs and cassandra.yaml files as well.',
      inputSchema: analyzeBundleInputSchema,
      outputSchema: snapshotOutput,
      annotations: annotationsFor('analyze_bundle'),
    },
    async (args, extra) => {
      try {
        return result(await analyzeBundle(args.path, { ...(args.raw ? { raw: args.raw } : {}), signal: extra.signal }), args.detail);
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
