import { describe, expect, it } from 'vitest';
import { LOG_EVENT_KINDS, parseLogs, type LogFacts } from '../../mcp-server/src/core/parse/logs/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const G1 = 'logs/systemlog_g1_young_gc_200_729ms_solr_dse677.txt';
const SAFEPOINT = 'logs/gclog_safepoint_pauses_slow_disk.txt';
const TOMB = 'logs/systemlog_tombstones_large_partition_chunkcache_montecristo.txt';
const STATUS = 'logs/statuslogger_dse6_dropped_rangeslice_write_remote_pending.txt';

function facts(rel: string): LogFacts {
  const r = parseLogs(corpus(rel), { source: rel });
  if (!r.ok) throw new Error(`${rel}: ${r.reason}`);
  return r.value;
}

describe.skipIf(!HAVE_CORPUS)('log analysis on the corpus samples', () => {
  it('every log sample is read: recognised lines, at least one event, no parser error', () => {
    const files = corpusFiles('logs', /\.txt$/);
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      const r = parseLogs(corpus(f));
      expect(r.ok, f).toBe(true);
      if (!r.ok) continue;
      const v = r.value;
      expect(v.lines.headed, f).toBeGreaterThan(0);
      expect(v.lines.unrecognised, f).toBeLessThanOrEqual(1);
      expect(
        LOG_EVENT_KINDS.reduce((a, k) => a + v.events[k].count, 0),
        f,
      ).toBeGreaterThan(0);
      for (const k of LOG_EVENT_KINDS) expect(v.events[k].worst.length, `${f} ${k}`).toBeLessThanOrEqual(5);
    }
  });

  it('DSE 6.7 G1 sample: 23 young pauses of 201–729 ms every 1–5 s, old gen retained 0.77–1.8 GB', () => {
    const v = facts(G1);
    expect(v.source).toMatchObject({ kind: 'cassandra.system', product: 'cassandra', gcLogFormat: null, mixed: false });
    expect(v.gc.pauses).toBe(23);
    expect(v.gc.byCollector).toEqual([expect.objectContaining({ collector: 'G1 Young Generation', from: 'GCInspector', count: 23, maxMs: 729 })]);
    expect(v.gc.maxPauseMs).toBe(729);
    expect(v.gc.p99PauseMs).toBe(729);
    expect(v.gc.totalPauseMs).toBe(7774); // grep -o "GC in [0-9]*ms" | sum
    // every pause logged is above GCInspector's 200 ms floor
    expect(v.gc.p50PauseMs).toBeGreaterThan(200);
    expect(v.events.gcPause.worst.map((w) => w.magnitude)).toEqual([729, 690, 553, 506, 392]);
    expect(v.events.gcPause.worst[0]).toMatchObject({ time: '2020-01-10T17:13:39.102Z', lineNo: 2, source: G1, detail: { collector: 'G1 Young Generation' } });
    // 23 pauses in 71 s: one every ~3 s
    const span = v.events.gcPause.lastT! - v.events.gcPause.firstT!;
    expect(span).toBe(70_905);
    expect(span / 22).toBeGreaterThan(1000);
    expect(span / 22).toBeLessThan(5000);
    expect(v.events.gcPause.timeline).toEqual({
      bucketMs: 60_000,
      buckets: [
        { t: Date.UTC(2020, 0, 10, 17, 13), n: 8 },
        { t: Date.UTC(2020, 0, 10, 17, 14), n: 15 },
      ],
    });
    const old = v.gc.poolAfterBytes.find((p) => p.pool === 'G1 Old Gen')!;
    expect(old.samples).toBe(23);
    expect(old.min).toBe(770630232);
    expect(old.max).toBe(1801382960);
    expect(v.gc.concurrentCycles).toEqual([]);
    // the non-GC lines are read, not counted as anything
    expect(v.lines).toMatchObject({ total: 33, headed: 33, unrecognised: 0 });
    expect(v.time).toMatchObject({ basis: 'absolute', zone: 'unspecified', bucketMs: 60_000 });
  });

  it('JDK 8 safepoint sample: the 2018-08-23 stops are almost all time-to-safepoint, the earlier ones are VM work', () => {
    const v = facts(SAFEPOINT);
    expect(v.source).toMatchObject({ kind: 'gc.log', product: 'jvm', gcLogFormat: 'jdk8' });
    expect(v.lines).toMatchObject({ total: 11, headed: 10, unrecognised: 1 }); // the "$ grep …" command line
    const sp = v.safepoint;
    expect(sp.count).toBe(10);
    expect(sp.maxStoppedMs).toBeCloseTo(11494.949, 3);
    expect(sp.maxTtspMs).toBeCloseTo(11463.83, 3);
    // four stops spent > 99% of their time reaching the safepoint, all on 2018-08-23
    expect(sp.ttspDominated.count).toBe(4);
    expect(sp.ttspDominated.totalStoppedMs).toBeCloseTo(6476.7751 + 11494.9489 + 6386.7003 + 7952.82, 2);
    expect(sp.worstTtsp.slice(0, 4).every((w) => w.time!.startsWith('2018-08-23'))).toBe(true);
    expect(sp.worstTtsp.slice(0, 4).every((w) => (w.detail!.ttspMs as number) / (w.detail!.stoppedMs as number) > 0.99)).toBe(true);
    // the six Jul/Aug stops of 6–10 s reached the safepoint in under 1 ms: the VM operation itself was long
    expect(sp.worstTtsp[4]!.magnitude).toBeLessThan(1);
    const earlier = sp.count - sp.ttspDominated.count;
    expect(earlier).toBe(6);
    expect(sp.totalOperationMs).toBeGreaterThan(6 * 6000);
    expect(sp.ttspShare).toBeGreaterThan(0.4);
    expect(sp.ttspShare).toBeLessThan(0.5);
    // worst by stopped time mixes both kinds: 11.5 s (ttsp) and 10.4 s (VM work) lead
    expect(v.events.safepoint.worst.map((w) => Math.round(w.magnitude!))).toEqual([11495, 10388, 7953, 6504, 6477]);
    expect(v.events.safepoint.worst[1]!.detail).toMatchObject({ ttspMs: 0.448 });
    expect(v.time).toMatchObject({ basis: 'absolute', zone: 'offset', bucketMs: 3_600_000 });
    expect(v.gc.pauses).toBe(0);
  });

  it('Cassandra 3.11 sample: tombstone-heavy reads on testks.reports, an 895 MiB partition, chunk cache full', () => {
    const v = facts(TOMB);
    expect(v.source.kind).toBe('cassandra.system');
    expect(v.tombstones.warnings).toBe(7);
    expect(v.tombstones.aborts).toBe(0);
    expect(v.tombstones.byTable).toEqual([
      { table: 'testks.reports', warnings: 7, aborts: 0, maxTombstones: 5715, maxLiveRows: 1000, totalTombstones: 5441 * 2 + 4106 + 5715 * 2 + 5676 * 2 },
    ]);
    // ~4–5.7 tombstones per live row
    const w = v.events.tombstoneWarn.worst[0]!;
    expect(w).toMatchObject({ magnitude: 5715, detail: { table: 'testks.reports', liveRows: 1000, phase: 'read' } });
    expect(v.largeData.partitions).toBe(1);
    expect(v.largeData.byTable).toEqual([
      {
        table: 'pingid.activation_codes_by_user',
        what: 'partition',
        count: 1,
        maxBytes: Math.round(895.549 * 1024 * 1024),
        maxKey: 'b9d49563-6d0c-4f6e-9253-fc876f6c66e1',
      },
    ]);
    expect(v.events.largePartition.worst[0]).toMatchObject({ time: '2018-02-09T16:29:32.623Z', detail: { via: 'write' } });
    expect(v.bufferPool).toEqual({ count: 7, byPool: [{ pool: 'buffer pool', limitBytes: 1024 ** 3, count: 7 }] });
    // every 15 minutes from 15:13 to 16:43
    expect(v.events.bufferPoolFull.timeline!.buckets).toHaveLength(7);
    expect(v.events.bufferPoolFull.worst).toHaveLength(5); // first five, no magnitude
    expect(v.events.bufferPoolFull.worst[0]!.magnitude).toBeNull();
    expect(v.levels).toMatchObject({ warn: 8, info: 9, error: 0 });
  });

  it('DSE 6 StatusLogger sample: WRITE_REMOTE 13,094 pending, compaction 2 active / 52 pending, a RANGE_SLICE dropped after 9.1 s', () => {
    const v = facts(STATUS);
    expect(v.source).toMatchObject({ kind: 'cassandra.system', product: 'dse' });
    expect(v.lines).toMatchObject({ total: 155, headed: 2, continuation: 150, blank: 3, unrecognised: 0 });
    expect(v.dropped).toMatchObject({ total: 1, internal: 1, crossNode: 0, byTable: [{ table: 'keyspace1.standard1', messages: 1 }] });
    expect(v.dropped.byType).toEqual([
      { type: 'RANGE_SLICE', lines: 1, internal: 1, crossNode: 0, maxPerLine: 1, maxMeanInternalLatencyMs: 9126, maxMeanCrossNodeLatencyMs: 0 },
    ]);
    expect(v.threadPools.snapshots).toBe(1);
    const [first, second] = v.threadPools.pools;
    expect(first).toMatchObject({
      pool: 'TPC/all/WRITE_REMOTE',
      maxPending: 13094,
      snapshotsWithPending: 1,
      maxActive: 0,
      maxBlocked: null,
      maxAllTimeBlocked: 0,
    });
    expect(second).toMatchObject({ pool: 'CompactionExecutor', maxActive: 2, maxPending: 52, lastCompleted: 1386, maxBlocked: 0 });
    const pools = new Map(v.threadPools.pools.map((p) => [p.pool, p]));
    expect(pools.get('TPC/all/TIMED_TIMEOUT')).toMatchObject({ lastCompleted: 19928, maxPending: null });
    expect(pools.get('CompactionManager')).toMatchObject({ maxActive: 2, maxPending: 3 });
    expect(pools.size).toBe(81);
    // pools with something pending, as a rule would list them
    expect(v.threadPools.pools.filter((p) => (p.maxPending ?? 0) > 0).map((p) => p.pool)).toEqual([
      'TPC/all/WRITE_REMOTE',
      'CompactionExecutor',
      'CompactionManager',
    ]);
    expect(v.events.threadPools.worst[0]).toMatchObject({
      magnitude: 13094 + 52 + 3,
      time: '2020-01-09T16:40:01.048Z',
      detail: { pool: 'TPC/all/WRITE_REMOTE', pending: 13094, pools: 81 },
    });
    expect(v.events.threadPools.worst[0]!.line).toMatch(/^TPC\/all\/WRITE_REMOTE\s+0\s+13094/);
  });
});
