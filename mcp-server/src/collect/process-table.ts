import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parsePsTable, procStatRow, type ProcRow } from '../core/parse/proc/ps-table.js';

export type ProcessTableSource = 'proc' | 'ps';

/**
 * Every process on this machine: from /proc where there is one (Linux), else from POSIX `ps` (macOS, the BSDs),
 * so a process-tree kill works where operators run the CLI. Empty when neither can be read.
 */
export function processTable(source: ProcessTableSource = hasProc() ? 'proc' : 'ps'): ProcRow[] {
  return source === 'proc' ? fromProc() : fromPs();
}

function hasProc(): boolean {
  try {
    return readdirSync('/proc').includes('self');
  } catch {
    return false;
  }
}

function fromProc(): ProcRow[] {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  const out: ProcRow[] = [];
  for (const n of names) {
    try {
      const row = procStatRow(Number(n), readFileSync(`/proc/${n}/stat`, 'utf8'));
      if (row) out.push(row);
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

function fromPs(): ProcRow[] {
  try {
    // Fixed argv, no shell; a short deadline so a wedged ps cannot hold up a timeout kill.
    const text = execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid=', '-o', 'pgid=', '-o', 'stat='], {
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 16 * 1024 * 1024,
    });
    return parsePsTable(text);
  } catch {
    return [];
  }
}
