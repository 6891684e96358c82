import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { splitLines } from '../../text.js';

export const DF_KIND = 'host.df';

/** One filesystem as `df -P -k` prints it (POSIX format: one line each, sizes in 1024-byte blocks). */
export interface DfRow {
  filesystem: string;
  sizeKiB: number;
  usedKiB: number;
  availKiB: number;
  /** df's own Capacity column: used ÷ (used + available), rounded up (reserved blocks are not "available"). */
  usedPct: number;
  mount: string;
}

const HEADER = /^Filesystem\s+(?:1024|1K)-blocks\s+Used\s+Avail(?:able)?\s+(?:Capacity|Use%)\s+Mounted on\s*$/i;
// Rows are trimmed before matching, so the mount point runs to the end: a lazy `.*?` before `\s*$` was quadratic on space runs.
const ROW = /^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d{1,3})%\s+(\/.*)$/;

/** `df -P -k` (also `df -k`, whose rows have the same columns when no name wraps). Total: never throws. */
export const parseDf = total(DF_KIND, (text: string): Parsed<DfRow[]> => {
  const lines = splitLines(text);
  const start = lines.findIndex((l) => HEADER.test(l.trim()));
  if (start < 0) return unrecognized(DF_KIND, 'no "Filesystem 1024-blocks Used Available Capacity Mounted on" header (expected `df -P -k` output)');
  const rows: DfRow[] = [];
  const warnings: string[] = [];
  for (const [i, raw] of lines.slice(start + 1).entries()) {
    const l = raw.trim();
    if (!l) continue;
    const m = ROW.exec(l);
    if (!m) {
      warnings.push(`line ${start + i + 2} is not a df row: ${l.slice(0, 80)}`);
      continue;
    }
    // Mount points are printed raw; a mount point holding " " is rare and stays as printed.
    rows.push({ filesystem: m[1]!, sizeKiB: Number(m[2]), usedKiB: Number(m[3]), availKiB: Number(m[4]), usedPct: Number(m[5]), mount: m[6]! });
  }
  return rows.length ? parsedOk(DF_KIND, rows, warnings) : unrecognized(DF_KIND, 'a df header but no filesystem rows');
});

/** The filesystem holding `path`: the longest mount point that is `path` or one of its parents. */
export function filesystemOf(rows: readonly DfRow[], path: string): DfRow | null {
  let best: DfRow | null = null;
  for (const r of rows) {
    const inside = r.mount === '/' || path === r.mount || path.startsWith(`${r.mount}/`);
    if (inside && path.startsWith('/') && (!best || r.mount.length > best.mount.length)) best = r;
  }
  return best;
}
