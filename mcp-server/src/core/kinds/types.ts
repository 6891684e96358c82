/**
 * A kind module: everything about one output kind in one folder (core/kinds/<kind>/). Its index.ts exports one
 * `defineKind({...})`; core/kinds/registry.ts lists it. detect's KINDS, interpret's judging, the kind titles (README
 * table, tool descriptions), the parser fuzzing and the catalogue check all read the registry, so adding a kind is
 * one folder, one registry line and the catalogue entries of its findings (CONTRIBUTING.md walks through it).
 */
import type { Finding } from '../findings.js';
import type { KnowledgeId } from '../knowledge/index.js';
import type { Parsed } from '../parsed.js';
import type { KindRuleOutcome, KindRules } from '../rules/per-kind.js';
import { outcomeOf } from '../rules/rule.js';

/** One rule over a kind's parsed value: findings, or the reason it found nothing (shown in "what was checked"). */
export interface KindRule<T> {
  id: string;
  /** What it checks, for the report's "what was checked" list. */
  checks: string;
  run(value: T): Finding[] | string;
}

export interface KindModuleSpec<T> {
  /** `<family>.<name>`: the family groups it in README's table (host, jvm, storage…). */
  kind: string;
  /** What it is, for people: README's "What interpret reads" table and the interpret tool's description. */
  title: string;
  /** A cheap multiline regex over the head of a text; a hit means "worth parsing", the parser judges. */
  signature: RegExp;
  /** Total (never throws): wrap the reader in `total(kind, …)` from core/parsed.ts. */
  parse: (text: string) => Parsed<T>;
  /**
   * Where detect tries it: 'before-logs' (a distinctive header; also tried first when the lines carry log prefixes,
   * like a syslog-wrapped output) or 'after-logs' (a broad signature a log line could match).
   */
  order: 'before-logs' | 'after-logs';
  rules: readonly KindRule<T>[];
  /** Knowledge entries its rules grade by or cite (a typo fails to compile; a test checks its findings cite only these). */
  knowledgeIds: readonly KnowledgeId[];
  /** Folder of real samples under tests/fixtures/, with a SOURCES.tsv (provenance) beside them. */
  fixtures: string;
  /** One line saying what was read, for interpret's summary (default: the value's lists and numbers, counted). */
  summary?: (value: T) => string;
}

/** A registered kind: the spec with its parsed type erased, plus the rules adapter interpret calls. */
export interface KindModule extends Omit<KindModuleSpec<unknown>, 'rules' | 'parse' | 'summary'> {
  parse: (text: string) => Parsed<unknown>;
  summary?: (value: unknown) => string;
  ruleIds: readonly string[];
  judge: KindRules;
}

export function defineKind<T>(spec: KindModuleSpec<T>): KindModule {
  const run = (value: unknown): KindRuleOutcome[] => spec.rules.map((r) => outcomeOf(r.id, r.checks, r.run(value as T)));
  const { summary, ...rest } = spec;
  return {
    ...rest,
    parse: spec.parse,
    ...(summary ? { summary: (value: unknown) => summary(value as T) } : {}),
    ruleIds: spec.rules.map((r) => r.id),
    judge: { run: (_kind, value) => run(value) },
  };
}
