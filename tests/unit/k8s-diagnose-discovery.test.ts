/**
 * Issue #19 part 5: diagnose --k8s NAMESPACE/NAME. A shim `kubectl` on PATH (no cluster here) logs its argv and
 * answers `get pods -l <operator label>=NAME -o json` with pod lists shaped as cass-operator v1.32.0 and Scylla
 * Operator v1.21.1 label and name their pods (tests/fixtures/k8s/PROVENANCE.md), and `exec … nodetool status` with a
 * status listing the pod IPs. Every kubectl argv is asserted exactly.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { captureCli } from '../helpers/capture-cli.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { discoverK8sPods, parseK8sRef, podListArgv, OPERATOR_SELECTORS } from '../../mcp-server/src/collect/k8s-discovery.js';
import { createTarget } from '../../mcp-server/src/collect/target-spec.js';
import { parseK8sPodList } from '../../mcp-server/src/core/parse/k8s/pods.js';
import { k8sSnapshotInput } from '../../mcp-server/src/ops/k8s-diagnose.js';
import { buildProgram } from '../../mcp-server/src/cli/main.js';
import { auditK8sText } from '../../mcp-server/src/ops/k8s-audit.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'k8s-shim-'));
const LOG = join(dir, 'argv.log');
const SHIM = `#!/bin/sh
{ for a in "$@"; do printf '%s\\n' "$a"; done; printf '%s\\n' '<end of call>'; } >> "${LOG}"
case "$*" in
  *"get pods -l cassandra.datastax.com/datacenter="*) cat "${dir}/cass-pods.json" ;;
  *"get pods -l scylla/cluster="*) cat "${dir}/scylla-pods.json" ;;
  *" exec "*" status") cat "${dir}/status.txt" ;;
  *"get cassandradatacenters.cassandra.datastax.com "*) if [ -f "${dir}/dc.yaml" ]; then cat "${dir}/dc.yaml"; else echo 'Error from server (Forbidden): cassandradatacenters.cassandra.datastax.com "dc1" is forbidden' >&2; exit 1; fi ;;
  *) echo "error: shim has no answer for: $*" >&2; exit 1 ;;
esac
`;

interface PodSpec {
  name: string;
  ip?: string;
  labels: Record<string, string>;
  containers: string[];
  ready?: boolean;
}
const podList = (pods: PodSpec[]) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: pods.map((p) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: p.name, namespace: 'db', labels: p.labels },
      spec: { containers: p.containers.map((name) => ({ name })), nodeName: 'worker-1' },
      status: {
        phase: p.ip ? 'Running' : 'Pending',
        ...(p.ip ? { podIP: p.ip } : {}),
        conditions: [{ type: 'Ready', status: p.ready === false ? 'False' : 'True' }],
      },
    })),
  });

const cassLabels = (rack: string) => ({
  'cassandra.datastax.com/cluster': 'demo',
  'cassandra.datastax.com/datacenter': 'dc1',
  'cassandra.datastax.com/rack': rack,
});
const CASS_PODS: PodSpec[] = [
  { name: 'demo-dc1-r2-sts-0', ip: '10.244.2.7', labels: cassLabels('r2'), containers: ['cassandra', 'server-system-logger'] },
  { name: 'demo-dc1-r1-sts-0', ip: '10.244.1.5', labels: cassLabels('r1'), containers: ['cassandra', 'server-system-logger'] },
  { name: 'demo-dc1-r3-sts-0', labels: cassLabels('r3'), containers: ['cassandra', 'server-system-logger'] },
];
const SCYLLA_PODS: PodSpec[] = [
  {
    name: 'scylla-us-east-1-us-east-1a-0',
    ip: '10.8.0.11',
    labels: { 'scylla/cluster': 'scylla', 'scylla/datacenter': 'us-east-1', 'scylla/rack': 'us-east-1a' },
    containers: ['scylla', 'scylladb-api-status-probe', 'scylla-manager-agent'],
  },
];
const statusFor = (a: string, b: string) =>
  [
    'Datacenter: dc1',
    '===============',
    'Status=Up/Down',
    '|/ State=Normal/Leaving/Joining/Moving',
    '--  Address     Load       Tokens  Owns    Host ID                               Rack',
    `UN  ${a}  1.2 MiB    16      ?       4bd9a6a1-1d07-4d0c-9f5c-1b2a3c4d5e6f  r1`,
    `UN  ${b}  1.1 MiB    16      ?       5cd9a6a1-1d07-4d0c-9f5c-1b2a3c4d5e70  r2`,
    '',
  ].join('\n');

const savedPath = process.env.PATH;
const savedCtx = process.env.CQL_TUNER_KUBE_CONTEXT;
beforeAll(() => {
  writeFileSync(join(dir, 'kubectl'), SHIM);
  chmodSync(join(dir, 'kubectl'), 0o755);
  process.env.PATH = `${dir}:${savedPath}`;
});
beforeEach(() => {
  writeFileSync(LOG, '');
  writeFileSync(join(dir, 'cass-pods.json'), podList(CASS_PODS));
  writeFileSync(join(dir, 'status.txt'), statusFor('10.244.1.5', '10.244.2.7'));
  writeFileSync(join(dir, 'scylla-pods.json'), podList([]));
  delete process.env.CQL_TUNER_KUBE_CONTEXT;
});
afterEach(() => {
  if (savedCtx === undefined) delete process.env.CQL_TUNER_KUBE_CONTEXT;
  else process.env.CQL_TUNER_KUBE_CONTEXT = savedCtx;
});
afterAll(() => {
  process.env.PATH = savedPath;
  rmSync(dir, { recursive: true, force: true });
});

/** Each kubectl call the shim saw, as its argv (without the program name). */
function calls(): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  for (const line of readFileSync(LOG, 'utf8').split('\n').slice(0, -1)) {
    if (line === '<end of call>') {
      out.push(cur);
      cur = [];
    } else cur.push(line);
  }
  return out;
}

describe('--k8s NAMESPACE/NAME', () => {
  it('is checked as a namespace and a label value', () => {
    expect(parseK8sRef('cass-operator/dc1')).toEqual({ ok: true, ref: { namespace: 'cass-operator', name: 'dc1' } });
    expect(parseK8sRef('dc1')).toMatchObject({ ok: false });
    expect(parseK8sRef('Bad_NS/dc1')).toMatchObject({ ok: false });
    expect(parseK8sRef('db/dc1,x=y')).toMatchObject({ ok: false });
    expect(parseK8sRef('db/--all')).toMatchObject({ ok: false });
  });

  it('builds the pod listing argv from the operator label, with the kube context from the environment', () => {
    const ref = { namespace: 'db', name: 'dc1' };
    const cass = ['kubectl', '-n', 'db', 'get', 'pods', '-l', 'cassandra.datastax.com/datacenter=dc1', '-o', 'json'];
    expect(podListArgv(ref, OPERATOR_SELECTORS[0]!, {})).toEqual(cass);
    expect(podListArgv(ref, OPERATOR_SELECTORS[1]!, { CQL_TUNER_KUBE_CONTEXT: 'kind-k8ssandra-0', CQL_TUNER_KUBECONFIG: '/home/u/.kube/lab' })).toEqual([
      'kubectl',
      '--kubeconfig',
      '/home/u/.kube/lab',
      '--context',
      'kind-k8ssandra-0',
      '-n',
      'db',
      'get',
      'pods',
      '-l',
      'scylla/cluster=dc1',
      '-o',
      'json',
    ]);
  });
});

describe('discoverK8sPods through a shim kubectl', () => {
  it('cass-operator pods: pod IP → kubectl exec into the cassandra container; a pod without an IP is skipped', async () => {
    const d = await discoverK8sPods({ namespace: 'db', name: 'dc1' });
    expect(calls()).toEqual([['-n', 'db', 'get', 'pods', '-l', 'cassandra.datastax.com/datacenter=dc1', '-o', 'json']]);
    expect(d.operator).toBe('cass-operator');
    expect(d.nodes).toEqual([
      { pod: 'demo-dc1-r1-sts-0', ip: '10.244.1.5', ready: true },
      { pod: 'demo-dc1-r2-sts-0', ip: '10.244.2.7', ready: true },
    ]);
    expect(d.skipped).toEqual(['demo-dc1-r3-sts-0: no pod IP yet (phase Pending)']);
    expect(d.targets['10.244.1.5']).toEqual({ kind: 'kubectl', namespace: 'db', pod: 'demo-dc1-r1-sts-0', container: 'cassandra' });
  });

  it('falls back to the Scylla Operator label when no cass-operator pod matches', async () => {
    writeFileSync(join(dir, 'cass-pods.json'), podList([]));
    writeFileSync(join(dir, 'scylla-pods.json'), podList(SCYLLA_PODS));
    const d = await discoverK8sPods({ namespace: 'db', name: 'scylla' });
    expect(calls()).toEqual([
      ['-n', 'db', 'get', 'pods', '-l', 'cassandra.datastax.com/datacenter=scylla', '-o', 'json'],
      ['-n', 'db', 'get', 'pods', '-l', 'scylla/cluster=scylla', '-o', 'json'],
    ]);
    expect(d).toMatchObject({ operator: 'scylla-operator', container: 'scylla', nodes: [{ pod: 'scylla-us-east-1-us-east-1a-0', ip: '10.8.0.11' }] });
  });

  it('cluster data that is no pod name or address is skipped, never used', async () => {
    writeFileSync(
      join(dir, 'cass-pods.json'),
      podList([
        { name: '--kubeconfig=/tmp/x', ip: '10.0.0.9', labels: cassLabels('r1'), containers: ['cassandra'] },
        { name: 'demo-dc1-r1-sts-1', ip: '10.0.0.10?config=/x', labels: cassLabels('r1'), containers: ['cassandra'] },
        { name: 'demo-dc1-r1-sts-2', ip: '10.0.0.11', labels: cassLabels('r1'), containers: ['other'] },
        { name: 'demo-dc1-r1-sts-3', ip: '10.0.0.12', labels: cassLabels('r1'), containers: ['cassandra'] },
      ]),
    );
    const d = await discoverK8sPods({ namespace: 'db', name: 'dc1' });
    expect(d.nodes.map((n) => n.pod)).toEqual(['demo-dc1-r1-sts-3']);
    expect(d.skipped).toHaveLength(3);
    expect(Object.keys(d.targets)).toEqual(['10.0.0.12']);
  });

  it('says what failed: kubectl errors, and no pods under either label', async () => {
    rmSync(join(dir, 'cass-pods.json'));
    await expect(k8sSnapshotInput('db/dc1', {})).rejects.toMatchObject({ code: 'KUBECTL_FAILED' });
    writeFileSync(join(dir, 'cass-pods.json'), podList([]));
    await expect(k8sSnapshotInput('db/nothing', {})).rejects.toMatchObject({
      code: 'NO_PODS',
      message: 'no pods in namespace db with cassandra.datastax.com/datacenter=nothing or scylla/cluster=nothing',
    });
    await expect(k8sSnapshotInput('nothing', {})).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });

  it('pod lists that are not JSON pod lists are refused by the parser, not thrown', () => {
    expect(parseK8sPodList('No resources found in db namespace.')).toMatchObject({ ok: false });
    expect(parseK8sPodList('{"kind":"Pod"}')).toMatchObject({ ok: false });
  });
});

describe('collection through kubectl exec', () => {
  it('the snapshot input: pod IPs as contact points, JMX on the pod loopback, and nodetool exec argv per pod', async () => {
    process.env.CQL_TUNER_KUBE_CONTEXT = 'kind-k8ssandra-0';
    const { input } = await k8sSnapshotInput('db/dc1', { jmxHost: 'node', cqlPort: 9042 });
    expect(input.hosts).toEqual(['10.244.1.5', '10.244.2.7']);
    expect(input.jmxHost).toBe('127.0.0.1');
    expect(input.nodetoolVia).toBeUndefined();
    const r = await createTarget(input.nodeTargets!['10.244.2.7']!).run(['nodetool', '-h', '127.0.0.1', '-p', '7199', 'status'], { timeoutMs: 10_000 });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('10.244.2.7');
    const exec = ['--context', 'kind-k8ssandra-0', '-n', 'db', 'exec', 'demo-dc1-r2-sts-0', '-c', 'cassandra', '--'];
    expect(calls().at(-1)).toEqual([...exec, 'nodetool', '-h', '127.0.0.1', '-p', '7199', 'status']);
  });

  it('per-node targets are refused from untrusted input (an MCP argument could never name pods to exec into)', async () => {
    const { takeSnapshot } = await import('../../mcp-server/src/ops/snapshot.js');
    const nodeTargets = { '127.0.10.5': { kind: 'kubectl' as const, namespace: 'db', pod: 'demo-dc1-r1-sts-0' } };
    await expect(takeSnapshot({ hosts: ['127.0.10.5'], cqlPort: 1, nodeTargets, targetOrigin: 'untrusted' })).rejects.toMatchObject({ code: 'BAD_TARGET' });
    await expect(takeSnapshot({ hosts: ['127.0.10.5'], cqlPort: 1, nodeTargets })).rejects.toMatchObject({ code: 'BAD_TARGET' });
    expect(calls()).toEqual([]);
  });

  /**
   * diagnose --k8s db/dc1 --json through the shim. Loopback pod IPs and CQL port 1: the CQL connection is refused at
   * once (a real pod IP outside the pod network takes the driver's whole connect timeout), as from a laptop that
   * cannot reach the pods.
   */
  function diagnoseK8s() {
    const pods = CASS_PODS.slice(0, 2).map((p, i) => ({ ...p, ip: `127.0.10.${i + 5}` }));
    writeFileSync(join(dir, 'cass-pods.json'), podList(pods));
    writeFileSync(join(dir, 'status.txt'), statusFor('127.0.10.5', '127.0.10.6'));
    const args = ['diagnose', '--k8s', 'db/dc1', '--cql-port', '1', '--window', '0', '--node-timeout', '20000', '--json'];
    return captureCli(() => buildProgram().parseAsync(['node', 'cql-tuner', ...args], { from: 'node' }));
  }

  it('cql-tuner diagnose --k8s: no CQL reachable, so nodetool runs in each pod through kubectl exec', async () => {
    const { out } = await diagnoseK8s();
    const seen = calls();
    expect(seen[0]).toEqual(['-n', 'db', 'get', 'pods', '-l', 'cassandra.datastax.com/datacenter=dc1', '-o', 'json']);
    const execs = seen.filter((c) => c.includes('exec'));
    expect(execs.length).toBeGreaterThan(0);
    for (const c of execs) {
      expect(c.slice(0, 7)).toEqual(['-n', 'db', 'exec', c[3], '-c', 'cassandra', '--']);
      expect(['demo-dc1-r1-sts-0', 'demo-dc1-r2-sts-0']).toContain(c[3]);
    }
    expect(execs).toContainEqual(['-n', 'db', 'exec', 'demo-dc1-r1-sts-0', '-c', 'cassandra', '--', 'nodetool', '-h', '127.0.0.1', '-p', '7199', 'status']);
    // Both pods were reached, each through its own exec.
    expect(new Set(execs.map((c) => c[3]))).toEqual(new Set(['demo-dc1-r1-sts-0', 'demo-dc1-r2-sts-0']));
    const report = JSON.parse(out) as { nodes: { address: string }[]; origin: string };
    expect(report.nodes.map((n) => n.address).sort()).toEqual(['127.0.10.5', '127.0.10.6']);
  }, 120_000);

  /** diagnose --k8s db/dc1 --json through the shim, with what it printed parsed. */
  async function diagnoseK8sJson(): Promise<{
    findings: { id: string; severity: string; evidence: string[] }[];
    checked: { rule: string; checked: boolean; skippedBecause?: string }[];
  }> {
    return JSON.parse((await diagnoseK8s()).out) as Awaited<ReturnType<typeof diagnoseK8sJson>>;
  }

  it('reads the CassandraDatacenter the pods belong to and audits it inside the diagnosis (real cass-operator v1.32.0 example)', async () => {
    writeFileSync(join(dir, 'dc.yaml'), readFileSync(join(FIXTURES_DIR, 'k8s', 'cass-operator-v1.32.0-example-cassandradatacenter-full.yaml')));
    try {
      const report = await diagnoseK8sJson();
      expect(calls()).toContainEqual(['-n', 'db', 'get', 'cassandradatacenters.cassandra.datastax.com', 'dc1', '-o', 'yaml']);
      // The same rules and findings audit_config gives on that file, now part of the diagnosis.
      const audit = auditK8sText('x', readFileSync(join(FIXTURES_DIR, 'k8s', 'cass-operator-v1.32.0-example-cassandradatacenter-full.yaml'), 'utf8'));
      const auditIds = audit.outcomes.flatMap((o) => o.findings.map((f) => f.id));
      expect(auditIds.length).toBeGreaterThan(0);
      for (const id of new Set(auditIds)) expect(report.findings.map((f) => f.id)).toContain(id);
      for (const o of audit.outcomes) expect(report.checked.find((c) => c.rule === o.rule)).toBeDefined();
    } finally {
      rmSync(join(dir, 'dc.yaml'), { force: true });
    }
  }, 120_000);

  it('a resource RBAC will not show is one rule not checked, with kubectl’s answer; the diagnosis goes on', async () => {
    const report = await diagnoseK8sJson();
    expect(report.checked.find((c) => c.rule === 'k8s.resource')).toMatchObject({
      checked: false,
      skippedBecause: expect.stringContaining('is forbidden'),
    });
  }, 120_000);
});
