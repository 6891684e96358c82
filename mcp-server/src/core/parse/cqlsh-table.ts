import { parsedOk, total, unrecognized, type Parsed } from '../parsed.js';
import type { TsvTable } from './tsv.js';

/**
 * cqlsh's tabular output, as people paste it:
 *
 *      address   | port  | driver_name                    | protocol_version
 *     -----------+-------+--------------------------------+------------------
 *      127.0.0.1 | 48998 | Apache Cassandra Python Driver |                5
 *
 *     (1 rows)
 *
 * The separator line's "+" marks where each column ends, and cqlsh pads every row to those widths, so cells
 * are cut at the same offsets (a "|" inside a value does not split it); a row that does not line up (edited,
 * re-wrapped) is split on " | " instead. "null" is a null cell. Several results in one paste are read in order;
 * a preceding `cqlsh> SELECT … FROM ks.table` line names the table.
 */
export interface CqlshResult {
  /** "keyspace.table" from the SELECT above the result, when the paste has it. */
  from: string | null;
  table: TsvTable;
  /** The "(N rows)" footer, when present. */
  rowsDeclared: number | null;
}

export interface CqlshTables {
  results: CqlshResult[];
}

const HEADER = /^ *[A-Za-z_][A-Za-z0-9_]*(?: *\| *[A-Za-z_][A-Za-z0-9_]*)* *$/;
const SEPARATOR = /^[ \t]*-+(?:\+-+)*$/;
/** Detection: a header of column names directly above a dashed separator line. */
export const cqlshTableSignature = /^ *[A-Za-z_][A-Za-z0-9_]*(?: *\| *[A-Za-z_][A-Za-z0-9_]*)+ *\r?\n[ \t]*-+(?:\+-+)+ *$/m;
const FROM = /\bFROM\s+("?[A-Za-z_][\w]*"?)\s*\.\s*("?[A-Za-z_][\w]*"?)/i;
/** More rows than any real paste; the rest are counted, not kept. */
export const MAX_CQLSH_ROWS = 200_000;

export const parseCqlshTables = total<CqlshTables>('cql.table', (text): Parsed<CqlshTables> => {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const results: CqlshResult[] = [];
  const warnings: string[] = [];
  let from: string | null = null;
  let kept = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const q = FROM.exec(line);
    if (q && /\bSELECT\b/i.test(line)) from = `${q[1]!.replace(/"/g, '')}.${q[2]!.replace(/"/g, '')}`;
    const sep = lines[i + 1]?.trimEnd();
    if (!HEADER.test(line) || sep === undefined || !SEPARATOR.test(sep)) continue;
    // Column boundaries: the "+" offsets of the separator.
    const cuts = [...sep.matchAll(/\+/g)].map((m) => m.index);
    const columns = line.split('|').map((c) => c.trim());
    if (columns.length !== cuts.length + 1) {
      warnings.push(`result at line ${i + 1}: ${columns.length} column names for ${cuts.length + 1} separator segments; skipped`);
      continue;
    }
    const rows: Record<string, string | null>[] = [];
    let rowsDeclared: number | null = null;
    let j = i + 2;
    for (; j < lines.length; j++) {
      const row = lines[j]!;
      const footer = /^\s*\((\d+) rows?\)\s*$/.exec(row);
      if (footer) {
        rowsDeclared = Number(footer[1]);
        break;
      }
      if (row.trim() === '') {
        // cqlsh prints one blank line before the footer; a second one ends the result.
        if ((lines[j + 1] ?? '').trim() === '' || !/\|/.test(lines[j + 1] ?? '')) {
          const f = /^\s*\((\d+) rows?\)\s*$/.exec(lines[j + 1] ?? '');
          if (f) rowsDeclared = Number(f[1]);
          break;
        }
        continue;
      }
      if (/^---MORE---/.test(row.trim())) continue;
      const cells = cutRow(row, cuts, columns.length);
      if (!cells) {
        warnings.push(`line ${j + 1}: ${columns.length} cells expected; row skipped`);
        continue;
      }
      if (kept >= MAX_CQLSH_ROWS) continue;
      kept++;
      rows.push(Object.fromEntries(columns.map((c, k) => [c, cells[k] === 'null' ? null : cells[k]!])));
    }
    if (rowsDeclared !== null && rowsDeclared !== rows.length)
      warnings.push(`result at line ${i + 1}: footer says ${rowsDeclared} row(s), ${rows.length} read`);
    results.push({ from, table: { columns, rows }, rowsDeclared });
    from = null;
    i = j;
  }
  if (!results.length) return unrecognized('cql.table', 'no cqlsh result table (a header of column names above a "----+----" line)');
  if (kept >= MAX_CQLSH_ROWS) warnings.push(`more than ${MAX_CQLSH_ROWS} rows: the rest were not kept`);
  return parsedOk('cql.table', { results }, warnings);
});

function cutRow(row: string, cuts: readonly number[], n: number): string[] | null {
  // Aligned: a "|" at every cut offset.
  if (cuts.every((c) => row[c] === '|')) {
    const out: string[] = [];
    let start = 0;
    for (const c of cuts) {
      out.push(row.slice(start, c).trim());
      start = c + 1;
    }
    out.push(row.slice(start).trim());
    return out;
  }
  const cells = row.split(' | ').map((c) => c.trim());
  return cells.length === n ? cells : null;
}
