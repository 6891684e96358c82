/**
 * diagnose through the k8ssandra Management API: each node's allow-listed GET answers (collect/mgmt-api.ts) become
 * the same facts nodetool status / describecluster / compactionstats give (core/parse/mgmt-api), and the diagnosis
 * runs the same rules on them. Used when the user asks (--mgmt-api) and as the fallback of diagnose --k8s when
 * nodetool through kubectl exec finds JMX closed. The endpoints come only from trusted input (the user's flags,
 * environment, or the pods of the user's --k8s NAMESPACE/NAME); nothing read from an answer is contacted.
 */
import { mapBounded } from '../collect/bounded.js';
import {
  collectMgmtApi,
  describeMgmtApiEndpoint,
  MgmtApiConfigError,
  mgmtApiTlsFromEnv,
  type MgmtApiEndpoint,
  type MgmtApiOptions,
  type MgmtNodeRaw,
} from '../collect/mgmt-api.js';
import { factsFromMgmtApi } from '../core/parse/mgmt-api/node.js';
import { MGMT_API_GETS, type MgmtApiGet } from '../core/parse/mgmt-api/paths.js';
import type { RulePolicy } from '../core/rules/policy.js';
import { applyPolicyToReport, diagnosisFromSnapshot, type DiagnosisReport } from './diagnose.js';
import { OpError } from './errors.js';
import type { ProgressFn } from './progress.js';
import type { ClusterSnapshot, NodeSnapshot, SourceSummary } from './snapshot.js';

export const MGMT_API_CONCURRENCY = 8;

/** One node's answers → the snapshot node the rules read (same shape as a CQL/nodetool sweep's). */
export function mgmtNodeSnapshot(raw: MgmtNodeRaw): NodeSnapshot {
  const texts: Partial<Record<MgmtApiGet, string>> = {};
  const sources: SourceSummary[] = [];
  for (const [get, a] of Object.entries(raw.answers) as [MgmtApiGet, MgmtNodeRaw['answers'][MgmtApiGet]][]) {
    if (!a) continue;
    const name = `mgmt-api:${MGMT_API_GETS[get]}`;
    if (a.ok) texts[get] = a.text;
    sources.push({ name, via: 'mgmt-api', ok: a.ok, ms: a.ms, ...(a.ok ? {} : { error: { code: a.code, message: `${a.message} (fix: ${a.fix})` } }) });
  }
  const address = raw.endpoint.address;
  const { facts, nodetool, unparsed, self } = factsFromMgmtApi(texts, address);
  const reachable = sources.some((s) => s.ok);
  return {
    address,
    datacenter: facts.datacenter ?? null,
    rack: facts.rack ?? null,
    hostId: facts.hostId ?? null,
    releaseVersion: facts.releaseVersion ?? null,
    product: 'cassandra',
    upPerDriver: self?.alive ?? reachable,
    reachable,
    status: !reachable ? 'unreachable' : sources.every((s) => s.ok) ? 'complete' : 'partial',
    ms: raw.ms,
    sources,
    facts,
    nodetool,
    unparsed,
  };
}

export interface MgmtApiDeps {
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  env?: Readonly<Record<string, string | undefined>>;
  /** Where kubectl runs for pod endpoints (tests: a shim). */
  runner?: MgmtApiOptions['runner'];
  timeoutMs?: number;
  policy?: RulePolicy;
}

export async function mgmtApiSnapshot(endpoints: readonly MgmtApiEndpoint[], deps: MgmtApiDeps = {}): Promise<ClusterSnapshot> {
  if (!endpoints.length) {
    const fix = 'Give --mgmt-api https://HOST:8080 (repeatable), set CQL_TUNER_MGMT_API_URLS, or use --k8s NAMESPACE/NAME --mgmt-api.';
    throw new OpError('NO_CONTACT_POINTS', 'no Management API endpoint given', fix);
  }
  const started = Date.now();
  let tls;
  try {
    tls = endpoints.some((e) => e.kind === 'url') ? await mgmtApiTlsFromEnv(deps.env ?? process.env) : undefined;
  } catch (e) {
    if (e instanceof MgmtApiConfigError) throw new OpError('BAD_ARGUMENT', e.message, e.fix);
    throw e;
  }
  const opts: MgmtApiOptions = {
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.env ? { env: deps.env } : {}),
    ...(deps.runner ? { runner: deps.runner } : {}),
    ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
    ...(tls ? { tls } : {}),
  };
  let done = 0;
  deps.onProgress?.({ message: `reading the Management API of ${endpoints.length} node(s)`, progress: 0, total: endpoints.length });
  const settled = await mapBounded([...endpoints], MGMT_API_CONCURRENCY, async (ep) => {
    const r = await collectMgmtApi(ep, opts);
    deps.onProgress?.({ message: `read ${describeMgmtApiEndpoint(ep)}`, progress: ++done, total: endpoints.length });
    return r;
  });
  const nodes = settled.map((s, i): NodeSnapshot => {
    if (s.status === 'fulfilled') return mgmtNodeSnapshot(s.value);
    const e: unknown = s.reason;
    if (e instanceof MgmtApiConfigError) throw new OpError('BAD_ARGUMENT', e.message, e.fix);
    return mgmtNodeSnapshot({ endpoint: endpoints[i]!, answers: {}, ms: 0 });
  });
  const silent = nodes.filter((n) => !n.reachable);
  const warnings = silent.length === nodes.length ? undefined : silent.map((n) => `${n.address}: the Management API did not answer`);
  return {
    collectedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    contactPoints: endpoints.map(describeMgmtApiEndpoint),
    nodes,
    ...(warnings?.length ? { warnings } : {}),
  };
}

/** The Management API answers → the usual diagnosis report (same rules, same policy handling). */
export async function diagnoseViaMgmtApi(endpoints: readonly MgmtApiEndpoint[], deps: MgmtApiDeps & { why?: string } = {}): Promise<DiagnosisReport> {
  const s = await mgmtApiSnapshot(endpoints, deps);
  if (s.nodes.every((n) => !n.reachable)) {
    const first = s.nodes[0]?.sources.find((x) => !x.ok)?.error;
    throw new OpError(
      'MGMT_API_UNREACHABLE',
      `no Management API answered (${s.contactPoints.slice(0, 3).join(', ')})${first ? `: ${first.message}` : ''}`,
      'Check the URLs (--mgmt-api, CQL_TUNER_MGMT_API_URLS) or, with --k8s, that the pods run the Management API on port 8080.',
    );
  }
  deps.onProgress?.({ message: 'running rules' });
  const origin = `Management API via ${s.contactPoints.join(', ')}${deps.why ? ` (${deps.why})` : ''}`;
  return applyPolicyToReport(diagnosisFromSnapshot(s, origin, {}, undefined, undefined, deps.policy), deps.policy);
}
