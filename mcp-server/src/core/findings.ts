import type { KnowledgeId } from './knowledge/index.js';
import { byCodeUnits } from './text-order.js';
/** What an expert concludes from the numbers, with the evidence. Every rule returns these. */
export type Severity = 'critical' | 'warning' | 'info';

export interface Finding {
  /** Stable id of the rule outcome, e.g. "threadpool.pending". */
  id: string;
  severity: Severity;
  title: string;
  /** The exact numbers and where they came from (node, table, command or virtual table). */
  evidence: string[];
  node?: string;
  table?: string;
  recommendation: string;
  /** Knowledge entries (knowledge/*.yaml) whose thresholds or facts the rule used. */
  knowledgeIds: KnowledgeId[];
  /** How sure the rule is: high when measured directly, low when inferred or the data is partial. */
  confidence: 'high' | 'medium' | 'low';
  /** Where the evidence came from ("log", "system_views.tombstones_per_read", "nodetool tablestats"); set by correlation. */
  sources?: string[];
  /** Ids of the other findings merged into this one (the same problem seen by several sources). */
  mergedIds?: string[];
  /** When the numbers hold: "window" (measured over the diagnosis window), "now", "since start …", or "in the logs". */
  when?: string;
  /** This finding is the likely cause of others on the same node and time: they follow it here. */
  chain?: { reason: string; effects: Finding[] };
}

/** What a rule did: findings, or why it could not run (so a report can say what was not checked). */
export interface RuleOutcome {
  rule: string;
  checked: boolean;
  /** When not checked: which fact was missing and why. */
  skippedBecause?: string;
  findings: Finding[];
}

const ORDER: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** How many findings of each severity a report holds. */
export type SeverityCounts = Record<Severity, number>;

export function severityCounts(findings: readonly Finding[]): SeverityCounts {
  const counts: SeverityCounts = { critical: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/** A report with more findings ranked in (worst first) and its counts recomputed. */
export function withMoreFindings<R extends { findings: Finding[]; counts: SeverityCounts }>(report: R, more: readonly Finding[]): R {
  const findings = worstFirst([...report.findings, ...more]);
  return { ...report, findings, counts: severityCounts(findings) };
}

export function worstFirst(findings: Finding[]): Finding[] {
  return [...findings].sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || byCodeUnits(a.id, b.id) || byCodeUnits(a.node ?? '', b.node ?? ''));
}
