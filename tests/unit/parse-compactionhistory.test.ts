import { describe, expect, it } from 'vitest';
import { parseCompactionhistory } from '../../mcp-server/src/core/parse/nodetool/index.js';

/** Left-aligned columns padded to the widest cell, one space apart: Cassandra's TableBuilder. */
function tableBuilder(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join(' '));
}

const ID1 = '5a1c0f30-0000-11ef-8000-000000000001';
const ID2 = '5a1c0f30-0000-11ef-8000-000000000002';
// 4.x layout (CompactionHistoryPrinter.java): "Compaction History: " then the table; rows_merged has spaces.
const C4 = [
  'Compaction History: ',
  ...tableBuilder([
    ['id', 'keyspace_name', 'columnfamily_name', 'compacted_at', 'bytes_in', 'bytes_out', 'rows_merged'],
    [ID1, 'shop', 'orders', '2026-01-02T10:11:12.345', '104857600', '73400320', '{1:1200, 2:340, 4:12}'],
    [ID2, 'system', 'local', '2026-01-02T09:00:00.001', '10240', '5120', '{4:1}'],
  ]),
].join('\n');
// 5.0 adds compaction_properties.
const C5 = [
  'Compaction History: ',
  ...tableBuilder([
    ['id', 'keyspace_name', 'columnfamily_name', 'compacted_at', 'bytes_in', 'bytes_out', 'rows_merged', 'compaction_properties'],
    [ID1, 'shop', 'orders', '2026-01-02T10:11:12.345', '2048', '1024', '{1:3, 2:1}', '{compaction_type:Compaction}'],
  ]),
].join('\n');
// ScyllaDB native nodetool (scylla-nodetool.cc compactionhistory_operation): byte columns right-aligned,
// rows_merged left empty.
const SCYLLA = [
  'Compaction History:',
  'id                                   keyspace_name columnfamily_name compacted_at            bytes_in bytes_out rows_merged',
  `${ID1} ks            t1                2026-01-02T10:11:12.345    11000      5583            `,
].join('\n');
// Recent ScyllaDB adds shard_id, compaction_name, sstables_in/out … (docs/operating-scylla/nodetool-commands/compactionhistory.rst).
const SCYLLA_NEW = tableBuilder([
  ['id', 'shard_id', 'keyspace_name', 'columnfamily_name', 'compaction_name', 'compacted_at', 'bytes_in', 'bytes_out', 'rows_merged', 'sstables_in'],
  [ID2, '3', 'ks', 't2', 'Compact', '2026-01-02T10:11:12.914', '20000', '9000', '{1: 50, 2: 7}', '[{generation: x, origin: memtable, size: 5000}]'],
]).join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseCompactionhistory(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool compactionhistory', () => {
  it('4.x layout: rows_merged histogram with spaces', () => {
    const r = parseCompactionhistory(C4);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.entries).toHaveLength(2);
    expect(r.value.entries[0]).toEqual({
      id: ID1,
      keyspace: 'shop',
      table: 'orders',
      compactedAt: '2026-01-02T10:11:12.345',
      bytesIn: 104857600,
      bytesOut: 73400320,
      rowsMerged: { '1': 1200, '2': 340, '4': 12 },
      compactionProperties: null,
      extra: {},
    });
    expect(r.warnings).toEqual([]);
  });

  it('5.0 compaction_properties', () => {
    const r = parseCompactionhistory(C5);
    expect(r.ok && r.value.entries[0]).toMatchObject({ rowsMerged: { '1': 3, '2': 1 }, compactionProperties: { compaction_type: 'Compaction' } });
    expect(r.ok && r.value.columns).toContain('compaction_properties');
  });

  it('ScyllaDB: right-aligned bytes, empty rows_merged, extra columns kept as printed', () => {
    const r = parseCompactionhistory(SCYLLA);
    expect(r.ok && r.value.entries[0]).toMatchObject({ keyspace: 'ks', table: 't1', bytesIn: 11000, bytesOut: 5583, rowsMerged: null });
    const n = parseCompactionhistory(SCYLLA_NEW);
    expect(n.ok).toBe(true);
    if (!n.ok) return;
    expect(n.value.entries[0]).toMatchObject({ keyspace: 'ks', table: 't2', bytesIn: 20000, bytesOut: 9000, rowsMerged: { '1': 50, '2': 7 } });
    expect(n.value.entries[0]!.extra).toEqual({ shard_id: '3', compaction_name: 'Compact', sstables_in: '[{generation: x, origin: memtable, size: 5000}]' });
  });

  it('no history, prompt and CRLF; ok:false on unrelated, empty, error and a cut header', () => {
    expect(parseCompactionhistory('Compaction History: \nThere is no compaction history')).toMatchObject({ ok: true, value: { entries: [] } });
    const r = parseCompactionhistory(`$ nodetool compactionhistory\r\n${C4.replace(/\n/g, '\r\n')}`);
    expect(r.ok && r.value.entries).toHaveLength(2);
    const logged = parseCompactionhistory(
      C5.split('\n')
        .map((l) => `2026-01-02T03:04:05Z ${l}`)
        .join('\n'),
    );
    expect(logged.ok && logged.value.entries[0]!.compactionProperties).toEqual({ compaction_type: 'Compaction' });
    for (const bad of ['', 'pending tasks: 0', 'Compaction History: ']) {
      const b = parseCompactionhistory(bad);
      expect(b.ok).toBe(false);
      if (!b.ok) expect(b.reason).toMatch(/empty|header/);
    }
    expect(parseCompactionhistory('error: Connection refused').ok).toBe(false);
  });

  it('skips a row cut in the middle with a warning', () => {
    const lines = C4.split('\n');
    const cut = [...lines.slice(0, 3), lines[3]!.slice(0, 50)].join('\n');
    const r = parseCompactionhistory(cut);
    expect(r.ok && r.value.entries).toHaveLength(1);
    expect(r.ok && r.warnings.join(' ')).toMatch(/truncated/);
  });

  it('is total on every truncation of the synthetic samples (no capture in the corpus)', () => {
    for (const t of [C4, C5, SCYLLA, SCYLLA_NEW]) expectTotalOnEveryTruncation(t);
  });
});
