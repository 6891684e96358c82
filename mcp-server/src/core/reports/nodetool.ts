/** What one nodetool call returns, as data: ops/nodetool.ts fills it, render/nodetool.ts prints it. Types only. */
import type { NodetoolSubcommand } from '../nodetool-commands.js';

/** Where the nodetool binary was found (collect/nodetool-locate.ts). */
export type NodetoolSource = 'explicit' | 'CQL_TUNER_NODETOOL' | 'CASSANDRA_HOME' | 'PATH' | 'lab' | 'remote';

export interface NodetoolReport {
  subcommand: NodetoolSubcommand;
  host: string;
  port: number;
  ok: boolean;
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
  nodetool: { source: NodetoolSource; path: string };
  /** Typed facts when a parser exists for the subcommand. */
  parsed: { kind: string; ok: boolean; value?: unknown; reason?: string; warnings?: string[] } | null;
  error?: { code: string; message: string; fix: string };
  /** About credentials: withheld from a host not allowed to receive them, or sent without SSL. */
  warnings?: string[];
  output: { chars: number; lines: number; truncated: boolean; excerpt: string; raw?: string };
}
