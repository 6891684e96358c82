/**
 * Counters the hardening tests report to scripts/hardening.mjs: one JSON line per record, appended to the file
 * named by HARDENING_STATS (nothing is written when it is unset, as in a plain `vitest run`).
 */
import { appendFileSync } from 'node:fs';

export type StatRecord =
  | { section: 'fuzz'; target: string; cases: number; failures: number; maxMs: number }
  | { section: 'hostile'; kind: string; tried: number; refused: number; literal: number; executed: number; unsafe: number }
  | { section: 'cap'; what: string; limitBytes: number; keptBytes: number; truncated: boolean; rssGrowthMiB: number }
  | { section: 'secrets'; what: string; artefacts: number; leaks: number }
  /** One attack class of SECURITY.md (issue #13): attempts made and how many got through (must be 0). */
  | { section: 'attack'; cls: string; tried: number; unsafe: number };

export function record(r: StatRecord): void {
  const file = process.env['HARDENING_STATS'];
  if (file) appendFileSync(file, `${JSON.stringify(r)}\n`);
}

/** Integer knob from the environment with a default (fuzz runs, time bounds). */
export function knob(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}
