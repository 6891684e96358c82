/** The incident report file in the format its name asks for, stamped with the version that wrote it. */
import type { DiagnosisReport } from '../../core/reports/diagnosis.js';
import { CQL_TUNER_VERSION } from '../../version.js';
import { renderReportHtml } from './html.js';
import { renderReportMarkdown } from './markdown.js';

export type ReportFormat = 'markdown' | 'html';

export function renderReport(r: DiagnosisReport, format: ReportFormat): string {
  const by = `cql-tuner ${CQL_TUNER_VERSION}`;
  return format === 'html' ? renderReportHtml(r, by) : renderReportMarkdown(r, by);
}
