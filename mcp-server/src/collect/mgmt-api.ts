/**
 * The k8ssandra Management API (an HTTP server beside Cassandra that talks to it over a unix socket, no JMX), read
 * where JMX is closed. Two ways to reach it, both chosen only by TRUSTED input:
 *  - pod: the Kubernetes API server's pod proxy, `kubectl get --raw /api/v1/namespaces/NS/pods/POD:PORT/proxy/PATH`,
 *    for pods found under the user's own --k8s NAMESPACE/NAME (no direct network from here to the pod);
 *  - url: base URLs from the user's --mgmt-api flags or CQL_TUNER_MGMT_API_URLS (https verified by default; client
 *    certificate, key and CA from CQL_TUNER_MGMT_API_CERT / _KEY / _CA, read through safe-file).
 * Only the GET paths of core/parse/mgmt-api/paths.ts are requested; nothing from an answer becomes a URL or target.
 */
import { OpError } from '../core/errors.js';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { checkK8sName, showValue } from '../core/remote-argv.js';
import { MGMT_API_GETS, MGMT_API_GET_NAMES, type MgmtApiGet } from '../core/parse/mgmt-api/paths.js';
import { readBodyCapped } from './http-body.js';
import { LocalTarget } from './local-target.js';
import { readNamedFile } from './safe-file.js';
import { kubectlPrefix } from './target-defaults.js';
import type { Target } from './target.js';

type Env = Readonly<Record<string, string | undefined>>;

export type MgmtApiEndpoint = { kind: 'pod'; namespace: string; pod: string; port: number; address: string } | { kind: 'url'; base: URL; address: string };

export interface MgmtApiTls {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** Where each came from, for error messages (never the contents). */
  sources: string[];
}

export type MgmtAnswer = { ok: true; text: string; ms: number } | { ok: false; code: MgmtApiErrorCode; message: string; fix: string; ms: number };

export type MgmtApiErrorCode =
  'MGMT_API_UNREACHABLE' | 'MGMT_API_TLS_UNKNOWN_CA' | 'MGMT_API_TLS' | 'MGMT_API_HTTP' | 'MGMT_API_TOO_LARGE' | 'MGMT_API_TIMEOUT' | 'KUBECTL_FAILED';

export class MgmtApiConfigError extends OpError {
  constructor(message: string, fix: string) {
    super('BAD_ARGUMENT', message, fix);
    this.name = 'MgmtApiConfigError';
  }
}

/** A 4-node answer is a few KiB; 8 MiB leaves room for a big cluster's gossip and stops a hostile stream. */
export const MGMT_API_MAX_BYTES = 8 * 1024 * 1024;
export const MGMT_API_TIMEOUT_MS = 15_000;
export const MGMT_API_URLS_ENV = 'CQL_TUNER_MGMT_API_URLS';
const TLS_ENV = { ca: 'CQL_TUNER_MGMT_API_CA', cert: 'CQL_TUNER_MGMT_API_CERT', key: 'CQL_TUNER_MGMT_API_KEY' } as const;

/**
 * A base URL the user typed (flag or environment): http or https, a host, an optional port and path prefix; no
 * user:password (credentials in a URL end up in logs) and no query or fragment (paths are appended).
 */
export function parseMgmtApiUrl(text: string): { ok: true; url: URL } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: `${showValue(text)} is not a URL (e.g. https://10.0.0.1:8080)` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, error: `${showValue(text)}: only http:// and https:// are read` };
  if (url.username || url.password) {
    return { ok: false, error: `${showValue(url.host)}: a user or password in the URL is refused (use the client certificate settings)` };
  }
  if (url.search || url.hash) return { ok: false, error: `${showValue(text)}: give a base URL without ?query or #fragment` };
  url.pathname = url.pathname.replace(/\/+$/, '');
  return { ok: true, url };
}

/** --mgmt-api flags, else CQL_TUNER_MGMT_API_URLS (comma or space separated): both the user's own settings. */
export function mgmtApiUrlsFrom(flags: readonly string[], env: Env = process.env): MgmtApiEndpoint[] {
  const texts = flags.length ? [...flags] : (env[MGMT_API_URLS_ENV] ?? '').split(/[\s,]+/).filter(Boolean);
  return texts.map((t) => {
    const p = parseMgmtApiUrl(t);
    const fix = 'Give each Management API as a base URL, e.g. --mgmt-api https://10.0.0.1:8080.';
    if (!p.ok) throw new MgmtApiConfigError(`--mgmt-api / ${MGMT_API_URLS_ENV}: ${p.error}`, fix);
    const host = p.url.hostname.replace(/^\[(.*)\]$/, '$1');
    return { kind: 'url' as const, base: p.url, address: host };
  });
}

/** Client certificate, key and CA for https from the environment; a file that cannot be read is an error naming it. */
export async function mgmtApiTlsFromEnv(env: Env = process.env): Promise<MgmtApiTls> {
  const tls: MgmtApiTls = { sources: [] };
  for (const [k, name] of Object.entries(TLS_ENV) as [keyof typeof TLS_ENV, string][]) {
    const path = env[name];
    if (!path) continue;
    const r = await readNamedFile(path, { maxBytes: 1024 * 1024 });
    if (!r.ok) throw new MgmtApiConfigError(`${name}: ${path} ${r.reason}`, `Point ${name} at a PEM file (a regular file, not a link), or unset it.`);
    tls[k] = Buffer.from(r.text);
    tls.sources.push(`${name}=${path}`);
  }
  if (!!tls.cert !== !!tls.key) {
    throw new MgmtApiConfigError(`${TLS_ENV.cert} and ${TLS_ENV.key} go together; only one is set`, 'Set both (client certificate and its key) or neither.');
  }
  return tls;
}

/** The pod proxy path of one allow-listed GET; names are checked again here (DNS-1123), the port is a number. */
export function podProxyPath(ep: Extract<MgmtApiEndpoint, { kind: 'pod' }>, get: MgmtApiGet): string {
  const ns = checkK8sName('namespace', ep.namespace);
  const pod = checkK8sName('pod', ep.pod);
  if (!ns.ok) throw new MgmtApiConfigError(ns.reason, 'Give --k8s NAMESPACE/NAME with a valid namespace.');
  if (!pod.ok) throw new MgmtApiConfigError(pod.reason, 'Only pods with DNS-1123 names are read.');
  if (!Number.isInteger(ep.port) || ep.port < 1 || ep.port > 65535) throw new MgmtApiConfigError(`port ${ep.port} is not 1–65535`, 'Give a valid port.');
  return `/api/v1/namespaces/${ep.namespace}/pods/${ep.pod}:${ep.port}/proxy${MGMT_API_GETS[get]}`;
}

/** The exact kubectl argv: the user's kubeconfig/context from the environment, as every kubectl target uses. */
export function podProxyArgv(ep: Extract<MgmtApiEndpoint, { kind: 'pod' }>, get: MgmtApiGet, env: Env = process.env): string[] {
  return [...kubectlPrefix(env), 'get', '--raw', podProxyPath(ep, get)];
}

export interface MgmtApiOptions {
  timeoutMs?: number;
  maxBytes?: number;
  signal?: AbortSignal;
  env?: Env;
  /** Where kubectl runs (pod mode; default this machine). */
  runner?: Target;
  tls?: MgmtApiTls;
}

async function viaKubectl(ep: Extract<MgmtApiEndpoint, { kind: 'pod' }>, get: MgmtApiGet, o: MgmtApiOptions): Promise<MgmtAnswer> {
  const started = Date.now();
  const argv = podProxyArgv(ep, get, o.env);
  const timeoutMs = o.timeoutMs ?? MGMT_API_TIMEOUT_MS;
  const maxBytes = o.maxBytes ?? MGMT_API_MAX_BYTES;
  const r = await (o.runner ?? new LocalTarget()).run(argv, { timeoutMs, maxBytes, ...(o.signal ? { signal: o.signal } : {}) });
  const ms = Date.now() - started;
  if (!r.spawnError && r.exitCode === 0) return { ok: true, text: r.stdout, ms };
  const last = (r.stderr.trim().split('\n').pop() ?? '').slice(0, 300);
  const fix = 'Check that the pod runs the Management API on that port (container port "mgmt-api-http") and that your kube user may get pods/proxy.';
  if (r.timedOut) return { ok: false, code: 'MGMT_API_TIMEOUT', message: `${argv.join(' ')}: no answer in ${timeoutMs / 1000} s`, fix, ms };
  return { ok: false, code: 'KUBECTL_FAILED', message: `${argv.join(' ')} failed: ${r.spawnError ?? (last || `exit ${r.exitCode}`)}`, fix, ms };
}

/** Node's TLS error codes for a server certificate no known CA signed. */
const UNKNOWN_CA = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

function requestOnce(url: URL, o: MgmtApiOptions, timeoutMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const tls = o.tls;
    const opts = {
      method: 'GET',
      headers: { accept: 'application/json, text/plain' },
      timeout: timeoutMs,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(url.protocol === 'https:'
        ? { rejectUnauthorized: true, ...(tls?.ca ? { ca: tls.ca } : {}), ...(tls?.cert ? { cert: tls.cert, key: tls.key } : {}) }
        : {}),
    };
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, opts, resolve);
    req.on('timeout', () =>
      req.destroy(new OpError('MGMT_API_TIMEOUT', `no answer in ${timeoutMs / 1000} s`, 'Check that the Management API answers on that address and port.')),
    );
    req.on('error', reject);
    req.end();
  });
}

function fail(code: MgmtApiErrorCode, message: string, fix: string, ms: number): MgmtAnswer {
  return { ok: false, code, message, fix, ms };
}

async function viaUrl(ep: Extract<MgmtApiEndpoint, { kind: 'url' }>, get: MgmtApiGet, o: MgmtApiOptions): Promise<MgmtAnswer> {
  const started = Date.now();
  const url = new URL(ep.base.href);
  // A base of "https://h:8080" has pathname "/": keep a prefix such as /mgmt, never a double slash.
  url.pathname = `${ep.base.pathname.replace(/\/+$/, '')}${MGMT_API_GETS[get]}`;
  const timeoutMs = o.timeoutMs ?? MGMT_API_TIMEOUT_MS;
  const where = `GET ${url.href}`;
  // One deadline for the whole exchange: the socket's own timeout is per idle gap, so a server that sends a byte a
  // second would otherwise hold the call past its timeout.
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([deadline, ...(o.signal ? [o.signal] : [])]);
  try {
    const res = await requestOnce(url, { ...o, signal }, timeoutMs);
    // Redirects are not followed: an answer never chooses where the next request goes.
    const status = res.statusCode ?? 0;
    const body = await readBodyCapped(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>), o.maxBytes ?? MGMT_API_MAX_BYTES);
    const ms = Date.now() - started;
    if (body === null) {
      const mib = (o.maxBytes ?? MGMT_API_MAX_BYTES) / 1024 / 1024;
      return fail('MGMT_API_TOO_LARGE', `${where}: the answer is larger than ${mib} MiB`, 'Check that this URL is the Management API.', ms);
    }
    if (status < 200 || status >= 300) {
      const fix =
        status === 401 || status === 403
          ? `The Management API wants a client certificate: set ${TLS_ENV.cert} and ${TLS_ENV.key}.`
          : 'Check the URL and the Management API version (v0.1.x serves these paths).';
      return fail('MGMT_API_HTTP', `${where}: HTTP ${status} ${JSON.stringify(body.slice(0, 120))}`, fix, ms);
    }
    return { ok: true, text: body, ms };
  } catch (e) {
    const ms = Date.now() - started;
    const code = deadline.aborted ? 'MGMT_API_TIMEOUT' : ((e as { code?: string }).code ?? '');
    const msg = deadline.aborted ? `no complete answer in ${timeoutMs / 1000} s` : e instanceof Error ? e.message : String(e);
    if (UNKNOWN_CA.has(code)) {
      const fix = `Set ${TLS_ENV.ca} to the CA file (PEM) that signed the Management API's certificate.`;
      return fail('MGMT_API_TLS_UNKNOWN_CA', `${where}: the server's certificate is signed by a CA this machine does not trust (${code})`, fix, ms);
    }
    if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /certificate|ssl|tls/i.test(msg)) {
      const fix = `Check the URL's host name against the certificate, and ${TLS_ENV.cert}/${TLS_ENV.key} when the server wants mTLS.`;
      return fail('MGMT_API_TLS', `${where}: TLS failed: ${msg.slice(0, 200)}`, fix, ms);
    }
    const liveness = 'Check that the Management API answers (curl its /api/v0/probes/liveness).';
    if (code === 'MGMT_API_TIMEOUT') return fail('MGMT_API_TIMEOUT', `${where}: ${msg}`, liveness, ms);
    return fail('MGMT_API_UNREACHABLE', `${where}: ${msg.slice(0, 200)}`, 'Check the URL and that the Management API listens there (default port 8080).', ms);
  }
}

export function describeMgmtApiEndpoint(ep: MgmtApiEndpoint): string {
  return ep.kind === 'pod' ? `pod ${ep.namespace}/${ep.pod}:${ep.port} (kubectl get --raw)` : ep.base.href;
}

/** One allow-listed GET against one endpoint. */
export function getMgmtApi(ep: MgmtApiEndpoint, get: MgmtApiGet, o: MgmtApiOptions = {}): Promise<MgmtAnswer> {
  if (!Object.hasOwn(MGMT_API_GETS, get)) throw new MgmtApiConfigError(`${showValue(get)} is not a Management API read`, 'Use one of the allow-listed reads.');
  return ep.kind === 'pod' ? viaKubectl(ep, get, o) : viaUrl(ep, get, o);
}

export interface MgmtNodeRaw {
  endpoint: MgmtApiEndpoint;
  answers: Partial<Record<MgmtApiGet, MgmtAnswer>>;
  ms: number;
}

/** Every allow-listed GET of one node, one after another (a few small requests per node). */
export async function collectMgmtApi(ep: MgmtApiEndpoint, o: MgmtApiOptions = {}): Promise<MgmtNodeRaw> {
  const started = Date.now();
  const answers: MgmtNodeRaw['answers'] = {};
  for (const get of MGMT_API_GET_NAMES) {
    if (o.signal?.aborted) break;
    answers[get] = await getMgmtApi(ep, get, o);
    // An endpoint that does not answer at all is not asked three more times.
    const a = answers[get];
    if (!a.ok && (a.code === 'MGMT_API_UNREACHABLE' || a.code === 'MGMT_API_TLS_UNKNOWN_CA' || a.code === 'MGMT_API_TIMEOUT')) break;
  }
  return { endpoint: ep, answers, ms: Date.now() - started };
}
