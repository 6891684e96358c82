import { describe, expect, it } from 'vitest';
import { nodeEvidence, type DiagnosisInput } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { parseTsv } from '../../mcp-server/src/core/parse/tsv.js';
import { clientsRule, tabletAwareMinimums } from '../../mcp-server/src/core/rules/clients.js';
import { valueOf } from '../../mcp-server/src/core/knowledge/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { fixture } from '../helpers/corpus.js';
import { PACK, runRule } from '../../mcp-server/src/core/rules/rule.js';

const LOCAL_41 = 'release_version\tdata_center\track\n4.1.10\tdc1\tr1\n';

function node(name: string, clientsTsv: string, extra: { name: string; text: string }[] = []) {
  return nodeEvidence(
    name,
    true,
    nodeFactsFromRaw([{ name: 'cql:system.local', text: LOCAL_41 }, { name: 'cql:system_views.clients', text: clientsTsv }, ...extra]),
  );
}
const run = (nodes: DiagnosisInput['nodes']) => runRule(clientsRule, { nodes, origin: 'test' }, PACK);

/** The real lab capture with one column of every row replaced (to make an unhealthy variant of real rows). */
function withColumn(tsv: string, column: string, value: string): string {
  const t = parseTsv(tsv);
  if (!t.ok) throw new Error(t.reason);
  const i = t.value.columns.indexOf(column);
  return tsv
    .trimEnd()
    .split('\n')
    .map((line, n) =>
      n === 0
        ? line
        : line
            .split('\t')
            .map((c, j) => (j === i ? value : c))
            .join('\t'),
    )
    .join('\n');
}

describe('clients rule on real captures', () => {
  it('healthy lab clients (Python driver 3.30.1, protocol v5) give no finding on 4.1.10 and 5.0.9', () => {
    for (const f of ['clients/c4110-vt-clients.tsv', 'clients/c509-vt-clients.tsv']) {
      const o = run([node('n1', fixture(f))]);
      expect(o.checked, f).toBe(true);
      expect(o.findings, f).toEqual([]);
    }
  });
  it('the Cassandra 4.0 docs paste interprets as a cql.table with the clients rule checked and nothing to fix', () => {
    const r = interpretText(fixture('clients/c40-docs-cqlsh-clients.txt'));
    expect(r.kind).toBe('cql.table');
    expect(r.checked.find((c) => c.rule === 'clients')).toMatchObject({ checked: true, findings: 0 });
  });
  it('the same real rows with driver 3.24.0 are below the protocol v5 minimum (knowledge value)', () => {
    const o = run([node('n1', withColumn(fixture('clients/c4110-vt-clients.tsv'), 'driver_version', '3.24.0'))]);
    const f = o.findings.find((x) => x.id === 'clients.driver-outdated');
    expect(f?.title).toContain(`below ${String(valueOf('client.driver-min.python'))}`);
    expect(f?.knowledgeIds).toEqual(['client.driver-min.python']);
  });
  it('protocol v3 is flagged, a handshake row with protocol 0 is not', () => {
    const v3 = run([node('n1', withColumn(fixture('clients/c4110-vt-clients.tsv'), 'protocol_version', '3'))]);
    expect(v3.findings.map((f) => f.id)).toContain('clients.protocol-old');
    const v0 = run([node('n1', withColumn(fixture('clients/c4110-vt-clients.tsv'), 'protocol_version', '0'))]);
    expect(v0.findings.map((f) => f.id)).not.toContain('clients.protocol-old');
  });
  it('plain connections while client encryption is enabled but optional', () => {
    const settings = {
      name: 'cql:system_views.settings',
      text: 'name\tvalue\nclient_encryption_options.enabled\ttrue\nclient_encryption_options.optional\ttrue\n',
    };
    const o = run([node('n1', fixture('clients/c4110-vt-clients.tsv'), [settings])]);
    expect(o.findings.find((f) => f.id === 'clients.tls-off')).toMatchObject({ severity: 'warning', confidence: 'high' });
  });
});

describe('balance across coordinators', () => {
  const header = 'address\tport\tdriver_name\tdriver_version\tprotocol_version\trequest_count\tssl_enabled';
  const rows = (addr: string, n: number, base: number) =>
    Array.from({ length: n }, (_, i) => `${addr}\t${base + i}\tDataStax Java Driver\t4.17.0\t5\t10\tfalse`).join('\n');
  it('a client host on one node of three is pinned; connections 2.4× the mean grade as warning', () => {
    const nodes = [
      node('10.0.0.1', `${header}\n${rows('10.1.0.9', 20, 40000)}\n${rows('10.1.0.7', 2, 41000)}\n`),
      node('10.0.0.2', `${header}\n${rows('10.1.0.7', 2, 42000)}\n`),
      node('10.0.0.3', `${header}\n${rows('10.1.0.7', 1, 43000)}\n${rows('10.1.0.8', 0, 0)}${rows('10.1.0.6', 1, 44000)}\n`),
    ];
    const o = run(nodes);
    const pinned = o.findings.find((f) => f.id === 'clients.pinned-coordinator');
    expect(pinned?.evidence[0]).toContain('10.1.0.9: 20 connection(s), all to 10.0.0.1');
    expect(o.findings.find((f) => f.id === 'clients.coordinator-imbalance')).toMatchObject({ node: '10.0.0.1', severity: 'warning' });
    // 10.1.0.9 sent 200 of the 260 requests (three client hosts).
    expect(o.findings.find((f) => f.id === 'clients.request-concentration')?.title).toMatch(/10\.1\.0\.9 sent 77 %/);
  });
});

describe('ScyllaDB system.clients', () => {
  const header = 'address\tport\tclient_type\tconnection_stage\tdriver_name\tdriver_version\tprotocol_version\tshard_id\tssl_enabled';
  const scylla = (rows: string) =>
    nodeEvidence(
      's1',
      true,
      nodeFactsFromRaw([
        { name: 'cql:system.versions', text: 'key\tversion\nlocal\t2025.1.0\n' },
        { name: 'cql:system.clients', text: `${header}\n${rows}\n` },
      ]),
    );
  it('a Cassandra driver is not shard-aware', () => {
    const o = run([scylla('10.1.0.5\t50000\tcql\tready\tDataStax Python Driver\t3.29.2\t4\t0\tfalse')]);
    expect(o.findings.map((f) => f.id)).toContain('clients.not-shard-aware');
  });
  it('a ScyllaDB driver whose source ports match its shards uses the shard-aware port; one that does not is told to open 19042', () => {
    const aware = ['50000', '50001', '50002', '50003'].map((p, i) => `10.1.0.5\t${p}\tcql\tready\tScyllaDB Python Driver\t3.29.3\t4\t${i}\tfalse`).join('\n');
    expect(run([scylla(aware)]).findings).toEqual([]);
    const trial = ['50001', '50003', '50005', '50007'].map((p, i) => `10.1.0.5\t${p}\tcql\tready\tScyllaDB Python Driver\t3.29.3\t4\t${i}\tfalse`).join('\n');
    expect(run([scylla(trial)]).findings.map((f) => f.id)).toEqual(['clients.shard-aware-port-unused']);
  });
  it('reads the tablet-aware minimums from the knowledge value', () => {
    expect(tabletAwareMinimums(String(valueOf('driver.scylla.tablet-aware')))).toEqual({ python: ['3.26.5'], java: ['4.18.0', '3.11.5.2'], go: ['1.13.0'] });
  });
});
