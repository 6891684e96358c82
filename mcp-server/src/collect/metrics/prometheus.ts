/**
 * A Prometheus-compatible HTTP API (Prometheus, VictoriaMetrics, Thanos, Mimir) as a metrics source. The URL and
 * credentials come only from the user's environment or CLI flags (trusted), never from a tool argument: an assistant
 * that read a hostile log must not be able to point the tool, or a token, at another host. TLS is verified (extra CAs
 * through Node's NODE_EXTRA_CA_CERTS); redirects are refused so credentials never follow one; every request has a
 * timeout and a size cap.
 */
import { OpError } from '../../core/errors.js';
import { readBodyCapped } from '../http-body.js';
import type { Series } from '../../core/metrics/series.js';

export interface PrometheusConfig {
  url: string;
  /** Bearer token (CQL_TUNER_PROMETHEUS_TOKEN) or basic auth (CQL_TUNER_PROMETHEUS_USER / _PASSWORD). */
  token?: string;
  user?: string;
  password?: string;
  timeoutMs?: number;
}

const MAX_BODY = 32 * 1024 * 1024;

/** The configured Prometheus from the environment, or null when none is set. */
export function prometheusFromEnv(env: NodeJS.ProcessEnv = process.env, urlFlag?: string): PrometheusConfig | null {
  const url = (urlFlag ?? env.CQL_TUNER_PROMETHEUS_URL ?? '').trim();
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OpError(
      'BAD_PROMETHEUS_URL',
      `The Prometheus URL ${JSON.stringify(url.slice(0, 200))} is not a URL.`,
      'Set CQL_TUNER_PROMETHEUS_URL (or --prometheus) to e.g. http://prometheus:9090.',
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new OpError('BAD_PROMETHEUS_URL', `The Prometheus URL must be http or https, not ${parsed.protocol}`, 'Use http://host:9090 or https://….');
  }
  if (parsed.username || parsed.password) {
    throw new OpError(
      'BAD_PROMETHEUS_URL',
      'The Prometheus URL carries a user or password.',
      'Put them in CQL_TUNER_PROMETHEUS_USER / CQL_TUNER_PROMETHEUS_PASSWORD (or a token in CQL_TUNER_PROMETHEUS_TOKEN) so they are never printed.',
    );
  }
  const nonEmpty = (v: string | undefined) => (v && v.trim() !== '' ? v : undefined);
  return {
    url: parsed.toString().replace(/\/+$/, ''),
    token: nonEmpty(env.CQL_TUNER_PROMETHEUS_TOKEN),
    user: nonEmpty(env.CQL_TUNER_PROMETHEUS_USER),
    password: nonEmpty(env.CQL_TUNER_PROMETHEUS_PASSWORD),
  };
}

/** The URL with no path secrets, for messages. */
const where = (cfg: PrometheusConfig) => new URL(cfg.url).origin;

async function getJson(cfg: PrometheusConfig, path: string, params: [string, string][], signal?: AbortSignal): Promise<unknown> {
  const url = new URL(`${cfg.url}${path}`);
  for (const [k, v] of params) url.searchParams.append(k, v);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (cfg.token) headers.authorization = `Bearer ${cfg.token}`;
  else if (cfg.user) headers.authorization = `Basic ${Buffer.from(`${cfg.user}:${cfg.password ?? ''}`).toString('base64')}`;
  const timeout = AbortSignal.timeout(cfg.timeoutMs ?? 30_000);
  let res: Response;
  try {
    res = await fetch(url, { headers, redirect: 'error', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (e) {
    if (signal?.aborted) throw new OpError('CANCELLED', 'The metrics request was cancelled.', 'Run it again when wanted.');
    if (timeout.aborted)
      throw new OpError(
        'PROMETHEUS_TIMEOUT',
        `${where(cfg)} did not answer within ${(cfg.timeoutMs ?? 30_000) / 1000} s.`,
        'Ask for a shorter window, or check the Prometheus server load.',
      );
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new OpError(
      'PROMETHEUS_UNREACHABLE',
      `Cannot reach Prometheus at ${where(cfg)}: ${cause?.code ?? cause?.message ?? (e as Error).message}.`,
      'Check CQL_TUNER_PROMETHEUS_URL (scheme, host, port) and that this machine can reach it; a redirect is refused on purpose (point the URL at the final address).',
    );
  }
  const body = await readCapped(res);
  if (res.status === 401 || res.status === 403) {
    throw new OpError(
      'PROMETHEUS_AUTH',
      `Prometheus at ${where(cfg)} refused the request (HTTP ${res.status}).`,
      cfg.token || cfg.user
        ? 'Check CQL_TUNER_PROMETHEUS_TOKEN or CQL_TUNER_PROMETHEUS_USER / _PASSWORD.'
        : 'It needs credentials: set CQL_TUNER_PROMETHEUS_TOKEN, or CQL_TUNER_PROMETHEUS_USER and _PASSWORD.',
    );
  }
  let json: { status?: string; data?: unknown; error?: string; errorType?: string };
  try {
    json = JSON.parse(body) as typeof json;
  } catch {
    throw new OpError(
      'PROMETHEUS_BAD_ANSWER',
      `${where(cfg)}${path} answered HTTP ${res.status} with something that is not the Prometheus API's JSON.`,
      'Check that the URL is the Prometheus server itself (e.g. http://host:9090), not Grafana or a proxy login page.',
    );
  }
  if (json.status !== 'success') {
    throw new OpError(
      'PROMETHEUS_QUERY',
      `Prometheus refused the query (${json.errorType ?? `HTTP ${res.status}`}): ${String(json.error ?? '').slice(0, 300)}`,
      "This is a bug in cql-tuner's query or an incompatible server; report it with the message.",
    );
  }
  return json.data;
}

async function readCapped(res: Response): Promise<string> {
  const text = await readBodyCapped(res, MAX_BODY);
  if (text === null) throw new OpError('PROMETHEUS_TOO_LARGE', `The answer exceeded ${MAX_BODY / 1048576} MiB.`, 'Ask for a shorter window.');
  return text;
}

function toSeries(data: unknown): Series[] {
  const d = data as { resultType?: string; result?: { metric?: Record<string, string>; values?: [number, string][] }[] };
  if (d?.resultType !== 'matrix' || !Array.isArray(d.result)) return [];
  return d.result.map((r) => ({
    labels: r.metric ?? {},
    points: (r.values ?? []).map(([t, v]): [number, number] => [Number(t), Number(v)]).filter(([, v]) => Number.isFinite(v)),
  }));
}

export interface PrometheusClient {
  queryRange(query: string, start: number, end: number, step: number, signal?: AbortSignal): Promise<Series[]>;
  /** Metric names present in [start, end] among `names`. */
  presentNames(names: string[], start: number, end: number, signal?: AbortSignal): Promise<Set<string>>;
  /** Seconds between the last samples of `metric`, or null when it has fewer than two. */
  scrapeInterval(metric: string, at: number, signal?: AbortSignal): Promise<number | null>;
  origin: string;
}

export function prometheusClient(cfg: PrometheusConfig): PrometheusClient {
  return {
    origin: where(cfg),
    async queryRange(query, start, end, step, signal) {
      const data = await getJson(
        cfg,
        '/api/v1/query_range',
        [
          ['query', query],
          ['start', String(start)],
          ['end', String(end)],
          ['step', String(step)],
        ],
        signal,
      );
      return toSeries(data);
    },
    async presentNames(names, start, end, signal) {
      const escaped = names.map((n) => n.replace(/[^a-zA-Z0-9_:.+]/g, '')).join('|');
      const data = await getJson(
        cfg,
        '/api/v1/label/__name__/values',
        [
          ['match[]', `{__name__=~"${escaped}"}`],
          ['start', String(start)],
          ['end', String(end)],
        ],
        signal,
      );
      return new Set(Array.isArray(data) ? data.filter((x): x is string => typeof x === 'string') : []);
    },
    async scrapeInterval(metric, at, signal) {
      const name = metric.replace(/[^a-zA-Z0-9_:]/g, '');
      const data = (await getJson(
        cfg,
        '/api/v1/query',
        [
          ['query', `${name}[10m]`],
          ['time', String(at)],
        ],
        signal,
      )) as { result?: { values?: [number, string][] }[] };
      const values = data?.result?.[0]?.values ?? [];
      if (values.length < 2) return null;
      const gaps = values
        .slice(1)
        .map((v, i) => v[0] - values[i]![0])
        .sort((a, b) => a - b);
      return Math.max(1, Math.round(gaps[Math.floor(gaps.length / 2)]!));
    },
  };
}
