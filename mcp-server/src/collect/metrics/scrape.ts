/**
 * A node's exporter page read directly (ScyllaDB :9180/metrics, the JMX exporter agent, node_exporter :9100), for
 * clusters without a Prometheus. The endpoints come only from the user: CLI flags, CQL_TUNER_SCRAPE_URLS, or the
 * running lab's state; never from a tool argument, so an assistant that read a hostile log cannot aim the tool at
 * another host. No credentials are ever sent. Every request has a timeout and a size cap (counted after
 * decompression); a redirect is followed only within the same origin (scheme, host and port).
 */
import { OpError } from '../../core/errors.js';
import { readBodyCapped } from '../http-body.js';

export interface ScrapeEndpoint {
  url: string;
  /** host:port, the `instance` label Prometheus would give this target (nodeOfInstance → the node). */
  instance: string;
}

export interface ScrapeLimits {
  timeoutMs?: number;
  maxBytes?: number;
  signal?: AbortSignal;
}

/** A large ScyllaDB node with per-table metrics serves several MiB; 32 MiB is far above any real page. */
export const SCRAPE_MAX_BYTES = 32 * 1024 * 1024;
export const SCRAPE_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;

const badEndpoint = (what: string) =>
  new OpError(
    'BAD_SCRAPE_ENDPOINT',
    what,
    'Give each endpoint as http(s)://host:port[/path] or host:port (the path defaults to /metrics), without user or password.',
  );

/** One endpoint as the user wrote it: a URL, or host:port meaning http://host:port/metrics. */
export function parseScrapeEndpoint(text: string): ScrapeEndpoint {
  const t = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? t : `http://${t}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw badEndpoint(`${JSON.stringify(t.slice(0, 200))} is not a URL or host:port.`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw badEndpoint(`A metrics endpoint must be http or https, not ${u.protocol}`);
  if (u.username || u.password) throw badEndpoint('A metrics endpoint URL carries a user or password; exporter pages are read without credentials.');
  if (!u.hostname) throw badEndpoint(`${JSON.stringify(t.slice(0, 200))} has no host.`);
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/metrics';
  u.hash = '';
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return { url: u.toString(), instance: `${u.hostname}:${port}` };
}

/**
 * The user's endpoints: CLI flags win, then CQL_TUNER_SCRAPE_URLS (comma or space separated). Duplicates are
 * dropped; an empty result is [] (the caller may then use the lab).
 */
export function scrapeEndpointsFromConfig(env: NodeJS.ProcessEnv = process.env, flags: string[] = []): ScrapeEndpoint[] {
  const texts = flags.length > 0 ? flags : (env.CQL_TUNER_SCRAPE_URLS ?? '').split(/[\s,]+/).filter(Boolean);
  const seen = new Set<string>();
  const out: ScrapeEndpoint[] = [];
  for (const t of texts) {
    const ep = parseScrapeEndpoint(t);
    if (seen.has(ep.url)) continue;
    seen.add(ep.url);
    out.push(ep);
  }
  return out;
}

/** The lab's nodes when it was started with --metrics: http://<node address>:<port>/metrics each. */
export function labScrapeEndpoints(state: { nodes: { host: string }[]; metrics?: { port: number } } | null): ScrapeEndpoint[] {
  if (!state?.metrics) return [];
  const port = state.metrics.port;
  return state.nodes.map((n) => ({ url: `http://${n.host}:${port}/metrics`, instance: `${n.host}:${port}` }));
}

export type ScrapeResult = { ok: true; text: string } | { ok: false; error: string };

/** One GET of the page. Never throws for what the endpoint does (unreachable, slow, too big, HTTP error): says so. */
export async function scrapePage(ep: ScrapeEndpoint, limits: ScrapeLimits = {}): Promise<ScrapeResult> {
  const timeoutMs = limits.timeoutMs ?? SCRAPE_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? SCRAPE_MAX_BYTES;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = limits.signal ? AbortSignal.any([limits.signal, timeout]) : timeout;
  const origin = new URL(ep.url).origin;
  let url = ep.url;
  try {
    for (let hop = 0; ; hop++) {
      // Ask for the text format: some exporters otherwise negotiate OpenMetrics or protobuf.
      const res = await fetch(url, { redirect: 'manual', signal, headers: { accept: 'text/plain;version=0.0.4;q=1,*/*;q=0.1' } });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        const location = res.headers.get('location');
        const next = location ? new URL(location, url) : null;
        if (!next || next.origin !== origin) {
          return { ok: false, error: `redirected to ${next ? next.origin : 'nowhere'}; only redirects within ${origin} are followed` };
        }
        if (hop >= MAX_REDIRECTS) return { ok: false, error: `more than ${MAX_REDIRECTS} redirects` };
        url = next.toString();
        continue;
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        return { ok: false, error: `HTTP ${res.status}` };
      }
      const text = await readBodyCapped(res, maxBytes);
      return text === null ? { ok: false, error: `the page exceeded ${Math.round(maxBytes / 1024)} KiB` } : { ok: true, text };
    }
  } catch (e) {
    if (limits.signal?.aborted) throw new OpError('CANCELLED', 'The metrics scrape was cancelled.', 'Run it again when wanted.');
    if (timeout.aborted) return { ok: false, error: `no answer within ${timeoutMs / 1000} s` };
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, error: `unreachable (${cause?.code ?? cause?.message ?? (e as Error).message})` };
  }
}
