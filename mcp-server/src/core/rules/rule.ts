import type { DiagnosisInput } from '../diagnosis/evidence.js';
import type { Finding, RuleOutcome, Severity } from '../findings.js';
import { threshold, type KnowledgeId } from '../knowledge/index.js';

/** A rule reads evidence and returns findings, or says which fact it lacked (never a silent pass). */
export interface Rule {
  id: string;
  /** What it checks, for the "what was checked" list of a report. */
  checks: string;
  run(input: DiagnosisInput): RuleOutcome;
}

/** Severity of a value against a knowledge threshold entry (direction "above" unless the entry says "below"). */
export function grade(value: number | null | undefined, knowledgeId: KnowledgeId): Severity | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const t = threshold(knowledgeId);
  const below = t.direction === 'below';
  const hits = (limit: number | undefined) => limit !== undefined && (below ? value <= limit : value >= limit);
  if (hits(t.critical)) return 'critical';
  if (hits(t.warning)) return 'warning';
  return null;
}

export function outcome(rule: string, findings: Finding[]): RuleOutcome {
  return { rule, checked: true, findings };
}

export function skipped(rule: string, because: string): RuleOutcome {
  return { rule, checked: false, skippedBecause: because, findings: [] };
}

export const fmtNum = (n: number, digits = 1) => (Number.isInteger(n) ? String(n) : n.toFixed(digits));
