import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { NODETOOL_ALLOW_LIST, NODETOOL_SUBCOMMANDS, NODETOOL_TOOL_SUBCOMMANDS, type NodetoolCommandSpec } from '../../core/nodetool-commands.js';
import { MAX_NODETOOL_TIMEOUT_MS, runNodetool } from '../../ops/nodetool.js';
import { renderNodetoolReport } from '../../render/nodetool.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

const subcommandList = NODETOOL_TOOL_SUBCOMMANDS.map((s) => `${s} (${NODETOOL_ALLOW_LIST[s].summary})`).join('; ');
/** Allow-listed subcommands this tool leaves out because running them changes the node (gcstats). */
const stateful = NODETOOL_SUBCOMMANDS.filter((s) => !NODETOOL_TOOL_SUBCOMMANDS.includes(s));
const statefulNote = stateful.map((s) => `${s}: ${(NODETOOL_ALLOW_LIST[s] as NodetoolCommandSpec).resetsState}`).join('; ');

/** Why a subcommand is refused: the node-changing ones get their reason and where to get the data instead. */
function refusal(input: unknown): string {
  if (typeof input === 'string' && (stateful as string[]).includes(input)) {
    return `${input} is not run by this read-only tool (${statefulNote}); diagnose and cluster_snapshot collect it once per call and report it`;
  }
  return `not on the read-only allow-list; allowed: ${NODETOOL_TOOL_SUBCOMMANDS.join(', ')}`;
}

export const nodetoolInput = {
  subcommand: z
    .enum(NODETOOL_TOOL_SUBCOMMANDS as [string, ...string[]], { error: (iss) => refusal(iss.input) })
    .describe('Read-only nodetool subcommand'),
  host: z.string().max(253).default('127.0.0.1').describe('Node JMX host (IP or name)'),
  port: z.number().int().min(1).max(65535).default(7199).describe('Node JMX port (Cassandra default 7199; ScyllaDB REST 10000)'),
  keyspace: z.string().max(222).optional().describe('Keyspace for status/ring/tablestats/tablehistograms'),
  table: z.string().max(222).optional().describe('Table, with keyspace, for tablestats/tablehistograms'),
  humanReadable: z.boolean().default(false).describe('Sizes with units (-H) where supported'),
  nodetoolPath: z.string().max(4096).optional().describe('Absolute path of a nodetool script to use'),
  timeoutMs: z.number().int().min(1000).max(MAX_NODETOOL_TIMEOUT_MS).default(60_000),
  raw: z.boolean().default(false).describe('Also return the complete raw output'),
};

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
      inputSchema: nodetoolInput,
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
