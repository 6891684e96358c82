import { OpError } from '../../core/errors.js';
import { Command } from 'commander';
import { prometheusFromEnv } from '../../collect/metrics/prometheus.js';
import { scrapeEndpointsFromConfig } from '../../collect/metrics/scrape.js';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { metricsInputSchema, metricsWindow, type MetricsReport } from '../../ops/metrics.js';
import { renderMetrics } from '../../render/metrics.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { progressLine } from '../progress-line.js';
import { cliList, parseFlags } from '../validate-flags.js';

interface MetricsFlags {
  last?: string;
  around?: string;
  margin?: string;
  from?: string;
  to?: string;
  signals?: string;
  raw?: boolean;
  prometheus?: string;
  charts?: string;
  json?: boolean;
  scrape?: boolean;
  endpoint?: string[];
  scrapeFor?: string;
  scrapeEvery?: string;
  nodes?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Each chart (SVG and PNG) through a temp file and a rename: no half-written file is left when interrupted. */
async function writeCharts(dir: string, charts: NonNullable<MetricsReport['charts']>): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const out: string[] = [];
  for (const c of charts) {
    for (const [ext, body] of [
      ['svg', c.svg],
      ['png', c.png],
    ] as const) {
      const file = join(dir, `metrics-${c.exporter}-${c.signal}.${ext}`);
      await writeFile(`${file}.tmp`, body);
      await rename(`${file}.tmp`, file);
      out.push(file);
    }
  }
  return out;
}

export function metricsCommand(): Command {
  return new Command('metrics')
    .description("what changed, when and where: a window of the cluster's metrics from your Prometheus (change points, per-node summaries, findings)")
    .option('--last <duration>', 'the window up to now: 30m, 2h, 1d')
    .option('--around <time>', 'a moment to look around: 02:13 (local time) or an ISO time')
    .option('--margin <duration>', 'half-width of --around (default 15m)')
    .option('--from <time>', 'window start (ISO time, HH:MM or unix seconds)')
    .option('--to <time>', 'window end (default now)')
    .option('--signals <list>', 'only these, comma-separated (reads,writes,read_p99,write_p99,pending_compactions,…)')
    .option('--raw', 'also print the raw points (JSON only; bounded)')
    .option('--prometheus <url>', 'the Prometheus-compatible API (default $CQL_TUNER_PROMETHEUS_URL); credentials only from the environment')
    .option('--charts <dir>', 'write an SVG and a PNG chart per signal that moved the harmful way into this folder (created if missing)')
    .option('--json', 'print the report as JSON')
    .option('--scrape', "no Prometheus: read the nodes' exporter pages now (--endpoint, else $CQL_TUNER_SCRAPE_URLS, else the lab's)")
    .option('--endpoint <url>', 'with --scrape: an exporter page, http(s)://host:port[/path] or host:port (repeatable)', collect)
    .option('--scrape-for <duration>', 'with --scrape: how long to watch, 1s to 10m (default 30s)')
    .option('--scrape-every <duration>', 'with --scrape: time between scrapes (default: --scrape-for, two scrapes)')
    .option('--nodes <list>', 'with --scrape: only these of the endpoints, comma-separated')
    .addHelpText(
      'after',
      '\nEnvironment: CQL_TUNER_PROMETHEUS_URL, CQL_TUNER_PROMETHEUS_TOKEN (bearer) or CQL_TUNER_PROMETHEUS_USER and _PASSWORD;' +
        '\nextra CA certificates through NODE_EXTRA_CA_CERTS. Times without a zone are local (TZ).' +
        '\n--scrape: CQL_TUNER_SCRAPE_URLS (comma-separated) names the exporter pages, e.g. http://10.0.0.1:9180/metrics for ScyllaDB.',
    )
    .action(async (o: MetricsFlags) => {
      const abort = abortOnSignal();
      const progress = progressLine();
      try {
        if (o.endpoint?.length && !o.scrape) throw new OpError('BAD_ARGUMENT', '--endpoint goes with --scrape.', 'Add --scrape.');
        const input = parseFlags('metrics', metricsInputSchema, {
          last: o.last,
          around: o.around,
          margin: o.margin,
          from: o.from,
          to: o.to,
          signals: cliList(o.signals),
          raw: o.raw,
          scrape: o.scrape,
          scrapeFor: o.scrapeFor,
          scrapeEvery: o.scrapeEvery,
          nodes: cliList(o.nodes),
        });
        const r = await metricsWindow(input, {
          prometheus: prometheusFromEnv(process.env, o.prometheus),
          utcOffsetMinutes: -new Date().getTimezoneOffset(),
          onProgress: progress,
          signal: abort.signal,
          charts: o.charts !== undefined,
          ...(o.scrape ? { scrapeEndpoints: o.endpoint?.length ? scrapeEndpointsFromConfig({}, o.endpoint) : undefined } : {}),
        });
        progress.done();
        if (o.charts !== undefined && r.charts) {
          const written = await writeCharts(o.charts, r.charts);
          process.stderr.write(written.length ? `charts: ${written.join(', ')}\n` : 'charts: no signal moved the harmful way, nothing to draw\n');
          delete r.charts;
        }
        if (o.json) printJson(r);
        else printText(renderMetrics(r));
        if (r.findings.some((f) => f.severity === 'critical')) process.exitCode = 1;
      } catch (e) {
        progress.done();
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
}
