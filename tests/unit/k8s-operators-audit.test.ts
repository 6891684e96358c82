/**
 * Issue #19 part 5: Kubernetes operator resources as audit_config inputs. Recorded public manifests of
 * cass-operator, k8ssandra-operator and Scylla Operator (tests/fixtures/k8s/PROVENANCE.md) → parsed groups,
 * k8s findings, and the embedded cassandra.yaml / JVM options through the existing config rules.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { connectInProcess } from '../helpers/mcp-client.js';
import { parse, stringify } from 'yaml';
import { parseK8sResources, looksLikeK8sResource } from '../../mcp-server/src/core/parse/k8s/resources.js';
import { parseJvmSize, parseQuantity } from '../../mcp-server/src/core/parse/k8s/quantity.js';
import { containerQos, storageKindOf } from '../../mcp-server/src/core/rules/k8s.js';
import { auditConfig, auditConfigTexts, configKindOf } from '../../mcp-server/src/ops/audit-config.js';
import type { AuditConfigReport } from '../../mcp-server/src/core/reports/audit-config.js';
import { renderAuditConfig } from '../../mcp-server/src/render/audit-config.js';
import { knowledge } from '../../mcp-server/src/core/knowledge/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { join } from 'node:path';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const CASSDC = join(FIXTURES_DIR, 'k8s', 'cass-operator-v1.32.0-example-cassandradatacenter-full.yaml');
const K8SSANDRA = join(FIXTURES_DIR, 'k8s', 'k8ssandra-operator-v1.32.5-single-dc.yaml');
const SCYLLA_DEV = join(FIXTURES_DIR, 'k8s', 'scylla-operator-v1.21.1-scylla.scyllacluster.yaml');
const SCYLLA_V6 = join(FIXTURES_DIR, 'k8s', 'scylla-operator-v1.21.1-scylla-cluster-ipv6.yaml');
const text = (p: string) => readFileSync(p, 'utf8');
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

const k8sIds = (r: AuditConfigReport) =>
  r.findings
    .filter((f) => f.id.startsWith('k8s.'))
    .map((f) => f.id)
    .sort();
const allIds = (r: AuditConfigReport) => r.findings.map((f) => f.id).sort();

describe('quantities', () => {
  it('reads CPU and memory as the API server does', () => {
    expect(parseQuantity('500m')).toBe(0.5);
    expect(parseQuantity(2)).toBe(2);
    expect(parseQuantity('8Gi')).toBe(8 * GIB);
    expect(parseQuantity('512M')).toBe(512e6);
    expect(parseQuantity('100Mi')).toBe(100 * MIB);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity('8 GB')).toBeNull();
    expect(parseQuantity('-1')).toBeNull();
    expect(parseJvmSize('512m')).toBe(512 * MIB);
    expect(parseJvmSize('8G')).toBe(8 * GIB);
    expect(parseJvmSize('8Gi')).toBeNull();
  });
});

describe('parseK8sResources on recorded operator manifests', () => {
  it('cass-operator CassandraDatacenter: resources, storage, one pod per worker, embedded yaml and heap', () => {
    const r = parseK8sResources(text(CASSDC));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.groups).toHaveLength(1);
    const g = r.value.groups[0]!;
    expect(g).toMatchObject({
      kind: 'CassandraDatacenter',
      operator: 'cass-operator',
      resource: 'CassandraDatacenter cass-operator/example-dc',
      group: 'dc example-dc',
      members: 9,
      serverVersion: '5.0.2',
      resources: { requests: { cpu: 2, memoryBytes: 8 * GIB }, limits: { cpu: 4, memoryBytes: 16 * GIB } },
      storage: { storageClass: 'fast-disks', sizeBytes: 500 * GIB },
      antiAffinity: 'operator-default',
      cassandraYaml: { num_tokens: 16, authenticator: 'PasswordAuthenticator', authorizer: 'CassandraAuthorizer' },
      jvmFlags: ['-Xms512M', '-Xmx512M'],
    });
    // The sample also names a configSecret, which overrides spec.config: the audit says it cannot see it.
    expect(r.warnings.join('\n')).toContain('Secret cassandra-config-secret');
  });

  it('K8ssandraCluster: datacenter settings, jvmOptions turned into flags, no resources', () => {
    const r = parseK8sResources(text(K8SSANDRA));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const g = r.value.groups[0]!;
    expect(g).toMatchObject({ kind: 'K8ssandraCluster', group: 'dc dc1', members: 3, serverVersion: '4.0.17', resources: null });
    expect(g.antiAffinity).toBe('operator-default');
    expect(g.storage).toEqual({ storageClass: 'standard', sizeBytes: 5 * GIB });
    expect(g.jvmFlags).toEqual(['-Xms512M', '-Xmx512M', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=500', '-XX:-AlwaysPreTouch', '-Dfoo=true', '-Dbar']);
    expect(g.cassandraYaml).toEqual({
      data_file_directories: ['/var/lib/cassandra/data', '/var/lib/extra/data'],
      commitlog_directory: '/var/lib/cassandra/commitlog2',
    });
  });

  it('ScyllaCluster: one group per rack, QoS from the rack resources', () => {
    const dev = parseK8sResources(text(SCYLLA_DEV));
    const v6 = parseK8sResources(text(SCYLLA_V6));
    expect(dev.ok && v6.ok).toBe(true);
    if (!dev.ok || !v6.ok) return;
    const d = dev.value.groups[0]!;
    expect(d).toMatchObject({ group: 'rack us-east-1/us-east-1a', members: 1, developerMode: true, antiAffinity: 'none', serverVersion: '2026.1.3' });
    expect(d.resources).toEqual({ requests: { cpu: 0.01, memoryBytes: 100 * MIB }, limits: { cpu: 1, memoryBytes: GIB } });
    expect(containerQos(d.resources)).toBe('Burstable');
    const v = v6.value.groups[0]!;
    expect(containerQos(v.resources)).toBe('Guaranteed');
    expect(storageKindOf(v.storage.storageClass)).toBe('local');
  });

  it('reads `kubectl get -o yaml` lists and -o json, and says what else it skipped', () => {
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' } };
    const list = stringify({ apiVersion: 'v1', kind: 'List', items: [YAMLdoc(SCYLLA_V6), YAMLdoc(CASSDC), service] });
    const r = parseK8sResources(list);
    expect(r.ok && r.value.groups.map((g) => g.kind)).toEqual(['ScyllaCluster', 'CassandraDatacenter']);
    expect(r.ok && r.value.ignoredKinds).toEqual(['Service']);
    const json = JSON.stringify(YAMLdoc(K8SSANDRA), null, 2);
    expect(looksLikeK8sResource(json)).toBe(true);
    expect(parseK8sResources(json).ok).toBe(true);
  });

  it('refuses what is not an operator resource, without throwing', () => {
    expect(parseK8sResources('cluster_name: x\nnum_tokens: 16\n')).toMatchObject({ ok: false });
    expect(parseK8sResources('apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n')).toMatchObject({ ok: false, reason: expect.stringContaining('found Pod') });
    expect(parseK8sResources('kind: [unclosed')).toMatchObject({ ok: false });
  });
});

/** The raw document of a fixture, to wrap or vary. */
function YAMLdoc(p: string): Record<string, unknown> {
  return parse(text(p)) as Record<string, unknown>;
}

describe('audit_config on operator resources', () => {
  it('detects the resources by content, before the .yaml name would make them a cassandra.yaml', () => {
    expect(configKindOf('dc.yaml', text(CASSDC))).toBe('k8s-resource');
    expect(configKindOf('cassandra.yaml', 'cluster_name: x\nnum_tokens: 16\n')).toBe('cassandra-yaml');
    // A cassandra.yaml that mentions a kind in a comment is still a cassandra.yaml: it has no apiVersion.
    expect(configKindOf('cassandra.yaml', '# kind: ScyllaCluster\ncluster_name: x\n')).toBe('cassandra-yaml');
  });

  it('cass-operator sample: CFS throttling from limit > request, and the config rules on the embedded config', () => {
    const r = auditConfigTexts([{ source: 'dc.yaml', text: text(CASSDC) }]);
    expect(k8sIds(r)).toEqual(['k8s.cpu.limit-above-request']);
    // Heap 512 MiB from jvm-server-options, judged as the JVM rules judge a file, with the 16 Gi limit as RAM.
    expect(allIds(r)).toEqual(expect.arrayContaining(['config.jvm.heap-small']));
    const cpu = r.findings.find((f) => f.id === 'k8s.cpu.limit-above-request')!;
    expect(cpu.evidence[0]).toBe('CassandraDatacenter cass-operator/example-dc dc example-dc: requests cpu 2 memory 8 GiB; limits cpu 4 memory 16 GiB');
    // The heap-vs-RAM check is skipped only when no RAM is known; here the memory limit stands for it.
    expect(r.checked.map((c) => c.rule)).not.toContain('config.jvm-ram (dc example-dc)');
    const noLimit = auditConfigTexts([{ source: 'k', text: text(K8SSANDRA) }]);
    expect(noLimit.checked.find((c) => c.rule === 'config.jvm-ram (dc dc1)')).toMatchObject({ checked: false });
    expect(r.inputs.map((i) => i.source)).toEqual([
      'dc.yaml',
      'dc.yaml: dc example-dc config.cassandraYaml',
      'dc.yaml: dc example-dc JVM options (container memory limit 16384 MiB as RAM)',
    ]);
  });

  it('K8ssandraCluster fixture: BestEffort container, lax G1 pause target from jvmOptions', () => {
    const r = auditConfigTexts([{ source: 'k8ssandra.yaml', text: text(K8SSANDRA) }]);
    expect(k8sIds(r)).toEqual(['k8s.qos.best-effort']);
    expect(allIds(r)).toEqual(expect.arrayContaining(['config.jvm.g1-pause-target', 'config.jvm.heap-small']));
  });

  it('ScyllaCluster example: developer mode, no pinned cores (Burstable), no anti-affinity; the Guaranteed one only lacks anti-affinity', () => {
    const dev = auditConfigTexts([{ source: 'scylla.yaml', text: text(SCYLLA_DEV) }]);
    expect(k8sIds(dev)).toEqual(['k8s.anti-affinity.scylla', 'k8s.scylla.developer-mode', 'k8s.scylla.not-guaranteed']);
    const pin = dev.findings.find((f) => f.id === 'k8s.scylla.not-guaranteed')!;
    expect(pin.knowledgeIds).toContain('k8s.scylla.cpu-pinning-needs-guaranteed');
    expect(pin.evidence.join('\n')).toContain('requests cpu 10m memory 100 MiB; limits cpu 1 memory 1 GiB');
    const v6 = auditConfigTexts([{ source: 'v6.yaml', text: text(SCYLLA_V6) }]);
    expect(k8sIds(v6)).toEqual(['k8s.anti-affinity.scylla']);
  });

  it('variants of one fact flip one finding each', () => {
    const base = YAMLdoc(SCYLLA_V6) as { spec: { datacenter: { racks: Record<string, unknown>[] } } };
    const rack = base.spec.datacenter.racks[0]!;
    const run = (patch: Record<string, unknown>) => {
      const doc = structuredClone(base);
      Object.assign(doc.spec.datacenter.racks[0]!, patch);
      return k8sIds(auditConfigTexts([{ source: 's', text: stringify(doc) }]));
    };
    const apart = { placement: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname' }] } } };
    expect(run(apart)).toEqual([]);
    const fractional = { requests: { cpu: '1500m', memory: '8Gi' }, limits: { cpu: '1500m', memory: '8Gi' } };
    expect(run({ ...apart, resources: fractional })).toEqual(['k8s.scylla.not-guaranteed']);
    expect(run({ ...apart, storage: { capacity: '100Gi', storageClassName: 'gp3' } })).toEqual(['k8s.storage.network-disk']);
    expect(run({ ...apart, storage: { capacity: '100Gi' } })).toEqual(['k8s.storage.unknown-class']);
    expect(rack.resources).toBeDefined();
  });

  it('heap against the container memory limit goes through the heap/RAM rule', () => {
    const doc = YAMLdoc(CASSDC) as { spec: { config: Record<string, Record<string, unknown>>; resources: unknown } };
    doc.spec.config['jvm-server-options'] = { initial_heap_size: '12G', max_heap_size: '12G' };
    doc.spec.resources = { requests: { cpu: 4, memory: '16Gi' }, limits: { cpu: 4, memory: '16Gi' } };
    const r = auditConfigTexts([{ source: 'dc', text: stringify(doc) }]);
    const ratio = r.findings.find((f) => f.id === 'config.jvm.heap-ram-ratio');
    expect(ratio).toMatchObject({ severity: 'critical' });
    expect(k8sIds(r)).toEqual([]);
    // allowMultipleNodesPerWorker removes the operator's one-pod-per-worker rule.
    (doc.spec as Record<string, unknown>).allowMultipleNodesPerWorker = true;
    expect(k8sIds(auditConfigTexts([{ source: 'dc', text: stringify(doc) }]))).toEqual(['k8s.anti-affinity.multiple-per-worker']);
  });

  it('every knowledge id a k8s finding cites exists', () => {
    const r = auditConfigTexts([text(CASSDC), text(K8SSANDRA), text(SCYLLA_DEV)].map((t, i) => ({ source: `f${i}`, text: t })));
    for (const id of r.findings.flatMap((f) => f.knowledgeIds)) expect(() => knowledge(id as never)).not.toThrow();
    expect(renderAuditConfig(r)).toContain('ScyllaCluster runs in developer mode');
  });

  it('reads a resource file through auditConfig (safe-file path) and inline through the MCP tool', async () => {
    const fromFile = await auditConfig({ files: [SCYLLA_DEV] });
    expect(k8sIds(fromFile)).toContain('k8s.scylla.developer-mode');
    const client = await connectInProcess('t');
    try {
      const r = await client.callTool({ name: 'audit_config', arguments: { k8sResources: text(K8SSANDRA) } });
      expect(r.isError).toBeFalsy();
      const s = r.structuredContent as AuditConfigReport;
      expect(s.inputs[0]).toMatchObject({ source: 'inline kubernetes resources', kind: 'k8s-resource', ok: true });
      expect(k8sIds(s)).toEqual(['k8s.qos.best-effort']);
      const bad = await client.callTool({ name: 'audit_config', arguments: { k8sResources: 'apiVersion: v1\nkind: Pod\n' } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('interpret on a pasted resource', () => {
  it('detects the kind and shows the same findings as audit_config', () => {
    const r = interpretText(text(SCYLLA_DEV));
    expect(r.kind).toBe('k8s.resources');
    expect(r.findings.map((f) => f.id).sort()).toEqual(['k8s.anti-affinity.scylla', 'k8s.scylla.developer-mode', 'k8s.scylla.not-guaranteed']);
    const cass = interpretText(text(CASSDC));
    expect(cass.kind).toBe('k8s.resources');
    expect(cass.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['k8s.cpu.limit-above-request', 'config.jvm.heap-small']));
  });

  it('a plain cassandra.yaml is still a cassandra.yaml', () => {
    expect(interpretText('cluster_name: Test\nnum_tokens: 16\nconcurrent_reads: 32\n').kind).toBe('config.cassandra-yaml');
  });
});
