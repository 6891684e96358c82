import { describe, expect, it } from 'vitest';
import type { CqlSession } from '../../mcp-server/src/collect/cql-session.js';
import { collectNode, type SweepNode } from '../../mcp-server/src/ops/sweep.js';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { parseRing } from '../../mcp-server/src/core/parse/nodetool/ring.js';
import { parseTsv } from '../../mcp-server/src/core/parse/tsv.js';
import { ownershipRule } from '../../mcp-server/src/core/rules/ownership.js';
import { fixture } from '../helpers/corpus.js';
import { PACK, runRule } from '../../mcp-server/src/core/rules/rule.js';

const LAB = 'lab/cassandra-5.0-3node/node1';
const NODE: SweepNode = {
  address: '127.0.0.1',
  cqlPort: 9042,
  jmxHost: '127.0.0.1',
  jmxPort: 7199,
  datacenter: 'datacenter1',
  rack: 'rack1',
  hostId: null,
  upPerDriver: true,
};

/** Answers from real lab tables ("ks.table" → TSV); records what was asked. Unknown tables fail as Cassandra does. */
function fakeSession(answers: Record<string, string>) {
  const asked: string[] = [];
  const session = {
    async query(_address: string, cql: string) {
      asked.push(cql);
      const m = /^SELECT (.+?) FROM (\w+)\.(\w+)/i.exec(cql);
      const answer = m ? answers[`${m[2]}.${m[3]}`] : undefined;
      if (answer === undefined) throw Object.assign(new Error(`unconfigured table ${m?.[3] ?? '?'}`), { code: 8704 });
      const t = parseTsv(answer);
      if (!t.ok) throw new Error(t.reason);
      const cols =
        m![1]!.trim() === '*'
          ? t.value.columns
          : m![1]!.split(',').map((c) =>
              c
                .trim()
                .split(/\s+AS\s+/i)
                .pop()!,
            );
      return { columns: cols, rows: t.value.rows.map((r) => cols.map((c) => r[c] ?? null)), ms: 1 };
    },
  };
  return { session: session as unknown as CqlSession, asked };
}

const answers = {
  'system_virtual_schema.tables': 'keyspace_name\ttable_name\nsystem_views\tclients\n',
  'system.local': fixture(`${LAB}/table-system.local.tsv`),
  'system.peers': fixture(`${LAB}/table-system.peers.tsv`),
  'system_views.clients': fixture(`${LAB}/vt-system_views.clients.tsv`),
  'system_schema.keyspaces': 'keyspace_name\treplication\nfixture_ks\t{"class":"org.apache.cassandra.locator.SimpleStrategy","replication_factor":"3"}\n',
  'system_schema.tables': 'keyspace_name\ttable_name\tgc_grace_seconds\textensions\tcompaction\nfixture_ks\treadings\t864000\t{}\t{}\n',
  'system_distributed.parent_repair_history': 'keyspace_name\tcolumnfamily_names\tstarted_at\tfinished_at\texception_message\toptions\n',
};

describe('the sweep reads the cluster tables once, on the node that makes the cluster-wide reads', () => {
  it('asks replication, ring tokens, clock, table options and repair history (bounded) only with extraCql', async () => {
    const first = fakeSession(answers);
    const raw = await collectNode(first.session, NODE, {
      nodetool: [],
      batchNodetool: false,
      nodeTimeoutMs: 20_000,
      extraCql: [{ keyspace: 'system_schema', table: 'tables', query: 'SELECT keyspace_name, table_name, compaction FROM system_schema.tables' }],
    });
    expect(first.asked).toEqual(
      expect.arrayContaining([
        'SELECT keyspace_name, replication FROM system_schema.keyspaces',
        'SELECT peer, data_center, rack, host_id, tokens FROM system.peers',
        expect.stringMatching(/FROM system_distributed\.parent_repair_history LIMIT \d+$/),
      ]),
    );
    expect(raw.sources.map((s) => s.name)).toEqual(expect.arrayContaining(['cql:system.local#clock', 'cql:system_schema.tables#options', 'cql:system.peers']));
    const other = fakeSession(answers);
    await collectNode(other.session, NODE, { nodetool: [], batchNodetool: false, nodeTimeoutMs: 20_000 });
    expect(other.asked.some((q) => /system\.peers|parent_repair_history|system_schema\.keyspaces/.test(q))).toBe(false);

    // The collected ring is the real lab ring: the same 16 tokens per node as its nodetool ring.
    const facts = nodeFactsFromRaw(raw.sources.filter((s) => s.ok && s.text !== undefined).map((s) => ({ name: s.name, text: s.text! }))).facts;
    const ring = parseRing(fixture(`${LAB}/nodetool-ring.txt`));
    if (!ring.ok) throw new Error(ring.reason);
    for (const m of facts.cluster!.ring!) {
      expect(new Set(m.tokens), m.address).toEqual(new Set(ring.value.entries.filter((e) => e.address === m.address).map((e) => e.token)));
    }
    // RF 3 on 3 nodes, as the lab's `nodetool status fixture_ks` printed (100 % each): no ownership problem, only the
    // planner's note on the next node.
    const o = runRule(ownershipRule, { nodes: [nodeEvidence('127.0.0.1', true, { facts, nodetool: {} })], origin: 't' }, PACK);
    expect(o.checked).toBe(true);
    expect(o.findings.map((f) => [f.id, f.severity])).toEqual([['ownership.next-node', 'info']]);
  });
});
