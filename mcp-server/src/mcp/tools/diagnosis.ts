import { SUPPORTED_KINDS } from '../../core/detect.js';
import { diagnoseInputSchema } from '../../ops/diagnose-input.js';
import { kindsSentence } from '../../core/kind-titles.js';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { dataHome } from '../../collect/data-home.js';
import { diagnose, diagnoseBundle, type DiagnosisReport } from '../../ops/diagnose.js';
import { OpError } from '../../ops/errors.js';
import { interpretOffThread } from '../../ops/interpret.js';
import { analyzeLogFiles } from '../../ops/analyze-logs.js';
import { renderLogsReport } from '../../render/logs-report.js';
import { grepLogFiles, grepLogsInputSchema } from '../../ops/log-grep.js';
import { analyzeLogsInputSchema } from '../../ops/analyze-logs-input.js';
import { interpretInputSchema, interpretSource } from '../../ops/interpret-input.js';
import { renderLogGrep } from '../../render/log-grep.js';
import { renderDiagnosis } from '../../render/diagnosis.js';
import { renderInterpret } from '../../render/interpret.js';
import { mcpProgress } from '../progress.js';
import { toolError, toolResult } from '../tool-result.js';
import { checkedSchema, findingSchema } from './shared-schemas.js';
import { annotationsFor } from './annotations.js';
import { loadRulePolicy } from '../../ops/rule-policy.js';

const diagnosisOutput = {
  origin: z.string(),
  collectedAt: z.string(),
  durationMs: z.number(),
  nodes: z.array(
    z.object({
      address: z.string(),
      datacenter: z.string().nullable(),
      releaseVersion: z.string().nullable(),
      status: z.enum(['complete', 'partial', 'unreachable']),
    }),
  ),
  versions: z.array(z.string()),
  counts: z.object({ critical: z.number(), warning: z.number(), info: z.number() }),
  findings: z.array(findingSchema),
  checked: checkedSchema,
  bundleDir: z.string().optional(),
  bundleError: z.object({ code: z.string(), message: z.string(), fix: z.string() }).optional(),
  warnings: z.array(z.string()).optional(),
  // Rates and host figures of the window: numbers the text rendering shows; loose here to stay compact.
  window: z.record(z.string(), z.unknown()).optional(),
  since: z.object({ from: z.string(), seconds: z.number(), logs: z.string(), metrics: z.string() }).optional(),
  // What the operator's rule policy (CQL_TUNER_RULES) switched off or changed: a quiet report must say why.
  policy: z
    .object({ source: z.string(), rulesOff: z.array(z.string()), findingsOff: z.record(z.string(), z.number()), thresholds: z.array(z.string()) })
    .optional(),
};

// Pasted text and files share one limit: a log of more than this belongs to a streaming verb.

function diagnosisResult(r: DiagnosisReport, detail: boolean) {
  return toolResult(renderDiagnosis(r, { detail }), r);
}

export function registerDiagnosisTools(server: McpServer): void {
  server.registerTool(
    'diagnose',
    {
      title: 'Diagnose a cluster',
      description:
        'Collects a live cluster (or the local lab, or a saved bundle) and runs every rule: topology, thread pools and dropped messages, compaction backlog, per-table health ' +
        '(SSTables per read, tombstones, large partitions, bloom filters, snapshots, caches, latency tails), JVM heap and GC, outlier nodes, and known misleading outputs. ' +
        'Returns findings worst first, each with evidence (numbers, node, source), a fix and the knowledge ids behind its thresholds, plus the list of what was checked or could not be. ' +
        'A live diagnosis sweeps twice windowSeconds apart: counters become rates (ops/s per node and table, dropped/s, GC ms/s) and host disk/CPU figures are sampled where a target reaches the hosts. ' +
        'One problem seen by several sources is one finding listing the sources; a likely cause on a node leads the symptoms it explains; counters since start say so.',
      inputSchema: diagnoseInputSchema,
      outputSchema: diagnosisOutput,
      annotations: annotationsFor('diagnose'),
    },
    async (args, extra) => {
      try {
        const bundleDir = args.save && !args.bundle ? join(dataHome(), 'bundles', `diagnose-${new Date().toISOString().replace(/[:.]/g, '-')}`) : undefined;
        // The operator's policy comes from their environment (CQL_TUNER_RULES), never from a tool argument.
        const policy = await loadRulePolicy(undefined);
        if (args.bundle && args.sinceSeconds !== undefined)
          throw new OpError('BAD_ARGUMENT', 'sinceSeconds reads live logs and metrics; a bundle is one past moment', 'Drop sinceSeconds or bundle.');
        const r = args.bundle
          ? await diagnoseBundle(args.bundle, {
              ...(args.logFiles ? { logFiles: args.logFiles } : {}),
              signal: extra.signal,
              onProgress: mcpProgress(extra),
              ...(policy ? { policy } : {}),
            })
          : await diagnose(
              { ...args, ...(bundleDir ? { bundleDir } : {}), targetOrigin: 'untrusted' },
              { onProgress: mcpProgress(extra), signal: extra.signal, ...(policy ? { policy } : {}) },
            );
        return diagnosisResult(r, args.detail);
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'interpret',
    {
      title: 'Interpret pasted output',
      description:
        `Detects the kind of a pasted output (${kindsSentence(SUPPORTED_KINDS)}), parses it and runs the rules on it; a paste of several ` +
        'outputs is split and each part read. ' +
        'Give the text, or the path of a file on the machine the server runs on. Unknown text is said to be unknown, with the list of supported kinds.',
      inputSchema: interpretInputSchema.shape,
      outputSchema: {
        kind: z.string().nullable(),
        version: z.string().nullable(),
        ok: z.boolean(),
        summary: z.string(),
        findings: z.array(findingSchema),
        checked: checkedSchema,
        supported: z.array(z.string()).optional(),
        warnings: z.array(z.string()),
      },
      annotations: annotationsFor('interpret'),
    },
    async (args, extra) => {
      try {
        const text = await interpretSource(args, extra.signal);
        const r = await interpretOffThread(text, { signal: extra.signal });
        return toolResult(renderInterpret(r), r);
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'grep_logs',
    {
      title: 'Search log files over time',
      description:
        'Counts the lines of log files (one node, on the machine the server runs on; .gz too) that hold a text or match an RE2 regular expression, per time bucket, ' +
        "as sperf's bgrep does: an undated line (a stack frame) counts at the time of the dated line above it. Returns the counts, buckets and the first matching lines.",
      inputSchema: grepLogsInputSchema.shape,
      annotations: annotationsFor('grep_logs'),
    },
    async (args, extra) => {
      try {
        const r = await grepLogFiles(args.paths, args, { signal: extra.signal });
        return toolResult(renderLogGrep(r), r);
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'analyze_logs',
    {
      title: 'Analyse log files',
      description:
        'Streams log files of one node on the machine the server runs on (system.log, debug.log, gc.log, ScyllaDB journal text; .gz too; any size) and reports GC pauses vs time to safepoint, ' +
        'dropped messages, StatusLogger backlogs, tombstone warnings, large partitions, OOM, local pauses, hint/repair failures, commit log lag and reactor stalls, with the worst lines and their times.',
      inputSchema: analyzeLogsInputSchema.shape,
      outputSchema: { files: z.array(z.string()), facts: z.unknown(), findings: z.array(findingSchema), checked: checkedSchema },
      annotations: annotationsFor('analyze_logs'),
    },
    async (args, extra) => {
      try {
        const r = await analyzeLogFiles(args.paths, { ...(args.node ? { node: args.node } : {}), signal: extra.signal });
        return toolResult(renderLogsReport(r), r);
      } catch (e) {
        return toolError(e);
      }
    },
  );
}
