import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../mcp-server/src/cli/main.js';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseCqlSchema, type CqlSchema } from '../../mcp-server/src/core/parse/schema/index.js';
import { schemaRules, schemaTableRows } from '../../mcp-server/src/core/rules/schema.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { reviewSchema, schemaRuleInput } from '../../mcp-server/src/ops/review-schema.js';
import { labSnapshot as labSnapshotOf } from './schema-migration-lab-snapshot.js';

const FIX = resolve(import.meta.dirname, '../fixtures/schema');
const read = (f: string) => readFileSync(join(FIX, f), 'utf8');

function parsed(f: string): CqlSchema {
  const r = parseCqlSchema(read(f));
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

const ids = (schema: CqlSchema, extra: Parameters<typeof schemaRules>[0] extends infer T ? Partial<T> : never = {}) =>
  schemaRules({ schema, ...extra })
    .flatMap((o) => o.findings)
    .map((f) => `${f.severity}:${f.id}:${f.table ?? f.title}`)
    .sort();

const labSnapshot = () => labSnapshotOf('cassandra-5.0-3node');

describe('parseCqlSchema on DESCRIBE output', () => {
  it('reads keyspaces, tables, indexes, views and types of a 4.1 schema', () => {
    const s = parsed('shop-4.1.cql');
    expect(s.keyspaces.map((k) => [k.name, k.strategy, k.replication])).toEqual([
      ['scratch', 'SimpleStrategy', { replication_factor: 1 }],
      ['shop', 'NetworkTopologyStrategy', { dc1: 3, dc2: 3 }],
      ['analytics', 'NetworkTopologyStrategy', { dc1: 1 }],
    ]);
    expect(s.tables.map((t) => `${t.keyspace}.${t.name}`)).toEqual(['scratch.samples', 'shop.orders', 'shop.product_by_sku', 'shop.cart', 'analytics.events']);
    const orders = s.tables.find((t) => t.name === 'orders')!;
    expect(orders.partitionKey).toEqual(['customer_id']);
    expect(orders.clustering).toEqual([{ name: 'order_id', order: 'DESC' }]);
    expect(orders.columns.find((c) => c.name === 'items')?.type).toBe('list<frozen<line_item>>');
    expect(orders.options.compaction).toEqual({ class: 'SizeTieredCompactionStrategy', options: { max_threshold: '32', min_threshold: '4' } });
    expect(orders.options.compression).toEqual({ class: 'LZ4Compressor', enabled: true, chunkLengthKb: 16 });
    expect(orders.options).toMatchObject({
      gcGraceSeconds: 864000,
      defaultTtl: 0,
      speculativeRetry: '99p',
      caching: { keys: 'ALL', rowsPerPartition: 'NONE' },
    });
    const events = s.tables.find((t) => t.name === 'events')!;
    expect(events.partitionKey).toEqual(['day', 'bucket']);
    expect(events.clustering.map((c) => `${c.name} ${c.order}`)).toEqual(['ts DESC', 'id ASC']);
    expect(events.options.compaction?.options['compaction_window_unit']).toBe('DAYS');
    expect(s.tables.find((t) => t.name === 'product_by_sku')?.partitionKey).toEqual(['sku']); // inline PRIMARY KEY
    expect(s.indexes).toEqual([
      { keyspace: 'shop', table: 'orders', name: 'orders_status_idx', target: 'status', custom: false, using: null },
      { keyspace: 'shop', table: 'orders', name: 'orders_total_sai', target: 'total', custom: true, using: 'StorageAttachedIndex' },
    ]);
    expect(s.views).toMatchObject([{ keyspace: 'shop', name: 'orders_by_status', baseKeyspace: 'shop', baseTable: 'orders', partitionKey: ['status'] }]);
    expect(s.types).toEqual([
      {
        keyspace: 'shop',
        name: 'line_item',
        fields: [
          { name: 'sku', type: 'text' },
          { name: 'qty', type: 'int' },
          { name: 'price', type: 'decimal' },
        ],
      },
    ]);
  });

  it('reads 3.11 output: COMPACT STORAGE, counters, SASI with OPTIONS, 99PERCENTILE', () => {
    const s = parsed('legacy-3.11.cql');
    expect(s.tables.find((t) => t.name === 'legacy_kv')?.options.compactStorage).toBe(true);
    expect(s.tables.find((t) => t.name === 'page_views')?.options.compactStorage).toBe(false);
    expect(s.tables.find((t) => t.name === 'page_views')?.columns.find((c) => c.name === 'views')).toEqual({ name: 'views', type: 'counter', kind: 'regular' });
    expect(s.tables[0]!.options.raw['dclocal_read_repair_chance']).toBe(0.1);
    expect(s.indexes[0]).toMatchObject({ using: 'org.apache.cassandra.index.sasi.SASIIndex', custom: true });
  });

  it('reads ScyllaDB output: tablets, ICS, sstable_compression, tombstone_gc', () => {
    const s = parsed('scylla-2025.1.cql');
    expect(s.keyspaces.map((k) => [k.name, k.tablets?.enabled])).toEqual([
      ['iot', true],
      ['legacy', false],
    ]);
    const m = s.tables[0]!;
    expect(m.options.compaction?.class).toBe('IncrementalCompactionStrategy');
    expect(m.options.compression).toEqual({ class: 'LZ4Compressor', enabled: true, chunkLengthKb: null });
    expect(m.options.tombstoneGcMode).toBe('repair');
  });

  it('reads 5.0 column forms: vector types, masked columns, static, quoted names, block comments', () => {
    const text = `/*
Warning: Table ks.legacy omitted because it has constructs not compatible with CQL (was created via legacy API).
CREATE TABLE ks.legacy (key blob PRIMARY KEY);
*/
CREATE TABLE "Ks"."Users" (
    id uuid,
    bucket int,
    "Email" text MASKED WITH mask_inner(1, null),
    embedding vector<float, 3>,
    owner text static,
    PRIMARY KEY (id, bucket)
) WITH compaction = {'class': 'org.apache.cassandra.db.compaction.UnifiedCompactionStrategy', 'scaling_parameters': 'T4'}
    AND gc_grace_seconds = 864000;`;
    const r = parseCqlSchema(text);
    if (!r.ok) throw new Error(r.reason);
    const t = r.value.tables[0]!;
    expect(r.value.tables).toHaveLength(1);
    expect([t.keyspace, t.name]).toEqual(['Ks', 'Users']);
    expect(t.columns).toEqual([
      { name: 'id', type: 'uuid', kind: 'partition_key' },
      { name: 'bucket', type: 'int', kind: 'clustering' },
      { name: 'Email', type: 'text', kind: 'regular' },
      { name: 'embedding', type: 'vector<float, 3>', kind: 'regular' },
      { name: 'owner', type: 'text', kind: 'static' },
    ]);
    expect(t.options.compaction).toEqual({ class: 'UnifiedCompactionStrategy', options: { scaling_parameters: 'T4' } });
  });

  it('is total: every line-truncation parses or says why; garbage and prose are refused', () => {
    const lines = read('shop-4.1.cql').split('\n');
    for (let i = 0; i <= lines.length; i++) {
      const r = parseCqlSchema(lines.slice(0, i).join('\n'));
      if (!r.ok) expect(r.reason).not.toMatch(/^parser error/);
    }
    const cut = parseCqlSchema(lines.slice(0, 40).join('\n'));
    expect(cut.ok && cut.warnings.some((w) => /truncated/.test(w))).toBe(true);
    expect(parseCqlSchema('').ok).toBe(false);
    expect(parseCqlSchema('CREATE TABLE (((((').ok).toBe(false);
    expect(parseCqlSchema('we will create table layouts later').ok).toBe(false);
    expect(parseCqlSchema(42 as unknown as string).ok).toBe(false);
  });

  it('detect() calls DESCRIBE output cql.schema and interpret runs the schema rules on it', () => {
    expect(detect(read('shop-4.1.cql'))).toMatchObject({ ok: true, kind: 'cql.schema' });
    const r = interpretText(read('legacy-3.11.cql'));
    expect(JSON.stringify(r)).toContain('schema.counter-mixed');
  });
});

describe('schema rules', () => {
  it('flag the planted problems of the 4.1 schema (no sizes: STCS check skipped, multi-DC from NTS keyspaces)', () => {
    const s = parsed('shop-4.1.cql');
    expect(ids(s)).toEqual([
      'critical:schema.simple-strategy:keyspace scratch uses SimpleStrategy in a 2-DC cluster',
      'info:schema.chunk-length-large:shop.product_by_sku',
      'info:schema.sai-index:shop.orders',
      'warning:schema.gc-grace-zero:shop.cart',
      'warning:schema.materialized-view:shop.orders',
      'warning:schema.rf-one:keyspace analytics keeps 1 replica in dc1',
      'warning:schema.rf-one:keyspace scratch keeps 1 replica',
      'warning:schema.secondary-index:shop.orders',
    ]);
    const stcs = schemaRules({ schema: s }).find((o) => o.rule === 'schema.stcs-large-table')!;
    expect(stcs.checked).toBe(false);
    expect(stcs.skippedBecause).toMatch(/table sizes not known/);
  });

  it('call the 3.11 counter table invalid and SASI experimental', () => {
    expect(ids(parsed('legacy-3.11.cql'))).toEqual([
      'critical:schema.counter-mixed:metrics.page_views',
      'info:schema.chunk-length-large:metrics.legacy_kv',
      'info:schema.chunk-length-large:metrics.page_views',
      'info:schema.simple-strategy:keyspace metrics uses SimpleStrategy',
      'warning:schema.sasi-index:metrics.legacy_kv',
    ]);
  });

  it('ScyllaDB: tombstone_gc repair mode is exempt from the gc_grace check; MVs are info', () => {
    const s = parsed('scylla-2025.1.cql');
    expect(ids(s, { product: 'scylla' })).toEqual(['warning:schema.gc-grace-zero:legacy.sessions']);
  });

  it('STCS on a large table is flagged only with sizes, above the 10 GiB floor', () => {
    const s = parsed('shop-4.1.cql');
    const facts = (mib: number) => [{ node: '10.0.0.1', tables: [{ keyspace: 'shop', table: 'orders', diskMiB: mib }] }];
    expect(ids(s, { tableFacts: facts(40 * 1024) }).filter((x) => x.includes('stcs'))).toEqual(['warning:schema.stcs-large-table:shop.orders']);
    expect(ids(s, { tableFacts: facts(2 * 1024) }).filter((x) => x.includes('stcs'))).toEqual([]);
  });
});

describe('schema + the real lab capture (Cassandra 5.0.9, 3 nodes)', () => {
  const snap = labSnapshot();
  const s = parsed('lab-5.0-fixture_ks.cql');

  it('joins per-table numbers: size per node, tombstones and read/write counts from the virtual tables', () => {
    const input = schemaRuleInput(s, snap);
    expect(input.product).toBe('cassandra');
    expect(input.datacenters).toEqual(['datacenter1']);
    const rows = schemaTableRows(input);
    expect(rows).toEqual([
      expect.objectContaining({ table: 'fixture_ks.readings', compaction: 'SizeTieredCompactionStrategy', chunkKb: 16, diskMiBMaxNode: 1, tombstonesMax: 86 }),
    ]);
    // 1 MiB per node is far below the STCS floor: checked, nothing to say; RF 3 NTS: no replication finding.
    const out = schemaRules(input);
    expect(out.find((o) => o.rule === 'schema.stcs-large-table')).toMatchObject({ checked: true, findings: [] });
    expect(out.flatMap((o) => o.findings)).toEqual([]);
  });

  it('gc_grace 0 on a table whose reads met tombstones is critical, with the measured numbers', () => {
    const zero = parseCqlSchema(read('lab-5.0-fixture_ks.cql').replace('gc_grace_seconds = 864000', 'gc_grace_seconds = 0'));
    expect(zero.ok).toBe(true);
    if (!zero.ok) return;
    const f = schemaRules(schemaRuleInput(zero.value, snap)).flatMap((o) => o.findings);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ id: 'schema.gc-grace-zero', severity: 'critical', confidence: 'high' });
    expect(f[0]!.evidence.join(' ')).toContain('tombstones per read: max 86, p99 50');
  });

  it('64 KiB chunks become a warning on the lab table, which the capture read more than it wrote', () => {
    const big = parseCqlSchema(read('lab-5.0-fixture_ks.cql').replace("'chunk_length_in_kb': '16'", "'chunk_length_in_kb': '64'"));
    if (!big.ok) throw new Error(big.reason);
    const input = schemaRuleInput(big.value, snap);
    const f = schemaRules(input).flatMap((o) => o.findings);
    const reads = snap.nodes.reduce((a, n) => a + (n.facts.tables?.find((t) => t.table === 'readings')?.localRead?.count ?? 0), 0);
    const writes = snap.nodes.reduce((a, n) => a + (n.facts.tables?.find((t) => t.table === 'readings')?.localWrite?.count ?? 0), 0);
    expect(reads / writes).toBeGreaterThan(0); // real counts present
    const expected = reads / writes >= 2 ? 'warning' : 'info';
    expect(f).toEqual([expect.objectContaining({ id: 'schema.chunk-length-large', severity: expected })]);
    expect(f[0]!.evidence[1]).toContain(`(${reads} / ${writes}, snapshot)`);
  });
});

describe('review_schema over MCP and review-schema on the CLI', () => {
  it('the tool reviews pasted text and a file, and refuses garbage with a fix', async () => {
    const server = createServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(b);
    const r = await client.callTool({ name: 'review_schema', arguments: { text: read('legacy-3.11.cql') } });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent as { counts: { tables: number }; findings: { id: string; severity: string }[] };
    expect(sc.counts.tables).toBe(2);
    expect(sc.findings[0]).toMatchObject({ id: 'schema.counter-mixed', severity: 'critical' });
    const f = await client.callTool({ name: 'review_schema', arguments: { file: join(FIX, 'shop-4.1.cql') } });
    expect((f.structuredContent as { counts: { views: number } }).counts.views).toBe(1);
    const bad = await client.callTool({ name: 'review_schema', arguments: { text: 'hello' } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('NOT_A_SCHEMA');
    const two = await client.callTool({ name: 'review_schema', arguments: { text: 'x', file: 'y' } });
    expect(JSON.stringify(two.content)).toContain('exactly one schema source');
    await client.close();
  });

  it('reviewSchema reads a file and infers ScyllaDB from tablets', async () => {
    const r = await reviewSchema({ file: join(FIX, 'scylla-2025.1.cql') });
    expect(r.product).toBe('scylla');
    expect(r.tables.map((t) => t.table)).toEqual(['iot.measurements', 'legacy.sessions']);
  });

  it('the CLI verb is registered with --json', () => {
    const cmd = buildProgram().commands.find((c) => c.name() === 'review-schema');
    expect(cmd!.options.map((o) => o.long)).toEqual(expect.arrayContaining(['--json', '--hosts', '--lab', '--bundle']));
  });
});
