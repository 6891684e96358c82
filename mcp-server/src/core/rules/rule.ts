import type { DiagnosisInput, NodetoolEvidence } from '../diagnosis/evidence.js';
import type { KindRuleOutcome } from './per-kind.js';
import type { NodeFacts } from '../facts/node-facts.js';
import type { Finding, RuleOutcome, Severity } from '../findings.js';
import { missingFacts } from './facts.js';
import { threshold, type KnowledgeId, type Threshold, type ThresholdOverrides } from '../knowledge/index.js';

/**
 * What a rule is handed besides the evidence: the thresholds in force for this run (the knowledge pack's, with the
 * operator's overrides from a rule policy). Passed explicitly, never module state, so two diagnoses running at the
 * same time with different policies cannot see each other's thresholds.
 */
export interface RuleContext {
  threshold(id: KnowledgeId): Threshold;
}

/** A context over the pack's thresholds, with these overrides (knowledge id → warning/critical) when given. */
export function ruleContext(overrides?: ThresholdOverrides): RuleContext {
  const o = overrides?.size ? overrides : undefined;
  return Object.freeze({ threshold: (id: KnowledgeId) => threshold(id, o) });
}

/** The pack's thresholds, no overrides: for rules that no rule policy reaches (the kind rules of `interpret`). */
export const PACK: RuleContext = ruleContext();

/** A fact a rule reads, named by where it sits on a node's evidence ("facts:clients" is NodeEvidence.facts.clients). */
export type FactRef = `facts:${Extract<keyof NodeFacts, string>}` | `nodetool:${Extract<keyof NodetoolEvidence, string>}` | 'logs';

/** A rule reads evidence and returns findings, or says which fact it lacked (never a silent pass). */
export interface Rule {
  id: string;
  /** What it checks, for the "what was checked" list of a report. */
  checks: string;
  /**
   * The facts it reads, when it needs at least one of them on some node: without any, the runner skips it with
   * a uniform reason (core/rules/facts.ts names where each fact comes from) and run() is not called.
   */
  dependsOn?: readonly FactRef[];
  run(input: DiagnosisInput, ctx: RuleContext): RuleOutcome;
}

/**
 * Runs one rule: skipped with the uniform reason when none of its facts (dependsOn) is on any node, skipped with
 * the error when it throws (never fatal to the report).
 */
export function runRule(rule: Rule, input: DiagnosisInput, ctx: RuleContext): RuleOutcome {
  const lacking = missingFacts(rule.dependsOn, input);
  if (lacking !== null) return skipped(rule.id, lacking);
  try {
    return rule.run(input, ctx);
  } catch (e) {
    return skipped(rule.id, `rule error: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Severity of a value against a knowledge threshold entry (direction "above" unless the entry says "below"). */
export function grade(ctx: RuleContext, value: number | null | undefined, knowledgeId: KnowledgeId): Severity | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const t = ctx.threshold(knowledgeId);
  const below = t.direction === 'below';
  const hits = (limit: number | undefined) => limit !== undefined && (below ? value <= limit : value >= limit);
  if (hits(t.critical)) return 'critical';
  if (hits(t.warning)) return 'warning';
  return null;
}

/** The texts of a finding graded by finding(); id defaults to the graded knowledge id. */
export type FindingTexts = Omit<Finding, 'id' | 'severity' | 'knowledgeIds'> & { id?: string };

/**
 * A finding graded against the thresholds of its knowledge id (the first, when several are cited): the id is written
 * once and fills the finding's id (unless given), its severity and its knowledgeIds. Null below the thresholds (or
 * when the value is not a number). Texts may depend on the severity.
 */
export function finding(
  ctx: RuleContext,
  ids: KnowledgeId | readonly [KnowledgeId, ...KnowledgeId[]],
  value: number | null | undefined,
  texts: FindingTexts | ((severity: Severity) => FindingTexts),
): Finding | null {
  const all: readonly KnowledgeId[] = typeof ids === 'string' ? [ids] : ids;
  const graded = all[0]!;
  const severity = grade(ctx, value, graded);
  if (!severity) return null;
  const { id, title, evidence, node, table, recommendation, confidence, ...rest } = typeof texts === 'function' ? texts(severity) : texts;
  return {
    id: id ?? graded,
    severity,
    title,
    evidence,
    ...(node !== undefined ? { node } : {}),
    ...(table !== undefined ? { table } : {}),
    recommendation,
    knowledgeIds: [...all],
    confidence,
    ...rest,
  };
}

/** Pushes the finding when there is one (finding() returns null below the thresholds); returns it. */
export function pushFinding(into: Finding[], f: Finding | null): Finding | null {
  if (f) into.push(f);
  return f;
}

/** The outcome of a rule that ran; `checks` is kept for outcomes listed in "what was checked" (kind rules). */
export function outcome(rule: string, findings: Finding[]): RuleOutcome;
export function outcome(rule: string, findings: Finding[], checks: string): RuleOutcome & { checks: string };
export function outcome(rule: string, findings: Finding[], checks?: string): RuleOutcome {
  return { rule, ...(checks !== undefined ? { checks } : {}), checked: true, findings };
}

/** The outcome of a rule that could not run, with the fact it lacked. */
export function skipped(rule: string, because: string): RuleOutcome;
export function skipped(rule: string, because: string, checks: string): RuleOutcome & { checks: string };
export function skipped(rule: string, because: string, checks?: string): RuleOutcome {
  return { rule, ...(checks !== undefined ? { checks } : {}), checked: false, skippedBecause: because, findings: [] };
}

/** A rule that ran on part of what it should have read: its findings, and what it could not read ("partly: …"). */
export function partly(rule: string, findings: Finding[], problems: readonly string[]): RuleOutcome {
  return { ...outcome(rule, findings), ...(problems.length ? { skippedBecause: `partly: ${problems.join('; ')}` } : {}) };
}

/** A rule's result as returned by the small per-kind rules: findings, or the reason it could not run. */
export function outcomeOf(rule: string, checks: string, res: Finding[] | string): RuleOutcome & { checks: string } {
  return typeof res === 'string' ? skipped(rule, res, checks) : outcome(rule, res, checks);
}

export const fmtNum = (n: number, digits = 1) => (Number.isInteger(n) ? String(n) : n.toFixed(digits));

/** A kind rule's outcome as a row of "what was checked" (the count of its findings, not the findings). */
export function checkedRow(o: KindRuleOutcome): { rule: string; checks: string; checked: boolean; skippedBecause?: string; findings: number } {
  return { rule: o.rule, checks: o.checks, checked: o.checked, ...(o.skippedBecause ? { skippedBecause: o.skippedBecause } : {}), findings: o.findings.length };
}
