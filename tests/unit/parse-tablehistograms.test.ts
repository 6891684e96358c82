import { describe, expect, it } from 'vitest';
import { parseTablehistograms } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const DOCS = 'nodetool/tablehistograms_cassandra_docs.txt';
const C41 = 'local-runs/cassandra-4.1.10-single/nodetool_n41_tablehistograms_system_local.txt';

// 3.x/4.0 column order, printed "%-10s%10s%18s%18s%18s%18s" (TableHistograms.java, cassandra-3.11/4.0).
const row = (label: string, ...v: string[]) =>
  label.padEnd(10) +
  v[0]!.padStart(10) +
  v
    .slice(1)
    .map((x) => x.padStart(18))
    .join('');
const block = (title: string, values: string[][], pre: string[] = []) => [
  ...pre,
  title,
  row('Percentile', 'SSTables', 'Write Latency', 'Read Latency', 'Partition Size', 'Cell Count'),
  row('', '', '(micros)', '(micros)', '(bytes)', ''),
  ...['50%', '75%', '95%', '98%', '99%', 'Min', 'Max'].map((p, i) => row(p, ...values[i]!)),
  '',
];
const NO_SSTABLES = block(
  'shop/carts histograms',
  Array.from({ length: 7 }, () => ['0.00', '35.43', '0.00', 'NaN', 'NaN']),
  ["No SSTables exists, unable to calculate 'Partition Size' and 'Cell Count' percentiles"],
);
const WIDE = block('shop/events histograms', [
  ['1.00', '20.50', '300.00', '1331', '17'],
  ['2.00', '24.60', '545.79', '2759', '35'],
  ['5.00', '42.51', '3379.39', '88148', '1109'],
  ['6.00', '51.01', '5839.59', '315852', '3311'],
  ['8.00', '61.21', '8409.01', '1131752', '9887'],
  ['0.00', '8.24', '20.50', '43', '1'],
  ['14.00', '1955.67', '223875.79', '802187438', '4866323'],
]);
// 4.0+ without arguments: one block per table.
const ALL_TABLES = [...NO_SSTABLES, ...WIDE].join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseTablehistograms(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool tablehistograms / cfhistograms', () => {
  it.skipIf(!HAVE_CORPUS)('docs sample: at most 2 SSTables per read, ~17 KB partitions of ~103 cells, tail stalls', () => {
    const r = parseTablehistograms(corpus(DOCS));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.tables).toHaveLength(1);
    const t = r.value.tables[0]!;
    expect(t.sstablesPerRead?.max).toBe(2);
    expect(t.partitionSizeBytes).toMatchObject({ p50: 17084, p99: 17084, min: 14238 });
    expect(t.cellCount).toMatchObject({ p50: 103, max: 103 });
    expect(t.readLatencyMicros).toMatchObject({ p99: 785.94, max: 17436.92 });
    expect(t.writeLatencyMicros).toMatchObject({ p50: 73.46, max: 12108.97 });
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.1/5.0 column order (Read Latency first) is read by name', () => {
    const r = parseTablehistograms(corpus(C41));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.tables[0]!;
    expect(t).toMatchObject({ keyspace: 'system', table: 'local' });
    expect(t.readLatencyMicros).toMatchObject({ p50: 2759, max: 35425 });
    expect(t.writeLatencyMicros).toMatchObject({ p50: 642, max: 2299 });
    expect(t.sstablesPerRead).toMatchObject({ p50: 2, max: 7 });
    expect(t.partitionSizeBytes).toMatchObject({ min: 643, max: 770 });
    expect(t.cellCount?.max).toBe(42);
  });

  it('several tables (4.0+ without arguments), NaN percentiles and the no-SSTable message', () => {
    const r = parseTablehistograms(ALL_TABLES);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.tables.map((t) => `${t.keyspace}.${t.table}`)).toEqual(['shop.carts', 'shop.events']);
    const carts = r.value.tables[0]!;
    expect(carts.partitionSizeBytes).toEqual({ p50: null, p75: null, p95: null, p98: null, p99: null, min: null, max: null });
    expect(carts.notes[0]).toMatch(/No SSTables exists/);
    const events = r.value.tables[1]!;
    expect(events.partitionSizeBytes?.max).toBe(802187438);
    expect(events.sstablesPerRead?.p99).toBe(8);
    expect(events.readLatencyMicros?.max).toBe(223875.79);
  });

  it('prompt and CRLF; ok:false on unrelated, empty, proxyhistograms and error text', () => {
    const r = parseTablehistograms(['$ nodetool cfhistograms shop events', ...WIDE].join('\r\n'));
    expect(r.ok && r.value.tables[0]!.cellCount?.max).toBe(4866323);
    for (const bad of ['', 'Mode: NORMAL', 'Percentile  Read Latency  Write Latency  Range Latency\n50%  1.0  2.0  3.0']) {
      expect(parseTablehistograms(bad).ok).toBe(false);
    }
    const e = parseTablehistograms('error: Unknown keyspace/cf pair (a.b)');
    expect(e.ok === false && e.reason).toMatch(/Unknown keyspace/);
  });

  it('keeps complete rows of a cut block with a warning; refuses a block cut before its rows', () => {
    const cut = parseTablehistograms(WIDE.slice(0, 6).join('\n'));
    expect(cut.ok).toBe(true);
    if (cut.ok) {
      expect(cut.value.tables[0]!.sstablesPerRead).toMatchObject({ p50: 1, p75: 2, p95: 5, max: null });
      expect(cut.warnings.join(' ')).toMatch(/truncated/);
    }
    expect(parseTablehistograms(WIDE.slice(0, 3).join('\n')).ok).toBe(false);
  });

  it('is total on every truncation of the synthetic sample', () => {
    expectTotalOnEveryTruncation(ALL_TABLES);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real tablehistograms sample', () => {
    const files = [...corpusFiles('nodetool', /tablehistograms/), ...corpusFiles('local-runs', /_tablehistograms_.*\.txt$/)];
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      expect(parseTablehistograms(corpus(f)).ok, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });
});
