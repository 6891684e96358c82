/**
 * Synthetic lines, one block per event kind, written here after the formats of the code that prints them (the
 * source file is named above each block). Numbers, hosts and keys are made up.
 */
import { describe, expect, it } from 'vitest';
import { classify, parseLogs, readHeader, newHeader, newHeaderState, sizeToBytes, type LogFacts } from '../../mcp-server/src/core/parse/logs/index.js';

/** Cassandra logback layout (conf/logback.xml): "%-5level [%thread] %date{ISO8601} %F:%L - %msg". */
const c = (level: string, thread: string, date: string, file: string, msg: string) => `${level.padEnd(5)} [${thread}] ${date} ${file} - ${msg}`;

function read(text: string): LogFacts {
  const r = parseLogs(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

describe('line prefixes', () => {
  const h = newHeader();
  const st = newHeaderState();
  it('Cassandra, DSE (two spaces before the file), Scylla, journald, unified and JDK 8 gc.log, kubectl and grep prefixes', () => {
    expect(readHeader('INFO  [main] 2024-05-01 10:00:00,123 StorageService.java:123 - hello', h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'cassandra', level: 3, dateAt: 13 });
    expect(readHeader('INFO  [ScheduledTasks:1] 2020-01-09 16:40:01,048  StatusLogger.java:173 - ', h, st)).toBe(true);
    expect(h.fileStart).toBeGreaterThan(0);
    expect(readHeader('WARN  2022-09-22 17:33:11,075 [shard 1:comp] large_data - x', h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'scylla', shard: 1, level: 4, t: Date.UTC(2022, 8, 22, 17, 33, 11, 75) });
    expect('WARN  2022-09-22 17:33:11,075 [shard 1:comp] large_data - x'.slice(h.msgStart)).toBe('x');
    expect(readHeader('May  1 10:00:00 db-1 scylla[1234]:  [shard 3] seastar - msg', h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'journald', node: 'db-1', program: 'scylla', shard: 3, basis: 'no-year' });
    expect(readHeader('[2024-05-01T10:00:00.123+0200][0.565s][13111][13118][info] GC(0) Pause Young', h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'gcUnified', level: 3, t: Date.UTC(2024, 4, 1, 8, 0, 0, 123), hasZone: true });
    expect(readHeader('[12.345s][info][gc] GC(3) Pause Full', h, st)).toBe(true);
    expect(h).toMatchObject({ basis: 'uptime', t: 12345 });
    expect(readHeader('[565ms][info][safepoint] x', h, st)).toBe(true);
    expect(h.t).toBe(565);
    expect(readHeader('2018-07-27T04:52:27.413+0000: 187831.482: Total time', h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'gcJdk8', t: Date.UTC(2018, 6, 27, 4, 52, 27, 413) });
    expect(readHeader('187831.482: [GC (Allocation Failure)', h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'gcJdk8', basis: 'uptime', t: 187831482 });
    const kube = '2024-05-01T10:00:00.123456789Z WARN  [GossipTasks:1] 2024-05-01 10:00:00,100 FailureDetector.java:1 - x';
    expect(readHeader(kube, h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'cassandra', level: 4, t: Date.UTC(2024, 4, 1, 10, 0, 0, 123), hasZone: true });
    expect(kube.slice(h.msgStart)).toBe('x');
    // journalctl -o short-iso, and Cassandra running under systemd (its own line inside the journal line)
    expect(readHeader('2024-05-01T10:00:00+0000 db-9 scylla[77]:  [shard 2] seastar - x', h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'journald', node: 'db-9', program: 'scylla', shard: 2, basis: 'absolute' });
    const sd = 'May 01 10:00:00 cass-1 cassandra[900]: WARN  [GossipTasks:1] 2024-05-01 10:00:00,250 FailureDetector.java:1 - y';
    expect(readHeader(sd, h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'journald', program: 'cassandra', level: 4, basis: 'absolute', t: Date.UTC(2024, 4, 1, 10, 0, 0, 250) });
    expect(sd.slice(h.msgStart)).toBe('y');
    expect(readHeader('WARN  22:20:27 Not marking nodes down due to local pause of 11051514701 > 5000000000', h, st)).toBe(true);
    expect(h).toMatchObject({ format: 'cassandra', basis: 'none' });
    for (const bad of ['', 'hello world', '[not a decorator', '2024-13-01 10:00:00 x', 'INFO  [main', 'Mayday 01 10:00:00 x', '12:00 noon'])
      expect(readHeader(bad, h, st), bad).toBe(false);
  });
});

describe('GC pauses', () => {
  // GCInspector.java handleNotification: "<MXBean name> GC in <ms>ms.  <pool>: <before> -> <after>; …", INFO above
  // 200 ms, WARN above gc_warn_threshold. 1.2/2.0: "GC for <collector>: <ms> ms for <n> collections, …".
  const sys = [
    c(
      'WARN',
      'GCInspector:1',
      '2024-05-01 10:00:01,000',
      'GCInspector.java:292',
      'ConcurrentMarkSweep GC in 5231ms.  CMS Old Gen: 8012345678 -> 7912345678; Par Eden Space: 1073741824 -> 0; Par Survivor Space: 107374182 -> 0',
    ),
    c(
      'INFO',
      'Service Thread',
      '2024-05-01 10:00:02,000',
      'GCInspector.java:284',
      'ParNew GC in 212ms.  CMS Old Gen: 7912345678 -> 7950000000; Par Eden Space: 1073741824 -> 0',
    ),
    c('INFO', 'GCInspector:1', '2024-05-01 10:00:03,000', 'GCInspector.java:294', 'ZGC Cycles GC in 850ms.  ZHeap: 6442450944 -> 2147483648'),
    c('INFO', 'GCInspector:1', '2024-05-01 10:00:04,000', 'GCInspector.java:294', 'Shenandoah Pauses GC in 250ms.'),
    c(
      'INFO',
      'ScheduledTasks:1',
      '2014-03-01 10:00:05,000',
      'GCInspector.java:119',
      'GC for ParNew: 245 ms for 1 collections, 1234567 used; max is 8589934592',
    ),
  ].join('\n');

  it('GCInspector: collectors, pause stats, concurrent cycles kept apart, pool occupancy after GC', () => {
    const v = read(sys);
    expect(v.gc.pauses).toBe(4);
    expect(v.gc.byCollector.map((b) => [b.collector, b.count, b.maxMs])).toEqual([
      ['ConcurrentMarkSweep', 1, 5231],
      ['ParNew', 2, 245],
      ['Shenandoah Pauses', 1, 250],
    ]);
    expect(v.gc.concurrentCycles).toEqual([{ collector: 'ZGC Cycles', count: 1, totalMs: 850, maxMs: 850 }]);
    expect(v.gc.poolAfterBytes.find((p) => p.pool === 'CMS Old Gen')).toEqual({ pool: 'CMS Old Gen', min: 7912345678, max: 7950000000, samples: 2 });
    expect(v.events.gcPause.worst[0]).toMatchObject({ magnitude: 5231, detail: { collector: 'ConcurrentMarkSweep' } });
    expect(v.levels).toMatchObject({ warn: 1, info: 4 });
  });

  // JDK 9+ unified logging (-Xlog:gc*,safepoint): "GC(n) Pause <phase> (<type>) (<cause>) <before>-><after>(<cap>) <ms>ms";
  // ZGC "Pause Mark Start/End, Relocate Start", Shenandoah "Pause Init/Final Mark", JDK 21 generational "Y: Pause …".
  const unified = [
    '[2024-05-01T10:00:00.001+0000][info][gc] Using G1',
    '[2024-05-01T10:00:00.123+0000][info][gc,start] GC(12) Pause Young (Normal) (G1 Evacuation Pause)',
    '[2024-05-01T10:00:00.169+0000][info][gc] GC(12) Pause Young (Normal) (G1 Evacuation Pause) 2048M->512M(8192M) 45.678ms',
    '[2024-05-01T10:00:05.000+0000][info][gc] GC(13) Pause Young (Mixed) (G1 Evacuation Pause) 3000M->1200M(8192M) 120.5ms',
    '[2024-05-01T10:00:06.000+0000][info][gc] GC(14) Pause Remark 1300M->1250M(8192M) 12.0ms',
    '[2024-05-01T10:00:07.000+0000][info][gc] GC(15) Pause Full (G1 Compaction Pause) 8000M->6000M(8192M) 4321.000ms',
    '[2024-05-01T10:00:08.000+0000][info][gc] GC(15) Concurrent Mark Cycle 812.345ms',
    '[2024-05-01T10:00:09.000+0000][info][gc,phases] GC(16) Pause Mark Start 0.012ms',
    '[2024-05-01T10:00:09.500+0000][info][gc,phases] GC(17) Y: Pause Mark Start (Major) 0.020ms',
    '[2024-05-01T10:00:10.000+0000][info][gc] GC(18) Pause Init Mark (unload classes) 0.234ms',
    '[2024-05-01T10:00:10.100+0000][info][gc] GC(18) Pause Final Mark (unload classes) 1.200ms',
    '[2024-05-01T10:00:10.200+0000][debug][gc,heap] GC(18) Pause Young debug line 99.0ms',
  ].join('\n');

  it('JDK 9+ gc.log: pause phases with their ms, no event for start markers, concurrent phases or debug lines', () => {
    const v = read(unified);
    expect(v.source).toMatchObject({ kind: 'gc.log', gcLogFormat: 'unified', product: 'jvm' });
    expect(v.gc.gcLogCollector).toBe('G1');
    expect(v.gc.pauses).toBe(8);
    const by = Object.fromEntries(v.gc.byCollector.map((b) => [b.collector, b.maxMs]));
    expect(by).toEqual({
      'Pause Full': 4321,
      'Pause Young (Mixed)': 120.5,
      'Pause Young (Normal)': 45.678,
      'Pause Remark': 12,
      'Pause Final Mark': 1.2,
      'Pause Init Mark': 0.234,
      'Pause Mark Start': 0.02,
    });
    expect(v.gc.maxPauseMs).toBe(4321);
    expect(v.levels.debug).toBe(1);
  });

  // JDK 8 -XX:+PrintGCDetails -XX:+PrintGCDateStamps: the pause is the last ", <s> secs]" before "[Times: …]".
  const jdk8 = [
    '2024-05-01T10:00:00.123+0000: 12345.678: [GC (Allocation Failure) 2024-05-01T10:00:00.123+0000: 12345.678: [ParNew: 1234567K->12345K(1382400K), 0.1234567 secs] 5678901K->4567890K(8238976K), 0.1240000 secs] [Times: user=0.45 sys=0.01, real=0.12 secs]',
    '2024-05-01T10:01:00.000+0000: 12405.555: [GC (CMS Initial Mark) [1 CMS-initial-mark: 4567890K(6856576K)] 4600000K(8238976K), 0.0456000 secs] [Times: user=0.1 sys=0.0, real=0.05 secs]',
    '2024-05-01T10:01:01.000+0000: 12406.555: [CMS-concurrent-mark-start]',
    '2024-05-01T10:01:03.000+0000: 12408.555: [CMS-concurrent-mark: 1.234/1.456 secs] [Times: user=2.0 sys=0.1, real=1.46 secs]',
    '2024-05-01T10:05:00.000+0000: 12645.000: [Full GC (Allocation Failure)  7999999K->6000000K(8238976K), 5.4321000 secs]',
    '2024-05-01T10:06:00.000+0000: 12705.000: [GC pause (G1 Evacuation Pause) (young), 0.0291300 secs]',
    '   [Parallel Time: 27.5 ms, GC Workers: 8]',
    '2024-05-01T10:06:00.031+0000: 12705.031: Total time for which application threads were stopped: 0.0301234 seconds, Stopping threads took: 0.0000345 seconds',
  ].join('\n');

  it('JDK 8 gc.log: ParNew, CMS initial mark, Full GC and G1 young pauses; concurrent phases are not pauses', () => {
    const v = read(jdk8);
    expect(v.source).toMatchObject({ kind: 'gc.log', gcLogFormat: 'jdk8' });
    expect(Object.fromEntries(v.gc.byCollector.map((b) => [b.collector, b.maxMs]))).toEqual({
      'Full GC': 5432.1,
      ParNew: 124,
      'CMS Initial Mark': 45.6,
      'G1 young': 29.13,
    });
    expect(v.safepoint).toMatchObject({ count: 1, maxStoppedMs: 30.123 });
    expect(v.safepoint.maxTtspMs).toBeCloseTo(0.0345, 2);
    expect(v.lines).toMatchObject({ headed: 7, continuation: 1, unrecognised: 0 }); // the G1 detail line belongs to its pause
  });
});

describe('safepoints: time-to-safepoint vs the stop itself', () => {
  // JDK 17+: 'Safepoint "<op>", Time since last: <ns> ns, Reaching safepoint: <ns> ns, Cleanup: <ns> ns, At safepoint: <ns> ns, Total: <ns> ns'
  // JDK 13-16: same without Cleanup; JDK 9-12 and 8: "Total time for which application threads were stopped: …".
  const text = [
    '[2024-05-01T10:00:00.000+0000][info][safepoint] Safepoint "G1CollectForAllocation", Time since last: 531088090 ns, Reaching safepoint: 84175 ns, Cleanup: 143063 ns, At safepoint: 10785795 ns, Total: 11013033 ns',
    '[2024-05-01T10:00:01.000+0000][info][safepoint] Safepoint "RevokeBias", Time since last: 1000 ns, Reaching safepoint: 2500000000 ns, At safepoint: 300000000 ns, Total: 2800000000 ns',
    '[2024-05-01T10:00:02.000+0000][info][safepoint] Total time for which application threads were stopped: 0.0462345 seconds, Stopping threads took: 0.0001234 seconds',
  ].join('\n');

  it('sums, maxima and the stops dominated by reaching the safepoint', () => {
    const v = read(text);
    expect(v.safepoint).toMatchObject({ count: 3, maxStoppedMs: 2800, maxTtspMs: 2500, ttspDominated: { count: 1, totalStoppedMs: 2800, maxStoppedMs: 2800 } });
    expect(v.safepoint.totalStoppedMs).toBeCloseTo(11.013033 + 2800 + 46.2345, 3);
    expect(v.safepoint.totalTtspMs).toBeCloseTo(0.084175 + 2500 + 0.1234, 3);
    expect(v.safepoint.byOperation.map((o) => o.operation)).toEqual(['RevokeBias', 'G1CollectForAllocation']);
    expect(v.safepoint.worstTtsp[0]).toMatchObject({ magnitude: 2500, detail: { operation: 'RevokeBias', stoppedMs: 2800, ttspMs: 2500 } });
  });
});

describe('dropped messages and StatusLogger', () => {
  // MessagingService.java (3.x) / MessagingMetrics.java (4.0+, verbs such as MUTATION_REQ) "… messages were dropped in
  // last 5000 ms: <n> internal and <m> cross node. Mean internal dropped latency: <a> ms and Mean cross-node …";
  // 2.x: "… <n> for internal timeout and <m> for cross node timeout".
  const dropped = [
    c(
      'INFO',
      'ScheduledTasks:1',
      '2024-05-01 10:00:05,000',
      'MessagingMetrics.java:206',
      'MUTATION_REQ messages were dropped in last 5000 ms: 120 internal and 3 cross node. Mean internal dropped latency: 2730 ms and Mean cross-node dropped latency: 4211 ms',
    ),
    c(
      'INFO',
      'ScheduledTasks:1',
      '2024-05-01 10:00:10,000',
      'MessagingMetrics.java:206',
      'MUTATION_REQ messages were dropped in last 5000 ms: 7 internal and 0 cross node. Mean internal dropped latency: 2100 ms and Mean cross-node dropped latency: 0 ms',
    ),
    c(
      'INFO',
      'ScheduledTasks:1',
      '2024-05-01 10:00:10,000',
      'MessagingMetrics.java:206',
      'READ_REQ messages were dropped in last 5000 ms: 0 internal and 1500 cross node. Mean internal dropped latency: 0 ms and Mean cross-node dropped latency: 5012 ms',
    ),
    c(
      'INFO',
      'ScheduledTasks:1',
      '2015-05-01 10:00:15,000',
      'MessagingService.java:888',
      'READ messages were dropped in last 5000 ms: 2 for internal timeout and 4 for cross node timeout',
    ),
  ].join('\n');

  it('by message type, internal vs cross-node, mean latencies', () => {
    const v = read(dropped);
    expect(v.dropped).toMatchObject({ total: 1636, internal: 129, crossNode: 1507 });
    expect(v.dropped.byType).toEqual([
      { type: 'READ_REQ', lines: 1, internal: 0, crossNode: 1500, maxPerLine: 1500, maxMeanInternalLatencyMs: 0, maxMeanCrossNodeLatencyMs: 5012 },
      { type: 'MUTATION_REQ', lines: 2, internal: 127, crossNode: 3, maxPerLine: 123, maxMeanInternalLatencyMs: 2730, maxMeanCrossNodeLatencyMs: 4211 },
      { type: 'READ', lines: 1, internal: 2, crossNode: 4, maxPerLine: 6, maxMeanInternalLatencyMs: null, maxMeanCrossNodeLatencyMs: null },
    ]);
  });

  // StatusLogger.java (2.1-5.0): one log call per row, "%-25s%10s%10s%15s%10s%18s" Pool Name / Active / Pending /
  // Completed / Blocked / All Time Blocked (4.x appends %n, hence blank lines), then CompactionManager, MessagingService,
  // caches and per-table memtables. 2.0 printed only Active / Pending / Blocked.
  const row = (n: string, ...v: (string | number)[]) =>
    n.padEnd(25) +
    [10, 10, 15, 10, 18]
      .slice(0, v.length)
      .map((w, i) => String(v[i]).padStart(w))
      .join('');
  const sl = (ms: number, msg: string) => c('INFO', 'ScheduledTasks:1', `2024-05-01 10:00:${String(ms).padStart(2, '0')},000`, 'StatusLogger.java:65', msg);
  const status = [
    sl(20, row('Pool Name', 'Active', 'Pending', 'Completed', 'Blocked', 'All Time Blocked')),
    '',
    sl(20, row('MutationStage', 32, 4123, 98765432, 0, 0)),
    '',
    sl(20, row('ReadStage', 8, 0, 12345678, 0, 0)),
    sl(20, row('MemtableFlushWriter', 2, 7, 1234, 3, 120)),
    sl(20, row('CompactionManager', 2, 37)),
    sl(20, row('MessagingService', 'n/a', '0/5')),
    sl(20, 'Cache Type                     Size                 Capacity               KeysToSave'),
    sl(20, 'KeyCache                    1048576                104857600                      all'),
    sl(20, 'Table                       Memtable ops,data'),
    sl(20, 'ks.tbl                       1234,567890'),
    c('INFO', 'CompactionExecutor:3', '2024-05-01 10:00:21,000', 'CompactionTask.java:255', 'Compacted (abc) 4 sstables to [x] to level=0.'),
    sl(40, row('Pool Name', 'Active', 'Pending', 'Completed', 'Blocked', 'All Time Blocked')),
    sl(40, row('MutationStage', 4, 12, 98766000, 0, 0)),
    sl(40, row('MemtableFlushWriter', 1, 0, 1240, 0, 121)),
    // Cassandra 2.0: three columns
    c('INFO', 'ScheduledTasks:1', '2024-05-01 10:01:00,000', 'StatusLogger.java:55', row('Pool Name', 'Active', 'Pending', 'Blocked').trimEnd()),
    c('INFO', 'ScheduledTasks:1', '2024-05-01 10:01:00,000', 'StatusLogger.java:70', 'FlushWriter                       1         5         2'),
  ].join('\n');

  it('snapshots, per-pool maxima (pending, blocked, all-time blocked), layouts of 2.0 and 2.1+', () => {
    const v = read(status);
    expect(v.threadPools.snapshots).toBe(3);
    const by = new Map(v.threadPools.pools.map((p) => [p.pool, p]));
    expect(v.threadPools.pools[0]).toMatchObject({
      pool: 'MutationStage',
      snapshots: 2,
      snapshotsWithPending: 2,
      maxActive: 32,
      maxPending: 4123,
      lastPending: 12,
      lastCompleted: 98766000,
      maxPendingT: Date.UTC(2024, 4, 1, 10, 0, 20),
    });
    expect(by.get('MemtableFlushWriter')).toMatchObject({ maxBlocked: 3, maxAllTimeBlocked: 121, maxPending: 7 });
    expect(by.get('CompactionManager')).toMatchObject({ maxActive: 2, maxPending: 37, maxBlocked: null });
    expect(by.get('FlushWriter')).toMatchObject({ maxActive: 1, maxPending: 5, maxBlocked: 2, maxAllTimeBlocked: null });
    expect(by.has('MessagingService')).toBe(false);
    expect(by.has('KeyCache')).toBe(false);
    expect(v.events.threadPools.worst[0]).toMatchObject({ magnitude: 4123 + 7 + 37, detail: { pool: 'MutationStage', pending: 4123, pools: 4 } });
    expect(v.events.threadPools.count).toBe(3);
  });
});

describe('tombstones and large partitions', () => {
  const text = [
    // ReadCommand.java (4.x adds "; token <t>"): warn threshold
    c(
      'WARN',
      'ReadStage-2',
      '2024-05-01 10:00:00,000',
      'ReadCommand.java:600',
      'Read 12 live rows and 25001 tombstone cells for query SELECT * FROM shop."Carts" WHERE user = 42 LIMIT 100; token 4242 (see tombstone_warn_threshold)',
    ),
    // SliceQueryFilter.java (2.x)
    c(
      'WARN',
      'ReadStage:5',
      '2015-05-01 10:00:00,000',
      'SliceQueryFilter.java:319',
      'Read 0 live and 1500 tombstone cells in ks.queue for key: 6b6579 (see tombstone_warn_threshold). 5000 columns were requested, slices=[-]',
    ),
    // StorageProxy / ReadCommand failure threshold, then the exception under the same entry: one abort
    c(
      'ERROR',
      'ReadStage-3',
      '2024-05-01 10:01:00,000',
      'StorageProxy.java:2248',
      'Scanned over 100001 tombstones during query \'SELECT * FROM shop."Carts" WHERE user = 7 LIMIT 5000\' (last scanned row token was -123 and partion key was ((7))); query aborted',
    ),
    'org.apache.cassandra.db.filter.TombstoneOverwhelmingException: null',
    '\tat org.apache.cassandra.db.ReadCommand$1MetricRecording.onRow(ReadCommand.java:500)',
    // 2.x failure
    c(
      'ERROR',
      'ReadStage:9',
      '2015-05-01 10:01:30,000',
      'SliceQueryFilter.java:206',
      'Scanned over 100000 tombstones in ks.queue; query aborted (see tombstone_failure_threshold)',
    ),
    // BigTableWriter.java (4.0): tombstones written by compaction
    c(
      'WARN',
      'CompactionExecutor:2',
      '2024-05-01 10:02:00,000',
      'BigTableWriter.java:276',
      'Writing 250000 tombstones to ks/queue:k1 in sstable /var/lib/cassandra/data/ks/queue-1/nb-12-big-Data.db',
    ),
    // BigTableWriter.java (3.x/4.x): large partition
    c(
      'WARN',
      'CompactionExecutor:4',
      '2024-05-01 10:03:00,000',
      'BigTableWriter.java:274',
      'Writing large partition shop/events:user42 (1.234GiB) to sstable /var/lib/cassandra/data/shop/events-1/nb-7-big-Data.db',
    ),
    c(
      'WARN',
      'CompactionExecutor:4',
      '2024-05-01 10:03:30,000',
      'BigTableWriter.java:274',
      'Writing large partition shop/events:user7 (150.000MiB) to sstable /var/lib/cassandra/data/shop/events-1/nb-8-big-Data.db',
    ),
    // CompactionController.java (2.x)
    c(
      'INFO',
      'CompactionExecutor:7',
      '2015-01-01 10:00:00,000',
      'CompactionController.java:196',
      'Compacting large partition ks/wide:key9 (93368360 bytes) incrementally',
    ),
    // 5.0 partition_size guardrail (Guardrails.partitionSize, "<key> in <ks.table>")
    c(
      'WARN',
      'CompactionExecutor:2',
      '2024-05-01 10:04:00,000',
      'NoSpamLogger.java:104',
      "Guardrail partition_size violated: Partition 'user99' in shop.events has size 2147483648, this exceeds the warning threshold of 1073741824.",
    ),
  ].join('\n');

  it('tombstones by table (read warnings, aborts counted once per entry, compaction writes), large partitions by table', () => {
    const v = read(text);
    expect(v.tombstones).toMatchObject({ warnings: 3, aborts: 2 });
    expect(v.tombstones.byTable).toEqual([
      { table: 'ks.queue', warnings: 2, aborts: 1, maxTombstones: 250000, maxLiveRows: 0, totalTombstones: 1500 + 100000 + 250000 },
      { table: 'shop.Carts', warnings: 1, aborts: 1, maxTombstones: 100001, maxLiveRows: 12, totalTombstones: 125002 },
    ]);
    expect(v.lines.continuation).toBe(2);
    expect(v.largeData.partitions).toBe(4);
    expect(v.largeData.byTable).toEqual([
      { table: 'shop.events', what: 'partition', count: 3, maxBytes: 2147483648, maxKey: "'user99'" },
      { table: 'ks.wide', what: 'partition', count: 1, maxBytes: 93368360, maxKey: 'key9' },
    ]);
    expect(v.events.largePartition.worst.map((w) => w.detail!.via)).toEqual(['guardrail warning', 'write', 'write', 'compaction']);
  });
});

describe('other Cassandra events', () => {
  const text = [
    // JVMStabilityInspector.java: the error and the JVM's message under it are one OOM
    c('ERROR', 'ReadStage-1', '2024-05-01 10:00:00,000', 'JVMStabilityInspector.java:196', 'OutOfMemory error letting the JVM handle the error:'),
    'java.lang.OutOfMemoryError: Java heap space',
    '\tat java.base/java.nio.HeapByteBuffer.<init>(HeapByteBuffer.java:64)',
    c('ERROR', 'MutationStage-3', '2024-05-01 10:00:30,000', 'CassandraDaemon.java:581', 'Exception in thread Thread[MutationStage-3,5,main]'),
    'java.lang.OutOfMemoryError: Direct buffer memory',
    // JVM flags and the config dump name OutOfMemory / hints / repair without any event
    c(
      'INFO',
      'main',
      '2024-05-01 09:00:00,000',
      'CassandraDaemon.java:619',
      'JVM Arguments: [-Xms8G, -XX:+ExitOnOutOfMemoryError, -XX:OnOutOfMemoryError=kill -9 %p]',
    ),
    c(
      'INFO',
      'main',
      '2024-05-01 09:00:00,000',
      'Config.java:1371',
      `Node configuration:[hinted_handoff_enabled=true; max_hints_file_size=128MiB; repair_session_space=null; ${'x'.repeat(1200)}]`,
    ),
    // FailureDetector.java: 3.x prints bare numbers, 4.1+ "ns"; DEBUG "Still not marking…" is no event
    c('WARN', 'GossipTasks:1', '2024-05-01 10:01:00,000', 'FailureDetector.java:278', 'Not marking nodes down due to local pause of 81905048065 > 5000000000'),
    c(
      'WARN',
      'GossipTasks:1',
      '2024-05-01 10:02:00,000',
      'FailureDetector.java:347',
      'Not marking nodes down due to local pause of 11664393846ns > 5000000000ns',
    ),
    c('DEBUG', 'GossipTasks:1', '2024-05-01 10:02:01,000', 'FailureDetector.java:353', 'Still not marking nodes down due to local pause'),
    // HintsDispatchExecutor.java: success, and a partial dispatch; 2.x HintedHandOffManager timeout
    c(
      'INFO',
      'HintsDispatcher:4',
      '2024-05-01 10:03:00,000',
      'HintsDispatchExecutor.java:300',
      'Finished hinted handoff of file 9be2f946-76f4-4511-a682-60190a45f9d9-1714557780000-2.hints to endpoint /10.0.0.12:7000: 9be2f946-76f4-4511-a682-60190a45f9d9',
    ),
    c(
      'INFO',
      'HintsDispatcher:4',
      '2024-05-01 10:03:10,000',
      'HintsDispatchExecutor.java:311',
      'Finished hinted handoff of file 9be2f946-76f4-4511-a682-60190a45f9d9-1714557790000-2.hints to endpoint /10.0.0.12:7000: 9be2f946-76f4-4511-a682-60190a45f9d9, partially',
    ),
    c(
      'INFO',
      'HintedHandoff:2',
      '2015-05-01 10:03:20,000',
      'HintedHandOffManager.java:486',
      'Timed out replaying hints to /10.0.0.13; aborting (1234 delivered)',
    ),
    // RepairRunnable.java / RepairSession.java: two failed sessions, each with its exception under it
    c('ERROR', 'Repair#3:1', '2024-05-01 10:04:00,000', 'RepairRunnable.java:178', 'Repair 7b1f5c60-07b7-11ef-9c7b-3b1f1f0f0f0f failed:'),
    'org.apache.cassandra.repair.RepairException: [repair #7b1f5c60-07b7-11ef-9c7b-3b1f1f0f0f0f on ks/tbl] Validation failed in /10.0.0.12:7000',
    c(
      'ERROR',
      'AntiEntropyStage:1',
      '2024-05-01 10:05:00,000',
      'RepairSession.java:312',
      '[repair #0e7c0a40-07b8-11ef-9c7b-3b1f1f0f0f0f] Session completed with the following error',
    ),
    c('INFO', 'Repair#4:1', '2024-05-01 10:06:00,000', 'RepairRunnable.java:200', 'Repair command #4 finished in 1 minute 2 seconds'),
    // BufferPool.java (4.0+ names the pool)
    c(
      'INFO',
      'ReadStage-2',
      '2024-05-01 10:07:00,000',
      'NoSpamLogger.java:105',
      'Maximum memory usage reached (512MiB) for chunk-cache buffer pool, cannot allocate chunk of 8MiB',
    ),
    // AbstractCommitLogService.java (decimal comma from a non-English locale in the second)
    c(
      'WARN',
      'PERIODIC-COMMIT-LOG-SYNCER',
      '2024-05-01 10:08:00,000',
      'NoSpamLogger.java:94',
      'Out of 41 commit log syncs over the past 60.12s with average duration of 312.50ms, 3 have exceeded the configured commit interval by an average of 1450.25ms',
    ),
    c(
      'WARN',
      'PERIODIC-COMMIT-LOG-SYNCER',
      '2024-05-01 10:13:00,000',
      'NoSpamLogger.java:94',
      'Out of 28 commit log syncs over the past 142,06s with average duration of 47,92ms, 1 have exceeded the configured commit interval by an average of 393,31ms',
    ),
    // flush stall (heuristic: a "Timed out waiting" about a flush / memtable / commit log)
    c('ERROR', 'MigrationStage:1', '2024-05-01 10:09:00,000', 'ColumnFamilyStore.java:900', 'Timed out waiting for memtable flush of ks.tbl to complete'),
  ].join('\n');

  it('OOM by kind (one per entry, no JVM-flag false positive), local pauses, hint and repair failures, buffer pool, commitlog, flush', () => {
    const v = read(text);
    expect(v.oom).toEqual({
      count: 2,
      byKind: [
        { kind: 'Java heap space', count: 1 },
        { kind: 'Direct buffer memory', count: 1 },
      ],
    });
    expect(v.localPauses).toEqual({
      count: 2,
      totalMs: 93569.442,
      maxMs: 81905.048,
      startupSetAside: 0,
      startupMaxMs: 0,
      gossipOffSetAside: 0,
      gossipOffMaxMs: 0,
    });
    expect(v.events.localPause.worst[0]).toMatchObject({ magnitude: 81905.048, detail: { thresholdMs: 5000 } });
    expect(v.hints).toEqual({
      failures: 2,
      partial: 1,
      byEndpoint: [
        { endpoint: '10.0.0.12', count: 1 },
        { endpoint: '10.0.0.13', count: 1 },
      ],
    });
    expect(v.repair).toEqual({ failures: 2, distinctSessions: 2, terminated: 0 });
    expect(v.bufferPool).toEqual({ count: 1, byPool: [{ pool: 'chunk-cache', limitBytes: 512 * 1024 ** 2, count: 1 }] });
    expect(v.commitlogSync).toEqual({ warnings: 2, laggingSyncs: 4, maxAverageSyncMs: 312.5, maxExceededByMs: 1450.25 });
    expect(v.events.flushTimeout.count).toBe(1);
    expect(v.levels.debug).toBe(1);
    expect(v.source.kind).toBe('cassandra.debug');
  });
});

describe('ScyllaDB', () => {
  // Seastar reactor: "Reactor stalled for <ms> ms on shard <n>[, in scheduling group <g>]. Backtrace: …", in journald
  // (older releases put the backtrace on its own lines); large_data_handler.cc "Writing large {partition|row|cell} …";
  // storage_proxy timeouts (exceptions::mutation_write_timeout_exception / read_timeout_exception, semaphore timeouts).
  const text = [
    'Dec 31 23:59:50 db-1 scylla[1234]:  [shard 3] seastar - Reactor stalled for 123 ms on shard 3. Backtrace: 0x4a1b2c3 0x4a1b2d4',
    'Jan 01 00:00:05 db-1 scylla[1234]: Reactor stalled for 989 ms on shard 22.',
    'Jan 01 00:00:05 db-1 scylla[1234]: Backtrace:',
    'Jan 01 00:00:05 db-1 scylla[1234]:   0x0000000002ef3122',
    'Jan 01 00:00:06 db-2 scylla[25398]:  [shard 3:main] seastar - Reactor stalled for 845 ms on shard 3, in scheduling group sl:default. Backtrace: 0x519df4f 0x519516c',
    'Jan 01 00:01:00 db-1 scylla[1234]:  [shard 1:comp] large_data - Writing large partition ks/tbl: pk1 (1234567890 bytes) to me-3g8a_0x9k-big-Data.db',
    'Jan 01 00:01:01 db-1 scylla[1234]:  [shard 1:comp] large_data - Writing large row ks/tbl: pk1/ck7 (20971520 bytes) to me-3g8a_0x9k-big-Data.db',
    'Jan 01 00:01:02 db-1 scylla[1234]:  [shard 1:comp] large_data - Writing large cell ks/tbl: pk1/ck7/payload (1048577 bytes) to me-3g8a_0x9k-big-Data.db',
    'Jan 01 00:02:00 db-1 scylla[1234]:  [shard 5:stmt] storage_proxy - exception during mutation write to 10.0.0.3: exceptions::mutation_write_timeout_exception (Operation timed out for ks.tbl - received only 1 responses from 2 CL=QUORUM.)',
    'Jan 01 00:02:01 db-1 scylla[1234]:  [shard 5:stmt] storage_proxy - Exception when communicating with 10.0.0.3: exceptions::read_timeout_exception (Operation timed out for ks.tbl - received only 0 responses from 1 CL=ONE.)',
    'Jan 01 00:02:02 db-1 scylla[1234]:  [shard 2:stmt] storage_proxy - Failed to apply mutation from 10.0.0.4#2: seastar::semaphore_timed_out (Semaphore timed out)',
    'Jan 01 00:02:03 db-1 scylla[1234]:  [shard 2] storage_proxy - exception during mutation write to 10.0.0.4: std::bad_alloc (std::bad_alloc)',
    'Jan 01 00:02:04 db-1 kernel: [12345.678] nvme nvme0: I/O 12 QID 3 timeout, aborting',
  ].join('\n');

  it('reactor stalls by shard, large data, timeouts by type and table; journald without a year stays relative', () => {
    const r = parseLogs(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value;
    expect(v.source).toMatchObject({ kind: 'scylla.journal', product: 'scylla' });
    expect(v.time.basis).toBe('no-year');
    expect(r.warnings.join(' ')).toMatch(/no year/);
    // Dec 31 → Jan 01 moves to the next nominal year: 15 s apart, not 364 days
    expect(v.events.reactorStall.lastT! - v.events.reactorStall.firstT!).toBe(16_000);
    expect(v.events.reactorStall.firstTime).toBe('12-31 23:59:50.000 (no year)');
    expect(v.reactorStalls).toMatchObject({ count: 3, maxMs: 989, totalMs: 1957 });
    expect(v.reactorStalls.byShard).toEqual([
      { shard: 3, count: 2, totalMs: 968, maxMs: 845 },
      { shard: 22, count: 1, totalMs: 989, maxMs: 989 },
    ]);
    expect(v.events.reactorStall.worst.map((w) => w.node)).toEqual(['db-1', 'db-2', 'db-1']);
    expect(v.largeData).toMatchObject({ partitions: 1, rowsOrCells: 2 });
    expect(v.largeData.byTable.map((b) => [b.what, b.table, b.maxBytes])).toEqual([
      ['partition', 'ks.tbl', 1234567890],
      ['row', 'ks.tbl', 20971520],
      ['cell', 'ks.tbl', 1048577],
    ]);
    expect(v.scyllaTimeouts).toEqual({
      count: 3,
      byType: [
        { type: 'write', count: 1 },
        { type: 'read', count: 1 },
        { type: 'semaphore', count: 1 },
      ],
      byTable: [{ table: 'ks.tbl', count: 2 }],
    });
    expect(v.oom.byKind).toEqual([{ kind: 'std::bad_alloc', count: 1 }]);
    // the kernel line is read (journald) but is no Scylla timeout
    expect(v.lines.headed).toBe(13);
  });

  it("Scylla's own log format (not journald)", () => {
    const v = read(
      'WARN  2024-05-01 10:00:10,075 [shard 1] large_data - Writing large partition ks/tbl: pk1 (1234567890 bytes) to me-1-big-Data.db\nWARN  2024-05-01 10:00:11,000 [shard 0:main] seastar - Reactor stalled for 34 ms on shard 0. Backtrace: 0x1',
    );
    expect(v.source).toMatchObject({ kind: 'scylla.log', product: 'scylla' });
    expect(v.time.basis).toBe('absolute');
    expect(v.reactorStalls.byShard).toEqual([{ shard: 0, count: 1, totalMs: 34, maxMs: 34 }]);
  });
});

describe('robustness', () => {
  const GC_LINE = c(
    'INFO',
    'GCInspector:1',
    '2020-01-10 17:13:39,102',
    'GCInspector.java:313',
    'G1 Young Generation GC in 729ms.  G1 Old Gen: 1206429760 -> 1254765136; G1 Eden Space: 2168455168 -> 0',
  );

  it('truncated lines: no event from a cut number, an unreadable prefix is counted as unrecognised', () => {
    const cut = [
      GC_LINE.slice(0, GC_LINE.indexOf('729') + 2),
      GC_LINE.slice(0, 14),
      c('WARN', 'ReadStage-2', '2024-05-01 10:00:00,000', 'ReadCommand.java:600', 'Read 12 live rows and 25'),
    ].join('\n');
    const v = read(cut);
    expect(v.gc.pauses).toBe(0);
    expect(v.tombstones.warnings).toBe(0);
    expect(v.lines).toMatchObject({ total: 3, headed: 2, unrecognised: 1 });
  });

  it('CRLF line ends read the same as LF', () => {
    const lf = [GC_LINE, GC_LINE.replace('729ms', '301ms')].join('\n') + '\n';
    const a = read(lf);
    const b = read(lf.replace(/\n/g, '\r\n'));
    expect(b.gc).toEqual(a.gc);
    expect(b.events).toEqual(a.events);
    expect(b.lines.total).toBe(a.lines.total);
    expect(b.events.gcPause.worst[0]!.line.endsWith('\r')).toBe(false);
  });

  it('garbage and binary noise: counted, no event, ok:false when nothing is a log line', () => {
    const junk = ['%%%% ####', '\u0000\u0001\u0002\u00ff', 'lorem ipsum dolor sit amet', '{"json": true}', 'x'.repeat(5000)].join('\n');
    const r = parseLogs(junk);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/no Cassandra, ScyllaDB or GC log line recognised in 5 line/);
    const mixed = read(`${junk}\n${GC_LINE}\n${junk}`);
    expect(mixed.gc.pauses).toBe(1);
    expect(mixed.lines.unrecognised).toBe(5); // the junk before any log line; the junk after the GC entry is its continuation
    expect(mixed.lines.continuation).toBe(5);
  });

  it('empty and blank input are ok:false; a non-string is ok:false, never a throw', () => {
    for (const e of ['', '\n\n', '   \r\n\t']) {
      const r = parseLogs(e);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/empty/);
    }
    const r = parseLogs(undefined as unknown as string);
    expect(r.ok).toBe(false);
  });

  it('a pasted message without its prefix still counts (bare), with no time', () => {
    const v = read('G1 Young Generation GC in 812ms.  G1 Old Gen: 1 -> 2\nReactor stalled for 250 ms on shard 7.');
    expect(v.lines.bare).toBe(2);
    expect(v.gc.pauses).toBe(1);
    expect(v.reactorStalls.count).toBe(1);
    expect(v.time.basis).toBe('none');
    expect(v.events.gcPause.timeline).toBeNull();
  });

  it('grep -H output keeps the file name as the example source', () => {
    const v = read(`logs/system.log.1:${GC_LINE}\nsystem.log:${GC_LINE.replace('729ms', '333ms')}`);
    expect(v.gc.pauses).toBe(2);
    expect(v.events.gcPause.worst.map((w) => w.source)).toEqual(['logs/system.log.1', 'system.log']);
    expect(v.events.gcPause.firstTime).toBe('2020-01-10T17:13:39.102Z');
  });

  it('bucket size follows the span: 1 min up to 3 h, 5 min up to a day, 1 h beyond', () => {
    const at = (d: Date) =>
      c(
        'WARN',
        'GossipTasks:1',
        d.toISOString().replace('T', ' ').replace('.', ',').slice(0, 23),
        'FailureDetector.java:278',
        'Not marking nodes down due to local pause of 6000000000 > 5000000000',
      );
    const span = (ms: number) => read([at(new Date(Date.UTC(2024, 0, 1))), at(new Date(Date.UTC(2024, 0, 1) + ms))].join('\n'));
    expect(span(2 * 3600_000).time.bucketMs).toBe(60_000);
    expect(span(20 * 3600_000).time.bucketMs).toBe(300_000);
    const long = span(3 * 24 * 3600_000);
    expect(long.time.bucketMs).toBe(3_600_000);
    expect(long.events.localPause.timeline).toEqual({
      bucketMs: 3_600_000,
      buckets: [
        { t: Date.UTC(2024, 0, 1), n: 1 },
        { t: Date.UTC(2024, 0, 4), n: 1 },
      ],
    });
  });

  it('worst examples: the 5 largest, ties keep the earlier line, lines cut to 300 characters', () => {
    const lines = [5, 9, 1, 9, 7, 3, 8, 2].map((n, i) =>
      c(
        'INFO',
        'GCInspector:1',
        `2024-05-01 10:00:0${i},000`,
        'GCInspector.java:313',
        `G1 Young Generation GC in ${n}00ms.  ${'G1 Old Gen: 1 -> 2; '.repeat(30)}`,
      ),
    );
    const v = read(lines.join('\n'));
    expect(v.events.gcPause.worst.map((w) => [w.magnitude, w.lineNo])).toEqual([
      [900, 2],
      [900, 4],
      [800, 7],
      [700, 5],
      [500, 1],
    ]);
    expect(v.events.gcPause.worst.every((w) => w.line.length === 300)).toBe(true);
  });

  it('bounded breakdowns: past 500 tables, the rest folds into "(other)"', () => {
    const lines: string[] = [];
    for (let i = 0; i < 700; i++)
      lines.push(
        c(
          'WARN',
          'ReadStage-1',
          '2024-05-01 10:00:00,000',
          'ReadCommand.java:600',
          `Read 1 live rows and ${1000 + i} tombstone cells for query SELECT * FROM ks.t${i} WHERE k = 1`,
        ),
      );
    const v = read(lines.join('\n'));
    expect(v.tombstones.byTable).toHaveLength(501);
    expect(v.tombstones.byTable.find((t) => t.table === '(other)')).toMatchObject({ warnings: 200, maxTombstones: 1699 });
    expect(v.notes.join(' ')).toMatch(/size cap/);
  });
});

describe('classify (line classifiers)', () => {
  it('returns null on ordinary messages and the hit on event messages', () => {
    expect(classify('Compacted (abc) 4 sstables to [x] to level=0.', 0, 'cassandra')).toBeNull();
    expect(classify('Enqueuing flush of ks.tbl, Reason: MEMTABLE_LIMIT, Usage: 1.2GiB (12%) on-heap', 0, 'cassandra')).toBeNull();
    expect(classify('Reactor stalled for 30 ms on shard 1.', 0, 'cassandra')).toBeNull(); // a Scylla pattern on a Cassandra line
    expect(classify('Reactor stalled for 30 ms on shard 1.', 0, 'scylla')).toEqual({ kind: 'reactorStall', ms: 30, shard: 1 });
    expect(classify('G1 Old Generation GC in 3012ms.  G1 Old Gen: 5 -> 4', 0, 'cassandra')).toMatchObject({
      kind: 'gcPause',
      ms: 3012,
      collector: 'G1 Old Generation',
      concurrent: false,
    });
  });
});

describe('sizeToBytes (the log classifier reads sizes with core/units factors)', () => {
  it('reads the sizes Cassandra logs print, in powers of 1024, and refuses what is not a size', () => {
    expect(sizeToBytes('895.549MiB')).toBe(Math.round(895.549 * 1024 ** 2));
    expect(sizeToBytes('93368360 bytes')).toBe(93368360);
    expect(sizeToBytes('7996951')).toBe(7996951);
    expect(sizeToBytes('1,5 GiB')).toBe(Math.round(1.5 * 1024 ** 3));
    // the units table core/units.ts owns reaches petabytes; the copy this classifier kept stopped at TiB
    expect(sizeToBytes('2PiB')).toBe(2 * 1024 ** 5);
    expect(sizeToBytes('12 parsecs')).toBeNull();
    expect(sizeToBytes('')).toBeNull();
  });
  it('a long run of blanks after the number costs linear time', () => {
    const t0 = performance.now();
    expect(sizeToBytes(`1${' '.repeat(50_000)}x!`)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
