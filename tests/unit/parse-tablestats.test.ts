import { describe, expect, it } from 'vitest';
import { parseTablestats } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const SNAPSHOTS = 'nodetool/cfstats_snapshots_21x_live_dse.txt';
const REPAIR_HISTORY = 'nodetool/cfstats_repair_history_668mb_partition_dse.txt';
const C41 = 'local-runs/cassandra-4.1.10-single/nodetool_n41_tablestats.txt';
const C50 = 'local-runs/cassandra-5.0.9-single/nodetool_n1_tablestats.txt';
const C50_ONE = 'local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node1_tablestats_standard1.txt';

// Our own 5.0-style text following TableStatsPrinter.java (cassandra-5.0): LCS levels over their maximum,
// -H sizes, and the "Top partitions" blocks printed under a table.
const LCS_H = [
  'Total number of tables: 3',
  '----------------',
  'Keyspace: shop',
  '\tRead Count: 120000',
  '\tRead Latency: 0.85 ms',
  '\tWrite Count: 450000',
  '\tWrite Latency: 0.04 ms',
  '\tPending Flushes: 2',
  '\t\tTable: orders',
  '\t\tSSTable count: 930',
  '\t\tOld SSTable count: 0',
  '\t\tMax SSTable size: 160.000MiB',
  '\t\tSSTables in each level: [910/4, 10, 0, 0, 0, 0, 0, 0, 0]',
  '\t\tSSTable bytes in each level: [1.2 GiB, 1.5 GiB, 0 bytes, 0 bytes, 0 bytes, 0 bytes, 0 bytes, 0 bytes, 0 bytes]',
  '\t\tSpace used (live): 2.7 GiB',
  '\t\tSpace used (total): 2.7 GiB',
  '\t\tSpace used by snapshots (total): 0 bytes',
  '\t\tOff heap memory used (total): 12.5 MiB',
  '\t\tSSTable Compression Ratio: 0.41000',
  '\t\tNumber of partitions (estimate): 2000000',
  '\t\tMemtable cell count: 1200',
  '\t\tMemtable data size: 5.7 MiB',
  '\t\tMemtable off heap memory used: 0 bytes',
  '\t\tMemtable switch count: 77',
  '\t\tSpeculative retries: 12',
  '\t\tLocal read count: 120000',
  '\t\tLocal read latency: 0.850 ms',
  '\t\tLocal write count: 450000',
  '\t\tLocal write latency: 0.040 ms',
  '\t\tLocal read/write ratio: 0.26667',
  '\t\tPending flushes: 2',
  '\t\tPercent repaired: 0.0',
  '\t\tBytes repaired: 0B',
  '\t\tBytes unrepaired: 2.700GiB',
  '\t\tBytes pending repair: 0B',
  '\t\tBloom filter false positives: 1500',
  '\t\tBloom filter false ratio: 0.12000',
  '\t\tBloom filter space used: 2.4 MiB',
  '\t\tBloom filter off heap memory used: 2.4 MiB',
  '\t\tIndex summary off heap memory used: 600 KiB',
  '\t\tCompression metadata off heap memory used: 9.5 MiB',
  '\t\tCompacted partition minimum bytes: 61',
  '\t\tCompacted partition maximum bytes: 1155149911',
  '\t\tCompacted partition mean bytes: 1400',
  '\t\tAverage live cells per slice (last five minutes): 3.5',
  '\t\tMaximum live cells per slice (last five minutes): 50',
  '\t\tAverage tombstones per slice (last five minutes): 812.0',
  '\t\tMaximum tombstones per slice (last five minutes): 100001',
  '\t\tDroppable tombstone ratio: 0.35000',
  '\t\tTop partitions by size (last update: 2026-01-01T00:00:00Z):',
  '\t\t  Key         Size',
  '\t\t  cust:42     1.1 GiB',
  '\t\t  cust:7      512 MiB',
  '\t\tTop partitions by tombstone count (last update: 2026-01-01T00:00:00Z):',
  '\t\t  Key         Count',
  '\t\t  cust:42     250000',
  '',
  '\t\tTable (index): orders.orders_by_day',
  '\t\tSSTable count: 3',
  '\t\tSpace used (live): 1.0 MiB',
  '\t\tMaximum tombstones per slice (last five minutes): 0',
  '',
  '----------------',
].join('\n');

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseTablestats(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool tablestats / cfstats', () => {
  it.skipIf(!HAVE_CORPUS)('DSE cfstats: snapshots take ~21x the live data of monitoring_payload', () => {
    const r = parseTablestats(corpus(SNAPSHOTS));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.totalTables).toBe(79);
    expect(r.value.keyspaces.map((k) => k.name)).toEqual(['abcd']);
    expect(r.value.keyspaces[0]).toMatchObject({ readCount: 1669051, writeCount: 4388602, pendingFlushes: 0 });
    const t = r.value.tables.find((x) => x.name === 'monitoring_payload')!;
    expect(t).toMatchObject({
      keyspace: 'abcd',
      sstableCount: 21,
      spaceUsedLiveBytes: 66007525295,
      spaceUsedBySnapshotsBytes: 1416676623078,
      percentRepaired: 58.25,
      localReadCount: 0,
      localReadLatencyMs: null,
      localWriteLatencyMs: 0.029,
      partitionsEstimate: 31673262,
      partitionMaxBytes: 4055269,
      avgTombstonesPerSlice: null,
      droppedMutations: 0,
    });
    expect(t.compressionRatio).toBeCloseTo(0.1131, 3);
    expect(t.spaceUsedBySnapshotsBytes! / t.spaceUsedLiveBytes!).toBeGreaterThan(21);
    // An excerpt: the keyspace is never closed by the dashed line.
    expect(r.warnings.join(' ')).toMatch(/not closed/);
  });

  it.skipIf(!HAVE_CORPUS)('DSE cfstats: repair_history has 155 partitions but a 668 MB maximum', () => {
    const r = parseTablestats(corpus(REPAIR_HISTORY));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const ks = r.value.keyspaces[0]!;
    expect(ks.name).toBe('system_distributed');
    expect(ks.readLatencyMs).toBeNull(); // "NaN ms."
    expect(ks.writeLatencyMs).toBeCloseTo(0.0808, 4);
    const rh = ks.tables.find((x) => x.name === 'repair_history')!;
    expect(rh).toMatchObject({ partitionsEstimate: 155, partitionMaxBytes: 668489532, partitionMeanBytes: 10819116, spaceUsedBySnapshotsBytes: 81992745729 });
    expect(ks.tables.find((x) => x.name === 'parent_repair_history')!.spaceUsedBySnapshotsBytes).toBe(825432176222);
  });

  it.skipIf(!HAVE_CORPUS)('reads every table of the 4.1 and 5.0 captures', () => {
    const r41 = parseTablestats(corpus(C41));
    expect(r41.ok).toBe(true);
    if (!r41.ok) return;
    expect(r41.value.totalTables).toBe(44);
    expect(r41.value.tables).toHaveLength(44);
    expect(r41.value.tables[0]).toMatchObject({
      keyspace: 'system_auth',
      name: 'network_permissions',
      compressionRatio: null,
      bytesRepaired: 0,
      droppableTombstoneRatio: 0,
    });
    const paxos41 = r41.value.tables.find((t) => t.keyspace === 'system' && t.name === 'paxos')!;
    expect(paxos41.sstablesInEachLevel).toEqual(Array.from({ length: 9 }, () => ({ count: 0, max: null })));
    expect(r41.warnings).toEqual([]);

    const r50 = parseTablestats(corpus(C50));
    expect(r50.ok).toBe(true);
    if (!r50.ok) return;
    expect(r50.value.totalTables).toBe(50);
    expect(r50.value.tables).toHaveLength(50);
    expect(r50.value.keyspaces.map((k) => k.name)).toContain('keyspace1');
    expect(r50.value.tables.find((t) => t.name === 'repair_history')!.timeWindow).toBe('1 DAYS, max duration: 0 seconds');
    const local = r50.value.tables.find((t) => t.keyspace === 'system' && t.name === 'local')!;
    expect(local.maxSstableSizeBytes).toBe(Math.round(6.72 * 1024));
    expect(r50.value.looksLikeScylla).toBe(false);
    expect(r50.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('reads the 5.0 single-table capture (stress keyspace still in memtables)', () => {
    const r = parseTablestats(corpus(C50_ONE));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.keyspaces[0]).toMatchObject({ name: 'keyspace1', readCount: 18258, writeCount: 35000 });
    expect(r.value.tables[0]).toMatchObject({
      name: 'standard1',
      sstableCount: 0,
      maxSstableSizeBytes: 0,
      compressionRatio: null,
      partitionsEstimate: 19999,
      memtableCellCount: 35000,
      memtableDataSizeBytes: 5980000,
      speculativeRetries: 5,
      localReadLatencyMs: 0.31,
      localReadWriteRatio: 0.52166,
      avgTombstonesPerSlice: 1,
      droppedMutations: null,
    });
  });

  it('LCS levels over their limit, -H sizes and top partitions (synthetic 5.0 layout)', () => {
    const r = parseTablestats(LCS_H);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.tables[0]!;
    expect(t.sstablesInEachLevel!.slice(0, 3)).toEqual([
      { count: 910, max: 4 },
      { count: 10, max: null },
      { count: 0, max: null },
    ]);
    expect(t.sstableBytesInEachLevel![0]).toBe(Math.round(1.2 * GiB));
    expect(t.spaceUsedLiveBytes).toBe(Math.round(2.7 * GiB));
    expect(t.maxSstableSizeBytes).toBe(160 * MiB);
    expect(t.memtableDataSizeBytes).toBe(Math.round(5.7 * MiB));
    expect(t.indexSummaryOffHeapBytes).toBe(600 * 1024);
    expect(t.bytesUnrepaired).toBe(Math.round(2.7 * GiB));
    expect(t.bloomFilterFalseRatio).toBe(0.12);
    expect(t.maxTombstonesPerSlice).toBe(100001);
    expect(t.droppableTombstoneRatio).toBe(0.35);
    expect(t.pendingFlushes).toBe(2);
    expect(t.topPartitionsBySize).toEqual([
      { key: 'cust:42', value: Math.round(1.1 * GiB) },
      { key: 'cust:7', value: 512 * MiB },
    ]);
    expect(t.topPartitionsByTombstones).toEqual([{ key: 'cust:42', value: 250000 }]);
    const idx = r.value.tables[1]!;
    expect(idx).toMatchObject({ name: 'orders.orders_by_day', isIndex: true, keyspace: 'shop', spaceUsedLiveBytes: MiB });
    expect(r.value.keyspaces[0]!.pendingFlushes).toBe(2);
    expect(r.warnings).toEqual([]);
  });

  it('3.x index tables: the printer doubled the name ("Table (index): t.idxt.idx")', () => {
    const text = [
      'Total number of tables: 2',
      '----------------',
      'Keyspace : ks',
      '\t\tTable (index): users.by_mailusers.by_mail',
      '\t\tSSTable count: 1',
      '\t\tconstructor: 5',
      '\t\tMaximum tombstones per slice (last five minutes): 0',
      '',
      '----------------',
    ].join('\n');
    const r = parseTablestats(text);
    expect(r.ok && r.value.tables[0]).toMatchObject({ name: 'users.by_mail', isIndex: true, sstableCount: 1 });
    expect(r.ok && r.value.tables[0]!.fields['constructor']).toBe('5');
  });

  it('sorted/top printer: tables named ks.table without keyspace blocks', () => {
    const text = [
      'Total number of tables: 44 (showing top 2 by space_used_live)',
      '----------------',
      '\tTable: shop.orders',
      '\tSSTable count: 12',
      '\tSpace used (live): 9000',
      '\tMaximum tombstones per slice (last five minutes): 0',
      '',
      '\tTable: system.local',
      '\tSSTable count: 1',
      '\tSpace used (live): 100',
      '\tMaximum tombstones per slice (last five minutes): 0',
      '',
      '----------------',
    ].join('\n');
    const r = parseTablestats(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.totalTables).toBe(44);
    expect(r.value.keyspaces).toEqual([]);
    expect(r.value.tables.map((t) => [t.keyspace, t.name, t.spaceUsedLiveBytes])).toEqual([
      ['shop', 'orders', 9000],
      ['system', 'local', 100],
    ]);
  });

  it('ScyllaDB layout (synthetic, scylla-nodetool.cc table_stats_print_plain): E-notation latencies flag the product', () => {
    const text = [
      'Total number of tables: 1',
      '----------------',
      'Keyspace : ks',
      '\tRead Count: 10',
      '\tRead Latency: 1.234000000000000E-01 ms',
      '\tWrite Count: 0',
      '\tWrite Latency: NAN ms',
      '\tPending Flushes: 0',
      '\t\tTable: t',
      '\t\tSSTable count: 2',
      '\t\tSSTables in each level: [2, 0]',
      '\t\tSpace used (live): 1048576',
      '\t\tPercent repaired: 0.0',
      '\t\tMaximum tombstones per slice (last five minutes): 4',
      '\t\tDropped Mutations: 0',
      '',
      '----------------',
    ].join('\n');
    const r = parseTablestats(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.looksLikeScylla).toBe(true);
    expect(r.value.keyspaces[0]).toMatchObject({ readLatencyMs: 0.1234, writeLatencyMs: null });
    expect(r.value.notes.join(' ')).toMatch(/placeholders/);
  });

  it('accepts a prompt, CRLF, log prefixes; refuses unrelated or empty text', () => {
    const pasted = ['$ nodetool tablestats shop', ...LCS_H.split('\n')].map((l) => `May 01 10:00:00 db1 nodetool[4242]: ${l}`).join('\r\n');
    const r = parseTablestats(pasted);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.tables[0]!.sstablesInEachLevel![0]).toEqual({ count: 910, max: 4 });
    // An ISO timestamp prefix swallows the indentation too; the top-partition rows must survive that.
    const iso = parseTablestats(
      LCS_H.split('\n')
        .map((l) => `2026-01-02T03:04:05.678Z ${l}`)
        .join('\n'),
    );
    expect(iso.ok && iso.value.tables[0]!.topPartitionsBySize.map((p) => p.key)).toEqual(['cust:42', 'cust:7']);
    expect(iso.ok && iso.value.tables[0]!.droppableTombstoneRatio).toBe(0.35);
    for (const bad of ['', 'pending tasks: 0', 'hello world']) expect(parseTablestats(bad).ok).toBe(false);
    const err = parseTablestats('error: Unknown keyspace/cf pair (shop.nope)\n-- StackTrace --\njava.lang.IllegalArgumentException: x');
    expect(err.ok === false && err.reason).toMatch(/Unknown keyspace/);
  });

  it('warns when a table is cut short', () => {
    const cut = LCS_H.split('\n').slice(0, 30).join('\n');
    const r = parseTablestats(cut);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.tables[0]!.localReadCount).toBe(120000);
      expect(r.warnings.join(' ')).toMatch(/truncated/);
    }
  });

  it('is total on every truncation of the synthetic sample', () => {
    expectTotalOnEveryTruncation(LCS_H);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real tablestats/cfstats sample', () => {
    const files = [...corpusFiles('nodetool', /^cfstats/), ...corpusFiles('local-runs', /_tablestats.*\.txt$/)];
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const f of files) {
      expect(parseTablestats(corpus(f)).ok, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });
});
