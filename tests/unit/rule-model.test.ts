/**
 * The one rule model (core/rules/rule.ts): thresholds handed to each rule in its context, finding() writing a
 * knowledge id once, dependsOn skipping a rule uniformly, and one pair of outcome helpers for every rule file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeEvidence, type DiagnosisInput } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { threshold } from '../../mcp-server/src/core/knowledge/index.js';
import { factSource, missingFacts } from '../../mcp-server/src/core/rules/facts.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { finding, grade, PACK, ruleContext, type Rule } from '../../mcp-server/src/core/rules/rule.js';
import { threadPoolsRule } from '../../mcp-server/src/core/rules/threadpools.js';
import { DIAGNOSE_RULES } from '../../mcp-server/src/ops/diagnose.js';

const texts = { title: 't', evidence: ['e'], node: 'n1', recommendation: 'r', confidence: 'high' as const };
const pool = (pending: number) => ({ name: 'ReadStage', active: 1, activeLimit: 32, pending, blocked: 0, blockedAllTime: 0, completed: 10 });
const withPools = (pending: number): DiagnosisInput => ({
  origin: 'test',
  nodes: [nodeEvidence('n1', true, { facts: { threadPools: [pool(pending)] }, nodetool: {} })],
});

describe('finding(): the knowledge id written once', () => {
  const pending = threshold('threadpool.pending');
  it('grades against the context, fills id, severity and knowledgeIds, and is null below the thresholds', () => {
    expect(finding(PACK, 'threadpool.pending', pending.critical, texts)).toEqual({
      id: 'threadpool.pending',
      severity: 'critical',
      knowledgeIds: ['threadpool.pending'],
      ...texts,
    });
    expect(finding(PACK, 'threadpool.pending', pending.warning, texts)?.severity).toBe('warning');
    expect(finding(PACK, 'threadpool.pending', pending.warning! - 1, texts)).toBeNull();
    expect(finding(PACK, 'threadpool.pending', null, texts)).toBeNull();
    expect(finding(PACK, 'threadpool.pending', Number.NaN, texts)).toBeNull();
  });

  it('several ids: the first grades, all are cited; an explicit id names the finding', () => {
    const f = finding(PACK, ['client.coordinator-balance', 'driver.token-aware'], 1e6, { ...texts, id: 'clients.coordinator-imbalance' });
    expect(f).toMatchObject({ id: 'clients.coordinator-imbalance', knowledgeIds: ['client.coordinator-balance', 'driver.token-aware'] });
    expect(f?.severity).toBe(grade(PACK, 1e6, 'client.coordinator-balance'));
  });

  it('lazy texts are built only for a finding, with its severity', () => {
    let built = 0;
    const lazy = (sev: string) => (built++, { ...texts, title: `graded ${sev}` });
    expect(finding(PACK, 'threadpool.pending', 0, lazy)).toBeNull();
    expect(built).toBe(0);
    expect(finding(PACK, 'threadpool.pending', pending.critical, lazy)?.title).toBe('graded critical');
  });

  it('an override in the context moves the verdict; the pack and other contexts are untouched', () => {
    const strict = ruleContext(new Map([['threadpool.pending', { warning: 1 }]]));
    expect(finding(strict, 'threadpool.pending', 1, texts)?.severity).toBe('warning');
    expect(finding(PACK, 'threadpool.pending', 1, texts)).toBeNull();
    expect(strict.threshold('threadpool.pending').critical).toBe(pending.critical);
    expect(threshold('threadpool.pending')).toEqual(pending);
  });

  it('a converted rule grades through its context: the thread-pool rule under a policy', () => {
    const ids = (r: ReturnType<typeof runRules>) => r.findings.map((f) => `${f.id} ${f.severity}`);
    expect(ids(runRules(withPools(1), [threadPoolsRule]))).toEqual([]);
    const strict = { source: 'p.yaml', off: [], thresholds: { 'threadpool.pending': { warning: 1 } } };
    expect(ids(runRules(withPools(1), [threadPoolsRule], strict))).toEqual(['threadpool.pending warning']);
  });
});

describe('dependsOn: skipped the same way when the facts are absent', () => {
  it('the runner skips without calling run(), naming each fact and where it comes from', () => {
    let ran = 0;
    const probe: Rule = { id: 'probe', checks: 'c', dependsOn: ['facts:clients', 'logs'], run: () => (ran++, { rule: 'probe', checked: true, findings: [] }) };
    const empty: DiagnosisInput = { origin: 't', nodes: [nodeEvidence('n1', true, { facts: {}, nodetool: {} })] };
    const r = runRules(empty, [probe]);
    expect(ran).toBe(0);
    expect(r.outcomes[0]).toMatchObject({ rule: 'probe', checked: false, findings: 0 });
    expect(r.outcomes[0]!.skippedBecause).toBe(`not collected on any node: facts:clients (${factSource('facts:clients')}); logs (${factSource('logs')})`);
    // One of the facts on one node is enough; an empty list counts as read (no clients connected).
    const some: DiagnosisInput = { origin: 't', nodes: [...empty.nodes, nodeEvidence('n2', true, { facts: { clients: [] }, nodetool: {} })] };
    expect(runRules(some, [probe]).outcomes[0]).toMatchObject({ checked: true });
    expect(ran).toBe(1);
    expect(missingFacts(undefined, empty)).toBeNull();
  });

  it('every fact a diagnosis rule depends on names its source', () => {
    const refs = DIAGNOSE_RULES.flatMap((r) => r.dependsOn ?? []);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((ref) => factSource(ref) === undefined)).toEqual([]);
  });
});

describe('one pair of outcome helpers', () => {
  it('no rule file builds a RuleOutcome by hand (outcome/skipped/partly/outcomeOf in core/rules/rule.ts do)', () => {
    const dir = join(import.meta.dirname, '..', '..', 'mcp-server', 'src', 'core');
    const walk = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : []));
    const byHand = walk(dir)
      .filter((f) => !f.endsWith(join('rules', 'rule.ts')))
      .flatMap((f) => (readFileSync(f, 'utf8').match(/\bchecked: (true|false)\b/g) ?? []).map((m) => `${f.slice(dir.length + 1)}: ${m}`));
    expect(byHand).toEqual([]);
  });
});
