import { nodeEvidence } from '../core/diagnosis/evidence.js';
import { worstFirst } from '../core/findings.js';
import { runRules } from '../core/rules/index.js';
import { checkedRow } from '../core/rules/rule.js';
import { readNodeLogs } from './node-logs.js';
import { OpError } from './errors.js';

/** `cql-tuner logs` input limits (the user's own paths; there is no tool for it yet); the schema is analyze-logs-input.ts. */
export const LOGS_INPUT_LIMITS = { pathChars: 4096, nodeChars: 300, toolFiles: 16 } as const;

/**
 * True when the input passes analyzeLogsCliInputSchema: the CLI then skips loading zod (a sixth of the logs bundle,
 * ~6 MiB of RSS) and only checks with the schema, for its error message, what does not fit.
 */
export function logsInputFits(input: { paths: string[]; node?: string | undefined }): boolean {
  const { pathChars, nodeChars } = LOGS_INPUT_LIMITS;
  return input.paths.length >= 1 && input.paths.every((f) => f.length >= 1 && f.length <= pathChars) && (input.node ?? '').length <= nodeChars;
}

import type { LogsReport } from '../core/reports/logs.js';

export type { LogsReport };

/** Streams log files of one node (any size, .gz too) through the log parser and the log rules. */
export async function analyzeLogFiles(
  paths: string[],
  /** blocking: read with blocking calls (the CLI only: node-logs.ts readNodeLogs). */
  opts: { node?: string; signal?: AbortSignal; blocking?: boolean } = {},
): Promise<LogsReport> {
  if (!paths.length) throw new OpError('NO_INPUT', 'no log file given', 'Give one or more log files of the same node (system.log, debug.log, gc.log).');
  const node = opts.node ?? 'logs';
  const r = await readNodeLogs(node, paths, opts.signal, undefined, undefined, opts.blocking === true);
  if (!r.logs)
    throw new OpError(
      'LOG_UNREADABLE',
      r.error ?? 'the logs could not be read',
      'Check the paths (absolute or relative to the current directory) and that they are text or .gz.',
    );
  const result = runRules({ origin: `logs ${paths.join(', ')}`, nodes: [{ ...nodeEvidence(node, true, { facts: {}, nodetool: {} }), logs: r.logs }] });
  // the settings the node logged at start, judged like a cassandra.yaml (the yaml rules load only for such a log)
  const config = r.logs.startup.nodeConfiguration ? (await import('../core/rules/log-node-configuration.js')).logNodeConfigurationOutcomes(r.logs) : [];
  return {
    files: paths,
    notFound: r.notFound,
    facts: r.logs,
    findings: config.length ? worstFirst([...result.findings, ...config.flatMap((o) => o.findings)]) : result.findings,
    checked: [...result.outcomes.filter((o) => o.rule === 'logs'), ...config.map(checkedRow)],
  };
}
