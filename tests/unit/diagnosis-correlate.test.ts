/** Correlation: one problem one finding, causes leading symptoms, since-start counters labelled, window rates. */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { correlate } from '../../mcp-server/src/core/diagnosis/correlate.js';
import { mergeFindings } from '../../mcp-server/src/core/diagnosis/merge.js';
import { chainFindings, orderFindings } from '../../mcp-server/src/core/diagnosis/chain.js';
import { ago, labelTime } from '../../mcp-server/src/core/diagnosis/since-start.js';
import { nodeWindowRates, type CounterReading } from '../../mcp-server/src/core/diagnosis/counter-rates.js';
import { familyOf, sourcesOf } from '../../mcp-server/src/core/diagnosis/identity.js';
import type { NodeFacts } from '../../mcp-server/src/core/facts/node-facts.js';

const base: Pick<Finding, 'recommendation' | 'knowledgeIds' | 'confidence'> = {
  recommendation: 'fix it',
  knowledgeIds: ['table.tombstones-per-read'],
  confidence: 'high',
};
// Shaped as core/rules/tables.ts and logs.ts write them.
const fromVtable = (node: string, table: string): Finding => ({
  ...base,
  id: 'table.tombstones-per-read',
  severity: 'warning',
  node,
  table,
  title: `Reads of ${table} scanned up to 5000 tombstones`,
  evidence: [`${node}: system_views.tombstones_per_read ${table}: p50 10, p99 4000, max 5000 over 300 reads`],
});
const fromTablestats = (node: string, table: string): Finding => ({
  ...base,
  id: 'table.tombstones-per-read',
  severity: 'warning',
  node,
  table,
  title: `Reads of ${table} scanned up to 4100 tombstones per slice`,
  evidence: [`${node}: nodetool tablestats ${table}: tombstones per slice avg 900, max 4100`],
});
const fromLog = (node: string, table?: string): Finding => ({
  ...base,
  id: 'log.tombstones',
  severity: 'critical',
  node,
  ...(table ? { table } : {}),
  title: `3 reads aborted on tombstones on ${node}`,
  evidence: [`${node}: ${table ?? 'ks.events'}: 12 warning(s), 3 abort(s), up to 100001 tombstones per read`],
});
const f = (id: string, severity: Finding['severity'], node: string, extra: Partial<Finding> = {}): Finding => ({
  id,
  severity,
  node,
  title: `${id} on ${node}`,
  evidence: [`${node}: ${id} evidence`],
  recommendation: 'r',
  knowledgeIds: [],
  confidence: 'high',
  ...extra,
});

describe('one problem, one finding', () => {
  it('merges tombstones seen by the log, the virtual table and tablestats on one node and table, with every source', () => {
    const out = mergeFindings([fromVtable('10.0.0.1', 'ks.events'), fromTablestats('10.0.0.1', 'ks.events'), fromLog('10.0.0.1', 'ks.events')]);
    expect(out).toHaveLength(1);
    const m = out[0]!;
    expect(m.severity).toBe('critical');
    expect(m.id).toBe('log.tombstones');
    expect(m.mergedIds).toEqual(['table.tombstones-per-read']);
    expect(m.sources).toEqual(['log', 'system_views.tombstones_per_read', 'nodetool tablestats']);
    expect(m.evidence).toHaveLength(3);
    expect(m.table).toBe('ks.events');
  });
  it("keeps other nodes and other tables apart, and a log count without a table joins its node's only table", () => {
    const out = mergeFindings([
      fromVtable('10.0.0.1', 'ks.events'),
      fromVtable('10.0.0.2', 'ks.events'),
      fromVtable('10.0.0.1', 'ks.other'),
      fromLog('10.0.0.2'),
    ]);
    expect(out.map((x) => `${x.node} ${x.table} ${x.sources?.join('+')}`)).toEqual([
      '10.0.0.1 ks.events system_views.tombstones_per_read',
      '10.0.0.2 ks.events log+system_views.tombstones_per_read',
      '10.0.0.1 ks.other system_views.tombstones_per_read',
    ]);
  });
  it('a table-less log finding with two candidate tables joins the one its evidence names', () => {
    const out = mergeFindings([fromVtable('n1', 'ks.events'), fromVtable('n1', 'ks.other'), fromLog('n1')]);
    expect(out).toHaveLength(2);
    // The log's abort is the worst of the group, so it speaks for it; the virtual table's finding is merged in.
    expect(out.find((x) => x.table === 'ks.events')).toMatchObject({ id: 'log.tombstones', mergedIds: ['table.tombstones-per-read'] });
    expect(out.find((x) => x.table === 'ks.other')!.mergedIds).toBeUndefined();
  });
  it('GC from gcstats and from the log are one family; a suspended VM is not GC although it cites the same knowledge', () => {
    expect(familyOf({ id: 'log.gc-pause' })).toBe(familyOf({ id: 'jvm.gc.pause' }));
    expect(familyOf({ id: 'log.suspended-not-gc' })).not.toBe(familyOf({ id: 'jvm.gc.pause' }));
    const out = mergeFindings([
      f('jvm.gc.pause', 'warning', 'n1', { evidence: ['n1: nodetool gcstats over 10000 ms: max 900 ms'] }),
      f('log.gc-pause', 'warning', 'n1'),
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]!.sources).toEqual(['nodetool gcstats', 'log']);
  });
  it('names the source of a single finding from its evidence', () => {
    expect(sourcesOf(fromTablestats('n', 'ks.t'))).toEqual(['nodetool tablestats']);
  });
});

describe('root cause over symptoms', () => {
  it('a GC pause, dropped mutations and a p99 tail on one node become one chain led by the pause', () => {
    const out = chainFindings([
      f('dropped.messages', 'critical', 'n1', { when: 'window' }),
      f('latency.local-read-p99', 'warning', 'n1', { table: 'ks.t', when: 'window' }),
      f('jvm.gc.pause', 'warning', 'n1', { when: 'window' }),
      f('dropped.messages', 'warning', 'n2', { when: 'window' }),
    ]);
    expect(out.map((x) => `${x.id}@${x.node}`)).toEqual(['jvm.gc.pause@n1', 'dropped.messages@n2']);
    const head = out[0]!;
    expect(head.severity).toBe('critical');
    expect(head.chain!.effects.map((e) => e.id)).toEqual(['dropped.messages', 'latency.local-read-p99']);
    expect(head.title).toMatch(/likely cause of/);
  });
  it("does not link the past to the present, nor an info-level cause, nor another table's cause", () => {
    expect(
      chainFindings([f('jvm.gc.pause', 'warning', 'n1', { when: 'window' }), f('dropped.messages', 'warning', 'n1', { when: 'since start, 3.0 days ago' })]),
    ).toHaveLength(2);
    expect(chainFindings([f('log.gc-pause', 'info', 'n1', { when: 'in the logs' }), f('log.dropped', 'warning', 'n1', { when: 'in the logs' })])).toHaveLength(
      2,
    );
    expect(
      chainFindings([f('table.sstables-per-read', 'warning', 'n1', { table: 'ks.a' }), f('latency.local-read-p99', 'warning', 'n1', { table: 'ks.b' })]),
    ).toHaveLength(2);
    // Totals over a whole log or a node's life may be days apart: not one incident on that alone.
    expect(
      chainFindings([f('log.gc-pause', 'warning', 'n1', { when: 'in the logs' }), f('log.dropped', 'warning', 'n1', { when: 'in the logs' })]),
    ).toHaveLength(2);
    expect(chainFindings([f('jvm.gc.pause', 'warning', 'n1', { when: 'now' }), f('threadpool.pending', 'warning', 'n1', { when: 'now' })])).toHaveLength(1);
  });
  it('a suspended VM explains more than GC: it leads when both are there', () => {
    const out = chainFindings([
      f('jvm.gc.pause', 'warning', 'n1', { when: 'now' }),
      f('log.suspended-not-gc', 'warning', 'n1', { when: 'now' }),
      f('threadpool.blocked', 'warning', 'n1', { when: 'now' }),
    ]);
    expect(out.find((x) => x.chain)!.id).toBe('log.suspended-not-gc');
  });
  it('findings of an outlier node lead others of the same severity', () => {
    const out = orderFindings([f('threadpool.pending', 'warning', 'n1'), f('threadpool.pending', 'warning', 'n3'), f('cluster.outlier', 'warning', 'n3')]);
    expect(out.map((x) => `${x.id}@${x.node}`)).toEqual(['threadpool.pending@n3', 'cluster.outlier@n3', 'threadpool.pending@n1']);
  });
});

describe('since-start counters are never the present', () => {
  const dropped = f('dropped.messages', 'critical', 'n1', { title: '150 messages dropped on n1 (MUTATION)' });
  const clocks = { n1: { uptimeSeconds: 3 * 86_400 + 4000, gcIntervalMs: null } };
  it('an instant diagnosis labels them with the uptime', () => {
    const [x] = labelTime([dropped], { clocks });
    expect(x!.title).toBe('150 messages dropped on n1 (MUTATION) (since start, 3.0 days ago)');
    expect(x!.when).toBe('since start, 3.0 days ago');
    expect(x!.severity).toBe('critical');
  });
  it('with a window and no new drops they are history: one step lower, and said so', () => {
    const rates = { n1: { droppedInWindow: {}, blockedInWindow: {} } } as never;
    const [x] = labelTime([dropped], { clocks, rates, windowSeconds: 10 });
    expect(x!.severity).toBe('warning');
    expect(x!.title).toMatch(/since start, 3\.0 days ago; none in the 10 s window/);
  });
  it('with a window and new drops they are the present, with the count in the window', () => {
    const rates = { n1: { droppedInWindow: { MUTATION: 42 }, blockedInWindow: {} } } as never;
    const [x] = labelTime([dropped], { clocks, rates, windowSeconds: 10 });
    expect(x!.when).toBe('window');
    expect(x!.severity).toBe('critical');
    expect(x!.title).toMatch(/still rising: MUTATION 42 in the 10 s window/);
  });
  it('a gcstats reading whose interval is the whole uptime is since start; uptime unknown is said', () => {
    const [g] = labelTime([f('jvm.gc.pause', 'warning', 'n1')], { clocks: { n1: { uptimeSeconds: 7200, gcIntervalMs: 7_199_000 } } });
    expect(g!.when).toBe('since start, 2.0 hours ago');
    const [d] = labelTime([dropped], { clocks: {} });
    expect(d!.when).toBe('since start (uptime unknown)');
    expect(ago(90)).toBe('2 min ago');
  });
  it('correlate runs all steps: merged, labelled, chained, ordered', () => {
    const out = correlate(
      [
        f('dropped.messages', 'warning', 'n1'),
        f('log.dropped', 'warning', 'n1'),
        f('jvm.gc.pause', 'warning', 'n1', { evidence: ['n1: nodetool gcstats over 10000 ms'] }),
      ],
      {
        clocks: { n1: { uptimeSeconds: 86_400, gcIntervalMs: 10_000 } },
        rates: { n1: { droppedInWindow: { MUTATION: 5 }, blockedInWindow: {} } } as never,
        windowSeconds: 10,
      },
    );
    expect(out).toHaveLength(1);
    expect(out[0]!.id).toBe('jvm.gc.pause');
    expect(out[0]!.chain!.effects[0]!.sources).toEqual(['nodetool tpstats', 'log']);
  });
});

describe('counters → rates over the window', () => {
  const reading = (k: number): CounterReading => {
    const facts: NodeFacts = {
      tables: [
        {
          keyspace: 'ks',
          table: 't',
          localRead: { count: 1000 + 500 * k, p50Ms: 1, p99Ms: 2, maxMs: 3, perSecond: null },
          localWrite: { count: 2000 + 2000 * k, p50Ms: 1, p99Ms: 2, maxMs: 3, perSecond: null },
          coordinatorRead: { count: 10 + 300 * k, p50Ms: 1, p99Ms: 2, maxMs: 3, perSecond: null },
          coordinatorWrite: { count: 20 + 700 * k, p50Ms: 1, p99Ms: 2, maxMs: 3, perSecond: null },
        },
        { keyspace: 'system', table: 'local', localRead: { count: 5 + 1000 * k, p50Ms: 1, p99Ms: 1, maxMs: 1, perSecond: null } },
      ],
      droppedMessages: { MUTATION: 100 + 30 * k, READ: 7 },
      threadPools: [{ name: 'MutationStage', active: 1, activeLimit: 32, pending: 0, blocked: 0, blockedAllTime: 4 + 10 * k, completed: 0 }],
      gc: { intervalMs: k ? 10_000 : 900_000, maxPauseMs: 250, totalPauseMs: k ? 400 : 99_000, collections: 3, reclaimedBytes: null },
    };
    const nodetool = {
      compactionstats: {
        layout: '5.0',
        product: 'cassandra',
        pendingTasks: 0,
        pendingTasksReliable: true,
        pendingByTable: [],
        compactions: [],
        remainingTimeSeconds: null,
        notes: [],
        summary: {
          concurrentCompactors: 2,
          compactionsCompleted: 1,
          dataCompactedBytes: 1_000_000 + 50 * 1024 * 1024 * k,
          compressedDataCompactedBytes: null,
          compactionsAborted: 0,
          compactionsReduced: 0,
          sstablesDroppedFromCompaction: 0,
          fifteenMinuteRatePerMinute: null,
          meanRatePerHour: null,
          throughputMiBPerSec: 64,
          throttlingDisabled: false,
        },
      },
    } as never;
    return { facts, nodetool };
  };
  it('gives ops/s per table and node, dropped/s, blocked/s, GC ms/s and compacted bytes/s', () => {
    const r = nodeWindowRates('n1', reading(0), reading(1), 10);
    expect(r.tables).toEqual([{ table: 'ks.t', readsPerS: 50, writesPerS: 200, source: 'system_views.local_{read,write}_latency count' }]);
    expect([r.localReadsPerS, r.localWritesPerS, r.coordinatorReadsPerS, r.coordinatorWritesPerS]).toEqual([50, 200, 30, 70]);
    expect(r.droppedInWindow).toEqual({ MUTATION: 30 });
    expect(r.droppedPerS).toBe(3);
    expect(r.blockedPerS).toBe(1);
    expect(r.gcMsPerS).toBe(40);
    expect(r.compactedBytesPerS).toBe((50 * 1024 * 1024) / 10);
  });
  it('a counter that went down (restart between readings) or a first gcstats over the uptime gives no rate', () => {
    const r = nodeWindowRates('n1', reading(1), reading(0), 10);
    expect(r.tables).toEqual([]);
    expect(r.droppedPerS).toBe(0);
    expect(r.gcMsPerS).toBeNull();
    expect(r.notes.join(' ')).toMatch(/no ops\/s.*no GC time per second/);
  });
  it('falls back to tablestats counts when no virtual table counts are there', () => {
    const ts = (k: number) =>
      ({
        facts: {},
        nodetool: { tablestats: { tables: [{ keyspace: 'ks', name: 't', isIndex: false, localReadCount: 100 * k, localWriteCount: 1000 * k }] } },
      }) as never;
    const r = nodeWindowRates('n1', ts(1), ts(3), 20);
    expect(r.tables[0]).toMatchObject({ table: 'ks.t', readsPerS: 10, writesPerS: 100, source: 'nodetool tablestats local read/write count' });
  });
});
