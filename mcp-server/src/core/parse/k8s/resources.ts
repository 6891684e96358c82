/**
 * `kubectl get … -o yaml|json` of the operators' resources → one typed group per datacenter (cass-operator
 * CassandraDatacenter, k8ssandra-operator K8ssandraCluster) or per rack (Scylla Operator ScyllaCluster): the
 * database container's requests/limits, data volume storage class, anti-affinity, and the embedded config.
 *
 * Field names are those of the CRDs at cass-operator v1.32.0 (apis/cassandra/v1beta1/cassandradatacenter_types.go),
 * k8ssandra-operator v1.32.5 (apis/k8ssandra/v1alpha1/k8ssandracluster_types.go, cassandraconfig_types.go) and
 * scylla-operator v1.21.1 (pkg/api/scylla/v1/types_cluster.go). Never throws: unknown shapes become notes.
 */
import { parseAllDocuments } from 'yaml';
import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { parseJvmSize, parseQuantity } from './quantity.js';

export const K8S_KINDS = ['CassandraDatacenter', 'K8ssandraCluster', 'ScyllaCluster'] as const;
export type K8sKind = (typeof K8S_KINDS)[number];
export type K8sOperator = 'cass-operator' | 'k8ssandra-operator' | 'scylla-operator';

export interface K8sResourceAmounts {
  cpu: number | null;
  memoryBytes: number | null;
}

export interface K8sContainerResources {
  requests: K8sResourceAmounts;
  limits: K8sResourceAmounts;
}

/**
 * How the database pods are kept apart: the operator's own one-pod-per-worker rule (cass-operator unless
 * allowMultipleNodesPerWorker), an explicit podAntiAffinity, or nothing.
 */
export type K8sAntiAffinity = 'operator-default' | 'required' | 'preferred' | 'none' | 'multiple-per-worker';

export interface K8sDbGroup {
  kind: K8sKind;
  operator: K8sOperator;
  product: 'cassandra' | 'scylla' | 'dse';
  /** "CassandraDatacenter cass-operator/example-dc". */
  resource: string;
  namespace: string | null;
  name: string;
  /** "dc dc1" or "rack us-east-1/us-east-1a": what one set of resources/config applies to. */
  group: string;
  members: number | null;
  serverVersion: string | null;
  /** The database container's requests and limits (null: none set, the pod is BestEffort for them). */
  resources: K8sContainerResources | null;
  storage: { storageClass: string | null; sizeBytes: number | null };
  antiAffinity: K8sAntiAffinity;
  /** Embedded cassandra.yaml settings (k8ssandra config.cassandraYaml, cass-operator config["cassandra-yaml"]). */
  cassandraYaml: Record<string, unknown> | null;
  /** JVM flags built from the embedded JVM options (heap, GC, additional options), as -X/-XX flags. */
  jvmFlags: string[];
  /** ScyllaCluster: the ConfigMap holding scylla.yaml (its content is not in the resource). */
  scyllaConfigMap: string | null;
  developerMode: boolean | null;
  /** What the resource leaves out of view (config in a Secret, unknown GC names, …). */
  notes: string[];
}

export interface K8sResourceSet {
  groups: K8sDbGroup[];
  /** Documents of other kinds in the input, by kind (a whole `kubectl get all` pasted). */
  ignoredKinds: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

function amounts(v: unknown): K8sResourceAmounts {
  const o = obj(v);
  return { cpu: parseQuantity(o.cpu), memoryBytes: parseQuantity(o.memory) };
}

function resourcesOf(v: unknown): K8sContainerResources | null {
  if (!isObj(v)) return null;
  const r = { requests: amounts(v.requests), limits: amounts(v.limits) };
  const none = [r.requests.cpu, r.requests.memoryBytes, r.limits.cpu, r.limits.memoryBytes].every((x) => x === null);
  return none ? null : r;
}

/** A PersistentVolumeClaim spec's storage class and requested size. */
function claim(v: unknown): { storageClass: string | null; sizeBytes: number | null } {
  const c = obj(v);
  return { storageClass: str(c.storageClassName), sizeBytes: parseQuantity(obj(obj(c.resources).requests).storage) };
}

function podAntiAffinityOf(affinity: unknown): K8sAntiAffinity | null {
  const pa = obj(obj(affinity).podAntiAffinity);
  const required = pa.requiredDuringSchedulingIgnoredDuringExecution;
  if (Array.isArray(required) && required.length) return 'required';
  const preferred = pa.preferredDuringSchedulingIgnoredDuringExecution;
  if (Array.isArray(preferred) && preferred.length) return 'preferred';
  return null;
}

const GC_FLAGS: Record<string, string> = {
  G1GC: '-XX:+UseG1GC',
  CMS: '-XX:+UseConcMarkSweepGC',
  ZGC: '-XX:+UseZGC',
  Shenandoah: '-XX:+UseShenandoahGC',
};

/** k8ssandra-operator jvmOptions (resource quantities, named options) → JVM flags. */
function k8ssandraJvmFlags(j: Obj, notes: string[], where: string): string[] {
  const flags: string[] = [];
  const mib = (v: unknown): string | null => {
    const b = parseQuantity(v);
    return b === null ? null : `${Math.max(1, Math.round(b / 2 ** 20))}M`;
  };
  // heapSize (deprecated) sets both; heap_initial_size / heap_max_size win where given.
  const xms = mib(j.heap_initial_size) ?? mib(j.heapSize);
  const xmx = mib(j.heap_max_size) ?? mib(j.heapSize);
  if (xms) flags.push(`-Xms${xms}`);
  if (xmx) flags.push(`-Xmx${xmx}`);
  const gc = str(j.gc);
  if (gc && GC_FLAGS[gc]) flags.push(GC_FLAGS[gc]);
  else if (gc) notes.push(`${where}: jvmOptions.gc ${JSON.stringify(gc)} is not one this audit maps to a JVM flag`);
  const pause = int(j.gc_g1_max_gc_pause_ms);
  if (pause !== null) flags.push(`-XX:MaxGCPauseMillis=${pause}`);
  if (j.vm_always_pre_touch === true) flags.push('-XX:+AlwaysPreTouch');
  if (j.vm_always_pre_touch === false) flags.push('-XX:-AlwaysPreTouch');
  for (const o of Array.isArray(j.additionalOptions) ? j.additionalOptions : []) if (typeof o === 'string' && o.startsWith('-')) flags.push(o);
  return flags;
}

/** cass-operator config["jvm-server-options"] (or 3.11 "jvm-options"): JVM-style sizes, additional-jvm-opts. */
function cassOperatorJvmFlags(j: Obj): string[] {
  const flags: string[] = [];
  const size = (v: unknown): string | null => {
    const b = parseJvmSize(v);
    return b === null ? null : `${Math.max(1, Math.round(b / 2 ** 20))}M`;
  };
  const xms = size(j.initial_heap_size);
  const xmx = size(j.max_heap_size);
  if (xms) flags.push(`-Xms${xms}`);
  if (xmx) flags.push(`-Xmx${xmx}`);
  for (const o of Array.isArray(j['additional-jvm-opts']) ? j['additional-jvm-opts'] : []) if (typeof o === 'string' && o.startsWith('-')) flags.push(o);
  return flags;
}

function meta(doc: Obj): { name: string; namespace: string | null } {
  const m = obj(doc.metadata);
  return { name: str(m.name) ?? '(unnamed)', namespace: str(m.namespace) };
}

function label(kind: string, m: { name: string; namespace: string | null }): string {
  return `${kind} ${m.namespace ? `${m.namespace}/` : ''}${m.name}`;
}

function cassandraDatacenter(doc: Obj): K8sDbGroup[] {
  const m = meta(doc);
  const spec = obj(doc.spec);
  const config = obj(spec.config);
  const notes: string[] = [];
  if (str(spec.configSecret)) notes.push(`config comes from Secret ${str(spec.configSecret)} (overrides spec.config), which is not in this input`);
  const jvm = obj(config['jvm-server-options'] ?? config['jvm-options']);
  const racks = Array.isArray(spec.racks) ? spec.racks.map(obj) : [];
  const rackAnti = racks.map((r) => podAntiAffinityOf(r.affinity)).find((a) => a !== null) ?? null;
  const product = str(spec.serverType) === 'dse' ? 'dse' : 'cassandra';
  return [
    {
      kind: 'CassandraDatacenter',
      operator: 'cass-operator',
      product,
      resource: label('CassandraDatacenter', m),
      ...m,
      group: `dc ${m.name}`,
      members: int(spec.size),
      serverVersion: str(spec.serverVersion),
      resources: resourcesOf(spec.resources),
      storage: claim(obj(spec.storageConfig).cassandraDataVolumeClaimSpec),
      antiAffinity: spec.allowMultipleNodesPerWorker === true ? (rackAnti ?? 'multiple-per-worker') : 'operator-default',
      cassandraYaml: isObj(config['cassandra-yaml']) ? config['cassandra-yaml'] : null,
      jvmFlags: cassOperatorJvmFlags(jvm),
      scyllaConfigMap: null,
      developerMode: null,
      notes,
    },
  ];
}

/** Datacenter settings override the cluster-wide ones; the two config maps merge key by key. */
function k8ssandraCluster(doc: Obj): K8sDbGroup[] {
  const m = meta(doc);
  const cass = obj(obj(doc.spec).cassandra);
  const dcs = Array.isArray(cass.datacenters) ? cass.datacenters.map(obj) : [];
  return dcs.map((dc, i) => {
    const dcName = str(obj(dc.metadata).name) ?? `#${i + 1}`;
    const notes: string[] = [];
    const clusterConfig = obj(cass.config);
    const dcConfig = obj(dc.config);
    const yaml = { ...obj(clusterConfig.cassandraYaml), ...obj(dcConfig.cassandraYaml) };
    const jvm = { ...obj(clusterConfig.jvmOptions), ...obj(dcConfig.jvmOptions) };
    const soft = (dc.softPodAntiAffinity ?? cass.softPodAntiAffinity) === true;
    const serverType = str(cass.serverType);
    return {
      kind: 'K8ssandraCluster' as const,
      operator: 'k8ssandra-operator' as const,
      product: serverType === 'dse' ? ('dse' as const) : ('cassandra' as const),
      resource: label('K8ssandraCluster', m),
      ...m,
      group: `dc ${dcName}`,
      members: int(dc.size),
      serverVersion: str(dc.serverVersion) ?? str(cass.serverVersion),
      resources: resourcesOf(dc.resources ?? cass.resources),
      storage: claim(obj(dc.storageConfig ?? cass.storageConfig).cassandraDataVolumeClaimSpec),
      antiAffinity: soft ? 'multiple-per-worker' : 'operator-default',
      cassandraYaml: Object.keys(yaml).length ? yaml : null,
      jvmFlags: k8ssandraJvmFlags(jvm, notes, `dc ${dcName}`),
      scyllaConfigMap: null,
      developerMode: null,
      notes,
    };
  });
}

function scyllaCluster(doc: Obj): K8sDbGroup[] {
  const m = meta(doc);
  const spec = obj(doc.spec);
  const dc = obj(spec.datacenter);
  const dcName = str(dc.name) ?? '(unnamed dc)';
  const racks = Array.isArray(dc.racks) ? dc.racks.map(obj) : [];
  return racks.map((r, i) => {
    const storage = obj(r.storage);
    return {
      kind: 'ScyllaCluster' as const,
      operator: 'scylla-operator' as const,
      product: 'scylla' as const,
      resource: label('ScyllaCluster', m),
      ...m,
      group: `rack ${dcName}/${str(r.name) ?? `#${i + 1}`}`,
      members: int(r.members),
      serverVersion: str(spec.version),
      resources: resourcesOf(r.resources),
      storage: { storageClass: str(storage.storageClassName), sizeBytes: parseQuantity(storage.capacity) },
      // The operator copies rack.placement into the pods as is: no anti-affinity of its own.
      antiAffinity: podAntiAffinityOf(r.placement) ?? 'none',
      cassandraYaml: null,
      jvmFlags: [],
      scyllaConfigMap: str(r.scyllaConfig),
      developerMode: typeof spec.developerMode === 'boolean' ? spec.developerMode : null,
      notes: [],
    };
  });
}

const BY_KIND: Record<K8sKind, (doc: Obj) => K8sDbGroup[]> = {
  CassandraDatacenter: cassandraDatacenter,
  K8ssandraCluster: k8ssandraCluster,
  ScyllaCluster: scyllaCluster,
};

/** A `kind:` line (YAML or JSON) naming one of the supported kinds. */
export const K8S_SIGNATURE = /^[ \t-]*"?kind"?[ \t]*:[ \t]*"?(?:CassandraDatacenter|K8ssandraCluster|ScyllaCluster)\b/m;

/** Quick content test: an apiVersion line and one of the supported kinds (so a cassandra.yaml never matches). */
export function looksLikeK8sResource(text: string): boolean {
  return /^[ \t-]*"?apiVersion"?[ \t]*:/m.test(text) && K8S_SIGNATURE.test(text);
}

function flatten(doc: unknown, out: Obj[]): void {
  if (!isObj(doc)) return;
  // `kubectl get X -o yaml` of several objects is a List with items.
  if (Array.isArray(doc.items) && typeof doc.kind === 'string' && doc.kind.endsWith('List')) for (const it of doc.items) flatten(it, out);
  else out.push(doc);
}

export const parseK8sResources: (text: string) => Parsed<K8sResourceSet> = total('k8s-resources', (text) => {
  const docs: Obj[] = [];
  for (const d of [parseAllDocuments(text)].flat()) {
    if (d.errors.length) return unrecognized('k8s-resources', `not YAML/JSON: ${d.errors[0]!.message.split('\n')[0]}`);
    flatten(d.toJS({ maxAliasCount: 100 }), docs);
  }
  const groups: K8sDbGroup[] = [];
  const ignored: string[] = [];
  for (const doc of docs) {
    const kind = str(doc.kind);
    if (kind && (K8S_KINDS as readonly string[]).includes(kind)) groups.push(...BY_KIND[kind as K8sKind](doc));
    else ignored.push(kind ?? '(no kind)');
  }
  if (!groups.length) {
    return unrecognized('k8s-resources', `no ${K8S_KINDS.join(', ')} resource${ignored.length ? ` (found ${[...new Set(ignored)].join(', ')})` : ''}`);
  }
  const warnings = groups.flatMap((g) => g.notes.map((n) => `${g.resource} ${g.group}: ${n}`));
  return parsedOk('k8s-resources', { groups, ignoredKinds: [...new Set(ignored)] }, warnings);
});
