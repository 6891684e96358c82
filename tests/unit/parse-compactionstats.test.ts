import { describe, expect, it } from 'vitest';
import { parseCompactionstats } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const DOCS = 'nodetool/compactionstats_pending2_cassandra_docs.txt';
const C41 = 'local-runs/cassandra-4.1.10-single/nodetool_n41_compactionstats.txt';
const C50 = 'local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node2_compactionstats.txt';

/** Left-aligned columns, each padded to its widest cell, one space apart: how TableBuilder prints. */
function tableBuilder(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join(' '));
}

const UUID1 = '0f1f6f70-7f3a-11e8-9358-cd941b956e60';
const UUID2 = '1a2b3c40-7f3a-11e8-9358-cd941b956e60';
const UUID3 = '2b3c4d50-7f3a-11e8-9358-cd941b956e60';

// 4.0 layout with -H (CompactionStats.java, cassandra-4.0): sizes with units inside the table, a task type
// with spaces and no keyspace/table.
const C40_H = [
  'pending tasks: 14',
  '- ks1.events: 12',
  '- system.local: 2',
  '',
  ...tableBuilder([
    ['id', 'compaction type', 'keyspace', 'table', 'completed', 'total', 'unit', 'progress'],
    [UUID1, 'Compaction', 'ks1', 'events', '20.84 MiB', '93.33 MiB', 'bytes', '22.33%'],
    [UUID2, 'Validation', 'ks1', 'events', '1.5 GiB', '3 GiB', 'bytes', '50.00%'],
    [UUID3, 'Index summary redistribution', '', '', '0', '0', 'bytes', 'n/a'],
  ]),
  'Active compaction remaining time :   0h01m12s',
].join('\n');

// 2.x/3.0 right-aligned layout without the id column (as in the DataStax 3.0 documentation example layout).
const C30 = [
  'pending tasks: 5',
  '          compaction type        keyspace           table       completed           total      unit  progress',
  '               Compaction       Keyspace1       Standard1       282310680       302170540     bytes    93.43%',
  '               Compaction       Keyspace1       Standard1        58457931       307520780     bytes    19.01%',
  'Active compaction remaining time :   0h00m16s',
].join('\n');

// ScyllaDB (Java nodetool era): id "<none>", upper-case types, unit "keys" — layout of scylladb/scylladb#4228.
const SCYLLA = [
  'pending tasks: 31337',
  '- app.events: 31337',
  '',
  'id     compaction type keyspace table  completed total   unit progress',
  '<none> COMPACTION      app      events 1000      4000    keys 25.00%',
  'Active compaction remaining time :   0h00m00s',
].join('\n');

// 5.0 layout (CompactionStats.java, cassandra-5.0): one TableBuilder for the summary, per-table pending rows,
// the running compactions and the remaining time.
const C50_RUNNING = tableBuilder([
  ['concurrent compactors', '4'],
  ['pending tasks', '7'],
  ['ks1', 'events', '5'],
  ['ks1', 'users', '2'],
  ['compactions completed', '1234'],
  ['data compacted', '1.5 GiB'],
  ['compactions aborted', '1'],
  ['compactions reduced', '0'],
  ['sstables dropped from compaction', '0'],
  ['15 minute rate', '3.25/minute'],
  ['mean rate', '150.00/hour'],
  ['compaction throughput (MiB/s)', 'throttling disabled (0)'],
  ['id', 'compaction type', 'keyspace', 'table', 'completed', 'total', 'unit', 'progress'],
  [UUID1, 'Compaction', 'ks1', 'events', '1048576', '4194304', 'bytes', '25.00%'],
  ['active compaction remaining time', 'n/a'],
]).join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseCompactionstats(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool compactionstats', () => {
  it.skipIf(!HAVE_CORPUS)('docs sample: 2 pending on keyspace.table, one compaction at 22% with ~4 s left', () => {
    const r = parseCompactionstats(corpus(DOCS));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ layout: 'classic', product: 'cassandra', pendingTasks: 2, pendingTasksReliable: true, remainingTimeSeconds: 4 });
    expect(r.value.pendingByTable).toEqual([{ keyspace: 'keyspace', table: 'table', pending: 2 }]);
    expect(r.value.compactions).toEqual([
      {
        id: '2062b290-7f3a-11e8-9358-cd941b956e60',
        type: 'Compaction',
        keyspace: 'keyspace',
        table: 'table',
        completed: 21848273,
        total: 97867583,
        unit: 'bytes',
        progressPercent: 22.32,
      },
    ]);
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.1 idle node and the 5.0 summary layout', () => {
    const r41 = parseCompactionstats(corpus(C41));
    expect(r41.ok && r41.value).toMatchObject({ layout: 'classic', pendingTasks: 0, compactions: [], remainingTimeSeconds: null });
    const r50 = parseCompactionstats(corpus(C50));
    expect(r50.ok).toBe(true);
    if (!r50.ok) return;
    expect(r50.value).toMatchObject({ layout: '5.0', product: 'cassandra', pendingTasks: 0, compactions: [] });
    expect(r50.value.summary).toEqual({
      concurrentCompactors: 2,
      compactionsCompleted: 2,
      dataCompactedBytes: 1795,
      compressedDataCompactedBytes: 1536,
      compactionsAborted: 0,
      compactionsReduced: 0,
      sstablesDroppedFromCompaction: 0,
      fifteenMinuteRatePerMinute: 0.11,
      meanRatePerHour: 40.49,
      throughputMiBPerSec: 64,
      throttlingDisabled: false,
    });
    expect(r50.warnings).toEqual([]);
  });

  it('4.0 -H layout: sizes with units, task types with spaces, empty keyspace', () => {
    const r = parseCompactionstats(C40_H);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.pendingTasks).toBe(14);
    expect(r.value.pendingByTable).toEqual([
      { keyspace: 'ks1', table: 'events', pending: 12 },
      { keyspace: 'system', table: 'local', pending: 2 },
    ]);
    expect(r.value.compactions[0]).toMatchObject({
      id: UUID1,
      completed: Math.round(20.84 * 1024 ** 2),
      total: Math.round(93.33 * 1024 ** 2),
      progressPercent: 22.33,
    });
    expect(r.value.compactions[1]).toMatchObject({ type: 'Validation', total: 3 * 1024 ** 3 });
    expect(r.value.compactions[2]).toMatchObject({ type: 'Index summary redistribution', keyspace: '', table: '', progressPercent: null });
    expect(r.value.remainingTimeSeconds).toBe(72);
  });

  it('2.x/3.0 right-aligned layout without ids', () => {
    const r = parseCompactionstats(C30);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.compactions).toHaveLength(2);
    expect(r.value.compactions[0]).toEqual({
      id: null,
      type: 'Compaction',
      keyspace: 'Keyspace1',
      table: 'Standard1',
      completed: 282310680,
      total: 302170540,
      unit: 'bytes',
      progressPercent: 93.43,
    });
    expect(r.value.remainingTimeSeconds).toBe(16);
  });

  it('ScyllaDB-looking output: pending estimate flagged unreliable', () => {
    const r = parseCompactionstats(SCYLLA);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ product: 'scylla', pendingTasks: 31337, pendingTasksReliable: false });
    expect(r.value.compactions[0]).toMatchObject({ id: null, type: 'COMPACTION', unit: 'keys', completed: 1000, total: 4000 });
    expect(r.value.notes.join(' ')).toMatch(/unreliable/);
  });

  it('5.0 layout with per-table pending, a running compaction and throttling disabled', () => {
    const r = parseCompactionstats(C50_RUNNING);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.layout).toBe('5.0');
    expect(r.value.pendingTasks).toBe(7);
    expect(r.value.pendingByTable).toEqual([
      { keyspace: 'ks1', table: 'events', pending: 5 },
      { keyspace: 'ks1', table: 'users', pending: 2 },
    ]);
    expect(r.value.summary).toMatchObject({
      concurrentCompactors: 4,
      dataCompactedBytes: Math.round(1.5 * 1024 ** 3),
      throttlingDisabled: true,
      throughputMiBPerSec: null,
      fifteenMinuteRatePerMinute: 3.25,
    });
    expect(r.value.compactions).toEqual([
      { id: UUID1, type: 'Compaction', keyspace: 'ks1', table: 'events', completed: 1048576, total: 4194304, unit: 'bytes', progressPercent: 25 },
    ]);
    expect(r.value.remainingTimeSeconds).toBeNull();
    expect(r.value.notes.join(' ')).toMatch(/unthrottled/);
    expect(r.warnings).toEqual([]);
  });

  it('prompt, CRLF, indentation; ok:false on unrelated, empty and error text', () => {
    const pasted = ['$ ccm node1 nodetool compactionstats -H', ...C40_H.split('\n').map((l) => `    ${l}`)].join('\r\n');
    const r = parseCompactionstats(pasted);
    expect(r.ok && r.value.compactions.length).toBe(3);
    const logged = parseCompactionstats(
      C50_RUNNING.split('\n')
        .map((l) => `May 01 10:00:00 db1 nodetool[77]: ${l}`)
        .join('\n'),
    );
    expect(logged.ok && logged.value.compactions[0]!.total).toBe(4194304);
    for (const bad of ['', 'Total number of tables: 4', 'some words\nmore words']) {
      const b = parseCompactionstats(bad);
      expect(b.ok).toBe(false);
      if (!b.ok) expect(b.reason).toMatch(/empty|pending tasks/);
    }
  });

  it('warns on a cut tail, refuses a cut header', () => {
    const tail = parseCompactionstats(C40_H.split('\n').slice(0, 6).join('\n'));
    expect(tail.ok).toBe(true);
    if (tail.ok) {
      expect(tail.value.compactions).toHaveLength(1);
      expect(tail.warnings.join(' ')).toMatch(/truncated/);
    }
    expect(parseCompactionstats(C40_H.split('\n').slice(1).join('\n')).ok).toBe(false);
  });

  it('is total on every truncation of the synthetic samples', () => {
    for (const t of [C40_H, C30, SCYLLA, C50_RUNNING]) expectTotalOnEveryTruncation(t);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real compactionstats sample', () => {
    const files = [...corpusFiles('nodetool', /compactionstats/), ...corpusFiles('local-runs', /_compactionstats\.txt$/)];
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      expect(parseCompactionstats(corpus(f)).ok, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });
});
