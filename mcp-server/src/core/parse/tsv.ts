import { parsedOk, total, unrecognized } from '../parsed.js';

/**
 * A CQL result as the collector stores it: a header line of column names, then one tab-separated row per
 * line; empty cell = null; tabs, newlines and backslashes inside values escaped as \t \n \\.
 * The same text is the raw artefact in a bundle and the input of every virtual-table parser.
 */
export interface TsvTable {
  columns: string[];
  rows: Record<string, string | null>[];
}

export function escapeTsvCell(v: string | null): string {
  if (v === null) return '';
  // An empty string must survive the round trip distinct from null.
  if (v === '') return '\\0';
  return v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function unescapeCell(s: string): string | null {
  if (s === '') return null;
  if (s === '\\0') return '';
  return s.replace(/\\(\\|t|n|r)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));
}

export function toTsv(columns: string[], rows: (string | null)[][]): string {
  const lines = [columns.map((c) => escapeTsvCell(c)).join('\t')];
  for (const r of rows) lines.push(r.map(escapeTsvCell).join('\t'));
  return `${lines.join('\n')}\n`;
}

export const parseTsv = total<TsvTable>('tsv', (text) => {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  const header = lines.shift();
  if (header === undefined || header.trim() === '') return unrecognized('tsv', 'empty: no header line');
  const columns = header.split('\t').map((c) => unescapeCell(c) ?? '');
  if (columns.some((c) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(c))) {
    return unrecognized('tsv', `header is not a list of column names: ${header.slice(0, 80)}`);
  }
  const warnings: string[] = [];
  const rows: Record<string, string | null>[] = [];
  for (const [i, line] of lines.entries()) {
    const cells = line.split('\t');
    if (cells.length !== columns.length) {
      warnings.push(`row ${i + 1} has ${cells.length} cells for ${columns.length} columns${i === lines.length - 1 ? ' (truncated?)' : ''}`);
      if (cells.length < columns.length) continue;
    }
    const row: Record<string, string | null> = {};
    columns.forEach((c, j) => {
      row[c] = unescapeCell(cells[j] ?? '');
    });
    rows.push(row);
  }
  return parsedOk('tsv', { columns, rows }, warnings);
});
