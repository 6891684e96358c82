/** One process as the kernel lists it: what a process-tree kill and a "did the cancel empty the group" check need. */
export interface ProcRow {
  pid: number;
  ppid: number;
  pgid: number;
  /** First letter of the state: R, S, D, Z (zombie), T (stopped), X (dead). */
  state: string;
}

/** /proc/<pid>/stat → row. The command name sits in parentheses and may hold spaces and ')', so split after the last ')'. */
export function procStatRow(pid: number, stat: string): ProcRow | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const rest = stat.slice(close + 2).split(' ');
  const ppid = Number(rest[1]);
  const pgid = Number(rest[2]);
  if (!rest[0] || !Number.isInteger(ppid) || !Number.isInteger(pgid)) return null;
  return { pid, ppid, pgid, state: rest[0].charAt(0) };
}

/** `ps -A -o pid= -o ppid= -o pgid= -o stat=` (Linux procps and macOS/BSD ps print the same columns) → rows. */
export function parsePsTable(text: string): ProcRow[] {
  const out: ProcRow[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)/.exec(line);
    if (m) out.push({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), state: m[4]!.charAt(0) });
  }
  return out;
}

/** Every live descendant of pid, deepest first (children are killed before their parent can respawn them). */
export function descendantsOf(pid: number, rows: readonly ProcRow[]): number[] {
  const children = new Map<number, number[]>();
  for (const r of rows) if (r.state !== 'Z' && r.state !== 'X') children.set(r.ppid, [...(children.get(r.ppid) ?? []), r.pid]);
  const found: number[] = [];
  const seen = new Set<number>([pid]);
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      if (seen.has(c)) continue; // a pid reused mid-read cannot make a loop
      seen.add(c);
      walk(c);
      found.push(c);
    }
  };
  walk(pid);
  return found;
}
