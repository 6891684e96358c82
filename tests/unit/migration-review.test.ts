import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../mcp-server/src/cli/main.js';
import { reviewMigration, upgradePath, type MigrationReview } from '../../mcp-server/src/core/migration/index.js';
import { parseCqlSchema, type CqlSchema } from '../../mcp-server/src/core/parse/schema/index.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { clusterFactsFromSnapshot, migrationReview } from '../../mcp-server/src/ops/migration.js';
import { renderMigrationReview } from '../../mcp-server/src/render/migration-review.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';
import { labSnapshot } from './schema-migration-lab-snapshot.js';

const FIX = resolve(import.meta.dirname, '../fixtures/schema');
const schemaOf = (f: string): CqlSchema => {
  const r = parseCqlSchema(readFileSync(join(FIX, f), 'utf8'));
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const item = (r: MigrationReview, id: string) => {
  const i = r.items.find((x) => x.id === id);
  if (!i) throw new Error(`no item ${id} in ${r.items.map((x) => x.id).join(', ')}`);
  return i;
};
const C = (version: string) => ({ product: 'cassandra' as const, version });
const S = (version: string) => ({ product: 'scylla' as const, version });

const PRE41_YAML = 'config/cassandra_yaml_pre41_unthrottled_compaction_10s_timeouts_no_dsnitch.txt';

describe('upgrade path', () => {
  it('3.11 → 5.0 goes through 4.1; 4.0 → 4.1 and 3.11 → 4.1 are direct; downgrades are blockers', () => {
    expect(upgradePath('3.11.16', '5.0.2')).toEqual({ path: ['3.11.16', '4.1', '5.0.2'], blocker: null });
    expect(upgradePath('3.11.16', '4.1.10').path).toEqual(['3.11.16', '4.1.10']);
    expect(upgradePath('4.0.13', '4.1.10').blocker).toBeNull();
    expect(upgradePath('5.0.2', '4.1.10').blocker).toMatch(/downgrades/);
  });
});

describe('Cassandra upgrade checklist', () => {
  it.skipIf(!HAVE_CORPUS)('on a real pre-4.1 cassandra.yaml: every unit-suffixed key gets its 4.1 name and unit (via renames.ts)', () => {
    const text = corpus(PRE41_YAML);
    const r = reviewMigration({ from: C('3.11.16'), to: C('4.1.10'), configText: text });
    const renamed = item(r, 'config.renamed');
    expect(renamed.status).toBe('action');
    expect(renamed.evidence).toContain('compaction_throughput_mb_per_sec → compaction_throughput (bare number was MiB/s; write the unit) — 4.1');
    expect(renamed.evidence.some((e) => e.startsWith('read_request_timeout_in_ms → read_request_timeout (bare number was ms'))).toBe(true);
    expect(item(r, 'config.removed').status).toBe('ok');
    expect(item(r, 'config.both-names').status).toBe('ok');
    // Going to 4.0 only, the 4.1 renames do not apply yet.
    const to40 = reviewMigration({ from: C('3.11.16'), to: C('4.0.13'), configText: text });
    expect(to40.items.find((i) => i.id === 'config.renamed')).toBeUndefined();
  });

  it.skipIf(!HAVE_CORPUS)('Thrift-era keys are blockers on 4.0+, and an old+new pair is a blocker', () => {
    const text = `${corpus(PRE41_YAML)}\nstart_rpc: false\nrpc_port: 9160\ncompaction_throughput: 64MiB/s\n`;
    const r = reviewMigration({ from: C('3.11.16'), to: C('4.1.10'), configText: text });
    const removed = item(r, 'config.removed');
    expect(removed.status).toBe('blocker');
    expect(removed.evidence.join('\n')).toMatch(/start_rpc.*removed in 4\.0/);
    expect(removed.evidence.join('\n')).toMatch(/rpc_port.*removed in 4\.0/);
    const both = item(r, 'config.both-names');
    expect(both).toMatchObject({ status: 'blocker' });
    expect(both.evidence).toEqual(['compaction_throughput_mb_per_sec and compaction_throughput both set (cassandra.yaml)']);
    expect(r.verdict).toBe('blocked');
  });

  // Until issue #17 COMPACT STORAGE was a blocker here; 4.0 keeps minimal support for compact tables and only
  // DROP COMPACT STORAGE is experimental and off by default (Config.java@cassandra-4.0.17), so it is an action.
  it('COMPACT STORAGE is an action on 3.11 → 4.x; SASI is an action; items without input say "not checked"', () => {
    const r = reviewMigration({ from: C('3.11.16'), to: C('5.0.2'), schema: schemaOf('legacy-3.11.cql') });
    expect(r.path).toEqual(['3.11.16', '4.1', '5.0.2']);
    expect(item(r, 'schema.compact-storage')).toMatchObject({ status: 'action', evidence: ['metrics.legacy_kv WITH COMPACT STORAGE (schema)'] });
    expect(item(r, 'schema.compact-storage').action).toMatch(/drop_compact_storage_enabled: false/);
    expect(item(r, 'schema.experimental').evidence[0]).toMatch(/SASI index legacy_kv_value_sasi/);
    expect(item(r, 'clients.protocol').evidence[0]).toMatch(/^not checked/);
    expect(item(r, 'procedure.storage-compatibility').status).toBe('action');
    expect(r.verdict).toBe('actions'); // no blocker left once COMPACT STORAGE is an action
    const noSchema = reviewMigration({ from: C('3.11.16'), to: C('4.1.10') });
    expect(item(noSchema, 'schema.compact-storage')).toMatchObject({ status: 'action' });
    expect(noSchema.warnings).toEqual(expect.arrayContaining(['no schema: schema items not checked']));
  });

  it('with the real 4.1.10 lab capture: Node.js driver on protocol v4 is ok, one schema version, one release', () => {
    const facts = clusterFactsFromSnapshot(labSnapshot('cassandra-4.1-1node'));
    expect(facts.releaseVersions).toEqual(['4.1.10']);
    const r = reviewMigration({ from: C('4.1.10'), to: C('5.0.9'), cluster: facts });
    expect(item(r, 'clients.protocol')).toMatchObject({ status: 'ok' });
    expect(item(r, 'clients.protocol').evidence[0]).toMatch(/^Apache Cassandra Node\.js Driver 4\.10\.0: protocol v4/);
    expect(item(r, 'cluster.schema-agreement').status).toBe('ok');
    expect(item(r, 'cluster.versions').status).toBe('ok');
    expect(item(r, 'path.java').title).toMatch(/Java 11 or 17/);
    // Declaring the wrong starting line is caught.
    const wrong = reviewMigration({ from: C('4.0.13'), to: C('5.0.9'), cluster: facts });
    expect(item(wrong, 'cluster.versions').status).toBe('action');
  });

  it('mixed versions and schema disagreement in a snapshot are blockers; protocol v3 clients are an action', () => {
    const facts = clusterFactsFromSnapshot(labSnapshot('cassandra-5.0-3node'));
    const mixed = {
      ...facts,
      releaseVersions: ['4.1.10', '5.0.9'],
      schemaVersions: ['a', 'b'],
      clients: facts.clients.map((c) => ({ ...c, protocolVersion: 3 })),
    };
    const r = reviewMigration({ from: C('4.1.10'), to: C('5.0.9'), cluster: mixed });
    expect(item(r, 'cluster.versions').status).toBe('blocker');
    expect(item(r, 'cluster.schema-agreement').status).toBe('blocker');
    expect(item(r, 'clients.protocol').status).toBe('action');
  });
});

describe('Cassandra → ScyllaDB', () => {
  it('maps compaction, refuses SASI/SAI indexes, keeps counters on vnodes, flags non-Scylla drivers (real lab clients)', () => {
    const facts = clusterFactsFromSnapshot(labSnapshot('cassandra-5.0-3node'));
    const r = reviewMigration({ from: C('5.0.9'), to: S('2025.1.4'), schema: schemaOf('shop-4.1.cql'), cluster: facts });
    expect(r.kind).toBe('cassandra-to-scylla');
    expect(item(r, 'schema.unsupported')).toMatchObject({ status: 'blocker' });
    expect(item(r, 'schema.unsupported').evidence[0]).toMatch(/orders_total_sai.*StorageAttachedIndex/);
    const map = item(r, 'schema.compaction-mapping');
    expect(map.evidence).toContain('shop.orders: SizeTieredCompactionStrategy → IncrementalCompactionStrategy (schema)');
    expect(map.evidence.some((e) => e.startsWith('analytics.events'))).toBe(false); // TWCS stays
    expect(item(r, 'clients.drivers').evidence[0]).toMatch(/Apache Cassandra Node\.js Driver 4\.10\.0 .*not a ScyllaDB driver/);
    expect(item(r, 'path.compatibility').status).toBe('action');
    const legacy = reviewMigration({ from: C('3.11.16'), to: S('2025.1.4'), schema: schemaOf('legacy-3.11.cql') });
    expect(item(legacy, 'schema.tablets').evidence.join(' ')).toMatch(/counter tables must stay in vnode keyspaces: metrics\.page_views/);
  });

  it.skipIf(!HAVE_CORPUS)('config mapping lists what carries over and what has no effect', () => {
    const r = reviewMigration({
      from: C('3.11.16'),
      to: S('2025.1.4'),
      configText: `cluster_name: prod\nnum_tokens: 256\nconcurrent_reads: 64\n${corpus(PRE41_YAML)}`,
    });
    const m = item(r, 'config.mapping');
    expect(m.evidence[0]).toMatch(/carry over: cluster_name, num_tokens/);
    expect(m.evidence[1]).toMatch(/no effect on ScyllaDB: .*concurrent_reads/);
  });
});

describe('ScyllaDB vnodes → tablets', () => {
  // The in-place migration ships (experimental) in 2026.2.0; this title said 2026.3+ before issue #17.
  it('needs 2026.2+, lists vnode keyspaces, blocks on counters', () => {
    const s = schemaOf('scylla-2025.1.cql');
    const old = reviewMigration({ from: S('2025.1.4'), to: S('2025.1.4'), schema: s });
    expect(item(old, 'path.in-place').status).toBe('blocker');
    const r = reviewMigration({ from: S('2026.4.0'), to: S('2026.4.0'), schema: s });
    expect(item(r, 'path.in-place').status).toBe('ok');
    expect(item(r, 'schema.keyspaces').evidence).toEqual(['legacy: tablets = {\'enabled\': false}, RF {"eu-west":3} (schema)']);
    expect(item(r, 'schema.counters').status).toBe('ok');
    const exp = reviewMigration({ from: S('2026.3.1'), to: S('2026.3.1'), schema: s });
    expect(item(exp, 'path.in-place').status).toBe('action');
  });
});

describe('migration_review over MCP and migration-review on the CLI', () => {
  it('the tool reads a schema file and returns the checklist; bad versions are refused with a fix', async () => {
    const server = createServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(b);
    const r = await client.callTool({ name: 'migration_review', arguments: { from: C('3.11.16'), to: C('4.1.10'), schemaFile: join(FIX, 'legacy-3.11.cql') } });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent as MigrationReview;
    // Was 'blocked' with schema.compact-storage first until issue #17 (COMPACT STORAGE is an action on 4.x).
    expect(sc.verdict).toBe('actions');
    expect(sc.items.find((i) => i.id === 'schema.compact-storage')?.status).toBe('action');
    const bad = await client.callTool({ name: 'migration_review', arguments: { from: C('three'), to: C('4.1') } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('BAD_ARGUMENT');
    const back = await client.callTool({ name: 'migration_review', arguments: { from: S('2025.1'), to: C('5.0') } });
    expect(JSON.stringify(back.content)).toContain('not a migration this review covers');
    await client.close();
  });

  it('migrationReview reads files; the text shows status, step and kb ids', async () => {
    const r = await migrationReview({ from: C('3.11.16'), to: C('5.0.2'), schemaFile: join(FIX, 'legacy-3.11.cql') });
    const text = renderMigrationReview(r);
    expect(text).toMatch(/Verdict: \*\*actions\*\*/); // 'blocked' before issue #17 (COMPACT STORAGE was a blocker)
    expect(text).toContain('kb:migration.cassandra.compact-storage');
    expect(text).toMatch(/\[step 6\] `procedure.rolling`/);
  });

  it('the CLI verb is registered with --json', () => {
    const cmd = buildProgram().commands.find((c) => c.name() === 'migration-review');
    expect(cmd!.options.map((o) => o.long)).toEqual(expect.arrayContaining(['--json', '--from', '--to', '--config', '--schema', '--bundle']));
  });
});
