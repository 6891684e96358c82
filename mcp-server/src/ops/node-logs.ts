import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { dirname, join } from 'node:path';
import { readLogStream } from '../collect/log-reader.js';
import type { LogFacts } from '../core/parse/logs/types.js';
import { labStatus } from '../lab/index.js';

/** A node's log files read as one stream (system.log then gc.log), so one LogFacts describes the node. */
async function* concatFiles(paths: string[], signal?: AbortSignal): AsyncIterable<Uint8Array | string> {
  for (const p of paths) {
    const file = createReadStream(p, signal ? { signal } : {});
    // Rotated logs are often gzipped (system.log.1.zip is not supported; .gz is).
    const stream = p.endsWith('.gz') ? file.pipe(createGunzip()) : file;
    for await (const chunk of stream) yield chunk as Uint8Array;
    yield '\n';
  }
}

export async function readNodeLogs(node: string, paths: string[], signal?: AbortSignal): Promise<{ logs?: LogFacts; error?: string }> {
  const present = paths.filter((p) => existsSync(p));
  if (!present.length) return { error: `no log file found for ${node} (looked for ${paths.join(', ')})` };
  // A device, FIFO or /proc entry never ends (/dev/zero, /dev/stdin) or is no log (/proc/kcore): regular files only.
  for (const p of present) {
    const why = whyNotARegularFile(p);
    if (why) return { error: `${node}: ${p} ${why}` };
  }
  const r = await readLogStream(concatFiles(present, signal), { node, source: present.join(' + ') });
  return r.ok ? { logs: r.value } : { error: `${node}: ${r.reason}` };
}

/** The lab's own logs: each node's system.log and gc.log, by node address. */
export async function labLogPaths(): Promise<Record<string, string[]>> {
  const s = await labStatus();
  return Object.fromEntries(s.nodes.map((n) => [n.host, [n.logFile, join(dirname(n.logFile), 'gc.log')]]));
}

/** Why a path cannot be read as a saved output or log (null when it is a regular file outside /proc, /sys and /dev). */
export function whyNotARegularFile(path: string): string | null {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (e) {
    return `cannot be resolved (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (/^\/(proc|sys|dev)(\/|$)/.test(real)) return `is ${real}, a kernel or device file, not a saved output`;
  if (!statSync(real).isFile()) return 'is not a regular file (a directory, device or FIFO)';
  return null;
}
