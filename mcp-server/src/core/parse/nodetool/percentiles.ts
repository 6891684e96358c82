/**
 * The percentile tables shared by tablehistograms/cfhistograms and proxyhistograms: a "Percentile <columns…>"
 * header (column names contain spaces, order differs per version), an optional units line "(micros) (bytes)",
 * then rows 50% 75% 95% 98% 99% Min Max with one number (or NaN) per column.
 */
import { findHeaderNames } from './columns.js';
import { num } from './nodetool-text.js';

export interface Percentiles {
  p50: number | null;
  p75: number | null;
  p95: number | null;
  p98: number | null;
  p99: number | null;
  min: number | null;
  max: number | null;
}

export type PercentileLabel = '50%' | '75%' | '95%' | '98%' | '99%' | 'Min' | 'Max';
const LABELS: Record<PercentileLabel, keyof Percentiles> = { '50%': 'p50', '75%': 'p75', '95%': 'p95', '98%': 'p98', '99%': 'p99', Min: 'min', Max: 'max' };

export interface PercentileBlock {
  /** The line just above the header ("ks/table histograms", "proxy histograms"), if any. */
  title: string | null;
  columns: string[];
  /** Column name → percentiles; a column whose every row was missing is absent. */
  values: Record<string, Percentiles>;
  rowsSeen: number;
  /** Free text printed inside the block ("No SSTables exists, unable to calculate …"). */
  notes: string[];
}

function emptyPercentiles(): Percentiles {
  return { p50: null, p75: null, p95: null, p98: null, p99: null, min: null, max: null };
}

/** Every percentile block in the lines, in order; rows that do not fit their header are reported in warnings. */
export function percentileBlocks(lines: readonly string[], knownColumns: readonly string[], warnings: string[]): PercentileBlock[] {
  const blocks: PercentileBlock[] = [];
  let current: PercentileBlock | null = null;
  let pendingTitle: string | null = null;
  let pendingNotes: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (/^Percentile\s/.test(line)) {
      const cols = findHeaderNames(line, knownColumns);
      if (cols.length === 0) continue;
      current = { title: pendingTitle, columns: cols.map((c) => c.name), values: {}, rowsSeen: 0, notes: pendingNotes };
      pendingTitle = null;
      pendingNotes = [];
      blocks.push(current);
      continue;
    }
    if (/^(\(\w+\)\s*)+$/.test(line)) continue; // units line
    const row = /^(50%|75%|95%|98%|99%|Min|Max)\s+(.*)$/.exec(line);
    if (row && current) {
      const cells = row[2]!.trim().split(/\s+/);
      if (cells.length !== current.columns.length) {
        warnings.push(`row ${row[1]} has ${cells.length} values for ${current.columns.length} columns: ${line.slice(0, 120)}`);
        continue;
      }
      current.rowsSeen++;
      current.columns.forEach((c, i) => {
        const p = (current!.values[c] ??= emptyPercentiles());
        p[LABELS[row[1] as PercentileLabel]] = num(cells[i]);
      });
      continue;
    }
    // Anything else is a title for the next block or a message nodetool printed before it.
    if (/histograms$/i.test(line)) pendingTitle = line;
    else pendingNotes.push(line.slice(0, 200));
  }
  return blocks;
}
