import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

// One test per public nodetool sample, asserting what SOURCES.tsv says an expert concludes.

describe.skipIf(!HAVE_CORPUS)('interpret on the labelled corpus', () => {
  it('status with a DN node in dc2: the down node is critical and named', () => {
    const r = interpretText(corpus('nodetool/status_multidc_dn_cassandra_docs.txt'));
    expect(r.kind).toBe('nodetool.status');
    const down = r.findings.filter((f) => f.id === 'topology.node-down');
    expect(down).toHaveLength(1);
    expect(down[0]).toMatchObject({ severity: 'critical', node: '127.0.0.5' });
    expect(down[0]!.recommendation).toMatch(/observer/);
  });

  it('tpstats with 1,096 dropped MUTATIONs: dropped messages reported with the count', () => {
    const r = interpretText(corpus('nodetool/tpstats_dse67_mutation_dropped_1096_readrepair_queue.txt'));
    expect(r.kind).toBe('nodetool.tpstats');
    const d = r.findings.find((f) => f.id === 'dropped.messages');
    expect(d).toBeDefined();
    expect(['warning', 'critical']).toContain(d!.severity);
    expect(d!.evidence.join('\n')).toMatch(/MUTATION dropped 1096/);
    expect(d!.recommendation).toMatch(/repair/);
  });

  it('healthy tpstats baseline: no thread-pool finding, and it says what was checked', () => {
    const r = interpretText(corpus('nodetool/tpstats_c4_healthy_baseline_cassandra_docs.txt'));
    expect(r.kind).toBe('nodetool.tpstats');
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(r.checked.find((c) => c.rule === 'threadpools')).toMatchObject({ checked: true, findings: 0 });
  });

  it('cfstats with snapshots 21× the live data: snapshot finding with both sizes', () => {
    const r = interpretText(corpus('nodetool/cfstats_snapshots_21x_live_dse.txt'));
    expect(r.kind).toBe('nodetool.tablestats');
    const s = r.findings.find((f) => f.id === 'table.snapshots-vs-live' && /monitoring_payload/.test(f.table ?? ''));
    expect(s).toBeDefined();
    expect(s!.severity).not.toBe('info');
    expect(s!.title).toMatch(/2\d\.\d× the live data/);
    expect(s!.recommendation).toMatch(/clearsnapshot/);
  });

  it('cfstats of repair_history with a 668 MB partition: large partition, above the warning level', () => {
    const r = interpretText(corpus('nodetool/cfstats_repair_history_668mb_partition_dse.txt'));
    const p = r.findings.find((f) => f.id === 'table.partition-size' && /repair_history/.test(f.table ?? ''));
    expect(p).toBeDefined();
    expect(['warning', 'critical']).toContain(p!.severity);
    expect(p!.title).toMatch(/6\d\d(\.\d+)? MiB/);
    expect(r.findings.some((f) => f.id === 'table.snapshots-vs-live' && /repair_history/.test(f.table ?? ''))).toBe(true);
  });

  it('healthy compactionstats (2 pending, keeping up): no compaction finding', () => {
    const r = interpretText(corpus('nodetool/compactionstats_pending2_cassandra_docs.txt'));
    expect(r.kind).toBe('nodetool.compactionstats');
    expect(r.findings.filter((f) => f.id.startsWith('compaction'))).toEqual([]);
  });

  it('healthy tablehistograms (≤ 2 SSTables per read, 17 KB partitions): no table finding', () => {
    const r = interpretText(corpus('nodetool/tablehistograms_cassandra_docs.txt'));
    expect(r.kind).toBe('nodetool.tablehistograms');
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('unknown text lists what is supported', () => {
    const r = interpretText('SELECT * FROM foo;');
    expect(r.ok).toBe(false);
    expect(r.supported).toContain('nodetool.status');
  });
});

describe.skipIf(!HAVE_CORPUS)('interpret on the labelled log samples', () => {
  it('gc.log with multi-second stops: both causes told apart (GC work and time to safepoint)', () => {
    const r = interpretText(corpus('logs/gclog_safepoint_pauses_slow_disk.txt'));
    expect(r.kind).toBe('logs');
    const ttsp = r.findings.find((f) => f.id === 'log.time-to-safepoint');
    const work = r.findings.find((f) => f.id === 'log.stop-the-world');
    expect(ttsp?.severity).toBe('critical');
    expect(ttsp?.recommendation).toMatch(/disk/);
    expect(work?.severity).toBe('critical');
    expect(work?.title).toMatch(/up to (6|7|8|9|10)\d{3} ms/);
  });

  it('system.log with tombstones, an 895 MiB partition and a full chunk cache: all three', () => {
    const r = interpretText(corpus('logs/systemlog_tombstones_large_partition_chunkcache_montecristo.txt'));
    const ids = r.findings.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining(['log.tombstones', 'log.large-partition', 'log.buffer-pool-full']));
    expect(r.findings.find((f) => f.id === 'log.tombstones')?.table).toBe('testks.reports');
    expect(r.findings.find((f) => f.id === 'log.large-partition')?.title).toMatch(/pingid.activation_codes_by_user wrote a 89\d MiB partition/);
  });

  it('G1 young pauses of 200–729 ms: a GC finding with the worst pause and its time', () => {
    const r = interpretText(corpus('logs/systemlog_g1_young_gc_200_729ms_solr_dse677.txt'));
    const gc = r.findings.find((f) => f.id === 'log.gc-pause');
    expect(gc?.severity).toBe('warning');
    expect(gc?.title).toMatch(/the longest 729 ms/);
    expect(gc?.evidence.join('\n')).toMatch(/2020-01-10T17:13:39/);
  });

  it('StatusLogger dump: read as a log, with WRITE_REMOTE 13,094 pending critical, compaction backlog and the drop', () => {
    const r = interpretText(corpus('logs/statuslogger_dse6_dropped_rangeslice_write_remote_pending.txt'));
    expect(r.kind).toBe('logs');
    const pending = r.findings.filter((f) => f.id === 'log.threadpool-pending');
    expect(pending[0]).toMatchObject({ severity: 'critical' });
    expect(pending[0]!.title).toMatch(/WRITE_REMOTE reached 13094/);
    expect(pending.some((f) => /CompactionExecutor reached 52/.test(f.title))).toBe(true);
    expect(r.findings.some((f) => f.id === 'log.dropped')).toBe(true);
  });
});

describe('log GC pauses need a pattern', () => {
  it('one 289 ms pause is info; five pauses over 200 ms are a warning', () => {
    const line = (ms: number, s: number) =>
      `INFO  [Service Thread] 2026-11-21 10:00:${String(s).padStart(2, '0')},000 GCInspector.java:294 - G1 Young Generation GC in ${ms}ms.  G1 Eden Space: 100 -> 0`;
    const one = interpretText([line(289, 1), line(120, 2)].join('\n'));
    expect(one.findings.map((f) => `${f.severity}:${f.id}`)).toEqual(['info:log.gc-pause']);
    const many = interpretText([250, 260, 270, 280, 290].map((ms, i) => line(ms, i)).join('\n'));
    expect(many.findings.map((f) => `${f.severity}:${f.id}`)).toEqual(['warning:log.gc-pause']);
  });
});
