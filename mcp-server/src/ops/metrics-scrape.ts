/**
 * `metrics --scrape`: no Prometheus, so read each node's exporter page a few times over a short window and compute
 * the same signals from the pages (core/metrics/scrape-eval.ts). The endpoints are the user's (CLI flags,
 * CQL_TUNER_SCRAPE_URLS) or the running lab's; a caller can only narrow them down by name.
 */
import { OpError } from '../core/errors.js';
import { analyseMetrics, levelFindings, type MetricsAnalysis, type SignalData } from '../core/metrics/analyse.js';
import { describeExpr, exprMetrics, RATIO_BOUNDS, scrapeSeries, scrapeSeriesByTable, type Scrape } from '../core/metrics/scrape-eval.js';
import { SIGNALS, expectedNamings, exportersPresent, nodeOfInstance, type Exporter, type SignalId, type SignalSpec } from '../core/metrics/signals.js';
import type { Series } from '../core/metrics/series.js';
import { parseDuration, type MetricsWindow } from '../core/metrics/window.js';
import { parseExposition } from '../core/parse/metrics/exposition.js';
import { labScrapeEndpoints, scrapeEndpointsFromConfig, scrapePage, type ScrapeEndpoint, type ScrapeLimits } from '../collect/metrics/scrape.js';
import { readLabState } from '../lab/state.js';
import { labPaths } from '../lab/paths.js';
import { noProgress, type ProgressFn } from './progress.js';
import { noTablesReason } from '../core/metrics/tables.js';

export interface ScrapeInput {
  scrapeFor?: string;
  scrapeEvery?: string;
  nodes?: string[];
  signals?: SignalId[];
}

export interface ScrapeDeps extends ScrapeLimits {
  /** The user's endpoints (CLI); default CQL_TUNER_SCRAPE_URLS, then the lab's. */
  endpoints?: ScrapeEndpoint[];
  onProgress?: ProgressFn;
}

export interface ScrapeRun {
  analysis: MetricsAnalysis;
  source: string;
  intervalS: number;
  /** Endpoints whose page could not be read, with why (per failed scrape, the last reason). */
  failures: { instance: string; failed: number; of: number; error: string }[];
  data: SignalData[];
}

export const MAX_SCRAPE_WINDOW_S = 600;
const MAX_SCRAPES = 61;

const badScrape = (what: string) =>
  new OpError(
    'BAD_SCRAPE_WINDOW',
    what,
    'Use --scrape-for 30s (how long to watch, at most 10m) and --scrape-every 10s (at least 1s; default: one interval, two scrapes).',
  );

/** The endpoints to read: the caller's, else the configuration's, else the lab's; narrowed to `names` when given. */
export async function resolveScrapeEndpoints(
  given: ScrapeEndpoint[] | undefined,
  names: string[] | undefined,
): Promise<{ endpoints: ScrapeEndpoint[]; from: string }> {
  let endpoints = given ?? scrapeEndpointsFromConfig();
  let from = given ? 'the command line' : 'CQL_TUNER_SCRAPE_URLS';
  if (endpoints.length === 0) {
    endpoints = labScrapeEndpoints(await readLabState(labPaths().stateDir));
    from = 'the lab';
  }
  if (endpoints.length === 0) {
    throw new OpError(
      'NO_METRICS_SOURCE',
      'No metrics endpoint is configured to scrape, and no lab with --metrics is running.',
      'Set CQL_TUNER_SCRAPE_URLS=http://node1:9180/metrics,http://node2:9180/metrics (ScyllaDB :9180, JMX exporter agent port, node_exporter :9100) ' +
        'in the environment the tool runs in, pass --endpoint to the CLI, or start the lab with `cql-tuner lab start --metrics`.',
    );
  }
  if (names && names.length > 0) {
    const pick = (n: string) => endpoints.find((e) => e.url === n || e.instance === n || nodeOfInstance(e.instance) === n);
    const unknown = names.filter((n) => !pick(n));
    if (unknown.length > 0) {
      throw new OpError(
        'UNKNOWN_SCRAPE_NODE',
        `Not among the configured endpoints (from ${from}): ${unknown.map((u) => JSON.stringify(u.slice(0, 100))).join(', ')}.`,
        `Name nodes as configured: ${endpoints.map((e) => e.instance).join(', ')}. Other endpoints are added by the user, not by a tool argument.`,
      );
    }
    endpoints = endpoints.filter((e) => names.some((n) => pick(n) === e));
  }
  return { endpoints, from };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (ms <= 0) return resolve();
    const t = setTimeout(resolve, ms);
    const cancel = () => {
      clearTimeout(t);
      reject(new OpError('CANCELLED', 'The metrics scrape was cancelled.', 'Run it again when wanted.'));
    };
    signal?.addEventListener('abort', cancel, { once: true });
  });

export async function runScrape(input: ScrapeInput, deps: ScrapeDeps = {}): Promise<ScrapeRun> {
  const progress = deps.onProgress ?? noProgress;
  const forS = input.scrapeFor === undefined ? 30 : parseDuration(input.scrapeFor);
  if (forS === null || forS < 1 || forS > MAX_SCRAPE_WINDOW_S) {
    throw badScrape(`--scrape-for ${JSON.stringify(input.scrapeFor)} is not a duration from 1s to 10m.`);
  }
  const everyS = input.scrapeEvery === undefined ? forS : parseDuration(input.scrapeEvery);
  if (everyS === null || everyS < 1 || everyS > forS) {
    throw badScrape(`--scrape-every ${JSON.stringify(input.scrapeEvery)} is not a duration from 1s to --scrape-for (${forS}s).`);
  }
  const count = Math.min(MAX_SCRAPES, Math.floor(forS / everyS) + 1);
  const { endpoints, from } = await resolveScrapeEndpoints(deps.endpoints, input.nodes);

  const wanted = SIGNALS.filter((s) => s.scrape && (!input.signals || input.signals.includes(s.id)));
  const keepNames = new Set(wanted.flatMap((s) => exprMetrics(s.scrape!)));
  const scrapes = new Map<string, Scrape[]>(endpoints.map((e) => [e.instance, []]));
  const names = new Map<string, Set<string>>(endpoints.map((e) => [e.instance, new Set()]));
  const lastError = new Map<string, string>();
  const t0 = Date.now();
  for (let i = 0; i < count; i++) {
    await sleep(t0 + i * everyS * 1000 - Date.now(), deps.signal);
    progress({ message: `scrape ${i + 1} of ${count} (${endpoints.length} endpoint(s) from ${from})`, progress: i, total: count });
    await Promise.all(
      endpoints.map(async (ep) => {
        const at = Date.now() / 1000;
        const r = await scrapePage(ep, deps);
        if (!r.ok) {
          lastError.set(ep.instance, r.error);
          scrapes.get(ep.instance)!.push({ at, samples: null });
          return;
        }
        const page = parseExposition(r.text, (n) => keepNames.has(n));
        for (const n of page.names) names.get(ep.instance)!.add(n);
        scrapes.get(ep.instance)!.push({ at, samples: page.samples });
      }),
    );
  }

  const failures = endpoints
    .map((e) => {
      const failed = scrapes.get(e.instance)!.filter((s) => !s.samples).length;
      return { instance: e.instance, failed, of: count, error: lastError.get(e.instance) ?? '' };
    })
    .filter((f) => f.failed > 0);
  if (failures.length === endpoints.length && failures.every((f) => f.failed === count)) {
    throw new OpError(
      'SCRAPE_FAILED',
      `No endpoint answered: ${failures.map((f) => `${f.instance} (${f.error})`).join('; ')}.`,
      'Check that the exporters run and listen where configured ' +
        '(ScyllaDB: prometheus_address / prometheus_port in scylla.yaml; JMX exporter: its -javaagent port).',
    );
  }
  const exportersOf = new Map<string, Exclude<Exporter, 'prometheus'>[]>(endpoints.map((e) => [e.instance, exportersPresent(names.get(e.instance)!)]));
  const exporters = [...new Set([...exportersOf.values()].flat())];
  if (exporters.length === 0) {
    const all = new Set(endpoints.flatMap((e) => [...names.get(e.instance)!]));
    const prefixes = [...new Set([...all].map((n) => n.split('_')[0]))].slice(0, 8);
    const mcacRaw = [...all].some((n) => n.startsWith('collectd_mcac_'));
    throw new OpError(
      'UNKNOWN_METRIC_NAMES',
      `The pages have none of the metric names expected from ${expectedNamings()}; ${all.size} names seen` +
        (prefixes.length ? `, prefixes: ${prefixes.join(', ')}` : '') +
        (mcacRaw ? ' (collectd_mcac_*: a raw DataStax MCAC page, whose names exist only after the relabel rules MCAC ships for Prometheus)' : '') +
        '.',
      mcacRaw
        ? 'Read MCAC through a Prometheus that applies its metric_relabel_configs (CQL_TUNER_PROMETHEUS_URL), not by a direct scrape.'
        : "Point the endpoints at the nodes' exporter pages, or report the naming so a map can be added.",
    );
  }

  const data: SignalData[] = [];
  const tablesAbsent = new Set<Exporter>();
  for (const spec of wanted) {
    if (spec.exporter !== 'prometheus' && !exporters.includes(spec.exporter)) continue;
    const expr = spec.scrape!;
    const nodes = endpoints.filter((e) => spec.exporter === 'prometheus' || exportersOf.get(e.instance)!.includes(spec.exporter));
    const series = nodes.flatMap((e) => seriesOf(spec, scrapes.get(e.instance)!, e.instance)).filter((s) => s.points.length > 0);
    const absent = exprMetrics(expr).filter((n) => !endpoints.some((e) => names.get(e.instance)!.has(n)));
    if (spec.table && series.length === 0 && absent.length > 0) {
      // one line for all of an exporter's per-table signals, not seven
      tablesAbsent.add(spec.exporter);
      continue;
    }
    const error =
      series.length > 0
        ? undefined
        : absent.length > 0
          ? `not on the page: ${absent.join(', ')}${spec.exporter === 'scylla' ? ' (ScyllaDB leaves out counters that are still zero)' : ''}`
          : 'no value in this window (e.g. no request, so no latency)';
    data.push({ spec, query: `scrape: ${describeExpr(expr)}`, series, ...(error ? { error } : {}) });
  }
  const times = [...scrapes.values()].flat().map((s) => s.at);
  const window: MetricsWindow = {
    start: Math.min(...times),
    end: Math.max(...times),
    step: everyS,
    label: `scrape ${count}× every ${everyS}s`,
  };
  const via = 'direct scrape';
  const analysis = analyseMetrics(window, data, exporters, 2 * everyS, via);
  analysis.findings.push(...levelFindings(analysis, data, via));
  for (const e of tablesAbsent) analysis.missing.push({ signal: 'table_*', exporter: e, reason: noTablesReason(e) });
  const source = `direct scrape of ${endpoints.length} endpoint(s) from ${from}`;
  return { analysis, source, intervalS: everyS, failures, data };
}

/** A node's series for one signal: one, or one per table for a per-table signal (labelled as Prometheus would). */
function seriesOf(spec: SignalSpec, scrapes: Scrape[], instance: string): Series[] {
  if (!spec.table) return [{ labels: { instance }, points: scrapeSeries(spec.scrape!, scrapes, spec.unit === 'ratio' ? RATIO_BOUNDS : undefined) }];
  const labels = spec.table;
  return [...scrapeSeriesByTable(spec.scrape!, scrapes, labels).values()].map((t) => ({
    labels: { instance, [labels.keyspace]: t.keyspace, [labels.table]: t.table },
    points: t.points,
  }));
}
