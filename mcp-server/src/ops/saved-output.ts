import { readFile, stat } from 'node:fs/promises';
import { OpError } from './errors.js';
import { whyNotARegularFile } from './node-logs.js';

/** Largest saved output `interpret` reads whole (logs of any size go through the streaming log analysis). */
export const MAX_INTERPRET_BYTES = 20 * 1024 * 1024;

/**
 * Reads a saved output for `interpret` (MCP and CLI alike): a regular file outside /proc, /sys and /dev,
 * at most MAX_INTERPRET_BYTES. A device would never end (/dev/zero) and /proc/self/environ holds the
 * server's own credentials.
 */
export async function readSavedOutput(path: string): Promise<string> {
  const why = whyNotARegularFile(path);
  if (why) throw new OpError('NOT_A_FILE', `${JSON.stringify(path)} ${why}`, 'Give the path of a saved text output.');
  const st = await stat(path);
  if (st.size > MAX_INTERPRET_BYTES) {
    throw new OpError('TOO_LARGE', `${JSON.stringify(path)} is ${st.size} bytes, over the ${MAX_INTERPRET_BYTES}-byte limit`, 'Cut the part that matters, or use the log analysis (analyze_logs / `cql-tuner logs`) for big logs.');
  }
  return readFile(path, 'utf8');
}
