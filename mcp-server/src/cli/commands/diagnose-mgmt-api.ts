/**
 * diagnose --mgmt-api: the k8ssandra Management API instead of CQL and JMX. The URLs are the user's own flags or
 * CQL_TUNER_MGMT_API_URLS; with --k8s the discovered pods are read through the API server's pod proxy (kubectl get
 * --raw), on CQL_TUNER_MGMT_API_PORT or cass-operator's default 8080. Kept apart from diagnose.ts so that stays short.
 */
import { MgmtApiConfigError, mgmtApiUrlsFrom } from '../../collect/mgmt-api.js';
import { DEFAULT_MGMT_API_PORT } from '../../core/parse/mgmt-api/paths.js';
import type { RulePolicy } from '../../core/rules/policy.js';
import { OpError } from '../../ops/errors.js';
import { isJmxRefusal, k8sMgmtApiEndpoints } from '../../ops/k8s-diagnose.js';
import type { K8sDiscovery } from '../../collect/k8s-discovery.js';
import { diagnoseViaMgmtApi } from '../../ops/mgmt-api-diagnose.js';
import type { DiagnosisReport } from '../../ops/diagnose.js';

export const MGMT_API_HELP =
  'read the k8ssandra Management API over HTTP instead of CQL/JMX (repeatable base URL, e.g. https://10.0.0.1:8080; ' +
  'default $CQL_TUNER_MGMT_API_URLS; https verified, mTLS/CA from $CQL_TUNER_MGMT_API_CERT/_KEY/_CA). ' +
  'With --k8s give no URL: each pod is read through the API server (kubectl get --raw …/pods/POD:8080/proxy/…), ' +
  'which --k8s also falls back to when nodetool finds JMX closed';

export type MgmtApiFlag = true | string[] | undefined;

interface Deps {
  onProgress: (p: { message: string }) => void;
  signal: AbortSignal;
  policy?: RulePolicy;
}

/** Flags the Management API path cannot honour: refused by name rather than silently ignored. */
type Clashing = { bundle?: string; lab?: boolean; hosts?: string[]; nodetoolVia?: string; save?: string; log?: string[]; window?: number; since?: number };

export function refuseWithMgmtApi(o: Clashing): void {
  const clash = [
    o.bundle && '--bundle',
    o.lab && '--lab',
    o.hosts?.length && '--hosts',
    o.nodetoolVia && '--nodetool-via',
    o.save && '--save (no bundle format for Management API answers yet)',
    o.log?.length && '--log',
    o.window !== undefined && '--window (one instant read)',
    o.since !== undefined && '--since',
  ].filter(Boolean);
  if (!clash.length) return;
  const what = `--mgmt-api reads the Management API only; ${clash.join(', ')} cannot be given with it`;
  throw new OpError('BAD_ARGUMENT', what, 'Drop those flags, or drop --mgmt-api.');
}

/** The port of the pods' Management API: the user's CQL_TUNER_MGMT_API_PORT, else cass-operator's default. */
export function mgmtApiPortFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const v = env['CQL_TUNER_MGMT_API_PORT'];
  if (v === undefined || v === '') return DEFAULT_MGMT_API_PORT;
  const n = Number(v);
  if (!/^\d{1,5}$/.test(v) || n < 1 || n > 65535) {
    throw new OpError('BAD_ARGUMENT', `CQL_TUNER_MGMT_API_PORT=${JSON.stringify(v)} is not a port`, 'Set it to 1–65535 or unset it (default 8080).');
  }
  return n;
}

/** diagnose --mgmt-api [URL…] without --k8s. */
export async function diagnoseMgmtApiUrls(flag: MgmtApiFlag, deps: Deps): Promise<DiagnosisReport> {
  let endpoints;
  try {
    endpoints = mgmtApiUrlsFrom(Array.isArray(flag) ? flag : []);
  } catch (e) {
    if (e instanceof MgmtApiConfigError) throw new OpError('BAD_ARGUMENT', e.message, e.fix);
    throw e;
  }
  return diagnoseViaMgmtApi(endpoints, deps);
}

/** --k8s with --mgmt-api: the pods through the pod proxy. With flag undefined: the fallback after a JMX refusal. */
export async function k8sViaMgmtApi(namespace: string, discovery: K8sDiscovery, deps: Deps, why?: string): Promise<DiagnosisReport> {
  return diagnoseViaMgmtApi(k8sMgmtApiEndpoints(namespace, discovery, mgmtApiPortFromEnv()), { ...deps, ...(why ? { why } : {}) });
}

/** Runs the nodetool path; when it fails on closed JMX and the pods are cass-operator's, reads their Management API. */
export async function withMgmtApiFallback(
  run: () => Promise<DiagnosisReport>,
  namespace: string,
  discovery: K8sDiscovery,
  deps: Deps,
): Promise<DiagnosisReport> {
  try {
    return await run();
  } catch (e) {
    if (!isJmxRefusal(e) || discovery.operator !== 'cass-operator') throw e;
    deps.onProgress({ message: 'nodetool found JMX closed: reading the Management API through the pod proxy' });
    return k8sViaMgmtApi(namespace, discovery, deps, 'fallback: nodetool through kubectl exec found JMX closed');
  }
}
