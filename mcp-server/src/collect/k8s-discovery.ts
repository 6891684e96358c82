/**
 * diagnose --k8s NAMESPACE/NAME: find the database pods an operator runs, with `kubectl get pods -l … -o json`,
 * and give each pod IP a kubectl exec target into its database container.
 *
 * The labels are the operators' own at their release tags: cass-operator v1.32.0 puts
 * cassandra.datastax.com/datacenter=<CassandraDatacenter name> on every server pod (container "cassandra"),
 * Scylla Operator v1.21.1 puts scylla/cluster=<ScyllaCluster name> (container "scylla"). The namespace and name come
 * from the user's own flag (trusted); the pod list is cluster data, so every pod name and IP is checked before use.
 * The kubeconfig and context are the user's environment settings (CQL_TUNER_KUBECONFIG, CQL_TUNER_KUBE_CONTEXT).
 */
import { OpError } from '../core/errors.js';
import { checkK8sName, showValue } from '../core/remote-argv.js';
import { parseK8sPodList } from '../core/parse/k8s/pods.js';
import { checkNodeAddress } from '../core/validate.js';
import { LocalTarget } from './local-target.js';
import { kubectlPrefix } from './target-defaults.js';
import type { TargetSpec } from './target-spec.js';
import type { Target } from './target.js';

export interface K8sRef {
  namespace: string;
  name: string;
}

export interface OperatorSelector {
  operator: 'cass-operator' | 'scylla-operator';
  label: string;
  container: string;
}

/** Tried in this order; the first that lists pods wins. */
export const OPERATOR_SELECTORS: readonly OperatorSelector[] = [
  { operator: 'cass-operator', label: 'cassandra.datastax.com/datacenter', container: 'cassandra' },
  { operator: 'scylla-operator', label: 'scylla/cluster', container: 'scylla' },
];

export type K8sRefResult = { ok: true; ref: K8sRef } | { ok: false; error: string };

// Label values: at most 63 characters of A–Z a–z 0–9 - _ ., alphanumeric at both ends.
const LABEL_VALUE = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$/;

/** "namespace/name" as typed after --k8s. */
export function parseK8sRef(text: string): K8sRefResult {
  const parts = text.split('/');
  if (parts.length !== 2) return { ok: false, error: `--k8s ${showValue(text)} is not NAMESPACE/NAME (e.g. cass-operator/dc1)` };
  const [namespace, name] = parts as [string, string];
  const ns = checkK8sName('namespace', namespace);
  if (!ns.ok) return { ok: false, error: ns.reason };
  if (!LABEL_VALUE.test(name)) return { ok: false, error: `--k8s name ${showValue(name)} is not a label value (A–Z a–z 0–9 - _ ., at most 63 characters)` };
  return { ok: true, ref: { namespace, name } };
}

/** The exact kubectl argv for one operator's pods. */
export function podListArgv(ref: K8sRef, sel: OperatorSelector, env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return [...kubectlPrefix(env), '-n', ref.namespace, 'get', 'pods', '-l', `${sel.label}=${ref.name}`, '-o', 'json'];
}

export interface K8sNode {
  pod: string;
  ip: string;
  ready: boolean;
}

export interface K8sDiscovery {
  operator: OperatorSelector['operator'];
  container: string;
  nodes: K8sNode[];
  /** Pods left out, and why (no IP yet, a name or address that is not one). */
  skipped: string[];
  /** The pod IP → kubectl exec target into its database container. */
  targets: Record<string, TargetSpec>;
}

export class K8sDiscoveryError extends OpError {
  declare readonly code: 'KUBECTL_FAILED' | 'NO_PODS' | 'BAD_POD_LIST';

  constructor(code: 'KUBECTL_FAILED' | 'NO_PODS' | 'BAD_POD_LIST', message: string, fix: string) {
    // what kubectl answered is not the user's input: the operation ran and failed (exit 1)
    super(code, message, fix, { refused: false });
    this.name = 'K8sDiscoveryError';
  }
}

const TIMEOUT_MS = 30_000;

export interface DiscoverOptions {
  /** Where kubectl runs (default: this machine). */
  runner?: Target;
  signal?: AbortSignal;
  env?: Readonly<Record<string, string | undefined>>;
}

const KUBECTL_FIX =
  'Check that kubectl is on PATH and reaches the cluster (kubectl get pods -n NAMESPACE), or set CQL_TUNER_KUBECONFIG / CQL_TUNER_KUBE_CONTEXT.';

export async function discoverK8sPods(ref: K8sRef, opts: DiscoverOptions = {}): Promise<K8sDiscovery> {
  const runner = opts.runner ?? new LocalTarget();
  const tried: string[] = [];
  for (const sel of OPERATOR_SELECTORS) {
    const argv = podListArgv(ref, sel, opts.env);
    const r = await runner.run(argv, { timeoutMs: TIMEOUT_MS, maxBytes: 32 * 1024 * 1024, ...(opts.signal ? { signal: opts.signal } : {}) });
    if (r.spawnError || r.exitCode !== 0) {
      const why = r.spawnError ?? (r.timedOut ? `timed out after ${TIMEOUT_MS / 1000} s` : (r.stderr.trim().split('\n').pop() ?? `exit ${r.exitCode}`));
      throw new K8sDiscoveryError('KUBECTL_FAILED', `${argv.join(' ')} failed: ${why}`, KUBECTL_FIX);
    }
    const parsed = parseK8sPodList(r.stdout);
    if (!parsed.ok) {
      throw new K8sDiscoveryError('BAD_POD_LIST', `${argv.join(' ')}: ${parsed.reason}`, 'Check the kubectl on PATH: it should print the pod list as JSON.');
    }
    tried.push(`${sel.label}=${ref.name}`);
    if (!parsed.value.length) continue;
    const nodes: K8sNode[] = [];
    const skipped: string[] = [];
    const targets: Record<string, TargetSpec> = {};
    for (const p of parsed.value) {
      const name = checkK8sName('pod', p.name);
      if (!name.ok) {
        skipped.push(`${showValue(p.name)}: ${name.reason}`);
        continue;
      }
      if (!p.ip) {
        skipped.push(`${p.name}: no pod IP yet (phase ${p.phase ?? 'unknown'})`);
        continue;
      }
      const ip = checkNodeAddress(p.ip);
      if (!ip.ok) {
        skipped.push(`${p.name}: ${ip.reason}`);
        continue;
      }
      if (!p.containers.includes(sel.container)) {
        skipped.push(`${p.name}: no container named ${sel.container}`);
        continue;
      }
      nodes.push({ pod: p.name, ip: p.ip, ready: p.ready });
      targets[p.ip] = { kind: 'kubectl', namespace: ref.namespace, pod: p.name, container: sel.container };
    }
    if (!nodes.length) {
      const what = `pods with ${sel.label}=${ref.name} in ${ref.namespace} have none usable: ${skipped.join('; ')}`;
      throw new K8sDiscoveryError('NO_PODS', what, 'Wait until the pods are scheduled and have IPs (kubectl get pods -o wide).');
    }
    nodes.sort((a, b) => a.pod.localeCompare(b.pod, undefined, { numeric: true }));
    return { operator: sel.operator, container: sel.container, nodes, skipped, targets };
  }
  throw new K8sDiscoveryError(
    'NO_PODS',
    `no pods in namespace ${ref.namespace} with ${tried.join(' or ')}`,
    'Give NAMESPACE/NAME of a CassandraDatacenter (cass-operator, k8ssandra: the datacenter name) or of a ScyllaCluster.',
  );
}

/** The operator's own resource for NAME: what cass-operator and Scylla Operator name the custom resource the pods belong to. */
const RESOURCE_OF: Record<OperatorSelector['operator'], string> = {
  'cass-operator': 'cassandradatacenters.cassandra.datastax.com',
  'scylla-operator': 'scyllaclusters.scylla.scylladb.com',
};

/** The exact kubectl argv that prints the operator resource NAME as YAML (fully qualified: no short-name ambiguity). */
export function resourceArgv(ref: K8sRef, operator: OperatorSelector['operator'], env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return [...kubectlPrefix(env), '-n', ref.namespace, 'get', RESOURCE_OF[operator], ref.name, '-o', 'yaml'];
}

export type K8sResourceRead = { ok: true; text: string; source: string } | { ok: false; source: string; reason: string };

/**
 * The resource the pods were found under, as YAML (cluster data: parsed, never run). A refusal (RBAC may allow
 * pods/exec but not the custom resource) is an answer, not an error: the diagnosis goes on without it.
 */
export async function readK8sResource(ref: K8sRef, operator: OperatorSelector['operator'], opts: DiscoverOptions = {}): Promise<K8sResourceRead> {
  const argv = resourceArgv(ref, operator, opts.env);
  const source = `kubectl get ${RESOURCE_OF[operator]} ${ref.name} (namespace ${ref.namespace})`;
  const r = await (opts.runner ?? new LocalTarget()).run(argv, {
    timeoutMs: TIMEOUT_MS,
    maxBytes: 8 * 1024 * 1024,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (r.spawnError || r.exitCode !== 0) {
    const why = r.spawnError ?? (r.timedOut ? `timed out after ${TIMEOUT_MS / 1000} s` : (r.stderr.trim().split('\n').pop() ?? `exit ${r.exitCode}`));
    return { ok: false, source, reason: why };
  }
  return { ok: true, text: r.stdout, source };
}
