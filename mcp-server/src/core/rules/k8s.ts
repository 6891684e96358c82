/**
 * Kubernetes operator resources (PURE): one datacenter or rack of a CassandraDatacenter, K8ssandraCluster or
 * ScyllaCluster → findings on CPU limits (CFS throttling), QoS class, one pod per worker, storage class and
 * ScyllaDB developer mode. Heap vs the memory limit is left to the JVM rules, run with the limit as RAM.
 */
import type { Finding } from '../findings.js';
import type { K8sContainerResources, K8sDbGroup } from '../parse/k8s/resources.js';
import type { KindRuleOutcome } from './per-kind.js';
import { fmtNum, outcome, skipped } from './rule.js';

export type K8sQos = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** The database container's side of the pod QoS class (k8s.qos.classes): sidecars can only lower it. */
export function containerQos(r: K8sContainerResources | null): K8sQos {
  if (!r) return 'BestEffort';
  const { requests: q, limits: l } = r;
  // A limit without a request takes the limit as the request (the API server defaults it).
  const cpuReq = q.cpu ?? l.cpu;
  const memReq = q.memoryBytes ?? l.memoryBytes;
  if (l.cpu !== null && l.memoryBytes !== null && cpuReq === l.cpu && memReq === l.memoryBytes) return 'Guaranteed';
  return 'Burstable';
}

const GIB = 1024 ** 3;
const fmtCpu = (c: number | null) => (c === null ? 'unset' : c < 1 ? `${fmtNum(c * 1000, 0)}m` : fmtNum(c, 2));
const fmtMem = (b: number | null) => (b === null ? 'unset' : b >= GIB ? `${fmtNum(b / GIB, 2)} GiB` : `${fmtNum(b / 1024 ** 2, 0)} MiB`);
const showResources = (r: K8sContainerResources) =>
  `requests cpu ${fmtCpu(r.requests.cpu)} memory ${fmtMem(r.requests.memoryBytes)}; limits cpu ${fmtCpu(r.limits.cpu)} memory ${fmtMem(r.limits.memoryBytes)}`;

function where(g: K8sDbGroup): string {
  return `${g.resource} ${g.group}`;
}

function resourceFindings(g: K8sDbGroup): Finding[] {
  const r = g.resources;
  const container = g.product === 'scylla' ? 'scylla' : 'cassandra';
  const qos = containerQos(r);
  const out: Finding[] = [];
  if (!r) {
    out.push({
      id: 'k8s.qos.best-effort',
      severity: 'warning',
      title: `No CPU or memory requests for the ${container} container: BestEffort, evicted first`,
      evidence: [`${where(g)}: resources not set`],
      recommendation: 'Set requests and limits for CPU and memory (equal, integer CPU, for the Guaranteed class), sized to the node the pod should own.',
      knowledgeIds: ['k8s.qos.classes'],
      confidence: 'high',
    });
    return out;
  }
  const cpuReq = r.requests.cpu ?? r.limits.cpu;
  // For ScyllaDB the Guaranteed check below covers it (equal integer CPU fixes both).
  if (g.product !== 'scylla' && r.limits.cpu !== null && cpuReq !== null && r.limits.cpu > cpuReq) {
    out.push({
      id: 'k8s.cpu.limit-above-request',
      severity: 'warning',
      title: `CPU limit ${fmtCpu(r.limits.cpu)} above the request ${fmtCpu(cpuReq)}: bursts are CFS-throttled`,
      evidence: [
        `${where(g)}: ${showResources(r)}`,
        `CFS quota ${fmtCpu(r.limits.cpu)} × 100 ms per 100 ms period: once used, every thread of the container waits for the next period`,
      ],
      recommendation:
        'Set the CPU limit equal to the request (integer cores), or leave the limit off and size the request to what the node needs; ' +
        'watch container_cpu_cfs_throttled_periods_total.',
      knowledgeIds: ['k8s.cpu.limit-throttling', 'k8s.qos.classes'],
      confidence: 'high',
    });
  }
  if (g.product === 'scylla') {
    const integerCpu = r.limits.cpu !== null && Number.isInteger(r.limits.cpu);
    if (qos !== 'Guaranteed' || !integerCpu) {
      const why =
        qos !== 'Guaranteed'
          ? `QoS class ${qos} (requests differ from limits, or a limit is missing)`
          : `CPU ${fmtCpu(r.limits.cpu)} is not a whole number of cores`;
      const throttled = r.limits.cpu !== null && cpuReq !== null && r.limits.cpu > cpuReq;
      out.push({
        id: 'k8s.scylla.not-guaranteed',
        severity: 'warning',
        title: `ScyllaDB pods cannot get pinned cores: ${why}`,
        evidence: [
          `${where(g)}: ${showResources(r)}`,
          ...(throttled ? [`CPU limit above the request: bursts past ${fmtCpu(cpuReq)} run under a CFS quota and get throttled`] : []),
        ],
        recommendation:
          'Set requests equal to limits for CPU and memory with an integer CPU count (Guaranteed QoS), run the kubelet with ' +
          'cpuManagerPolicy: static and keep performance tuning on in a NodeConfig.',
        knowledgeIds: ['k8s.scylla.cpu-pinning-needs-guaranteed', 'k8s.qos.classes', 'k8s.cpu.limit-throttling'],
        confidence: 'high',
      });
    }
  } else if (qos === 'Burstable' && r.limits.memoryBytes === null) {
    out.push({
      id: 'k8s.memory.no-limit',
      severity: 'info',
      title: 'No memory limit on the cassandra container: Burstable, and the JVM sizes itself from the node',
      evidence: [`${where(g)}: ${showResources(r)}`],
      recommendation: 'Set a memory limit equal to the request and pin the heap (heap_max_size) to at most half of it.',
      knowledgeIds: ['k8s.qos.classes'],
      confidence: 'high',
    });
  }
  return out;
}

function antiAffinityFindings(g: K8sDbGroup): Finding[] {
  if (g.antiAffinity === 'multiple-per-worker') {
    const setting = g.kind === 'K8ssandraCluster' ? 'softPodAntiAffinity: true' : 'allowMultipleNodesPerWorker: true';
    return [
      {
        id: 'k8s.anti-affinity.multiple-per-worker',
        severity: 'warning',
        title: 'Several Cassandra pods may share a Kubernetes worker',
        evidence: [`${where(g)}: ${setting} removes the operator's one-pod-per-worker rule`],
        recommendation: 'Keep one Cassandra pod per worker in production (remove the setting); one worker lost must not take two replicas.',
        knowledgeIds: ['k8s.cass-operator.one-pod-per-worker'],
        confidence: 'high',
      },
    ];
  }
  if (g.product === 'scylla' && g.antiAffinity !== 'required') {
    const soft = g.antiAffinity === 'preferred';
    return [
      {
        id: 'k8s.anti-affinity.scylla',
        severity: soft ? 'info' : 'warning',
        title: soft ? 'ScyllaDB pods are kept apart only by a preferred anti-affinity' : 'No pod anti-affinity: two ScyllaDB pods may share a Kubernetes node',
        evidence: [`${where(g)}: placement.podAntiAffinity ${soft ? 'is preferredDuringScheduling only' : 'not set (the operator adds none)'}`],
        recommendation:
          'Add placement.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution on topologyKey kubernetes.io/hostname, ' +
          'selecting scylla/cluster: <name>.',
        knowledgeIds: ['k8s.scylla.no-default-anti-affinity'],
        confidence: soft ? 'medium' : 'high',
      },
    ];
  }
  return [];
}

// Storage classes whose volumes are local disks of the worker, and the common cloud network-disk classes.
const LOCAL_CLASS = /(?:^|-)(?:local|nvme|topolvm|lvm|lvmpv|openebs-hostpath)(?:$|-)|scylladb-local-xfs/;
const NETWORK_CLASS = new RegExp(
  '^(?:gp2|gp3|io1|io2|st1|sc1|ebs-sc|standard-rwo|premium-rwo|balanced-rwo|pd-(?:standard|balanced|ssd|extreme)|managed(?:-csi)?(?:-premium)?' +
    '|default|do-block-storage|longhorn|.*ceph.*|csi-cinder.*|vsphere.*|azuredisk.*)$',
);

export type StorageKind = 'local' | 'network' | 'unknown';
export function storageKindOf(storageClass: string | null): StorageKind {
  if (!storageClass) return 'unknown';
  if (LOCAL_CLASS.test(storageClass)) return 'local';
  if (NETWORK_CLASS.test(storageClass)) return 'network';
  return 'unknown';
}

function storageFindings(g: K8sDbGroup): Finding[] {
  const sc = g.storage.storageClass;
  const kind = storageKindOf(sc);
  if (kind === 'local') return [];
  const size = g.storage.sizeBytes !== null ? ` (${fmtMem(g.storage.sizeBytes)})` : '';
  if (kind === 'network') {
    return [
      {
        id: 'k8s.storage.network-disk',
        severity: 'warning',
        title: `ScyllaDB data on network-attached storage (class ${sc})`,
        evidence: [`${where(g)}: storageClassName ${sc}${size}`],
        recommendation: 'Use local NVMe through the ScyllaDB Local CSI Driver (NodeConfig for RAID0/XFS, storage class scylladb-local-xfs) for production.',
        knowledgeIds: ['k8s.scylla.local-nvme-storage'],
        confidence: 'medium',
      },
    ];
  }
  return [
    {
      id: 'k8s.storage.unknown-class',
      severity: 'info',
      title: sc ? `Storage class ${sc}: local or network disk not known` : 'No storage class: the cluster default class is used',
      evidence: [`${where(g)}: storageClassName ${sc ?? 'unset'}${size}`],
      recommendation: 'Check with kubectl get storageclass which provisioner serves it; ScyllaDB wants local NVMe for production.',
      knowledgeIds: ['k8s.scylla.local-nvme-storage'],
      confidence: 'low',
    },
  ];
}

/** The k8s checks for one datacenter or rack, each as an outcome the report lists under "Checked". */
export function k8sGroupRules(g: K8sDbGroup): KindRuleOutcome[] {
  const tag = `${g.group}`;
  const outcomes: KindRuleOutcome[] = [
    outcome(`k8s.resources (${tag})`, resourceFindings(g), 'CPU limit vs request (CFS throttling), QoS class of the database container'),
    outcome(`k8s.anti-affinity (${tag})`, antiAffinityFindings(g), 'one database pod per Kubernetes worker'),
  ];
  const storage = { rule: `k8s.storage (${tag})`, checks: 'storage class: local NVMe vs network disk' };
  outcomes.push(
    g.product === 'scylla'
      ? outcome(storage.rule, storageFindings(g), storage.checks)
      : skipped(storage.rule, 'checked for ScyllaDB only (its operator recommends local NVMe)', storage.checks),
  );
  if (g.product === 'scylla' && g.developerMode === true) {
    outcomes.push(
      outcome(
        `k8s.scylla.developer-mode (${tag})`,
        [
          {
            id: 'k8s.scylla.developer-mode',
            severity: 'warning',
            title: 'ScyllaCluster runs in developer mode',
            evidence: [`${where(g)}: spec.developerMode: true`],
            recommendation: 'Set developerMode: false for anything but a laptop test: developer mode skips the I/O and system checks ScyllaDB relies on.',
            knowledgeIds: ['config.scylla.developer-mode'],
            confidence: 'high',
          },
        ],
        'ScyllaCluster spec.developerMode',
      ),
    );
  }
  return outcomes;
}
