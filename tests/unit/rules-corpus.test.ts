import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

// One test per public nodetool sample, asserting what SOURCES.tsv says an expert concludes.
const ids = (r: ReturnType<typeof interpretText>) => r.findings.map((f) => `${f.severity}:${f.id}`);

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
