import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { splitLines } from '../../text.js';

export const DF_KIND = 'host.df';

/** One filesystem as `df -P -k` prints it (POSIX format: one line each, sizes in 1024-byte blocks), or `df -h`. */
export interface DfRow {
  filesystem: string;
  /** From `df -h` these are its rounded figures (63G, 1.7T) read as powers of 1024: approximate. */
  sizeKiB: number;
  usedKiB: number;
  availKiB: number;
  /** df's own Capacity column: used ÷ (used + available), rounded up (reserved blocks are not "available"). */
  usedPct: number;
  mount: string;
}

const HEADER = /^Filesystem\s+(?:(?:1024|1K)-blocks|Size)\s+Used\s+Avail(?:able)?\s+(?:Capacity|Use%)\s+Mounted on\s*$/i;
// Rows are trimmed before matching, so the mount point runs to the end: a lazy `.*?` before `\s*$` was quadratic on space runs.
// A size is a count of 1 KiB blocks (-k) or df -h's rounded figure with a unit letter (12K, 3.0G, 1.7T; 0 alone).
const SIZE = String.raw`(\d+(?:\.\d+)?[KMGTPE]?)`;
const ROW = new RegExp(String.raw`^(\S+)\s+${SIZE}\s+${SIZE}\s+${SIZE}\s+(\d{1,3})%\s+(\/.*)$`);
// Without -P a long device name is printed alone and its figures go on the next line.
const FIGURES_ONLY = new RegExp(String.raw`^${SIZE}\s+${SIZE}\s+${SIZE}\s+\d{1,3}%\s+\/`);
const UNIT = { K: 1, M: 1024, G: 1024 ** 2, T: 1024 ** 3, P: 1024 ** 4, E: 1024 ** 5 } as const;

/** KiB from a -k block count or a -h figure. */
function kib(v: string, human: boolean): number {
  const unit = /[KMGTPE]$/.exec(v)?.[0] as keyof typeof UNIT | undefined;
  const n = Number(unit ? v.slice(0, -1) : v);
  // df -h prints bytes below 1 KiB without a unit (0, 512): never whole KiB.
  return unit ? Math.round(n * UNIT[unit]) : human ? n / 1024 : n;
}

/** `df -P -k` (also `df -k` and `df -h`, whose long device names may wrap onto their own line). Total: never throws. */
export const parseDf = total(DF_KIND, (text: string): Parsed<DfRow[]> => {
  const lines = splitLines(text);
  const start = lines.findIndex((l) => HEADER.test(l.trim()));
  if (start < 0)
    return unrecognized(DF_KIND, 'no "Filesystem 1024-blocks (or Size) Used Available Capacity Mounted on" header (expected `df -P -k` or `df -h` output)');
  const human = /\bSize\b/i.test(lines[start]!);
  const rows: DfRow[] = [];
  const warnings: string[] = [];
  const body = lines.slice(start + 1).map((l) => l.trim());
  for (let i = 0; i < body.length; i++) {
    let l = body[i]!;
    if (!l) continue;
    if (!/\s/.test(l) && FIGURES_ONLY.test(body[i + 1] ?? '')) l = `${l} ${body[++i]!}`;
    const m = ROW.exec(l);
    if (!m) {
      warnings.push(`line ${start + i + 2} is not a df row: ${l.slice(0, 80)}`);
      continue;
    }
    const [size, used, avail] = [m[2]!, m[3]!, m[4]!].map((v) => kib(v, human)) as [number, number, number];
    // Mount points are printed raw; a mount point holding " " is rare and stays as printed.
    rows.push({ filesystem: m[1]!, sizeKiB: size, usedKiB: used, availKiB: avail, usedPct: Number(m[5]), mount: m[6]! });
  }
  if (human && rows.length) warnings.push('df -h figures are rounded (63G, 1.7T): sizes are approximate; Use% is exact');
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
