/**
 * Issue #17, the "Wrong" list: knowledge entries that produced wrong findings. Each describe names the entry
 * id and feeds the rule (or review) the input that gave the wrong answer, asserting the right one; the
 * primary source each claim was checked against is in the entry's `verified` field.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyStatus, renameOf } from '../../mcp-server/src/core/config/renames.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { appliesTo, knowledge, knowledgeFor, type KnowledgeId } from '../../mcp-server/src/core/knowledge/index.js';
import { reviewMigration, type MigrationReview } from '../../mcp-server/src/core/migration/index.js';
import { parseCassandraYaml, parseJvmOptions } from '../../mcp-server/src/core/parse/config/index.js';
import { parseCqlSchema, type CqlSchema } from '../../mcp-server/src/core/parse/schema/index.js';
import type { Parsed } from '../../mcp-server/src/core/parsed.js';
import { cassandraYamlRules, jvmRules, type ConfigContext } from '../../mcp-server/src/core/rules/config.js';
import type { KindRuleOutcome } from '../../mcp-server/src/core/rules/per-kind.js';
import { schemaRules, type SchemaRuleInput } from '../../mcp-server/src/core/rules/schema.js';
import { auditOs } from '../../mcp-server/src/ops/audit-os.js';
import { schemaRuleInput } from '../../mcp-server/src/ops/review-schema.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

function ok<T>(r: Parsed<T>): T {
  if (!r.ok) throw new Error(`expected ok, got: ${r.reason}`);
  return r.value;
}
const all = (o: KindRuleOutcome[]): Finding[] => o.flatMap((x) => x.findings);
const byId = (o: KindRuleOutcome[], id: string) => all(o).find((f) => f.id === id);
const jvm = (text: string, ctx: ConfigContext) => jvmRules(ok(parseJvmOptions(text)), ctx);
const yaml = (text: string, ctx: ConfigContext) => cassandraYamlRules(ok(parseCassandraYaml(text)), ctx);
const cql = (text: string): CqlSchema => ok(parseCqlSchema(text));
const item = (r: MigrationReview, id: string) => {
  const i = r.items.find((x) => x.id === id);
  if (!i) throw new Error(`no item ${id} in ${r.items.map((x) => x.id).join(', ')}`);
  return i;
};
const C = (version: string) => ({ product: 'cassandra' as const, version });
const S = (version: string) => ({ product: 'scylla' as const, version });

const WRONG: KnowledgeId[] = [
  'config.jvm.cms-removed',
  'compaction.scylla.ics-default',
  'compaction.ucs.target-sstable-size',
  'os.aio-max-nr.scylla',
  'schema.counter.no-tablets',
  'migration.scylla.vnodes-to-tablets',
  'migration.cassandra.compact-storage',
  'datamodel.tables-per-cluster',
  'config.renames.cassandra-4.1',
  'table.bloom-filter-fp-chance.default',
];

describe('every corrected entry records what it was verified against', () => {
  it.each(WRONG)('%s has verified { source: file@tag or URL#section, checked: 2026-11-24 }', (id) => {
    const v = knowledge(id).verified;
    expect(v?.checked).toBe('2026-11-24');
    expect(v?.source).toMatch(/@|#/);
  });
});

describe('config.jvm.cms-removed', () => {
  const CMS = '-Xms8G\n-Xmx8G\n-XX:+UseParNewGC\n-XX:+UseConcMarkSweepGC\n-XX:CMSInitiatingOccupancyFraction=75\n-XX:+UseCMSInitiatingOccupancyOnly\n';

  it('CMS flags on JDK 15+ are critical: the JVM refuses to start', () => {
    for (const jdk of [15, 17, 21]) {
      const f = byId(jvm(CMS, { jdk }), 'config.jvm.cms')!;
      expect(f.severity).toBe('critical');
      expect(f.title).toMatch(/refuses to start/);
    }
  });

  it('JDK 14 ignores them with a warning (runs G1 untuned); JDK 8/11 run CMS (info)', () => {
    expect(byId(jvm(CMS, { jdk: 14 }), 'config.jvm.cms')?.severity).toBe('warning');
    expect(byId(jvm(CMS, { jdk: 11 }), 'config.jvm.cms')?.severity).toBe('info');
  });

  it('leftover CMS tuning next to G1 also stops a JDK 17 JVM; IgnoreUnrecognizedVMOptions turns it into a warning', () => {
    const g1 = '-XX:+UseG1GC\n-XX:CMSInitiatingOccupancyFraction=75\n';
    expect(byId(jvm(g1, { jdk: 17 }), 'config.jvm.cms')?.severity).toBe('critical');
    expect(byId(jvm(`${CMS}-XX:+IgnoreUnrecognizedVMOptions\n`, { jdk: 17 }), 'config.jvm.cms')?.severity).toBe('warning');
    expect(byId(jvm(g1, { jdk: 11 }), 'config.jvm.cms')).toBeUndefined(); // harmless on JDK 11
  });

  // The behaviour itself, on the JDK installed here (17 in this repository's environment).
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const major = Number(/version "(\d+)/.exec(probe.stderr ?? '')?.[1] ?? NaN);
  it.skipIf(!(major >= 15))('a real JDK 15+ exits 1 with "Unrecognized VM option" for -XX:+UseConcMarkSweepGC', () => {
    const r = spawnSync('java', ['-XX:+UseConcMarkSweepGC', '-version'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Unrecognized VM option 'UseConcMarkSweepGC'/);
  });
});

describe('compaction.scylla.ics-default', () => {
  const TABLE =
    "CREATE KEYSPACE app WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'};\n" + 'CREATE TABLE app.events (id uuid PRIMARY KEY, v text);\n';
  const input = (version: string): SchemaRuleInput => ({
    schema: cql(TABLE),
    product: 'scylla',
    version,
    tableFacts: [{ node: '10.0.0.1', tables: [{ keyspace: 'app', table: 'events', diskMiB: 500 * 1024 }] }],
  });

  it('applies from 2025.1.0 (6.2 defaulted to STCS), not only from 2026.4', () => {
    const e = knowledge('compaction.scylla.ics-default');
    expect(appliesTo(e, 'scylla', '2025.1.0')).toBe(true);
    expect(appliesTo(e, 'scylla', '2026.1.3')).toBe(true);
    expect(appliesTo(e, 'scylla', '6.2.3')).toBe(false);
    expect(e.statement).not.toMatch(/alias/i);
  });

  it('a 500 GiB table without a compaction option is STCS on 6.2 (flagged) and ICS on 2025.1 (not flagged)', () => {
    expect(byId(schemaRules(input('6.2.3')), 'schema.stcs-large-table')?.severity).toBe('warning');
    expect(byId(schemaRules(input('2025.1.0')), 'schema.stcs-large-table')).toBeUndefined();
  });
});

describe('compaction.ucs.target-sstable-size', () => {
  it('says the built-in 5.0 sstable_growth is 0.333, not a cassandra_latest.yaml-only setting', () => {
    const e = knowledge('compaction.ucs.target-sstable-size');
    expect(e.statement).toMatch(/0\.333/);
    expect(`${e.statement} ${e.rationale}`).not.toMatch(/cassandra_latest\.yaml sets/);
    expect(e.sources.some((s) => /cassandra-5\.0\.0/.test(s.url ?? '') && /sstable_growth "0\.333"/.test(s.title))).toBe(true);
  });

  it('the compaction skill no longer blames a "fixed target size" on default UCS tables', () => {
    const text = readFileSync(join(import.meta.dirname, '../../skills/choosing-a-compaction-strategy/references/strategy-profiles.md'), 'utf8');
    expect(text).not.toMatch(/fixed target size \(raise `sstable_growth`/);
    expect(text).toMatch(/sstable_growth` was set to 0/);
  });
});

describe('os.aio-max-nr.scylla', () => {
  const tree = join(FIXTURES_DIR, 'storage', 'os-scylla-tuned');

  it('the packaged 30000000 passes; the old 1048576 is below what ScyllaDB packages set', async () => {
    expect(knowledge('os.aio-max-nr.scylla').value).toBe(30000000);
    const tuned = await auditOs({ root: tree, product: 'scylla' });
    expect(tuned.findings.find((f) => f.id === 'os.aio-max-nr-low')).toBeUndefined();
    const root = mkdtempSync(join(tmpdir(), 'kb-aio-'));
    try {
      cpSync(tree, root, { recursive: true });
      writeFileSync(join(root, 'proc/sys/fs/aio-max-nr'), '1048576\n');
      const r = await auditOs({ root, product: 'scylla' });
      const f = r.findings.find((x) => x.id === 'os.aio-max-nr-low');
      expect(f?.severity).toBe('warning');
      expect(f?.title).toMatch(/1048576 is below ScyllaDB's 30000000/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('schema.counter.no-tablets', () => {
  const SCHEMA =
    "CREATE KEYSPACE web WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'} AND tablets = {'enabled': true};\n" +
    'CREATE TABLE web.page_views (page text PRIMARY KEY, views counter);\n';
  const counters = (version?: string) =>
    byId(schemaRules({ schema: cql(SCHEMA), product: 'scylla', ...(version ? { version } : {}) }), 'schema.counter-tablets');

  it('a ScyllaDB 2026.1 table with counters in a tablets keyspace is not a critical', () => {
    expect(counters('2026.1.0')?.severity).toBe('info');
    expect(counters('2026.2.1')?.severity).toBe('info');
  });

  it('before 2026.1 it is still critical (CREATE TABLE is refused); without a version, info with the caveat', () => {
    const old = counters('2025.4.3')!;
    expect(old.severity).toBe('critical');
    expect(old.recommendation).toMatch(/2026\.1/);
    const unknown = counters()!;
    expect(unknown.severity).toBe('info');
    expect(unknown.recommendation).toMatch(/older release refuses/);
  });

  it('review_schema judges by the oldest version the cluster runs (a mid-upgrade node still refuses)', () => {
    const input = schemaRuleInput(cql(SCHEMA), null, { product: 'scylla', versions: ['2026.1.0', '2025.4.3', 'unknown'] });
    expect(input.version).toBe('2025.4.3');
    expect(byId(schemaRules(input), 'schema.counter-tablets')?.severity).toBe('critical');
    expect(schemaRuleInput(cql(SCHEMA), null, { product: 'scylla', versions: ['2026.1.0'] }).version).toBe('2026.1.0');
    expect(schemaRuleInput(cql(SCHEMA), null, { product: 'scylla' }).version).toBeUndefined();
  });

  it('Cassandra → ScyllaDB 2026.1 does not tell counter tables to stay on vnodes; → 2025.1 still does', () => {
    const ddl = "CREATE KEYSPACE m WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'};\n";
    const s = cql(`${ddl}CREATE TABLE m.hits (k text PRIMARY KEY, n counter);\n`);
    const newer = reviewMigration({ from: C('4.1.10'), to: S('2026.1.0'), schema: s });
    expect(item(newer, 'schema.tablets').evidence.join(' ')).toMatch(/counter tables can use tablets on 2026\.1\.0/);
    expect(item(newer, 'schema.tablets').action).not.toMatch(/unless they hold counters/);
    const older = reviewMigration({ from: C('4.1.10'), to: S('2025.1.4'), schema: s });
    expect(item(older, 'schema.tablets').evidence.join(' ')).toMatch(/counter tables must stay in vnode keyspaces: m\.hits/);
  });
});

describe('migration.scylla.vnodes-to-tablets', () => {
  const SCHEMA = [
    "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '0'} AND tablets = {'enabled': false};",
    'CREATE TABLE shop.orders (id uuid PRIMARY KEY, total int)',
    "  WITH compaction = {'class': 'SizeTieredCompactionStrategy'} AND tombstone_gc = {'mode': 'timeout'};",
    'CREATE TABLE shop.items (id uuid PRIMARY KEY, name text)',
    "  WITH compaction = {'class': 'IncrementalCompactionStrategy'} AND tombstone_gc = {'mode': 'repair'} AND cdc = {'enabled': true};",
    'CREATE INDEX items_name ON shop.items (name);',
    'CREATE MATERIALIZED VIEW shop.orders_by_total AS SELECT * FROM shop.orders WHERE total IS NOT NULL AND id IS NOT NULL PRIMARY KEY (total, id);',
    'CREATE TABLE shop.hits (k text PRIMARY KEY, n counter);',
  ].join('\n');

  it('2026.2.0 has the in-place migration (experimental: an action, not a blocker); 2026.1 does not', () => {
    expect(item(reviewMigration({ from: S('2026.2.0'), to: S('2026.2.0') }), 'path.in-place').status).toBe('action');
    expect(item(reviewMigration({ from: S('2026.1.4'), to: S('2026.1.4') }), 'path.in-place').status).toBe('blocker');
  });

  it('lists the documented limits as checks and judges what the schema shows', () => {
    const r = reviewMigration({ from: S('2026.2.0'), to: S('2026.2.0'), schema: cql(SCHEMA) });
    expect(item(r, 'schema.compaction-ics')).toMatchObject({ status: 'blocker' });
    expect(item(r, 'schema.compaction-ics').evidence.join(' ')).toMatch(/shop\.orders: SizeTieredCompactionStrategy/);
    expect(item(r, 'schema.compaction-ics').evidence.join(' ')).not.toMatch(/shop\.items/);
    const derived = item(r, 'schema.base-tables-only');
    expect(derived.status).toBe('blocker');
    expect(derived.evidence.join(' ')).toMatch(/materialized view shop\.orders_by_total.*secondary index items_name.*CDC on shop\.items/);
    expect(item(r, 'schema.counters').status).toBe('blocker');
    expect(item(r, 'schema.replication')).toMatchObject({ status: 'blocker' });
    expect(item(r, 'schema.replication').evidence.join(' ')).toMatch(/RF 0 in dc2/);
    expect(item(r, 'schema.tombstone-gc').evidence.join(' ')).toMatch(/shop\.orders: tombstone_gc mode timeout/);
    for (const id of ['schema.lwt', 'cluster.zero-token-nodes', 'cluster.disk-headroom', 'procedure.freeze']) expect(item(r, id).status).toBe('action');
    expect(item(r, 'procedure.freeze').action).toMatch(/schema changes.*add\/remove\/replace\/rebuild.*repairs.*TRUNCATE/);
    expect(r.verdict).toBe('blocked');
  });
});

describe('migration.cassandra.compact-storage', () => {
  const SCHEMA =
    "CREATE KEYSPACE legacy WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '3'};\n" +
    'CREATE TABLE legacy.kv (k text PRIMARY KEY, v blob) WITH COMPACT STORAGE;\n';

  it('COMPACT STORAGE tables are an action on 3.11 → 4.0, not a blocker; DROP COMPACT STORAGE is off by default', () => {
    const r = reviewMigration({ from: C('3.11.16'), to: C('4.0.17'), schema: cql(SCHEMA) });
    const cs = item(r, 'schema.compact-storage');
    expect(cs.status).toBe('action');
    expect(cs.action).toMatch(/experimental and disabled by default \(enable_drop_compact_storage: false\)/);
    expect(r.items.filter((i) => i.status === 'blocker').map((i) => i.id)).not.toContain('schema.compact-storage');
    const to41 = reviewMigration({ from: C('3.11.16'), to: C('4.1.10'), schema: cql(SCHEMA) });
    expect(item(to41, 'schema.compact-storage').action).toMatch(/drop_compact_storage_enabled: false/);
    expect(knowledge('migration.cassandra.compact-storage').value).toBe(false);
  });
});

describe('datamodel.tables-per-cluster', () => {
  it('holds for 4.0 and 4.1 (the deprecated threshold still warns), not for 5.0', () => {
    const ids = (v: string) => knowledgeFor('cassandra', v).map((e) => e.id);
    expect(ids('4.0.17')).toContain('datamodel.tables-per-cluster');
    expect(ids('4.1.10')).toContain('datamodel.tables-per-cluster');
    expect(ids('5.0.9')).not.toContain('datamodel.tables-per-cluster');
    expect(knowledge('datamodel.tables-per-cluster').statement).toMatch(/system tables/);
  });
});

describe('config.renames.cassandra-4.1', () => {
  it('table_count_warn_threshold is deprecated in 4.1, renamed (and converted) in 5.0', () => {
    expect(renameOf('table_count_warn_threshold', '4.1.10')).toBeUndefined();
    expect(keyStatus('table_count_warn_threshold', '4.1.10').status).toBe('deprecated');
    const r50 = renameOf('keyspace_count_warn_threshold', '5.0.9')!;
    expect(r50).toMatchObject({ replacement: 'keyspaces_warn_threshold', since: '5.0' });
    expect(r50.note).toMatch(/system keyspaces is subtracted/);
  });

  it('a 4.1 cassandra.yaml with both table_count_warn_threshold and tables_warn_threshold is not "node stops at startup"', () => {
    const text = 'cluster_name: c\ntable_count_warn_threshold: 150\ntables_warn_threshold: 200\n';
    const o = yaml(text, { version: '4.1.10' });
    expect(byId(o, 'config.yaml.old-and-new-key')).toBeUndefined();
    expect(all(o).filter((f) => f.severity === 'critical')).toEqual([]);
    // On 5.0 the two names are one setting and the pair is refused at startup.
    expect(byId(yaml(text, { version: '5.0.9' }), 'config.yaml.old-and-new-key')?.severity).toBe('critical');
  });

  it('a 5.0 cassandra.yaml with table_count_warn_threshold gives no critical, and says the value is converted', () => {
    const o = yaml('cluster_name: c\ntable_count_warn_threshold: 150\n', { version: '5.0.9' });
    expect(all(o).filter((f) => f.severity === 'critical')).toEqual([]);
    expect(byId(o, 'config.yaml.naming')!.evidence.join(' ')).toMatch(/table_count_warn_threshold → tables_warn_threshold \(5\.0\).*system tables/);
  });

  it('tables_warn_threshold is a 4.1 name (no "unknown key" critical on 4.1), unknown on 4.0', () => {
    const text = 'cluster_name: c\ntables_warn_threshold: 200\n';
    expect(byId(yaml(text, { version: '4.1.10' }), 'config.yaml.new-names-on-old-version')).toBeUndefined();
    expect(byId(yaml(text, { version: '4.0.17' }), 'config.yaml.new-names-on-old-version')?.severity).toBe('critical');
  });

  it('the migration review lists it under 5.0 (with the conversion), not as a 4.1 rename', () => {
    const text = 'cluster_name: c\ntable_count_warn_threshold: 150\n';
    const to41 = reviewMigration({ from: C('4.0.17'), to: C('4.1.10'), configText: text });
    expect(item(to41, 'config.renamed').evidence.join(' ')).not.toMatch(/table_count_warn_threshold/);
    const to50 = reviewMigration({ from: C('4.1.10'), to: C('5.0.9'), configText: text });
    expect(item(to50, 'config.renamed').evidence.join(' ')).toMatch(/table_count_warn_threshold → tables_warn_threshold — 5\.0: .*system tables/);
  });
});

describe('table.bloom-filter-fp-chance.default', () => {
  it('0.01 costs about twice the memory of 0.1 (10 vs 5 bits per key), not three times', () => {
    const e = knowledge('table.bloom-filter-fp-chance.default');
    expect(e.rationale).toMatch(/5 bits per key for 0\.1, 10 for 0\.01/);
    expect(e.rationale).toMatch(/twice/);
    expect(e.rationale).not.toMatch(/three times/);
  });
});
