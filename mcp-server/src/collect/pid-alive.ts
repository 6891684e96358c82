import { readFile } from 'node:fs/promises';

/** State, parent and process group of a pid, read from /proc (null where it is gone or there is no /proc). */
export async function procStat(pid: number): Promise<{ state: string; ppid: number; pgid: number } | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (text === null) return null;
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: rest[0] ?? '?', ppid: Number(rest[1]), pgid: Number(rest[2]) };
}

/** Is this pid a live process (a zombie is not)? */
export async function pidAlive(pid: number | null): Promise<boolean> {
  if (pid === null || !Number.isInteger(pid) || pid <= 0) return false;
  const st = await procStat(pid);
  if (st) return st.state !== 'Z' && st.state !== 'X';
  if (process.platform === 'linux') return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
