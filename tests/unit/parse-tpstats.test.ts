import { describe, expect, it } from 'vitest';
import { parseTpstats } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const DSE = 'nodetool/tpstats_dse67_mutation_dropped_1096_readrepair_queue.txt';
const DOCS_40 = 'nodetool/tpstats_c4_healthy_baseline_cassandra_docs.txt';
const C41 = 'local-runs/cassandra-4.1.10-single/nodetool_n41_tpstats.txt';
const C50 = 'local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node2_tpstats.txt';

// Cassandra 3.11 layout, written here following TpStatsPrinter.java (cassandra-3.11):
// pools "%-30s%10s%10s%15s%10s%18s", then "%n%-20s%10s" "Message type" "Dropped" and "%-20s%10s" rows.
const pool3 = (n: string, ...v: (string | number)[]) =>
  n.padEnd(30) + String(v[0]).padStart(10) + String(v[1]).padStart(10) + String(v[2]).padStart(15) + String(v[3]).padStart(10) + String(v[4]).padStart(18);
const SYNTH_311 = [
  pool3('Pool Name', 'Active', 'Pending', 'Completed', 'Blocked', 'All time blocked'),
  pool3('MutationStage', 32, 1500, 3102461222, 0, 0),
  pool3('ReadStage', 32, 6600, 3420385815, 0, 0),
  pool3('Native-Transport-Requests', 128, 0, 98765, 3, 12345),
  pool3('MemtableFlushWriter', 2, 14, 7452, 1, 927),
  '',
  'Message type'.padEnd(20) + 'Dropped'.padStart(10),
  'READ'.padEnd(20) + '4103953'.padStart(10),
  'MUTATION'.padEnd(20) + '2651071'.padStart(10),
  'RANGE_SLICE'.padEnd(20) + '1681'.padStart(10),
].join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseTpstats(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool tpstats', () => {
  it.skipIf(!HAVE_CORPUS)('DSE 6.7 TPC layout: 1096 dropped MUTATIONs and read-repair messages waiting ~0.8 s', () => {
    const r = parseTpstats(corpus(DSE));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.format).toBe('dse');
    expect(r.value.dropped.MUTATION).toBe(1096);
    const mutation = r.value.droppedMessages.find((d) => d.type === 'MUTATION')!;
    expect(mutation.queueLatencyMicros?.max).toBeCloseTo(167772.16);
    const rr = r.value.droppedMessages.find((d) => d.type === 'READ_REPAIR')!;
    expect(rr.dropped).toBe(0);
    expect(rr.queueLatencyMicros).toEqual({ p50: 2621.44, p95: 805306.37, p99: 805306.37, max: 939524.1 });
    expect(r.value.droppedMessages.find((d) => d.type === 'SNAPSHOT')!.queueLatencyMicros).toBeNull();
    const pools = Object.fromEntries(r.value.pools.map((p) => [p.name, p]));
    expect(pools['ReadRepairStage']!.completed).toBe(71161);
    // "0 (N/A)": pending 0, backpressure not reported; TPC pools print N/A for Blocked.
    expect(pools['TPC/all/WRITE_REMOTE']).toMatchObject({
      pending: 0,
      pendingBackpressure: null,
      delayed: null,
      completed: 2882151,
      blocked: null,
      allTimeBlocked: 0,
    });
    expect(pools['TPC/all/EVENTLOOP_SELECT_CALLS']!.active).toBe(7);
    expect(r.value.totals.dropped).toBe(1096);
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.0 docs healthy baseline: nothing pending, blocked or dropped', () => {
    const r = parseTpstats(corpus(DOCS_40));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.format).toBe('4.0');
    expect(r.value.pools).toHaveLength(25);
    expect(r.value.totals).toEqual({ active: 2, pending: 0, blocked: 0, allTimeBlocked: 0, dropped: 0 });
    expect(r.value.pools.find((p) => p.name === 'ReadStage')).toMatchObject({ active: 2, completed: 12 });
    expect(Object.keys(r.value.dropped)).toHaveLength(11);
    expect(r.value.droppedMessages.find((d) => d.type === 'READ')!.queueLatencyMicros).toBeNull();
    expect(r.value.droppedMessages.find((d) => d.type === 'RANGE_SLICE')!.queueLatencyMicros).toEqual({ p50: 0, p95: 0, p99: 0, max: 0 });
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.1 and 5.0 TableBuilder layout with verb message types', () => {
    const r41 = parseTpstats(corpus(C41));
    expect(r41.ok && r41.value.format).toBe('4.1+');
    if (!r41.ok) return;
    expect(r41.value.pools).toHaveLength(16);
    expect(r41.value.dropped['MUTATION_REQ']).toBe(0);
    expect(r41.value.droppedMessages.length).toBeGreaterThan(80);

    const r50 = parseTpstats(corpus(C50));
    expect(r50.ok).toBe(true);
    if (!r50.ok) return;
    expect(r50.value.format).toBe('4.1+');
    expect(r50.value.pools.find((p) => p.name === 'Native-Transport-Requests')!.completed).toBe(23390);
    expect(r50.value.pools.find((p) => p.name === 'MutationStage')).toMatchObject({ active: 0, pending: 0, completed: 32278, blocked: 0, allTimeBlocked: 0 });
    expect(r50.value.droppedMessages.find((d) => d.type === 'READ_RSP')!.queueLatencyMicros).toEqual({ p50: 3973, p95: 11864, p99: 17084, max: 126934 });
    expect(r50.value.totals.dropped).toBe(0);
    expect(r50.warnings).toEqual([]);
  });

  it('3.11 layout (synthetic, TpStatsPrinter 3.11 widths): pending and blocked pools, drops without latencies', () => {
    const r = parseTpstats(SYNTH_311);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.format).toBe('3.x');
    expect(r.value.pools.find((p) => p.name === 'Native-Transport-Requests')).toMatchObject({ active: 128, blocked: 3, allTimeBlocked: 12345 });
    expect(r.value.pools.find((p) => p.name === 'MemtableFlushWriter')).toMatchObject({ pending: 14, allTimeBlocked: 927 });
    expect(r.value.totals).toMatchObject({ pending: 8114, blocked: 4, allTimeBlocked: 13272 });
    expect(r.value.dropped).toEqual({ READ: 4103953, MUTATION: 2651071, RANGE_SLICE: 1681 });
    expect(r.value.droppedMessages.every((d) => d.queueLatencyMicros === null)).toBe(true);
  });

  it('trunk pool columns CPU[ms/s] and Allocations[mb/s] (synthetic, TpStatsPrinter trunk)', () => {
    const text = [
      'Pool Name          Active Pending Completed Blocked AllTimeBlocked CPU[ms/s] Allocations[mb/s]',
      'ReadStage          1      4       1200      0       0              35.5      12.25',
      '',
      'Message type          Dropped                  Latency waiting in queue (micros)',
      '                                     50%               95%               99%               Max',
      'READ                        7            123.00            456.00            789.00           1000.00',
    ].join('\n');
    const r = parseTpstats(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.pools[0]).toMatchObject({ name: 'ReadStage', active: 1, pending: 4, allTimeBlocked: 0, cpuMsPerSec: 35.5, allocationsMbPerSec: 12.25 });
    expect(r.value.droppedMessages[0]).toEqual({ type: 'READ', dropped: 7, queueLatencyMicros: { p50: 123, p95: 456, p99: 789, max: 1000 } });
  });

  it('accepts a prompt line, CRLF, log prefixes and indentation', () => {
    const pasted = ['user@db1:~$ nodetool -h 10.0.0.1 tpstats', ...SYNTH_311.split('\n').map((l) => `2026-01-02T03:04:05.123Z     ${l}`)].join('\r\n');
    const r = parseTpstats(pasted);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.pools).toHaveLength(4);
      expect(r.value.dropped.MUTATION).toBe(2651071);
    }
  });

  it('drops the usual shell prompt styles', () => {
    for (const prompt of [
      '$ nodetool tpstats',
      '[root@db1 ~]# nodetool tpstats',
      '(venv) ops@db1:~$ /opt/cassandra/bin/nodetool -h db1 tpstats',
      'PS C:\\> C:\\cassandra\\bin\\nodetool.bat tpstats',
      'sudo nodetool -u cassandra tpstats',
    ]) {
      const r = parseTpstats(`${prompt}\n${SYNTH_311}`);
      expect(r.ok && r.value.pools.map((p) => p.name)[0], prompt).toBe('MutationStage');
      expect(r.ok && r.warnings, prompt).toEqual([]);
    }
  });

  it('says why on empty, unrelated and error text', () => {
    for (const bad of ['', '   \n  ', 'ReleaseVersion: 5.0.9', 'Datacenter: dc1\nUN 1.2.3.4']) {
      const r = parseTpstats(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/empty|header/);
    }
    const e = parseTpstats("nodetool: Failed to connect to '127.0.0.1:7199' - ConnectException: 'Connection refused'.");
    expect(e.ok === false && e.reason).toMatch(/error instead of its report/);
  });

  it('keeps what is there when the tail is cut, refuses when the header is cut', () => {
    const cutTail = SYNTH_311.split('\n').slice(0, 4).join('\n');
    const r = parseTpstats(cutTail);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.pools).toHaveLength(3);
      expect(r.warnings.join(' ')).toMatch(/truncated/);
      expect(r.value.droppedSection).toBe('missing');
      expect(r.value.totals.dropped).toBeNull();
    }
    // Cut right after the "Message type  Dropped" header: the section is there but empty, counts still unknown.
    const cutRows = parseTpstats(SYNTH_311.split('\n').slice(0, 7).join('\n'));
    expect(cutRows.ok && [cutRows.value.droppedSection, cutRows.value.totals.dropped]).toEqual(['empty', null]);
    const whole = parseTpstats(SYNTH_311);
    expect(whole.ok && [whole.value.droppedSection, whole.value.totals.dropped]).toEqual(['present', 4103953 + 2651071 + 1681]);
    const cutHead = SYNTH_311.split('\n').slice(1, 5).join('\n');
    expect(parseTpstats(cutHead).ok).toBe(false);
  });

  it('is total on every truncation of the synthetic samples', () => {
    expectTotalOnEveryTruncation(SYNTH_311);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real tpstats sample', () => {
    const files = [...corpusFiles('nodetool', /tpstats/), ...corpusFiles('local-runs', /_tpstats\.txt$/)];
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const full = parseTpstats(corpus(f));
      expect(full.ok, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });
});
