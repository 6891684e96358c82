/**
 * Old formats and fragments of nodetool / stress / io_properties output (issue #14): Cassandra 2.0 cfstats
 * (", bytes" labels, "Column Family:", a paste that starts inside a table), tablestats -H partition sizes,
 * DSE 6.8 tpstats ("Pools" header, Backpressure/Shared/Stolen), cassandra-stress 2.0 CSV + "Averages from the middle
 * 80%" summary, headerless interval rows and a Results block without its "Results:" line, scylla-bench rows without
 * their header, and an io_properties.yaml that holds only a mount point. Layouts follow the printers named in each
 * parser; the values are made up unless a case names its source.
 */
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseCompactionstats } from '../../mcp-server/src/core/parse/nodetool/compactionstats.js';
import { CUT_TABLE, parseTablestats } from '../../mcp-server/src/core/parse/nodetool/tablestats.js';
import { parseTpstats } from '../../mcp-server/src/core/parse/nodetool/tpstats.js';
import { parseCassandraStress } from '../../mcp-server/src/core/parse/stress/cassandra-stress.js';
import { parseScyllaBench } from '../../mcp-server/src/core/parse/stress/scylla-bench.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const kindOf = (text: string) => {
  const d = detect(text);
  return d.ok ? d.kind : null;
};

function ok<T>(r: { ok: true; value: T } | { ok: false; reason: string }): T {
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

describe('tablestats / cfstats', () => {
  // Cassandra 2.0 cfstats: unit in the label, a per-table "Pending tasks" line (which mentions "pending tasks")
  const c20 = [
    '                SSTable count: 1',
    '                Space used (live), bytes: 4949',
    '                Memtable data size, bytes: 0',
    '                Pending tasks: 0',
    '                Compacted partition maximum bytes: 446',
    '',
    '                Table: compactions_in_progress',
    '                SSTable count: 0',
  ].join('\n');

  it('Cassandra 2.0 output is tablestats, not compactionstats, and keeps the fields above the first "Table:"', () => {
    expect(kindOf(c20)).toBe('nodetool.tablestats');
    expect(parseCompactionstats(c20).ok).toBe(false);
    const v = ok(parseTablestats(c20));
    expect(v.tables.map((t) => t.name)).toEqual([CUT_TABLE, 'compactions_in_progress']);
    expect(v.tables[0]).toMatchObject({ sstableCount: 1, spaceUsedLiveBytes: 4949, memtableDataSizeBytes: 0, partitionMaxBytes: 446 });
    expect(v.notes.some((n) => n.includes('was cut'))).toBe(true);
  });

  it('two field lines without any header are a fragment of one unnamed table, said so; space-grouped digits are one number', () => {
    // the shape of scylladb/scylladb#1252 (a prompt, then two lines of cfstats with digits grouped by spaces)
    const text = '$ nodetool cfstats  keyspace1\n        Space used (live): 2 048 938 195\n        Space used (total): 31 997 017 045\n';
    expect(kindOf(text)).toBe('nodetool.tablestats');
    const r = parseTablestats(text.split('\n').slice(1).join('\n'));
    const v = ok(r);
    expect(v.tables).toHaveLength(1);
    expect(v.tables[0]).toMatchObject({ name: CUT_TABLE, keyspace: null, spaceUsedLiveBytes: 2048938195, spaceUsedTotalBytes: 31997017045 });
    expect(r.ok && r.warnings.some((w) => w.includes('without its "Keyspace:" and "Table:" lines'))).toBe(true);
    expect(v.notes).toContain('digits grouped by spaces ("2 048 938 195") were read as one number each');
    expect(v.notes.some((n) => n.includes('was cut'))).toBe(false);
  });

  it('one field line, or prose with more unknown labels than known ones, is not a tablestats fragment', () => {
    expect(parseTablestats('SSTable count: 3\n').ok).toBe(false);
    expect(parseTablestats('SSTable count: 3\nSpace used (live): 10\nOwner: me\nTicket: 12\nSeverity: high\n').ok).toBe(false);
    // a value whose groups are not threes, or that carries a unit, is never joined
    const v = ok(parseTablestats('SSTable count: 12 34\nSpace used (live): 1 024 KiB\n'));
    expect(v.tables[0]!.sstableCount).toBeNull();
    expect(v.notes.some((n) => n.startsWith('digits grouped'))).toBe(false);
  });

  it('"Column Family:" (2.0) opens a table like "Table:"', () => {
    const v = ok(parseTablestats('Keyspace: ks\n\tColumn Family: users\n\tSSTable count: 3\n'));
    expect(v.tables).toHaveLength(1);
    expect(v.tables[0]).toMatchObject({ keyspace: 'ks', name: 'users', sstableCount: 3 });
  });

  it('partition sizes printed with units (-H, ScyllaDB 2.x) are read as bytes and graded', () => {
    const text =
      '\t\tTable: detections\n\t\tCompacted partition minimum bytes: 0 bytes\n\t\tCompacted partition maximum bytes: 49.49 GB\n\t\tCompacted partition mean bytes: 82.7 MB\n';
    const v = ok(parseTablestats(text));
    expect(v.tables[0]!.partitionMaxBytes).toBe(Math.round(49.49 * 1024 ** 3));
    expect(v.tables[0]!.partitionMeanBytes).toBe(Math.round(82.7 * 1024 ** 2));
    expect(interpretText(text).findings.find((f) => f.id === 'table.partition-size')?.severity).toBe('critical');
  });
});

describe('tpstats: DSE 6.8 layout', () => {
  it('"Pools" header with Backpressure, Shared and Stolen columns', () => {
    // header as DSE 6.8.25 prints it (HariSekhon/Nagios-Plugins#392)
    const text = [
      'Pools                                           Active        Pending   Backpressure   Delayed      Shared      Stolen      Completed   Blocked  All time blocked',
      'AntiEntropyStage                                     0              0            N/A       N/A         N/A         N/A         307779         0                 0',
      'TPC/all/READ_LOCAL                                   0              3            N/A       N/A        4967        4967           7364       N/A                 0',
    ].join('\n');
    expect(kindOf(text)).toBe('nodetool.tpstats');
    const v = ok(parseTpstats(text));
    expect(v.format).toBe('dse');
    expect(v.pools[1]).toMatchObject({
      name: 'TPC/all/READ_LOCAL',
      active: 0,
      pending: 3,
      pendingBackpressure: null,
      shared: 4967,
      stolen: 4967,
      completed: 7364,
      blocked: null,
      allTimeBlocked: 0,
    });
  });
});

describe('cassandra-stress fragments and the 2.0 layout', () => {
  it('2.0 CSV table and its "Averages from the middle 80%" summary', () => {
    const text = [
      'total,interval_op_rate,interval_key_rate,latency,95th,99.9th,elapsed_time',
      '45868,4586,4586,5.1,17.1,103.1,10',
      '134606,8873,8873,3.8,13.5,101.9,20',
      '',
      'Averages from the middle 80% of values:',
      'interval_op_rate          : 10127',
      'latency median            : 3.2',
      'latency 95th percentile   : 10.3',
      'Total operation time      : 00:01:44',
      'END',
    ].join('\n');
    expect(kindOf(text)).toBe('stress.cassandra-stress');
    const v = ok(parseCassandraStress(text));
    expect(v.format).toBe('legacy');
    // the 2.0 "latency" column is the interval median
    expect(v.runs[0]!.intervals[1]).toMatchObject({ totalOps: 134606, opRate: 8873, medianMs: 3.8, meanMs: null, p95Ms: 13.5, p999Ms: 101.9, timeS: 20 });
    expect(v.results).toMatchObject({ opRate: 10127, latencyMedianMs: 3.2, latencyP95Ms: 10.3, operationTimeS: 104 });
  });

  it('2.1+ interval rows without their header line are read in the fixed column order', () => {
    const text = [
      'total,         22569,    1436,    1436,    1436,   177.7,   124.4,   556.8,   569.9,   571.5,   582.0,   20.0,  0.21325,      0,      0,       0,       0,       0,       0',
      'total,         23810,    1241,    1241,    1241,   164.8,   149.7,   383.0,   390.1,   469.2,   502.5,   21.0,  0.20068,      0,      0,       0,       0,       0,       0',
    ].join('\n');
    expect(kindOf(text)).toBe('stress.cassandra-stress');
    const v = ok(parseCassandraStress(text));
    expect(v.runs[0]!.intervals[1]).toMatchObject({
      type: 'total',
      totalOps: 23810,
      opRate: 1241,
      meanMs: 164.8,
      medianMs: 149.7,
      p99Ms: 390.1,
      maxMs: 502.5,
      timeS: 21,
    });
    expect(parseCassandraStress('total, 12, 3').ok).toBe(false);
  });

  it('a Results block without "Results:", split by exception lines, is one block', () => {
    const text = [
      'Latency 99.9th percentile : 2002.8 ms [insert: 2,002.8 ms]',
      'com.datastax.driver.core.exceptions.WriteTimeoutException: Cassandra timeout during SIMPLE write query at consistency ALL',
      'Latency max               : 9395.2 ms [insert: 9,395.2 ms]',
      'com.datastax.driver.core.exceptions.WriteTimeoutException: Cassandra timeout during SIMPLE write query at consistency ALL',
      'Total partitions          :  5,000,000 [insert: 5,000,000]',
    ].join('\n');
    expect(kindOf(text)).toBe('stress.cassandra-stress');
    const v = ok(parseCassandraStress(text));
    expect(v.runs).toHaveLength(1);
    expect(v.results).toMatchObject({ latencyP999Ms: 2002.8, latencyMaxMs: 9395.2, totalPartitions: 5000000 });
    expect(v.errorLines).toHaveLength(2);
  });
});

describe('cassandra-stress: the "Stress Settings" dump alone', () => {
  // the shape of openebs/openebs#275: `kubectl logs` of a load generator, cut before the first interval
  const text = [
    '******************** Stress Settings ********************',
    'Command:',
    '  Type: write',
    '  Count: -1',
    '  Duration: 5 MINUTES',
    '  Consistency Level: LOCAL_ONE',
    'Rate:',
    '  Auto: true',
    '  Min Threads: 4',
    '  Max Threads: 1000',
    '',
  ].join('\n');

  it('is cassandra-stress with its settings, no run, and a warning that the outcome is not in the paste', () => {
    expect(kindOf(text)).toBe('stress.cassandra-stress');
    const r = parseCassandraStress(text);
    const v = ok(r);
    expect(v.runs).toEqual([]);
    expect(v.settings).toMatchObject({ 'Command.Type': 'write', 'Rate.Max Threads': '1000' });
    expect(r.ok && r.warnings[0]).toContain('only the "Stress Settings" block (7 settings) was pasted');
  });

  it('a settings block without a command type (or with two settings) is still refused', () => {
    expect(
      parseCassandraStress('******************** Stress Settings ********************\nRate:\n  Auto: true\n  Min Threads: 4\n  Max Threads: 8\n').ok,
    ).toBe(false);
    expect(parseCassandraStress('******************** Stress Settings ********************\nCommand:\n  Type: write\n').ok).toBe(false);
  });
});

describe('scylla-bench rows without the header', () => {
  it('reads the rows, including one that a retry log line was appended to', () => {
    // scylla-bench#120 (retries logged on the same line as a row)
    const text = [
      '   1s    4517       0      0 22ms   15ms   3.5ms  3.1ms  2.9ms  2.1ms  2.2ms  ',
      '   2s    4465       0      0 15ms   15ms   3.5ms  3.1ms  2.8ms  2.2ms  2.2ms  2023/03/01 19:59:48 [query statement="SELECT pk FROM t" values=[80 1216] consistency=QUORUM] || retry: attempt №0, sleep for 48.372823ms',
    ].join('\n');
    expect(kindOf(text)).toBe('stress.scylla-bench');
    const v = ok(parseScyllaBench(text));
    expect(v.intervals.map((i) => i.opRate)).toEqual([4517, 4465]);
    expect(v.intervals[1]).toMatchObject({ timeS: 2, maxMs: 15, p99Ms: 3.5, p95Ms: 3.1, meanMs: 2.2 });
  });
});

describe('io_properties.yaml with only a mount point', () => {
  it('is detected and reported incomplete', () => {
    // what scylla_io_setup wrote for a supported but not preconfigured instance type (scylladb/scylladb#9660)
    const text = 'disks:\n  - mountpoint: /var/lib/scylla\n';
    expect(kindOf(text)).toBe('storage.io-properties');
    expect(interpretText(text).findings.map((f) => f.id)).toContain('storage.io-properties-incomplete');
  });
});
