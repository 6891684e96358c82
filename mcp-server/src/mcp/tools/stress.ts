import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  compareRunsInputSchema,
  compareStressRuns,
  latestRunId,
  pngChartOf,
  runStressInputSchema,
  startStress,
  stressCancel,
  stressCancelInputSchema,
  stressStatus,
  stressStatusInputSchema,
  waitForRun,
  type RunStressInput,
} from '../../ops/stress.js';
import { OpError } from '../../ops/errors.js';
import { renderCompare, renderStarted, renderStatus } from '../../render/stress.js';
import { mcpProgress } from '../progress.js';
import { toolError } from '../tool-result.js';
import { annotationsFor } from './annotations.js';

/** SVG is not an MCP image type clients render, so the SVG files go back as resource links. */
function chartLinks(paths: string[], description = 'stress run chart (SVG file in the run folder)') {
  return paths.map((p) => ({ type: 'resource_link' as const, uri: pathToFileURL(p).href, name: p.split('/').pop()!, mimeType: 'image/svg+xml', description }));
}

/** Largest PNG chart sent inline; a bigger one stays a file (the resource link still points at its SVG). */
export const MAX_CHART_IMAGE_BYTES = 200 * 1024;

/** Each chart's PNG twin as MCP image content, only once the run has ended and its results are written. */
async function chartImages(st: Awaited<ReturnType<typeof stressStatus>>) {
  if (!st.result || st.state === 'running' || st.state === 'starting') return [];
  return pngImages(st.result.charts);
}

/** The PNG twins of SVG charts as image content, skipping any missing or above MAX_CHART_IMAGE_BYTES. */
async function pngImages(svgs: string[]) {
  const images: { type: 'image'; data: string; mimeType: 'image/png' }[] = [];
  for (const svg of svgs) {
    const png = await readFile(pngChartOf(svg)).catch(() => null);
    if (png && png.length <= MAX_CHART_IMAGE_BYTES) images.push({ type: 'image', data: png.toString('base64'), mimeType: 'image/png' });
  }
  return images;
}

/** Text summary, then the charts as images, then links to the SVG files. */
async function statusContent(st: Awaited<ReturnType<typeof stressStatus>>) {
  return [{ type: 'text' as const, text: renderStatus(st) }, ...(await chartImages(st)), ...chartLinks(st.result?.charts ?? [])];
}

const statusShape = {
  id: z.string(),
  tool: z.string(),
  state: z.string(),
  step: z.string().nullable(),
  elapsedS: z.number(),
  totalS: z.number().nullable(),
  capS: z.number(),
  latest: z
    .object({
      timeS: z.number().nullable(),
      opRate: z.number().nullable(),
      p50Ms: z.number().nullable(),
      p99Ms: z.number().nullable(),
      errors: z.number().nullable(),
    })
    .passthrough()
    .nullable(),
  intervals: z.number(),
  error: z.string().nullable(),
  dir: z.string(),
  findings: z.array(z.object({ id: z.string(), severity: z.string(), title: z.string() }).passthrough()),
  serverExplanation: z.array(z.string()),
  charts: z.array(z.string()),
};

export function registerStressTools(server: McpServer): void {
  server.registerTool(
    'run_stress',
    {
      title: 'Run a stress test (cassandra-stress, latte or scylla-bench)',
      description:
        'Starts a load test in the background and returns its run id at once (wait: true blocks until it ends, with progress notifications). ' +
        "Structured parameters become each tool's own argv (workload write/read/mixed/user profile, n or durationS, threads, concurrency, fixed rate, CL, keyspace/RF, population, nodes, port). " +
        'Targets must be loopback or listed in CQL_TUNER_STRESS_ALLOW; non-loopback targets also need confirm: true. One run per target; a duration cap (default 600 s, CQL_TUNER_STRESS_MAX_SECONDS). ' +
        "Credentials and TLS only from the user's environment or cqlshrc (CQL_TUNER_CQL_*, CQL_TUNER_CQLSHRC), never arguments; TLS with latte only. The run folder keeps argv, raw output, parsed JSON, server snapshots before/after and charts (SVG files; PNG copies come back as image content when the run ends). " +
        'Binary: binary path, $CQL_TUNER_LATTE / $CQL_TUNER_CASSANDRA_STRESS / $CQL_TUNER_SCYLLA_BENCH, PATH, then ~/.cache/cql-tuner/latte-0.29.0/bin (latte) or $CASSANDRA_HOME/tools/bin.',
      inputSchema: runStressInputSchema,
      outputSchema: {
        id: z.string(),
        dir: z.string(),
        tool: z.string(),
        binary: z.string(),
        steps: z.array(z.object({ name: z.string(), argv: z.array(z.string()) })),
        plannedS: z.number().nullable(),
        capS: z.number(),
        status: z.object(statusShape).optional(),
      },
      annotations: annotationsFor('run_stress'),
    },
    async (args, extra) => {
      try {
        const { wait, ...input } = args;
        // Progress (and the live parsing behind it) only when the client asked for it with a token and waits.
        const watched = wait && extra._meta?.progressToken !== undefined;
        const started = await startStress(input as RunStressInput, watched ? { onProgress: mcpProgress(extra) } : {});
        const structured = {
          id: started.id,
          dir: started.dir,
          tool: started.tool,
          binary: started.binary,
          steps: started.steps,
          plannedS: started.plannedS,
          capS: started.capS,
        };
        if (!wait) return { content: [{ type: 'text' as const, text: renderStarted(started) }], structuredContent: structured };
        const onAbort = () => void stressCancel(started.id);
        extra.signal.addEventListener('abort', onAbort, { once: true });
        await waitForRun(started.id).finally(() => extra.signal.removeEventListener('abort', onAbort));
        const st = await stressStatus(started.id);
        return { content: await statusContent(st), structuredContent: { ...structured, status: statusView(st) } };
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'stress_status',
    {
      title: 'Status of a stress run',
      description:
        'State, elapsed/total, the latest interval (op/s, p50/p99, errors) of a running stress run; for a finished one the parsed result, findings, server before/after difference and the charts (PNG images plus links to the SVG files). Without id: the latest run.',
      inputSchema: stressStatusInputSchema,
      outputSchema: statusShape,
      annotations: annotationsFor('stress_status'),
    },
    async (args) => {
      try {
        const id = args.id ?? (await latestRunId());
        if (!id) throw new OpError('STRESS_RUN_NOT_FOUND', 'no stress run yet', 'Start one with run_stress.');
        const st = await stressStatus(id);
        return { content: await statusContent(st), structuredContent: statusView(st) };
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'stress_cancel',
    {
      title: 'Cancel a stress run',
      description:
        "Ends the run's whole process tree (SIGTERM, then SIGKILL) and checks in /proc that no process of it is left. " +
        'It signals only the process the run recorded at its start (same start time and command line); ' +
        'when that process is gone or its pid was reused, nothing is signalled and the run is marked stale.',
      inputSchema: stressCancelInputSchema,
      outputSchema: {
        id: z.string(),
        state: z.string(),
        leftover: z.array(z.number()),
        wasRunning: z.boolean(),
        stale: z.string().optional(),
        note: z.string().optional(),
      },
      annotations: annotationsFor('stress_cancel'),
    },
    async (args) => {
      try {
        const c = await stressCancel(args.id);
        const text = c.stale
          ? `Run ${c.id} had already ended (stale): ${c.stale}. Nothing was signalled.`
          : c.wasRunning
            ? `Run ${c.id} cancelled; ${c.leftover.length ? `processes still alive: ${c.leftover.join(', ')}` : 'no process left (checked /proc)'}` +
              `${c.note ? ` (${c.note})` : ''}.`
            : `Run ${c.id} was not running (${c.state}).`;
        return { content: [{ type: 'text' as const, text }], structuredContent: { ...c } };
      } catch (e) {
        return toolError(e);
      }
    },
  );

  server.registerTool(
    'compare_runs',
    {
      title: 'Compare two stress runs (A/B)',
      description:
        'Bootstrap 95 % interval of the ratio B/A of the interval medians (throughput and p99); "no significant difference" when the interval contains 1. ' +
        "Also charts both runs overlaid (A blue, B orange; time since each run's start): p99 (p50 lighter, dashed) over time, throughput over time, and latency by percentile. " +
        'The charts come back as PNG image content and are written as SVG + PNG into runs/compare-<a>-<b>/ (paths in charts); a run without interval samples is left out of the time charts with a note.',
      inputSchema: compareRunsInputSchema,
      outputSchema: {
        a: z.string(),
        b: z.string(),
        metrics: z.array(
          z
            .object({ metric: z.string(), a: z.number(), b: z.number(), ratio: z.number(), low: z.number(), high: z.number(), verdict: z.string() })
            .passthrough(),
        ),
        summary: z.array(z.string()),
        warnings: z.array(z.string()),
        dir: z.string().nullable(),
        charts: z.array(z.string()),
        chartNotes: z.array(z.string()),
      },
      annotations: annotationsFor('compare_runs'),
    },
    async (args) => {
      try {
        const c = await compareStressRuns(args.a, args.b);
        const content = [
          { type: 'text' as const, text: renderCompare(c) },
          ...(await pngImages(c.charts)),
          ...chartLinks(c.charts, 'A/B comparison chart (SVG file in the comparison folder)'),
        ];
        return { content, structuredContent: { a: c.a, b: c.b, ...c.comparison, dir: c.dir, charts: c.charts, chartNotes: c.chartNotes } };
      } catch (e) {
        return toolError(e);
      }
    },
  );
}

function statusView(st: Awaited<ReturnType<typeof stressStatus>>) {
  return {
    id: st.id,
    tool: st.tool,
    state: st.state,
    step: st.step,
    elapsedS: st.elapsedS,
    totalS: st.totalS,
    capS: st.capS,
    latest: st.latest,
    intervals: st.intervals,
    error: st.error,
    dir: st.dir,
    findings: st.result?.findings ?? [],
    serverExplanation: st.result?.serverDiff?.explanation ?? [],
    charts: st.result?.charts ?? [],
  };
}
