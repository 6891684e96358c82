/**
 * A real Prometheus (Debian's `prometheus` package) and node exporter (`prometheus-node-exporter`) for the metrics
 * tests: each on a free 127.0.0.1 port, with a generated config and a temp data dir, stopped by PID. Without the
 * binaries the tests skip with a message saying what to install.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { freeLoopbackPort } from './free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROMETHEUS_BIN = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'].find((p) => existsSync(p)) ?? null;
export const NODE_EXPORTER_BIN = ['/usr/bin/prometheus-node-exporter', '/usr/local/bin/node_exporter'].find((p) => existsSync(p)) ?? null;
export const PROMETHEUS_MISSING =
  'prometheus / prometheus-node-exporter not installed (apt-get install prometheus prometheus-node-exporter): metrics tests are skipped';

export const freePort = freeLoopbackPort;

async function waitHttp(url: string, timeoutMs: number, child: ChildProcess, log: () => string, headers: Record<string, string> = {}): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode}): ${log().slice(-2000)}`);
    const ok = await fetch(url, { headers }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms: ${log().slice(-2000)}`);
}

export interface Running {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

function startProcess(bin: string, args: string[]): { child: ChildProcess; log: () => string } {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { child, log: () => out };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(t);
}

/** node exporter with only the collectors the metrics signals use (quick to scrape, nothing host-specific). */
export async function startNodeExporter(opts: { textfileDir?: string } = {}): Promise<Running> {
  if (!NODE_EXPORTER_BIN) throw new Error(PROMETHEUS_MISSING);
  const port = await freePort();
  const { child, log } = startProcess(NODE_EXPORTER_BIN, [
    `--web.listen-address=127.0.0.1:${port}`,
    '--collector.disable-defaults',
    // with a textfile dir the exporter poses as a node with only the test's values (no host metrics)
    ...(opts.textfileDir
      ? ['--collector.textfile', `--collector.textfile.directory=${opts.textfileDir}`]
      : ['--collector.cpu', '--collector.diskstats', '--collector.loadavg']),
  ]);
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(`${url}/metrics`, 20_000, child, log);
  return { url, port, pid: child.pid!, stop: () => stopChild(child) };
}

export interface PrometheusJob {
  name: string;
  /** host:port, or with an `instance` label that replaces it (several exporters on one host posing as nodes). */
  targets: (string | { target: string; instance: string })[];
}

/** Basic auth on Prometheus' own API (its --web.config.file takes bcrypt hashes only). */
export interface PrometheusBasicAuth {
  user: string;
  password: string;
  /** bcrypt hash of `password`. */
  bcrypt: string;
}

/** Prometheus scraping `jobs` every `scrapeIntervalS`, data in a temp dir removed on stop. */
export async function startPrometheus(
  jobs: PrometheusJob[],
  scrapeIntervalS = 1,
  opts: { basicAuth?: PrometheusBasicAuth } = {},
): Promise<Running & { dir: string }> {
  if (!PROMETHEUS_BIN) throw new Error(PROMETHEUS_MISSING);
  const dir = await mkdtemp(join(tmpdir(), 'cql-tuner-prom-'));
  const config = [
    'global:',
    `  scrape_interval: ${scrapeIntervalS}s`,
    `  evaluation_interval: ${scrapeIntervalS}s`,
    'scrape_configs:',
    ...jobs.flatMap((j) => [
      `  - job_name: ${JSON.stringify(j.name)}`,
      '    static_configs:',
      ...j.targets.flatMap((t) =>
        typeof t === 'string'
          ? [`      - targets: [${JSON.stringify(t)}]`]
          : [`      - targets: [${JSON.stringify(t.target)}]`, `        labels: { instance: ${JSON.stringify(t.instance)} }`],
      ),
    ]),
    '',
  ].join('\n');
  await writeFile(join(dir, 'prometheus.yml'), config);
  const auth = opts.basicAuth;
  if (auth) await writeFile(join(dir, 'web.yml'), `basic_auth_users:\n  ${JSON.stringify(auth.user)}: ${JSON.stringify(auth.bcrypt)}\n`);
  const port = await freePort();
  const { child, log } = startProcess(PROMETHEUS_BIN, [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--storage.tsdb.retention.time=1d',
    ...(auth ? [`--web.config.file=${join(dir, 'web.yml')}`] : []),
  ]);
  const url = `http://127.0.0.1:${port}`;
  const headers: Record<string, string> = auth ? { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` } : {};
  await waitHttp(`${url}/-/ready`, 60_000, child, log, headers);
  return {
    url,
    port,
    dir,
    pid: child.pid!,
    async stop() {
      await stopChild(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
