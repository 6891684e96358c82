import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { threshold } from '../../mcp-server/src/core/knowledge/index.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { PACK, type Rule, type RuleContext } from '../../mcp-server/src/core/rules/rule.js';
import { describePolicy, parseRulePolicy } from '../../mcp-server/src/core/rules/policy.js';
import { repairRule } from '../../mcp-server/src/core/rules/repair.js';
import { tablesRule } from '../../mcp-server/src/core/rules/tables.js';
import { loadRulePolicy } from '../../mcp-server/src/ops/rule-policy.js';
import { OpError } from '../../mcp-server/src/ops/errors.js';

// A real cluster shape: an RF 3 keyspace never repaired, and a table read through 40 SSTables per read.
const outputs = [
  {
    name: 'cql:system_schema.keyspaces',
    text: 'keyspace_name\treplication\nshop\t{"class":"org.apache.cassandra.locator.SimpleStrategy","replication_factor":"3"}\n',
  },
  { name: 'cql:system_schema.tables#options', text: 'keyspace_name\ttable_name\tgc_grace_seconds\textensions\nshop\torders\t864000\t{}\n' },
  { name: 'cql:system.local#clock', text: 'now\n2026-03-20T12:00:00.000Z\n' },
  { name: 'cql:system_distributed.parent_repair_history', text: 'keyspace_name\tcolumnfamily_names\tstarted_at\tfinished_at\texception_message\toptions\n' },
];
const input = () => ({ nodes: [nodeEvidence('n1', true, nodeFactsFromRaw(outputs))], origin: 'test' });
const always = () => true;

describe('rule policy: switch a rule or a finding off, override a threshold, and say so', () => {
  it('without a policy the never-repaired warning is there; a finding id off drops it and the effect names it', () => {
    expect(runRules(input(), [repairRule]).findings.map((f) => f.id)).toEqual(['repair.never-repaired']);
    const r = runRules(input(), [repairRule], { source: '/etc/cql-tuner/rules.yaml', off: ['repair.never-repaired'], thresholds: {} });
    expect(r.findings).toEqual([]);
    expect(r.policy?.findingsOff).toEqual({ 'repair.never-repaired': 1 });
    expect(describePolicy(r.policy!).join('\n')).toMatch(/rules\.yaml:\n {2}- findings switched off: repair\.never-repaired \(1 dropped\)/);
  });

  it('a rule id off skips the rule with the reason in "checked"', () => {
    const r = runRules(input(), [repairRule, tablesRule], { source: 'p.yaml', off: ['repair'], thresholds: {} });
    expect(r.outcomes.find((o) => o.rule === 'repair')).toMatchObject({ checked: false, skippedBecause: 'switched off by the rule policy in p.yaml' });
    expect(r.policy?.rulesOff).toEqual(['repair']);
  });

  it('a threshold override reaches the rules through their context only: the pack and other contexts keep theirs', () => {
    const base = threshold('table.tombstones-per-read');
    const seen: RuleContext[] = [];
    const probe: Rule = { id: 'probe', checks: 'keeps its context', run: (_i, ctx) => (seen.push(ctx), { rule: 'probe', checked: true, findings: [] }) };
    const r = runRules(input(), [probe], { source: 'p.yaml', off: [], thresholds: { 'table.tombstones-per-read': { warning: 7 } } });
    runRules(input(), [probe], { source: 'q.yaml', off: [], thresholds: { 'table.tombstones-per-read': { warning: 9 } } });
    runRules(input(), [probe]);
    // Read after every run has returned: a context is a value, not state in force while a rule runs.
    expect(seen.map((c) => c.threshold('table.tombstones-per-read').warning)).toEqual([7, 9, base.warning]);
    expect(seen[0]!.threshold('table.tombstones-per-read').critical).toBe(base.critical);
    expect(threshold('table.tombstones-per-read')).toEqual(base);
    expect(PACK.threshold('table.tombstones-per-read')).toEqual(base);
    expect(r.policy?.thresholds).toEqual(['table.tombstones-per-read: warning 7']);
  });

  it('parses the YAML shape and names every problem', () => {
    expect(parseRulePolicy('off: [repair]\nthresholds:\n  table.tombstones-per-read: { warning: 2000, critical: 20000 }\n', 'f', always)).toEqual({
      ok: true,
      policy: { source: 'f', off: ['repair'], thresholds: { 'table.tombstones-per-read': { warning: 2000, critical: 20000 } } },
    });
    const bad = parseRulePolicy(
      'of: [x]\noff: [Bad Id]\nthresholds:\n  no.such: {warning: 1}\n  table.x: {warning: "high", low: 1}\n',
      'f',
      (id) => id === 'table.x',
    );
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems).toEqual([
      'unknown key "of" (allowed: off, thresholds)',
      'off: "Bad Id" is not a rule or finding id (lower-case, dots and dashes)',
      'thresholds: "no.such" is not a knowledge id with thresholds (the findings catalogue names each finding\'s knowledge ids)',
      'thresholds.table.x.warning must be a number',
      'thresholds.table.x.low: unknown (allowed: warning, critical)',
    ]);
    expect(parseRulePolicy('a: &x [1]\nb: *x\n', 'f', always).ok).toBe(false); // no aliases
  });

  it('loads from --rules or CQL_TUNER_RULES, refuses a device, a directory and a bad file with the fix, and is absent when unset', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'policy-'));
    const good = join(dir, 'rules.yaml');
    await writeFile(good, 'off: [repair.never-repaired]\nthresholds:\n  table.tombstones-per-read: { warning: 5000 }\n');
    expect(await loadRulePolicy(undefined, {})).toBeUndefined();
    expect((await loadRulePolicy(undefined, { CQL_TUNER_RULES: good }))?.off).toEqual(['repair.never-repaired']);
    // The user's own file may be a symlink (config management does that); a device or a directory is refused.
    await symlink(good, join(dir, 'link.yaml'));
    expect((await loadRulePolicy(join(dir, 'link.yaml'), {}))?.source).toBe(good);
    await expect(loadRulePolicy('/dev/zero', {})).rejects.toThrow(OpError);
    await expect(loadRulePolicy(dir, {})).rejects.toMatchObject({ code: 'BAD_RULE_POLICY', fix: expect.stringMatching(/regular YAML file/) });
    await writeFile(join(dir, 'bad.yaml'), 'thresholds:\n  table.tombstones-per-read: { warning: lots }\n');
    await expect(loadRulePolicy(join(dir, 'bad.yaml'), {})).rejects.toMatchObject({
      code: 'BAD_RULE_POLICY',
      message: expect.stringMatching(/warning must be a number/),
    });
  });
});

describe('the policy on a real incident bundle (tombstones, recorded from the lab)', () => {
  const BUNDLE = join(import.meta.dirname, '..', 'fixtures', 'lab-incidents', 'tombstones', 'bundle');
  it('switching the finding off removes it, recounts, and the text and the report say what was dropped', async () => {
    const { diagnoseBundle } = await import('../../mcp-server/src/ops/diagnose.js');
    const { renderDiagnosis } = await import('../../mcp-server/src/render/diagnosis.js');
    const plain = await diagnoseBundle(BUNDLE);
    const tomb = plain.findings.filter((f) => f.id === 'table.tombstones-per-read');
    expect(tomb.length).toBeGreaterThan(0);
    const quiet = await diagnoseBundle(BUNDLE, { policy: { source: 'site-rules.yaml', off: ['table.tombstones-per-read'], thresholds: {} } });
    expect(quiet.findings.map((f) => f.id)).not.toContain('table.tombstones-per-read');
    expect(quiet.findings.length).toBe(plain.findings.length - tomb.length);
    expect(quiet.counts.warning + quiet.counts.critical + quiet.counts.info).toBe(quiet.findings.length);
    // Counted before one-problem-one-finding merges them: the rules' own findings (tablestats, the virtual table).
    expect(quiet.policy?.findingsOff['table.tombstones-per-read']).toBeGreaterThanOrEqual(tomb.length);
    expect(renderDiagnosis(quiet)).toMatch(/Rule policy from site-rules\.yaml:\n {2}- findings switched off: table\.tombstones-per-read/);
  });
  it('a raised threshold changes the verdict of the rule itself (not a filter), and is listed', async () => {
    const { diagnoseBundle } = await import('../../mcp-server/src/ops/diagnose.js');
    const plain = await diagnoseBundle(BUNDLE);
    const worst = plain.findings.find((f) => f.id === 'table.tombstones-per-read')!;
    expect(worst.severity).not.toBe('info');
    const raised = await diagnoseBundle(BUNDLE, {
      policy: { source: 'p.yaml', off: [], thresholds: { 'table.tombstones-per-read': { warning: 1e9, critical: 2e9 } } },
    });
    expect(raised.findings.filter((f) => f.id === 'table.tombstones-per-read' && f.severity !== 'info')).toEqual([]);
    expect(raised.policy?.thresholds).toEqual(['table.tombstones-per-read: warning 1000000000, critical 2000000000']);
  });
  it('two diagnoses run at the same time with different policies each grade with their own thresholds', async () => {
    const { diagnoseBundle } = await import('../../mcp-server/src/ops/diagnose.js');
    const raise = { source: 'p.yaml', off: [], thresholds: { 'table.tombstones-per-read': { warning: 1e9, critical: 2e9 } } };
    const lower = { source: 'q.yaml', off: [], thresholds: { 'table.tombstones-per-read': { warning: 1, critical: 2 } } };
    const runs = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => diagnoseBundle(BUNDLE, i % 3 === 2 ? {} : { policy: i % 3 ? lower : raise })));
    const tomb = (r: (typeof runs)[number]) => r.findings.filter((f) => f.id === 'table.tombstones-per-read').map((f) => f.severity);
    const alone = tomb(await diagnoseBundle(BUNDLE));
    expect(alone).toEqual(['warning']); // the queue table, 3311 tombstones per read, against the pack's thresholds
    runs.forEach((r, i) => {
      // Raised: nothing reaches a warning. Lowered to 1/2: the queue table is critical and every table read
      // through a tombstone (the system tables too) warns. No policy: exactly what a lone run says.
      if (i % 3 === 0) expect(tomb(r)).toEqual([]);
      else if (i % 3 === 1) expect([tomb(r)[0], tomb(r).length > 10]).toEqual(['critical', true]);
      else expect(tomb(r)).toEqual(alone);
    });
  });
});
