/**
 * "What changed at 02:13?": read a window of metrics from the user's Prometheus and answer with summaries, change
 * points and findings. The source is configured by the user (env / CLI flag), never by the caller's arguments.
 */
import { z } from 'zod';
import { OpError } from '../core/errors.js';
import { analyseMetrics, levelFindings, type MetricsAnalysis, type SignalData } from '../core/metrics/analyse.js';
import { noTablesReason } from '../core/metrics/tables.js';
import type { Series } from '../core/metrics/series.js';
import {
  EXPORTER_PROBES,
  SIGNALS,
  expectedNamings,
  exportersPresent,
  nodeOfInstance,
  queryFor,
  type SignalId,
  type SignalSpec,
} from '../core/metrics/signals.js';
import { metricsChartPng, metricsChartSvg } from '../render/metrics-chart.js';
import { resolveWindow } from '../core/metrics/window.js';
import { prometheusClient, prometheusFromEnv, type PrometheusClient, type PrometheusConfig } from '../collect/metrics/prometheus.js';
import { noProgress, type ProgressFn } from './progress.js';
import { runScrape } from './metrics-scrape.js';
import type { ScrapeEndpoint } from '../collect/metrics/scrape.js';

const SIGNAL_IDS = [...new Set(SIGNALS.map((s) => s.id))] as [SignalId, ...SignalId[]];
const timeText = z.string().min(1).max(40);

/** The one input schema of the operation: the MCP tool registers it, the CLI validates its flags with it. */
export const metricsInputShape = {
  last: z.string().max(20).optional().describe('How far back from now: 30m, 2h, 1d'),
  around: timeText
    .optional()
    .describe('A moment to look around: 02:13 (latest such time, local to the server running the tool unless a zone is given) or 2026-11-24T02:13:00Z'),
  margin: z.string().max(20).optional().describe('Half-width of an `around` window (default 15m)'),
  from: timeText.optional().describe('Start: ISO time (2026-11-24T02:00:00Z), HH:MM or unix seconds'),
  to: timeText.optional().describe('End (default now)'),
  signals: z.array(z.enum(SIGNAL_IDS)).max(SIGNAL_IDS.length).optional().describe('Only these signals (default all the found exporters have)'),
  raw: z.boolean().optional().describe('Also return the raw points (bounded to 20,000) for a closer look; the summary is usually enough'),
  scrape: z
    .boolean()
    .optional()
    .describe(
      "No Prometheus: read the nodes' exporter pages directly, now, several times over scrapeFor (the endpoints the user configured in " +
        "CQL_TUNER_SCRAPE_URLS, or the running lab's; there is no URL argument). Takes no time window.",
    ),
  scrapeFor: z.string().max(20).optional().describe('With scrape: how long to watch, 1s to 10m (default 30s)'),
  scrapeEvery: z.string().max(20).optional().describe('With scrape: time between scrapes, at least 1s (default scrapeFor: two scrapes)'),
  nodes: z
    .array(z.string().min(1).max(300))
    .max(100)
    .optional()
    .describe('With scrape: only these configured endpoints (host, host:port or URL as configured)'),
};
export const metricsInputSchema = z.object(metricsInputShape).strict();
export type MetricsInput = z.infer<typeof metricsInputSchema>;

export interface MetricsDeps {
  /** The user's Prometheus (CLI flag or env); default: CQL_TUNER_PROMETHEUS_URL and friends. */
  prometheus?: PrometheusConfig | null;
  client?: PrometheusClient;
  nowS?: number;
  utcOffsetMinutes?: number;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** SVG charts of the signals that moved the harmful way (the CLI's --charts; not a tool argument). */
  charts?: boolean;
  /** With input.scrape: the user's endpoints from CLI flags (default CQL_TUNER_SCRAPE_URLS, then the lab's). */
  scrapeEndpoints?: ScrapeEndpoint[];
  /** With input.scrape: per-request limits (defaults: 10 s, 32 MiB). */
  scrapeTimeoutMs?: number;
  scrapeMaxBytes?: number;
}

export interface MetricsReport extends MetricsAnalysis {
  source: string;
  scrapeIntervalS: number;
  /** With raw: the points per signal and node, at most MAX_RAW_POINTS in all. */
  raw?: { signal: SignalId; exporter: string; node: string; points: [number, number][] }[];
  rawTruncated?: boolean;
  /** SVG for files and reports, PNG for the assistant (MCP image content). */
  charts?: { signal: SignalId; exporter: string; svg: string; png: Buffer }[];
  /** With scrape: endpoints whose page could not be read in some scrapes, and why. */
  scrapeFailures?: { instance: string; failed: number; of: number; error: string }[];
}

const MAX_RAW_POINTS = 20_000;
/** Points per per-table series at most (a day: one per 8 minutes). */
const TABLE_POINTS = 180;
/** Queries in flight at once against the user's Prometheus. */
const QUERY_CONCURRENCY = 4;

/** `fn` over `items` with at most `limit` running at once; results in the items' order; the first error wins. */
async function inPool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
/** Names tried when none of the expected ones exist, to say which naming the server has instead. */
export const OTHER_NAMINGS: [string, string][] = [
  ['collectd_mcac_', 'DataStax MCAC scraped without the metric_relabel_configs it ships for Prometheus (its dashboards/prometheus/prometheus.yaml)'],
  ['mcac_', 'DataStax MCAC (Metric Collector for Apache Cassandra) with other relabel rules'],
  ['org_apache_cassandra_metrics_', 'the k8ssandra Management API /metrics from before its default relabel rules (2023)'],
  ['cassandra_', 'a Cassandra exporter with another rule set'],
  ['scylla_', 'ScyllaDB with other metric names'],
];

export async function metricsWindow(input: MetricsInput, deps: MetricsDeps = {}): Promise<MetricsReport> {
  if (input.scrape) return metricsScrape(input, deps);
  if (input.scrapeFor !== undefined || input.scrapeEvery !== undefined || input.nodes !== undefined) {
    throw new OpError(
      'BAD_WINDOW',
      'scrapeFor, scrapeEvery and nodes go with scrape.',
      'Add --scrape (MCP: scrape: true), or leave them out to read the Prometheus.',
    );
  }
  const progress = deps.onProgress ?? noProgress;
  const cfg = deps.prometheus === undefined ? prometheusFromEnv() : deps.prometheus;
  const client = deps.client ?? (cfg ? prometheusClient(cfg) : null);
  if (!client) {
    throw new OpError(
      'NO_METRICS_SOURCE',
      'No Prometheus is configured.',
      'Set CQL_TUNER_PROMETHEUS_URL=http://<prometheus>:9090 in the environment the tool runs in (or pass --prometheus to the CLI); credentials go in CQL_TUNER_PROMETHEUS_TOKEN or _USER/_PASSWORD.',
    );
  }
  const nowS = deps.nowS ?? Math.floor(Date.now() / 1000);
  let window = resolveWindow(input, nowS, deps.utcOffsetMinutes ?? 0);
  progress({ message: `asking ${client.origin} which exporters it has for ${window.label}` });
  const probes = [...new Set([...Object.values(EXPORTER_PROBES), ...SIGNALS.map((s) => s.probe)])];
  const present = await client.presentNames(probes, window.start, window.end, deps.signal);
  const exporters = exportersPresent(present);
  if (exporters.length === 0) throw await unknownNaming(client, window.start, window.end, deps.signal);
  const firstProbe = EXPORTER_PROBES[exporters[0]!];
  const scrapeIntervalS = (await client.scrapeInterval(firstProbe, window.end, deps.signal)) ?? 15;
  window = resolveWindow(input, nowS, deps.utcOffsetMinutes ?? 0, scrapeIntervalS);
  const wanted = SIGNALS.filter(
    (s) => (s.exporter === 'prometheus' || exporters.includes(s.exporter)) && present.has(s.probe) && (!input.signals || input.signals.includes(s.id)),
  );
  const tableSpecs = SIGNALS.filter((s) => s.table);
  const noTables = exporters.filter((e) => tableSpecs.some((s) => s.exporter === e) && !tableSpecs.some((s) => s.exporter === e && present.has(s.probe)));
  const data: SignalData[] = [];
  let done = 0;
  // Per-table signals are 150+ series each: read at a coarser step (they are summarised per table anyway), and a few
  // queries at a time so a day of 50 tables answers in about a second.
  const tableStep = Math.max(window.step, Math.ceil((window.end - window.start) / TABLE_POINTS));
  const readOne = async (spec: SignalSpec): Promise<SignalData> => {
    if (deps.signal?.aborted) throw new OpError('CANCELLED', 'The metrics request was cancelled.', 'Run it again when wanted.');
    const step = spec.table ? tableStep : window.step;
    const query = queryFor(spec, step, scrapeIntervalS);
    let series: Series[] = [];
    let error: string | undefined;
    try {
      series = await client.queryRange(query, window.start, window.end, step, deps.signal);
    } catch (e) {
      if (e instanceof OpError && e.code !== 'PROMETHEUS_QUERY') throw e;
      error = e instanceof Error ? e.message : String(e);
    }
    progress({ message: `read ${spec.exporter} ${spec.id}`, progress: ++done, total: wanted.length });
    return { spec, query, series, ...(step !== window.step ? { step } : {}), ...(error ? { error } : {}) };
  };
  data.push(...(await inPool(wanted, QUERY_CONCURRENCY, readOne)));
  if (data.every((d) => d.series.every((s) => s.points.length === 0))) {
    throw new OpError(
      'EMPTY_WINDOW',
      `${client.origin} has ${exporters.join(', ')} metrics, but no sample in ${window.label} (${new Date(window.start * 1000).toISOString()} to ${new Date(window.end * 1000).toISOString()}).`,
      "Check the time (the window is read in UTC unless the time says otherwise) and the server's retention.",
    );
  }
  const analysis = analyseMetrics(window, data, exporters, Math.max(2 * window.step, 4 * scrapeIntervalS + window.step));
  for (const e of noTables) analysis.missing.push({ signal: 'table_*', exporter: e, reason: noTablesReason(e) });
  // A steady share of CONSISTENCY ALL is a level, never a change point: judged on its level here too.
  analysis.findings.push(...levelFindings(analysis, data, client.origin, new Set(['cl_all_share'])));
  const report: MetricsReport = { ...analysis, source: client.origin, scrapeIntervalS };
  if (deps.charts) {
    report.charts = [];
    for (const d of data) {
      const moved = analysis.changes.filter((c) => c.bad && c.signal === d.spec.id && c.exporter === d.spec.exporter);
      if (moved.length === 0) continue;
      const series = d.series.map((s) => ({
        node: nodeOfInstance(s.labels.instance ?? '?'),
        points: d.spec.scale ? s.points.map(([t, v]): [number, number] => [t, v * d.spec.scale!]) : s.points,
      }));
      const input = { title: d.spec.title, unit: d.spec.unit, window: analysis.window, series, changes: moved };
      report.charts.push({ signal: d.spec.id, exporter: d.spec.exporter, svg: metricsChartSvg(input), png: metricsChartPng(input) });
    }
  }
  if (input.raw) {
    const raw: NonNullable<MetricsReport['raw']> = [];
    let budget = MAX_RAW_POINTS;
    for (const d of data) {
      for (const s of d.series) {
        if (budget <= 0) break;
        const points = s.points.slice(0, budget);
        budget -= points.length;
        raw.push({ signal: d.spec.id, exporter: d.spec.exporter, node: s.labels.instance ?? '?', points });
      }
    }
    report.raw = raw;
    report.rawTruncated = budget <= 0;
  }
  return report;
}

/** The scrape path: same report shape, the window being the scrapes just made. */
async function metricsScrape(input: MetricsInput, deps: MetricsDeps): Promise<MetricsReport> {
  if (input.last !== undefined || input.around !== undefined || input.from !== undefined || input.to !== undefined || input.margin !== undefined) {
    const fix = 'Use --scrape-for 30s (how long to watch), or drop --scrape to read a Prometheus history.';
    throw new OpError('BAD_WINDOW', 'A direct scrape reads the nodes now; it takes no --last/--around/--from/--to.', fix);
  }
  const run = await runScrape(input, {
    ...(deps.scrapeEndpoints ? { endpoints: deps.scrapeEndpoints } : {}),
    ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.scrapeTimeoutMs !== undefined ? { timeoutMs: deps.scrapeTimeoutMs } : {}),
    ...(deps.scrapeMaxBytes !== undefined ? { maxBytes: deps.scrapeMaxBytes } : {}),
  });
  const report: MetricsReport = { ...run.analysis, source: run.source, scrapeIntervalS: run.intervalS };
  if (run.failures.length) report.scrapeFailures = run.failures;
  if (input.raw) {
    report.raw = run.data.flatMap((d) =>
      d.series.map((s) => ({
        signal: d.spec.id,
        exporter: d.spec.exporter,
        node: s.labels.instance ?? '?',
        points: s.points,
      })),
    );
    report.rawTruncated = false;
  }
  return report;
}

async function unknownNaming(client: PrometheusClient, start: number, end: number, signal?: AbortSignal): Promise<OpError> {
  const expected = expectedNamings();
  let found = '';
  for (const [prefix, what] of OTHER_NAMINGS) {
    const names = await client.presentNames([`${prefix}.+`], start, end, signal).catch(() => new Set<string>());
    if (names.size > 0) {
      found = `; it has ${names.size} ${prefix}* metric(s) (${[...names].slice(0, 3).join(', ')}…), which looks like ${what}`;
      break;
    }
  }
  return new OpError(
    'UNKNOWN_METRIC_NAMES',
    `${client.origin} has none of the metric names expected from ${expected} in this window${found || ' and no Cassandra or ScyllaDB metric at all'}.`,
    found
      ? 'Scrape the nodes with one of the expected exporters (see README, "Metrics history"), or report the naming so a map can be added.'
      : 'Check that this Prometheus scrapes the cluster (its targets page), and the window.',
  );
}
