import { describe, expect, it } from 'vitest';
import { liveSchemaRule, schemaFromFacts } from '../../mcp-server/src/core/rules/schema-live.js';
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
