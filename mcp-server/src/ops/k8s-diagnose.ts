/**
 * diagnose --k8s NAMESPACE/NAME: the operator's pods (collect/k8s-discovery.ts) become the snapshot's contact
 * points (pod IPs) and each node's nodetool runs in its own pod with `kubectl exec` (JMX on 127.0.0.1 there).
 * When the pod IPs do not answer CQL from this machine, the snapshot reads the cluster with nodetool only, still
 * through kubectl exec. CLI only: the namespace and name come from the user's own flag (see the report).
 */
import { discoverK8sPods, K8sDiscoveryError, parseK8sRef, type K8sDiscovery, type K8sResourceRead } from '../collect/k8s-discovery.js';
import { withMoreFindings, type Finding } from '../core/findings.js';
import type { RulesResult } from '../core/rules/index.js';
import type { KindRuleOutcome } from '../core/rules/per-kind.js';
import { auditK8sText } from './k8s-audit.js';
import type { Target } from '../collect/target.js';
import type { MgmtApiEndpoint } from '../collect/mgmt-api.js';
import { DEFAULT_MGMT_API_PORT } from '../core/parse/mgmt-api/paths.js';
import { OpError } from './errors.js';
import type { SnapshotInput } from './snapshot.js';

export interface K8sDiagnoseInput {
  input: SnapshotInput;
  discovery: K8sDiscovery;
}

/** The snapshot input for the pods of NAMESPACE/NAME: contact points and one kubectl exec target per pod IP. */
export async function k8sSnapshotInput(
  refText: string,
  base: Omit<SnapshotInput, 'hosts' | 'lab' | 'nodetoolVia' | 'nodeTargets'>,
  deps: { runner?: Target; signal?: AbortSignal; env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<K8sDiagnoseInput> {
  const ref = parseK8sRef(refText);
  if (!ref.ok) throw new OpError('BAD_ARGUMENT', ref.error, 'Write it as --k8s NAMESPACE/NAME, e.g. --k8s cass-operator/dc1 or --k8s scylla/scylla.');
  let discovery: K8sDiscovery;
  try {
    discovery = await discoverK8sPods(ref.ref, deps);
  } catch (e) {
    if (e instanceof K8sDiscoveryError) throw new OpError(e.code, e.message, e.fix);
    throw e;
  }
  const input: SnapshotInput = {
    ...base,
    hosts: discovery.nodes.map((n) => n.ip),
    // nodetool runs inside each pod, where JMX listens on loopback.
    jmxHost: base.jmxHost && base.jmxHost !== 'node' ? base.jmxHost : '127.0.0.1',
    nodeTargets: discovery.targets,
    // The namespace/name are the CLI user's own flag; the pods found under them get exec targets.
    targetOrigin: 'trusted',
  };
  return { input, discovery };
}

/**
 * The Management API of each discovered pod, read through the API server's pod proxy (cass-operator pods only:
 * Scylla Operator runs no Management API). Port: cass-operator's default 8080 unless the user's own flag says otherwise.
 */
export function k8sMgmtApiEndpoints(namespace: string, discovery: K8sDiscovery, port: number = DEFAULT_MGMT_API_PORT): MgmtApiEndpoint[] {
  if (discovery.operator !== 'cass-operator') {
    const why = `--mgmt-api needs cass-operator (k8ssandra) pods; ${discovery.operator} runs no Management API`;
    throw new OpError('BAD_ARGUMENT', why, 'Drop --mgmt-api for a ScyllaCluster.');
  }
  return discovery.nodes.map((n) => ({ kind: 'pod' as const, namespace, pod: n.pod, port, address: n.ip }));
}

/**
 * true when a --k8s diagnosis failed only because nodetool found JMX closed: no CQL from here, and nodetool status
 * through kubectl exec answered "connection refused" (snapshot.ts nodetoolOnlySnapshot's CLUSTER_UNREACHABLE).
 */
export function isJmxRefusal(e: unknown): boolean {
  if (!(e instanceof OpError) || e.code !== 'CLUSTER_UNREACHABLE') return false;
  // Only the nodetool part of the message counts (the CQL part says "ECONNREFUSED" too). Through kubectl exec the
  // failure may come back as the exec's own error with nodetool's "Failed to connect … ConnectException" inside it.
  const nodetool = e.message.slice(e.message.indexOf('nodetool status at'));
  return e.message.includes('nodetool status at') && /JMX_UNREACHABLE|Failed to connect to '[^']*'|ConnectException/.test(nodetool);
}

/**
 * The operator resource's audit (CPU limits, QoS, anti-affinity, storage class, heap vs the memory limit, its
 * embedded config) joined to a --k8s diagnosis: its findings ranked with the cluster's, its rules in "checked".
 * A resource that could not be read is one rule not checked, with kubectl's answer.
 */
type CheckedRule = RulesResult['outcomes'][number];

export function withK8sResource<R extends { findings: Finding[]; checked: CheckedRule[]; counts: { critical: number; warning: number; info: number } }>(
  report: R,
  read: K8sResourceRead,
): R {
  const outcomes: KindRuleOutcome[] = read.ok
    ? auditK8sText(read.source, read.text).outcomes
    : [
        {
          rule: 'k8s.resource',
          checks: 'the operator resource (resources, placement, storage, embedded config)',
          checked: false,
          skippedBecause: `${read.source}: ${read.reason}`,
          findings: [],
        },
      ];
  // One line per rule: a resource with several datacenters or racks runs each rule once per group.
  const byRule = new Map<string, CheckedRule>();
  for (const o of outcomes) {
    const seen = byRule.get(o.rule);
    if (!seen) {
      byRule.set(o.rule, {
        rule: o.rule,
        checks: o.checks,
        checked: o.checked,
        ...(o.skippedBecause !== undefined ? { skippedBecause: o.skippedBecause } : {}),
        findings: o.findings.length,
      });
      continue;
    }
    seen.findings += o.findings.length;
    if (o.checked && !seen.checked) {
      seen.checked = true;
      delete seen.skippedBecause;
    }
  }
  const checked = [...byRule.values()];
  return {
    ...withMoreFindings(
      report,
      outcomes.flatMap((o) => o.findings),
    ),
    checked: [...report.checked, ...checked],
  };
}
