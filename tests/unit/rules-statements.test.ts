import { describe, expect, it } from 'vitest';
import { cqlMetricsFromRows } from '../../mcp-server/src/core/facts/from-vtables.js';
import { parseTsv } from '../../mcp-server/src/core/parse/tsv.js';
import { statementsRule } from '../../mcp-server/src/core/rules/statements.js';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { diagnosisFromSnapshot, evidenceFromSnapshot } from '../../mcp-server/src/ops/diagnose.js';
import { analyzeBundle } from '../../mcp-server/src/ops/snapshot.js';
import { fixture, FIXTURES_DIR } from '../helpers/corpus.js';
import { PACK, runRule } from '../../mcp-server/src/core/rules/rule.js';

// Real captures: the client-misuse incident's bundle (`diagnose --lab --save` on a 4.1.10 lab with latte sending
// unprepared reads, see tests/fixtures/lab-incidents/client-misuse/README.md), and the plain 4.1 lab fixture (prepared traffic only).
const MISUSE = `${FIXTURES_DIR}/lab-incidents/client-misuse/bundle`;

const rows = (rel: string) => {
  const t = parseTsv(fixture(rel));
  if (!t.ok) throw new Error(t.reason);
  return t.value.rows;
};

describe('system_views.cql_metrics → statement counters', () => {
  it('reads the four counters of a real 4.1 capture', () => {
    expect(cqlMetricsFromRows(rows('lab/cassandra-4.1-1node/node1/vt-system_views.cql_metrics.tsv'))).toEqual({
      preparedExecuted: 2400,
      regularExecuted: 30,
      preparedCount: 9,
      preparedEvicted: 0,
    });
  });
});

describe('statements rule: unprepared statements', () => {
  it('a lab under an unprepared latte load: the finding names the node, the counts and the busiest client', async () => {
    const s = await analyzeBundle(MISUSE);
    const o = runRule(statementsRule, evidenceFromSnapshot(s, 'bundle'), PACK);
    expect(o.checked).toBe(true);
    expect(o.findings).toHaveLength(1);
    const f = o.findings[0]!;
    expect(f).toMatchObject({ id: 'clients.unprepared-statements', severity: 'warning', node: s.nodes[0]!.address });
    expect(f.title).toMatch(/^\d+ % of the statements .* were not prepared \(\d+ of \d+\)$/);
    expect(f.evidence[0]).toMatch(/regular_statements_executed \d+, prepared_statements_executed \d+ since the node started/);
    // latte speaks through the ScyllaDB Rust driver: the connection that sent most requests is its.
    expect(f.evidence[1]).toMatch(/ScyllaDB Rust Driver .*: \d+ request\(s\) \[system_views.clients\]/);
  });

  it('the whole diagnosis of that bundle puts it on top, with no critical', async () => {
    const r = diagnosisFromSnapshot(await analyzeBundle(MISUSE), 'bundle');
    expect(r.findings[0]?.id).toBe('clients.unprepared-statements');
    expect(r.counts.critical).toBe(0);
  });

  it('prepared traffic (the plain 4.1 capture: 30 regular of 2,430) and tooling alone stay silent', () => {
    const cqlMetrics = cqlMetricsFromRows(rows('lab/cassandra-4.1-1node/node1/vt-system_views.cql_metrics.tsv'));
    const o = runRule(statementsRule, { origin: 't', nodes: [nodeEvidence('10.0.0.1', true, { facts: { cqlMetrics }, nodetool: {} })] }, PACK);
    expect(o).toMatchObject({ checked: true, findings: [] });
    // All unprepared but below the floor: a fresh node that only a diagnosis has talked to.
    const fresh = { preparedExecuted: 0, regularExecuted: 500, preparedCount: 0, preparedEvicted: 0 };
    expect(
      runRule(statementsRule, { origin: 't', nodes: [nodeEvidence('10.0.0.1', true, { facts: { cqlMetrics: fresh }, nodetool: {} })] }, PACK).findings,
    ).toEqual([]);
  });

  it('says why it could not check without the virtual table (Cassandra before 4.1, ScyllaDB)', () => {
    const o = runRule(statementsRule, { origin: 't', nodes: [nodeEvidence('10.0.0.1', true, { facts: {}, nodetool: {} })] }, PACK);
    expect(o).toMatchObject({ checked: false, skippedBecause: expect.stringMatching(/cql_metrics needs Cassandra 4.1/) });
  });
});
