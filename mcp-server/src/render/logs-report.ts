import type { LogsReport } from '../core/reports/logs.js';
import { renderChecked, renderFinding, summariseParsed } from './interpret.js';

/** The text of `cql-tuner logs` and analyze_logs: files not found first, so a mistyped path is never a quiet log. */
export function renderLogsReport(r: LogsReport): string {
  return [
    ...(r.notFound.length ? [`Not found, skipped: ${r.notFound.join(', ')}`] : []),
    summariseParsed('logs', r.facts),
    r.findings.length ? r.findings.map(renderFinding).join('\n') : 'No findings in these logs.',
    `Checked:\n${renderChecked(r.checked)}`,
  ].join('\n\n');
}
