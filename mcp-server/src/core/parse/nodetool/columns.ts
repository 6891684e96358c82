/**
 * Column helpers for nodetool's aligned tables. Header names may contain spaces ("All time blocked",
 * "compaction type") and cells may too ("20.84 MiB" under -H, "{1:3, 2:1}" in compactionhistory), so plain
 * whitespace splitting is not enough; these find where each header name sits and cut rows there.
 */
export interface HeaderColumn {
  name: string;
  start: number;
  end: number;
}

/**
 * Finds the given names in a header line, longest first so that "Read Latency" does not claim the inside of
 * "CAS Read Latency", and returns the ones found ordered by position. Matching is case-sensitive and must
 * start and end on a word boundary.
 */
export function findHeaderNames(header: string, names: readonly string[]): HeaderColumn[] {
  const claimed: HeaderColumn[] = [];
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    let from = 0;
    for (;;) {
      const at = header.indexOf(name, from);
      if (at < 0) break;
      const end = at + name.length;
      const boundary = (at === 0 || /\s/.test(header[at - 1]!)) && (end === header.length || /\s/.test(header[end]!));
      const overlaps = claimed.some((c) => at < c.end && end > c.start);
      if (boundary && !overlaps) {
        claimed.push({ name, start: at, end });
        break;
      }
      from = at + 1;
    }
  }
  return claimed.sort((a, b) => a.start - b.start);
}

/** Each whitespace-separated word of a header as a column (for headers whose names have no spaces). */
export function headerWords(header: string): HeaderColumn[] {
  const out: HeaderColumn[] = [];
  for (const m of header.matchAll(/\S+/g)) out.push({ name: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * Cuts a row at the header's column starts (tables built left-aligned with one fixed width per column, as
 * Cassandra's TableBuilder and ScyllaDB's Tabulate print them). Returns null when a cut would fall inside a
 * word: then the row is not aligned with this header and the caller falls back to token rules.
 */
export function sliceRow(row: string, cols: readonly HeaderColumn[]): string[] | null {
  const cells: string[] = [];
  for (let i = 0; i < cols.length; i++) {
    const start = cols[i]!.start;
    if (i > 0 && start > 0 && start < row.length && /\S/.test(row[start - 1]!) && /\S/.test(row[start]!)) return null;
    const end = i + 1 < cols.length ? cols[i + 1]!.start : row.length;
    cells.push(row.slice(start, Math.max(start, end)).trim());
  }
  return cells;
}

/** Whitespace tokens with parenthesised suffixes kept on their value: "0 (N/A)" stays one cell. */
export function tokens(line: string): string[] {
  const out: string[] = [];
  for (const t of line.trim().split(/\s+/)) {
    if (t === '') continue;
    if (/^\(.*\)$/.test(t) && out.length) out[out.length - 1] += ` ${t}`;
    else out.push(t);
  }
  return out;
}
