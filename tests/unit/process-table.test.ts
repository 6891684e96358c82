import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { processTable } from '../../mcp-server/src/collect/process-table.js';
import { descendantsOf, parsePsTable, procStatRow } from '../../mcp-server/src/core/parse/proc/ps-table.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

/** A shell with two sleeping children and one grandchild, in its own group. */
async function tree(): Promise<number> {
  const child = spawn('sh', ['-c', 'sleep 60 & (sleep 61 & wait) & wait'], { detached: true, stdio: 'ignore' });
  started.push(child.pid!);
  await new Promise((r) => setTimeout(r, 300));
  return child.pid!;
}

describe('the process table, from /proc and from ps (what macOS has)', () => {
  it('both sources list the same descendants of a live shell, deepest first, and the same process group', async () => {
    const root = await tree();
    const viaProc = descendantsOf(root, processTable('proc'));
    const viaPs = descendantsOf(root, processTable('ps'));
    expect(viaProc.length).toBe(3); // sleep 60, the subshell, its sleep 61, and nothing else
    expect(new Set(viaPs)).toEqual(new Set(viaProc));
    const sub = processTable('ps').find((r) => r.ppid === root && viaProc.includes(r.pid) && descendantsOf(r.pid, processTable('ps')).length);
    expect(sub, 'the subshell has a child').toBeDefined();
    expect(viaPs.indexOf(descendantsOf(sub!.pid, processTable('ps'))[0]!)).toBeLessThan(viaPs.indexOf(sub!.pid));
    const group = processTable('ps')
      .filter((r) => r.pgid === root)
      .map((r) => r.pid);
    expect(new Set(group)).toEqual(new Set([root, ...viaProc]));
  });

  it('parses ps and /proc/<pid>/stat text, including a command name with spaces and parentheses', () => {
    expect(parsePsTable('  101     1   101 Ss\n  102   101   101 S+\ngarbage\n  103   102   101 Z\n')).toEqual([
      { pid: 101, ppid: 1, pgid: 101, state: 'S' },
      { pid: 102, ppid: 101, pgid: 101, state: 'S' },
      { pid: 103, ppid: 102, pgid: 101, state: 'Z' },
    ]);
    expect(procStatRow(7, '7 (a b) c)) S 3 7 7 0 -1')).toEqual({ pid: 7, ppid: 3, pgid: 7, state: 'S' });
    expect(procStatRow(7, 'no parens')).toBeNull();
    // Zombies are not walked; a reused pid cannot make a loop.
    expect(descendantsOf(1, parsePsTable('2 1 1 S\n3 2 1 Z\n4 2 1 S\n1 4 1 S\n'))).toEqual([4, 2]);
  });
});
