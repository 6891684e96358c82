/** What the stress operations return, as data: ops/stress.ts fills them, render/stress.ts prints them. Types only. */
import type { Finding } from '../findings.js';
import type { KindRuleOutcome } from '../rules/per-kind.js';
import type { RunComparison } from '../stress/compare.js';
import type { IntervalFacts, StressFacts } from '../stress/facts.js';
import type { StressParams } from '../stress/params.js';
import type { ServerDiff } from '../stress/server-diff.js';

/** 'stale': the run's processes were found gone (or their pids reused) by a cancel; nothing was signalled. */
export type RunState = 'starting' | 'running' | 'finished' | 'failed' | 'cancelled' | 'timed-out' | 'stale';

export interface StartedRun {
  id: string;
  dir: string;
  tool: StressParams['tool'];
  binary: string;
  binaryFrom: string;
  steps: { name: string; argv: string[] }[];
  plannedS: number | null;
  capS: number;
  target: string;
  /** cassandra-stress with credentials: 'file' (-credentials-file) or 'argv' (password visible to ps). */
  credentials?: 'file' | 'argv';
  /** Known at start, e.g. the password on cassandra-stress's command line; also in status.json and result.json. */
  warnings: string[];
}

export interface RunResult {
  id: string;
  state: RunState;
  kind: string | null;
  facts: StressFacts | null;
  findings: Finding[];
  checked: KindRuleOutcome[];
  charts: string[];
  serverDiff: ServerDiff | null;
  snapshotErrors: string[];
  warnings: string[];
}

export interface StressStatus {
  id: string;
  tool: string;
  state: RunState;
  step: string | null;
  elapsedS: number;
  /** Planned seconds (duration-bound runs) or null when the run is bounded by a count. */
  totalS: number | null;
  capS: number;
  latest: IntervalFacts | null;
  intervals: number;
  /** Operations done / planned for count-bound runs. */
  done: number | null;
  planned: number | null;
  error: string | null;
  /** Warnings known so far (from the start, e.g. a password on the command line; the result's once ended). */
  warnings: string[];
  result: RunResult | null;
  dir: string;
}

export interface CompareResult {
  a: string;
  b: string;
  comparison: RunComparison;
  /** The comparison folder runs/compare-<a>-<b>/ holding the charts; null when none was written. */
  dir: string | null;
  /** SVG charts written there (each with a PNG twin, pngChartOf), in COMPARE_CHARTS order. */
  charts: string[];
  /** What the charts could not show (a run without interval samples or percentiles). */
  chartNotes: string[];
}
