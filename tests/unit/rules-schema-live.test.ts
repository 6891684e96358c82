import { describe, expect, it } from 'vitest';
import { indexCardinality, liveSchemaInput, liveSchemaRule, schemaFromFacts } from '../../mcp-server/src/core/rules/schema-live.js';
import { diagnosisFromSnapshot, evidenceFromSnapshot } from '../../mcp-server/src/ops/diagnose.js';
import { analyzeBundle } from '../../mcp-server/src/ops/snapshot.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';
import { PACK, runRule } from '../../mcp-server/src/core/rules/rule.js';

// Real capture: the bad-schema incident's bundle (`diagnose --lab --save` on a 4.1.10 lab: a table with
// gc_grace_seconds 0 that took deletes and reads), see tests/fixtures/lab-incidents/bad-schema/README.md.
const BAD = `${FIXTURES_DIR}/lab-incidents/bad-schema/bundle`;

describe('schema review inside diagnose (live schema facts)', () => {
  it('builds the schema from the sweep: compaction, gc_grace_seconds and replication', async () => {
    const s = await analyzeBundle(BAD);
    const reader = s.nodes.find((n) => n.facts.cluster?.tableOptions?.length)!;
    const schema = schemaFromFacts(reader.facts)!;
    const t = schema.tables.find((x) => x.keyspace === 'cql_tuner_incident' && x.name === 'sessions')!;
    expect(t.options.gcGraceSeconds).toBe(0);
    expect(t.options.compaction?.class).toBe('SizeTieredCompactionStrategy');
    expect(schema.keyspaces.find((k) => k.name === 'cql_tuner_incident')).toMatchObject({ strategy: 'SimpleStrategy', replication: { replication_factor: 1 } });
  });

  it('gc_grace_seconds 0 on a table with deletes is the top finding of the diagnosis, with the tombstones that show the deletes', async () => {
    const r = diagnosisFromSnapshot(await analyzeBundle(BAD), 'bundle');
    const f = r.findings[0]!;
    expect(f).toMatchObject({ id: 'schema.gc-grace-zero', severity: 'warning', table: 'cql_tuner_incident.sessions' });
    expect(f.evidence).toContain('gc_grace_seconds 0 (schema; default 864000)');
    expect(f.evidence.some((e) => /^tombstones per read: max [1-9]\d*/.test(e))).toBe(true);
    // The sweep does not read default_time_to_live: the evidence must not claim there is none.
    expect(f.evidence).toContain('default TTL not read by the sweep');
    expect(r.counts.critical).toBe(0);
    expect(r.checked.find((c) => c.rule === 'schema')).toMatchObject({ checked: true, findings: 1 });
  });

  it('tables at the default gc_grace_seconds give no schema finding (the client-misuse bundle: the same lab, kv at 864000)', async () => {
    const s = await analyzeBundle(`${FIXTURES_DIR}/lab-incidents/client-misuse/bundle`);
    expect(runRule(liveSchemaRule, evidenceFromSnapshot(s, 'bundle'), PACK)).toMatchObject({ checked: true, findings: [] });
  });

  it('without the cluster-wide schema reads it says the schema was not checked', async () => {
    const s = await analyzeBundle(BAD);
    const input = evidenceFromSnapshot(s, 'bundle');
    for (const n of input.nodes) {
      delete n.facts.cluster;
      delete n.facts.tableSchemas;
    }
    expect(runRule(liveSchemaRule, input, PACK)).toMatchObject({ checked: false, skippedBecause: expect.stringMatching(/no schema was read/) });
  });
});

// Real captures of the bad-index (4.1.10 and 5.0.9) and lcs-write-heavy (4.1.10) incidents, see their README.md.
const INDEX_41 = `${FIXTURES_DIR}/lab-incidents/bad-index/bundle`;
const INDEX_50 = `${FIXTURES_DIR}/lab-incidents/bad-index-5.0/bundle`;
const LCS = `${FIXTURES_DIR}/lab-incidents/lcs-write-heavy/bundle`;

describe('legacy secondary indexes judged by what they hold (system_schema.indexes + tablestats index tables)', () => {
  it.each([
    ['4.1.10', INDEX_41],
    ['5.0.9', INDEX_50],
  ])('%s: an index on a unique column is the top finding, with its partitions beside the table’s', async (_v, dir) => {
    const s = await analyzeBundle(dir);
    const input = evidenceFromSnapshot(s, 'bundle');
    expect(indexCardinality(input.nodes)).toEqual([
      { node: '127.0.6.1', keyspace: 'cql_tuner_incident', table: 'accounts', index: 'accounts_by_email', indexPartitions: 5000, tablePartitions: 5000 },
    ]);
    const r = diagnosisFromSnapshot(s, 'bundle');
    expect(r.findings[0]).toMatchObject({ id: 'schema.secondary-index', severity: 'warning', table: 'cql_tuner_incident.accounts', confidence: 'high' });
    expect(r.findings[0]!.title).toMatch(/accounts_by_email .* high-cardinality/);
    expect(r.findings[0]!.evidence).toContain(
      '127.0.6.1: index accounts_by_email holds 5000 partitions (distinct values) beside 5000 of cql_tuner_incident.accounts — ratio 1 (nodetool tablestats, estimates)',
    );
    // The server's own index on system.paxos is not the user's design.
    expect(r.findings.some((f) => /paxos/i.test(f.title))).toBe(false);
    expect(r.counts).toMatchObject({ critical: 0, warning: 1 });
  });

  it('the same index holding few values is information, not a warning; one whose table is below the floor likewise', async () => {
    const s = await analyzeBundle(INDEX_41);
    const input = evidenceFromSnapshot(s, 'bundle');
    const idx = input.nodes[0]!.nodetool.tablestats!.tables.find((t) => t.isIndex)!;
    idx.partitionsEstimate = 5;
    const few = runRule(liveSchemaRule, input, PACK).findings.find((f) => f.id === 'schema.secondary-index')!;
    expect(few).toMatchObject({ severity: 'info', title: expect.stringContaining('5 distinct values for 5000 partitions on 127.0.6.1') });
    const base = input.nodes[0]!.nodetool.tablestats!.tables.find((t) => t.name === 'accounts')!;
    idx.partitionsEstimate = 900;
    base.partitionsEstimate = 900;
    const small = runRule(liveSchemaRule, input, PACK).findings.find((f) => f.id === 'schema.secondary-index')!;
    expect(small.severity).toBe('info');
    expect(small.evidence.join(' ')).toMatch(/fewer than 1000 partitions .*too small to judge/);
  });

  it('a bundle from before the sweep read system_schema.indexes gives no index finding (not "no indexes": not read)', async () => {
    const s = await analyzeBundle(INDEX_41);
    const input = evidenceFromSnapshot(s, 'bundle');
    for (const n of input.nodes) if (n.facts.cluster) delete n.facts.cluster.indexes;
    const out = runRule(liveSchemaRule, input, PACK);
    expect(out.checked).toBe(true);
    expect(out.findings.filter((f) => f.id === 'schema.secondary-index')).toEqual([]);
  });
});

describe('LCS on a write-heavy table', () => {
  it('30,000 writes and 200 reads on an LCS table: the top finding, counts in the evidence', async () => {
    const r = diagnosisFromSnapshot(await analyzeBundle(LCS), 'bundle');
    expect(r.findings[0]).toMatchObject({ id: 'schema.lcs-write-heavy', severity: 'warning', table: 'cql_tuner_incident.readings' });
    expect(r.findings[0]!.evidence).toContain('compaction LeveledCompactionStrategy (schema)');
    expect(r.findings[0]!.evidence.join(' ')).toMatch(/local reads 200, local writes 30000 .*0\.007 reads per write/);
    expect(r.counts.critical).toBe(0);
  });

  it('the same counts read the other way round (a read-heavy LCS table), or below the write floor, give nothing', async () => {
    const s = await analyzeBundle(LCS);
    const input = evidenceFromSnapshot(s, 'bundle');
    const t = input.nodes[0]!.facts.tables!.find((x) => x.table === 'readings')!;
    const [r, w] = [t.localRead!.count, t.localWrite!.count];
    t.localRead = { ...t.localRead!, count: w };
    t.localWrite = { ...t.localWrite!, count: r };
    expect(runRule(liveSchemaRule, input, PACK).findings.filter((f) => f.id === 'schema.lcs-write-heavy')).toEqual([]);
    t.localRead = { ...t.localRead, count: 0 };
    t.localWrite = { ...t.localWrite, count: 9_999 };
    expect(runRule(liveSchemaRule, input, PACK).findings.filter((f) => f.id === 'schema.lcs-write-heavy')).toEqual([]);
    t.localWrite = { ...t.localWrite, count: 10_000 };
    expect(runRule(liveSchemaRule, input, PACK).findings.filter((f) => f.id === 'schema.lcs-write-heavy')).toHaveLength(1);
  });
});

describe('the version the schema rules judge by', () => {
  it('is the oldest node by number, not by text: mid-upgrade from ScyllaDB 6.2 to 2025.1 it is 6.2', async () => {
    const input = evidenceFromSnapshot(await analyzeBundle(BAD), 'bundle');
    const one = input.nodes[0]!;
    const nodes = ['2025.1.2', '6.2.3', '2025.1.0'].map((v, i) => ({ ...one, node: `10.0.0.${i + 1}`, facts: { ...one.facts, releaseVersion: v } }));
    expect(liveSchemaInput(nodes)!.version).toBe('6.2.3');
  });
});
