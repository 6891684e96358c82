import { describe, expect, it } from 'vitest';
import { nodeEvidence, type DiagnosisInput, type NodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import type { NodeFacts } from '../../mcp-server/src/core/facts/node-facts.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';

const node = (name: string, facts: NodeFacts, nodetool: Record<string, unknown> = {}, reachable = true): NodeEvidence =>
  nodeEvidence(name, reachable, { facts, nodetool });
const run = (nodes: NodeEvidence[]) => runRules({ origin: 'test', nodes } satisfies DiagnosisInput);
const fromText = (name: string, outputs: Record<string, string>) => {
  const r = nodeFactsFromRaw(Object.entries(outputs).map(([k, text]) => ({ name: `nodetool:${k}`, text })));
  return nodeEvidence(name, true, r);
};

const STATUS = (rows: string[]) =>
  [
    'Datacenter: dc1',
    '===============',
    'Status=Up/Down',
    '|/ State=Normal/Leaving/Joining/Moving',
    '--  Address    Load        Tokens  Owns (effective)  Host ID                               Rack',
    ...rows,
  ].join('\n');
const hid = (i: number) => `0b9c7a1e-0000-4000-8000-00000000000${i}`;

describe('rules on synthetic evidence', () => {
  it('an empty input checks nothing and says why for each rule', () => {
    const r = run([]);
    expect(r.findings).toEqual([]);
    for (const o of r.outcomes.filter((x) => x.rule !== 'traps')) expect(o.checked, o.rule).toBe(false);
    expect(r.outcomes.find((o) => o.rule === 'threadpools')?.skippedBecause).toBe(
      'not collected on any node: facts:threadPools (thread pools: system_views.thread_pools or nodetool tpstats); ' +
        'facts:droppedMessages (dropped messages: nodetool tpstats)',
    );
  });

  it('topology: joining and leaving nodes, different token counts, uneven load', () => {
    const st = fromText('10.0.0.1', {
      status: STATUS([
        `UN  10.0.0.1   100 GiB     16      33.3%             ${hid(1)}  r1`,
        `UN  10.0.0.2   400 GiB     16      33.3%             ${hid(2)}  r1`,
        `UJ  10.0.0.3   1 GiB       256     ?                 ${hid(3)}  r1`,
        `UL  10.0.0.4   100 GiB     16      33.3%             ${hid(4)}  r1`,
      ]),
    });
    const r = run([st]);
    const ids = r.findings.map((f) => `${f.id}@${f.node ?? ''}`);
    expect(ids).toContain('topology.node-transition@10.0.0.3');
    expect(ids).toContain('topology.node-transition@10.0.0.4');
    expect(ids).toContain('topology.token-count-mismatch@');
    expect(r.findings.find((f) => f.id === 'topology.load-imbalance')?.title).toMatch(/400\.0×/);
  });

  it('topology: schema disagreement across nodes; unreachable nodes are critical', () => {
    const a = node('10.0.0.1', { schemaVersion: 'aaaa' });
    const b = node('10.0.0.2', { schemaVersion: 'bbbb' });
    const dead = nodeEvidence('10.0.0.3', false, { facts: {}, nodetool: {} }, [
      { source: 'cql:system.local', code: 'CQL_UNREACHABLE', message: 'connection refused' },
    ]);
    const r = run([a, b, dead]);
    expect(r.findings.find((f) => f.id === 'topology.schema-disagreement')?.evidence).toEqual(['schema aaaa: 10.0.0.1', 'schema bbbb: 10.0.0.2']);
    expect(r.findings.find((f) => f.id === 'topology.unreachable')).toMatchObject({ severity: 'critical', node: '10.0.0.3' });
    expect(r.findings[0]!.severity).toBe('critical'); // worst first
  });

  it('thread pools: pending and blocked are graded, idle pools are not', () => {
    const pools = [
      { name: 'ViewMutationStage', active: 32, activeLimit: 32, pending: 5000, blocked: 0, blockedAllTime: 0, completed: 1 },
      { name: 'MemtableFlushWriter', active: 2, activeLimit: 2, pending: 3, blocked: 1, blockedAllTime: 40, completed: 1 },
      { name: 'ReadStage', active: 0, activeLimit: 32, pending: 0, blocked: 0, blockedAllTime: 0, completed: 1 },
      // A write burst MutationStage absorbs (sperf: only above 10000) is not graded.
      { name: 'MutationStage', active: 32, activeLimit: 32, pending: 5000, blocked: 0, blockedAllTime: 0, completed: 1 },
    ];
    const r = run([node('n1', { threadPools: pools })]);
    expect(r.findings.filter((f) => f.id === 'threadpool.pending').map((f) => f.title)).toEqual(['ViewMutationStage has 5000 pending tasks']);
    expect(r.findings.find((f) => f.id === 'threadpool.blocked')?.title).toMatch(/MemtableFlushWriter/);
    expect(r.findings.some((f) => /ReadStage/.test(f.title))).toBe(false);
  });

  it('JVM: a 5 s GC pause is critical, a quiet heap is not reported', () => {
    const r = run([
      node('n1', { heap: { usedMb: 300, maxMb: 8192 }, gc: { intervalMs: 60000, maxPauseMs: 5000, totalPauseMs: 9000, collections: 12, reclaimedBytes: 1 } }),
    ]);
    // 9 s of GC in 60 s is 15 %, but 5 s of it is the one long pause: the other 11 take 6.7 %, within G1's ~7.7 % goal
    expect(r.findings.map((f) => `${f.severity}:${f.id}`)).toEqual(['critical:jvm.gc.pause']);
    const busy = run([node('n1', { gc: { intervalMs: 60000, maxPauseMs: 5000, totalPauseMs: 10000, collections: 40, reclaimedBytes: 1 } })]);
    // 5 s in the 39 other pauses is 8.3 %: the heap collects constantly besides the long stop
    expect(busy.findings.map((f) => `${f.severity}:${f.id}`)).toEqual(['critical:jvm.gc.pause', 'warning:jvm.gc.time-share']);
  });

  it('outliers: one node with 10× the pending tasks of its peers is named', () => {
    const pools = (p: number) => [{ name: 'ReadStage', active: 1, activeLimit: 32, pending: p, blocked: 0, blockedAllTime: 0, completed: 1 }];
    const r = run([node('a', { threadPools: pools(6) }), node('b', { threadPools: pools(5) }), node('c', { threadPools: pools(60) })]);
    const o = r.findings.filter((f) => f.id === 'cluster.outlier');
    expect(o.map((f) => f.node)).toEqual(['c']);
  });

  it('compaction: LCS level 0 far over its target is reported from tablestats', () => {
    const ts = [
      'Keyspace : ks',
      '\tRead Count: 10',
      '\tRead Latency: 1.0 ms',
      '\tWrite Count: 10',
      '\tWrite Latency: 0.1 ms',
      '\tPending Flushes: 0',
      '\t\tTable: events',
      '\t\tSSTable count: 924',
      '\t\tSSTables in each level: [910/4, 10, 4, 0, 0, 0, 0, 0, 0]',
      '\t\tSpace used (live): 1073741824',
      '\t\tSpace used (total): 1073741824',
      '\t\tSpace used by snapshots (total): 0',
      '\t\tBloom filter false ratio: 0.00000',
      '\t\tCompacted partition maximum bytes: 20501',
      '',
    ].join('\n');
    const r = run([fromText('n1', { tablestats: ts })]);
    const l0 = r.findings.find((f) => f.id === 'compaction.lcs.l0-backlog');
    expect(l0?.title).toMatch(/910 SSTables \(target 4\)/);
    expect(l0?.table).toBe('ks.events');
  });

  it('traps: ScyllaDB pending estimates and the idle-node proxyhistograms error are info, not faults', () => {
    const scylla = node(
      's1',
      {},
      {
        compactionstats: {
          layout: 'classic',
          product: 'scylla',
          pendingTasks: 1500,
          pendingTasksReliable: false,
          pendingByTable: [],
          compactions: [],
          remainingTimeSeconds: null,
          summary: null,
          notes: [],
        },
      },
    );
    const idle = nodeEvidence('c1', true, { facts: {}, nodetool: {} }, [
      { source: 'nodetool:proxyhistograms', code: 'NO_METRIC_YET', message: 'InstanceNotFoundException' },
    ]);
    const r = run([scylla, idle]);
    expect(r.findings.map((f) => `${f.severity}:${f.id}`).sort()).toEqual([
      'info:trap.nodetool.proxyhistograms-idle-node',
      'info:trap.scylla.compactionstats-pending',
    ]);
  });
});

describe('STCS on a table holding most of the data', () => {
  const schema = (cls: string) => ({ keyspace: 'shop', table: 'orders', compaction: cls });
  const tables = [
    { keyspace: 'shop', table: 'orders', diskMiB: 60 * 1024 },
    { keyspace: 'shop', table: 'users', diskMiB: 5 * 1024 },
  ];
  it('warns for STCS, not for LCS, and reads the strategy from system_schema', () => {
    const stcs = run([node('n1', { tables, tableSchemas: [schema('SizeTieredCompactionStrategy')] })]);
    expect(stcs.findings.find((f) => f.id === 'compaction.stcs.large-data')).toMatchObject({ severity: 'warning', table: 'shop.orders' });
    const lcs = run([node('n1', { tables, tableSchemas: [schema('LeveledCompactionStrategy')] })]);
    expect(lcs.findings.some((f) => f.id === 'compaction.stcs.large-data')).toBe(false);
  });

  it('the compaction class comes out of the schema row as its short name', async () => {
    const { nodeFactsFromRaw } = await import('../../mcp-server/src/core/facts/from-raw.js');
    const { toTsv } = await import('../../mcp-server/src/core/parse/tsv.js');
    const text = toTsv(
      ['keyspace_name', 'table_name', 'compaction'],
      [['shop', 'orders', '{"class":"org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy","max_threshold":"32"}']],
    );
    expect(nodeFactsFromRaw([{ name: 'cql:system_schema.tables', text }]).facts.tableSchemas).toEqual([schema('SizeTieredCompactionStrategy')]);
  });
});

describe('heap readings need GC pressure to alarm', () => {
  it('82 % used with short pauses is info; with a 1.5 s pause it is a warning', () => {
    const quiet = run([
      node('n1', { heap: { usedMb: 421, maxMb: 512 }, gc: { intervalMs: 1000, maxPauseMs: 20, totalPauseMs: 20, collections: 1, reclaimedBytes: 1 } }),
    ]);
    expect(quiet.findings.find((f) => f.id === 'jvm.heap.used-ratio')?.severity).toBe('info');
    const busy = run([
      node('n1', { heap: { usedMb: 421, maxMb: 512 }, gc: { intervalMs: 1000, maxPauseMs: 1500, totalPauseMs: 1500, collections: 1, reclaimedBytes: 1 } }),
    ]);
    expect(busy.findings.find((f) => f.id === 'jvm.heap.used-ratio')?.severity).toBe('warning');
  });

  it('97 % used is critical only beside a critical pause: with a 344 ms pause (a busy healthy lab node) it is a warning', () => {
    const heap = (maxPauseMs: number) =>
      run([
        node('n1', { heap: { usedMb: 496, maxMb: 512 }, gc: { intervalMs: 1000, maxPauseMs, totalPauseMs: maxPauseMs, collections: 1, reclaimedBytes: 1 } }),
      ]).findings.find((f) => f.id === 'jvm.heap.used-ratio')?.severity;
    expect(heap(344)).toBe('warning');
    expect(heap(1112)).toBe('critical');
    expect(heap(20)).toBe('warning');
  });
});

describe('jvm rule: why it could not check', () => {
  const jvmSkip = (errors: { source: string; code: string; message: string }[]) =>
    runRules({ origin: 't', nodes: [nodeEvidence('10.0.0.1', true, { facts: {}, nodetool: {} }, errors)] }).outcomes.find((o) => o.rule === 'jvm')!;

  it('names an unreadable or failed nodetool info/gcstats instead of blaming JMX', () => {
    const o = jvmSkip([
      { source: 'nodetool:gcstats', code: 'UNPARSED', message: 'no gcstats header' },
      { source: 'nodetool:info', code: 'TIMEOUT', message: 'did not finish' },
    ]);
    expect(o.checked).toBe(false);
    expect(o.skippedBecause).toBe(
      'no heap or GC data: 10.0.0.1 nodetool:gcstats output not readable (no gcstats header); 10.0.0.1 nodetool:info failed [TIMEOUT]',
    );
  });

  it('without any nodetool attempt, says JMX is what it needs', () => {
    expect(jvmSkip([]).skippedBecause).toBe('no heap or GC data (nodetool info / gcstats need JMX)');
  });
});
