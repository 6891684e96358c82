import type { Finding } from '../findings.js';
import type { GrepResult } from '../parse/logs/grep.js';
import type { LogFacts } from '../parse/logs/types.js';
import type { RulesResult } from '../rules/index.js';

/** What `cql-tuner logs` and analyze_logs return. */
export interface LogsReport {
  files: string[];
  /** Files named but not there: skipped, and said so (a mistyped path must not look like a quiet log). */
  notFound: string[];
  facts: LogFacts;
  findings: Finding[];
  checked: RulesResult['outcomes'];
}

/** What `cql-tuner logs --grep` and grep_logs return. */
export interface GrepFilesResult extends GrepResult {
  pattern: string;
  regex: boolean;
  files: { path: string; read: boolean; error?: string }[];
}
