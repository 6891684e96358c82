/**
 * `diagnose --report FILE`: the diagnosis as a file to hand over, Markdown or self-contained HTML by the file's
 * extension. The path is the user's own flag (trusted as a destination, still never followed through a link);
 * it is checked before the cluster is collected so a typo does not cost a whole window.
 */
import { lstat, stat } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { writeReportFile } from '../collect/report-file.js';
import { renderReport, type ReportFormat } from '../render/report/index.js';
import type { DiagnosisReport } from './diagnose.js';
import { OpError } from './errors.js';

export interface WrittenReport {
  path: string;
  format: ReportFormat;
  bytes: number;
}

const FORMATS: Record<string, ReportFormat> = { '.md': 'markdown', '.markdown': 'markdown', '.html': 'html', '.htm': 'html' };

export function reportFormatOf(path: string): ReportFormat {
  const f = FORMATS[extname(path).toLowerCase()];
  if (!f) {
    const fix = 'End the file name in .md (Markdown) or .html (one self-contained page), e.g. --report incident.html.';
    throw new OpError('BAD_REPORT_FORMAT', `cannot tell the report format of ${JSON.stringify(path)} from its extension`, fix);
  }
  return f;
}

/** Refuses, before any collection, a report path whose format or folder is wrong or that names a non-file. */
export async function checkReportPath(path: string): Promise<ReportFormat> {
  const format = reportFormatOf(path);
  const wanted = resolve(path);
  const folder = await stat(dirname(wanted)).catch(() => null);
  if (!folder?.isDirectory()) {
    const fix = 'Create the folder first, or name a file in an existing folder.';
    throw new OpError('BAD_PATH', `cannot write the report ${wanted}: ${dirname(wanted)} is not an existing folder`, fix);
  }
  const existing = await lstat(wanted).catch(() => null);
  if (existing && !existing.isFile()) {
    const what = existing.isSymbolicLink() ? 'a symbolic link' : existing.isDirectory() ? 'a directory' : 'a special file (FIFO, socket or device)';
    throw new OpError('NOT_A_FILE', `the report path ${wanted} is ${what}; a report is only written to a regular file`, 'Name a new or a regular file.');
  }
  return format;
}

export async function writeDiagnosisReport(r: DiagnosisReport, path: string): Promise<WrittenReport> {
  const format = reportFormatOf(path);
  const w = await writeReportFile(path, renderReport(r, format));
  if (!w.ok) throw new OpError(w.code, w.message, w.fix);
  return { path: w.path, format, bytes: w.bytes };
}
