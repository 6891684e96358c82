import { describe, expect, it } from 'vitest';
import { parseDescribecluster } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const C50 = 'local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node2_describecluster.txt';
const C41 = 'local-runs/cassandra-4.1.10-single/nodetool_n41_describecluster.txt';

// A 4.x cluster in schema disagreement with an unreachable node and NTS keyspaces, written following
// DescribeCluster.java (cassandra-4.0): "\t\t%s: %s%n" version lines are each followed by a blank line.
const DISAGREE = [
  'Cluster Information:',
  '\tName: prod',
  '\tSnitch: org.apache.cassandra.locator.GossipingPropertyFileSnitch',
  '\tDynamicEndPointSnitch: enabled',
  '\tPartitioner: org.apache.cassandra.dht.Murmur3Partitioner',
  '\tSchema versions:',
  '\t\t1111aaaa-0000-3000-8000-000000000001: [10.0.0.1, 10.0.0.2]',
  '',
  '\t\t2222bbbb-0000-3000-8000-000000000002: [10.0.1.1]',
  '',
  '\t\tUNREACHABLE: [10.0.1.2]',
  '',
  'Stats for all nodes:',
  '\tLive: 3',
  '\tJoining: 0',
  '\tMoving: 0',
  '\tLeaving: 0',
  '\tUnreachable: 1',
  '',
  'Data Centers: ',
  '\teu-west #Nodes: 2 #Down: 0',
  '\tus-east #Nodes: 2 #Down: 1',
  '',
  'Database versions:',
  '\t4.0.11: [10.0.0.1:7000, 10.0.0.2:7000, 10.0.1.1:7000]',
  '',
  '\t4.0.13: [10.0.1.2:7000]',
  '',
  'Keyspaces:',
  '\tshop -> Replication class: NetworkTopologyStrategy {eu-west=3, us-east=2}',
  '\tsystem_auth -> Replication class: SimpleStrategy {replication_factor=1}',
  '\tsystem -> Replication class: LocalStrategy {}',
].join('\n');

// ScyllaDB (scylla-nodetool.cc describecluster_operation): dynamic snitch always "disabled", no 4.x sections.
const SCYLLA = [
  'Cluster Information:',
  '\tName: scylla-prod',
  '\tSnitch: org.apache.cassandra.locator.GossipingPropertyFileSnitch',
  '\tDynamicEndPointSnitch: disabled',
  '\tPartitioner: org.apache.cassandra.dht.Murmur3Partitioner',
  '\tSchema versions:',
  '\t\t3333cccc-0000-3000-8000-000000000003: [10.1.0.1, 10.1.0.2, 10.1.0.3]',
  '',
].join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseDescribecluster(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool describecluster', () => {
  it.skipIf(!HAVE_CORPUS)('5.0.9 three-node cluster in agreement, with replication per keyspace', () => {
    const r = parseDescribecluster(corpus(C50));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      name: 'feas3',
      snitch: 'org.apache.cassandra.locator.SimpleSnitch',
      dynamicSnitch: true,
      partitioner: 'org.apache.cassandra.dht.Murmur3Partitioner',
      schemaAgreement: true,
      unreachable: [],
    });
    expect(r.value.schemaVersions).toEqual([{ version: '7ae779d6-fcf7-3d32-955c-6500cce16fb1', endpoints: ['127.0.0.1', '127.0.0.2', '127.0.0.3'] }]);
    expect(r.value.stats).toEqual({ live: 3, joining: 0, moving: 0, leaving: 0, unreachable: 0 });
    expect(r.value.datacenters).toEqual([{ name: 'datacenter1', nodes: 3, down: 0 }]);
    expect(r.value.databaseVersions).toEqual([{ version: '5.0.9', endpoints: ['127.0.0.1:7000', '127.0.0.2:7000', '127.0.0.3:7000'] }]);
    expect(r.value.keyspaces.find((k) => k.name === 'keyspace1')).toEqual({
      name: 'keyspace1',
      strategy: 'SimpleStrategy',
      options: { replication_factor: '3' },
      replicationFactors: { replication_factor: 3 },
    });
    expect(r.value.keyspaces.find((k) => k.name === 'system')!.strategy).toBe('LocalStrategy');
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.1.10 single node', () => {
    const r = parseDescribecluster(corpus(C41));
    expect(r.ok && r.value.databaseVersions[0]!.version).toBe('4.1.10');
    expect(r.ok && r.value.keyspaces).toHaveLength(5);
  });

  it('schema disagreement, an unreachable node, mixed versions and NTS replication', () => {
    const r = parseDescribecluster(DISAGREE);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.schemaAgreement).toBe(false);
    expect(r.value.schemaVersions.map((v) => v.endpoints.length)).toEqual([2, 1]);
    expect(r.value.unreachable).toEqual(['10.0.1.2']);
    expect(r.value.stats?.unreachable).toBe(1);
    expect(r.value.datacenters).toEqual([
      { name: 'eu-west', nodes: 2, down: 0 },
      { name: 'us-east', nodes: 2, down: 1 },
    ]);
    expect(r.value.databaseVersions.map((v) => v.version)).toEqual(['4.0.11', '4.0.13']);
    expect(r.value.keyspaces[0]).toEqual({
      name: 'shop',
      strategy: 'NetworkTopologyStrategy',
      options: { 'eu-west': '3', 'us-east': '2' },
      replicationFactors: { 'eu-west': 3, 'us-east': 2 },
    });
  });

  it('3.x: the dynamic snitch shows as the snitch class, no 4.x sections', () => {
    const text = [
      'Cluster Information:',
      '\tName: old',
      '\tSnitch: org.apache.cassandra.locator.DynamicEndpointSnitch',
      '\tPartitioner: org.apache.cassandra.dht.Murmur3Partitioner',
      '\tSchema versions:',
      '\t\t4444dddd-0000-3000-8000-000000000004: [10.2.0.1]',
      '',
    ].join('\n');
    const r = parseDescribecluster(text);
    expect(r.ok && r.value).toMatchObject({ dynamicSnitch: true, schemaAgreement: true, stats: null });
    expect(r.ok && r.warnings).toEqual([]);
  });

  it('ScyllaDB: no dynamic snitch, no 4.x sections, no truncation warning', () => {
    const r = parseDescribecluster(SCYLLA);
    expect(r.ok && r.value).toMatchObject({ dynamicSnitch: false, schemaAgreement: true, stats: null, keyspaces: [] });
    expect(r.ok && r.warnings).toEqual([]);
  });

  it('prompt and CRLF; ok:false on unrelated, empty and error text; warns on a cut tail', () => {
    const r = parseDescribecluster(`$ nodetool describecluster\r\n${DISAGREE.replace(/\n/g, '\r\n')}`);
    expect(r.ok && r.value.name).toBe('prod');
    for (const bad of ['', 'Mode: NORMAL', 'Name: x']) expect(parseDescribecluster(bad).ok).toBe(false);
    expect(parseDescribecluster("nodetool: Failed to connect to '10.0.0.1:7199'").ok).toBe(false);
    const cut = parseDescribecluster(DISAGREE.split('\n').slice(0, 20).join('\n'));
    expect(cut.ok && cut.warnings.join(' ')).toMatch(/truncated/);
    expect(parseDescribecluster(DISAGREE.split('\n').slice(1).join('\n')).ok).toBe(false);
  });

  it('is total on every truncation of the synthetic samples', () => {
    expectTotalOnEveryTruncation(DISAGREE);
    expectTotalOnEveryTruncation(SCYLLA);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real describecluster sample', () => {
    const files = corpusFiles('local-runs', /_describecluster\.txt$/);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      expect(parseDescribecluster(corpus(f)).ok, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });
});

describe('describecluster UNREACHABLE (bitnami/charts#1400: three of six nodes did not answer)', () => {
  const text = [
    'Cluster Information:',
    '    Name: cassandra',
    '    Snitch: org.apache.cassandra.locator.SimpleSnitch',
    '    DynamicEndPointSnitch: enabled',
    '    Partitioner: org.apache.cassandra.dht.Murmur3Partitioner',
    '    Schema versions:',
    '        ea63e099-37c5-3d7b-9ace-32f4c833653d: [10.0.0.1, 10.0.0.2, 10.0.0.3]',
    '',
    '        UNREACHABLE: [10.0.0.4, 10.0.0.5, 10.0.0.6]',
  ].join('\n');

  it('names the nodes that did not answer, critical, and is not a schema disagreement', async () => {
    const { interpretText } = await import('../../mcp-server/src/ops/interpret.js');
    const r = interpretText(text);
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([['topology.schema-unreachable', 'critical']]);
    expect(r.findings[0]!.title).toBe('3 node(s) did not answer the schema check (3 did): UNREACHABLE in nodetool describecluster');
    expect(r.findings[0]!.evidence[0]).toBe('UNREACHABLE: 10.0.0.4, 10.0.0.5, 10.0.0.6');
    // every node answering: no finding
    expect(interpretText(text.replace(/\n\n\s+UNREACHABLE.*$/, '')).findings).toEqual([]);
  });

  it('a node that status already shows down is not reported a second time (the lab node-down scenario)', async () => {
    const { runRules } = await import('../../mcp-server/src/core/rules/index.js');
    const { nodeEvidence } = await import('../../mcp-server/src/core/diagnosis/evidence.js');
    const { parseStatus } = await import('../../mcp-server/src/core/parse/nodetool/index.js');
    const dc = parseDescribecluster(text.replace('[10.0.0.4, 10.0.0.5, 10.0.0.6]', '[10.0.0.4:7000]'));
    const st = parseStatus(
      [
        'Datacenter: dc1',
        '===============',
        'Status=Up/Down',
        '|/ State=Normal/Leaving/Joining/Moving',
        '--  Address   Load       Tokens  Owns (effective)  Host ID                               Rack',
        'UN  10.0.0.1  1.1 GiB    16      75.0%             11111111-1111-1111-1111-111111111111  rack1',
        'DN  10.0.0.4  1.1 GiB    16      75.0%             44444444-4444-4444-4444-444444444444  rack1',
      ].join('\n'),
    );
    if (!dc.ok || !st.ok) throw new Error('parse');
    const ids = runRules({
      origin: 'test',
      nodes: [nodeEvidence('10.0.0.1', true, { facts: {}, nodetool: { describecluster: dc.value, status: st.value } })],
    }).findings.map((f) => f.id);
    expect(ids).toContain('topology.node-down');
    expect(ids).not.toContain('topology.schema-unreachable');
  });
});

describe('the schema-versions map a client prints (Netflix/astyanax#443)', () => {
  it('reads {version=[endpoints], UNREACHABLE=[…]} under a code line and above a client stack trace', async () => {
    const { readFileSync } = await import('node:fs');
    const { interpretText } = await import('../../mcp-server/src/ops/interpret.js');
    const text = readFileSync(new URL('../fixtures/real-world/describecluster_schema-map-unreachable-client_astyanax443.txt', import.meta.url), 'utf8');
    const r = parseDescribecluster(text);
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.schemaVersions).toEqual([
      { version: '1774c2d0-60d7-11e3-0000-1ecb73f706fe', endpoints: ['192.168.27.104', '192.168.27.102', '192.168.27.103', '192.168.27.101'] },
    ]);
    expect(r.value.unreachable).toEqual(['192.168.27.105']);
    expect(r.value.schemaAgreement).toBe(true);
    expect(r.value.notes.join()).toMatch(/schema-versions map as a client prints it/);
    // the four that answered agree: the one that did not is the finding, not a disagreement
    const ids = interpretText(text).findings.map((f) => `${f.id} ${f.severity}`);
    expect(ids).toEqual(['topology.schema-unreachable critical']);
    // a map with two versions is a disagreement
    const two = parseDescribecluster('{1774c2d0-60d7-11e3-0000-1ecb73f706fe=[10.0.0.1], 2774c2d0-60d7-11e3-0000-1ecb73f706fe=[10.0.0.2]}');
    expect(two.ok && two.value.schemaAgreement).toBe(false);
  });
});
