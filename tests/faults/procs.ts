/** /proc readers for the fault scenarios: what this test process left running. */
import { readdirSync, readFileSync } from 'node:fs';

interface Proc {
  pid: number;
  ppid: number;
  state: string;
  cmdline: string;
}

function allProcs(): Proc[] {
  const out: Proc[] = [];
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${n}/cmdline`, 'utf8').split('\0').join(' ').trim();
      out.push({ pid: Number(n), ppid: Number(rest[1]), state: rest[0] ?? '?', cmdline });
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

const live = (p: Proc) => p.state !== 'Z' && p.state !== 'X';

/** Live descendants of this process, except the given pids (the lab's Cassandra JVMs) and their own trees. */
export function liveDescendants(except: readonly number[] = []): { pid: number; cmdline: string }[] {
  const procs = allProcs();
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: { pid: number; cmdline: string }[] = [];
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      if (except.includes(c.pid)) continue;
      if (live(c)) out.push({ pid: c.pid, cmdline: c.cmdline.slice(0, 200) });
      walk(c.pid);
    }
  };
  walk(process.pid);
  return out;
}

/** Live processes anywhere whose command line contains `needle` (a temp path or a port the scenario made). */
export function liveMatching(needle: string): { pid: number; cmdline: string }[] {
  return allProcs()
    .filter((p) => live(p) && p.pid !== process.pid && p.cmdline.includes(needle))
    .map((p) => ({ pid: p.pid, cmdline: p.cmdline.slice(0, 200) }));
}

/** Polls until nothing matches (processes killed a moment ago may still be exiting). */
export async function settled(probe: () => { pid: number; cmdline: string }[], ms = 5000): Promise<{ pid: number; cmdline: string }[]> {
  const until = Date.now() + ms;
  let left = probe();
  while (left.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    left = probe();
  }
  return left;
}
