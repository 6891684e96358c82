import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { NODETOOL_ALLOW_LIST, NODETOOL_TOOL_SUBCOMMANDS } from '../../core/nodetool-commands.js';
import { NODETOOL_STATEFUL_NOTE as statefulNote, nodetoolInputSchema, runNodetool } from '../../ops/nodetool.js';
import { renderNodetoolReport } from '../../render/nodetool.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

const subcommandList = NODETOOL_TOOL_SUBCOMMANDS.map((s) => `${s} (${NODETOOL_ALLOW_LIST[s].summary})`).join('; ');

export const nodetoolOutput = {
  subcommand: z.string(),
  host: z.string(),
  port: z.number(),
  ok: z.boolean(),
  exitCode: z.number().nullable(),
  durationMs: z.number(),
  timedOut: z.boolean(),
  nodetool: z.object({ source: z.string(), path: z.string() }),
  parsed: z
    .object({ kind: z.string(), ok: z.boolean(), value: z.unknown().optional(), reason: z.string().optional(), warnings: z.array(z.string()).optional() })
    .nullable(),
  error: z.object({ code: z.string(), message: z.string(), fix: z.string() }).optional(),
  warnings: z.array(z.string()).optional(),
  output: z.object({ chars: z.number(), lines: z.number(), truncated: z.boolean(), excerpt: z.string(), raw: z.string().optional() }),
};

export function registerNodetoolTool(server: McpServer): void {
  server.registerTool(
    'nodetool',
    {
      title: 'Run a read-only nodetool command',
      description:
        `Runs one read-only nodetool subcommand against a Cassandra/ScyllaDB node's JMX port and returns its output parsed into typed facts ` +
        `(every allowed subcommand has a parser; failures come back classified with a cause and a fix), plus the raw text on request. ` +
        `Commands that change the cluster are refused. Allowed: ${subcommandList}. ` +
        `Not offered: ${statefulNote} (diagnose and cluster_snapshot collect it). ` +
        `JMX credentials come from the server's environment (CQL_TUNER_JMX_USERNAME / CQL_TUNER_JMX_PASSWORD), never from arguments, ` +
        `and go only to hosts in CQL_TUNER_CREDENTIAL_HOSTS.`,
      inputSchema: nodetoolInputSchema,
      outputSchema: nodetoolOutput,
      annotations: annotationsFor('nodetool'),
    },
    async (args, extra) => {
      try {
        const report = await runNodetool(args, { signal: extra.signal, onProgress: mcpProgress(extra) });
        return toolResult(renderNodetoolReport(report), report);
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
