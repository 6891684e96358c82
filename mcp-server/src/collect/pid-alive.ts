import { readFile } from 'node:fs/promises';
import { procStatRow, type ProcRow } from '../core/parse/proc/ps-table.js';

/**
 * State, parent and process group of a pid from /proc/<pid>/stat (null where it is gone or there is no /proc): the
 * one async reader of that file, parsed by the same procStatRow as the process-tree walk.
 */
export async function procStat(pid: number): Promise<ProcRow | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return text === null ? null : procStatRow(pid, text);
}

/** Is this pid a live process (a zombie is not)? Without /proc (macOS) signal 0 asks; EPERM means it exists. */
export async function pidAlive(pid: number | null): Promise<boolean> {
  if (pid === null || !Number.isInteger(pid) || pid <= 0) return false;
  if (process.platform === 'linux') {
    const st = await procStat(pid);
    return st !== null && st.state !== 'Z' && st.state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
