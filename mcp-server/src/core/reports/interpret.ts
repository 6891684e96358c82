/** What `interpret` returns for a paste, as data: ops/interpret.ts fills it, render/interpret.ts prints it. Types only. */
import type { Finding } from '../findings.js';
import type { RulesResult } from '../rules/index.js';

export interface InterpretReport {
  kind: string | null;
  /** Release version when the text says it (nodetool version, gossip), else null. */
  version: string | null;
  ok: boolean;
  summary: string;
  findings: Finding[];
  checked: RulesResult['outcomes'];
  supported?: string[];
  warnings: string[];
  /**
   * What the output itself says or implies that a reader must know (nodetool's own "Note:" lines, a negative size
   * that is a counter bug, placeholders that are not facts); absent when none. Logs carry theirs in the summary.
   */
  notes?: string[];
  /** What was stripped from the paste before it could be read (markdown quotes, SCT prefix…); absent when nothing. */
  cleaned?: string[];
  /**
   * Present when the paste held several outputs that could be read: one report per output, in paste order. The
   * top level then is the main output's report with the findings of every part.
   */
  parts?: InterpretPartReport[];
}

/** One output of a multi-output paste. */
export interface InterpretPartReport extends Omit<InterpretReport, 'parts'> {
  /** The command echoed before it (`nodetool status`), when the paste shows one. */
  command: string | null;
  /** The heading that named it, when one did. */
  heading: string | null;
  /** Its first and last line in the paste (1-based). */
  lines: { from: number; to: number };
}
