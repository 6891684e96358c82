import { readNamedFile, type Refusal } from '../collect/safe-file.js';
import { OpError } from './errors.js';

/** Largest saved output `interpret` reads whole (logs of any size go through the streaming log analysis). */
export const MAX_INTERPRET_BYTES = 20 * 1024 * 1024;

/**
 * The OpError for a named file that was refused, worded the same by every tool that reads one (interpret,
 * audit_config, review_schema, migration_review, analyze_logs): `what` names the file, `fix` says what to give.
 */
export function fileRefusedError(path: string, r: Refusal, fix: string, tooLargeFix = fix): OpError {
  const code = r.code === 'TOO_LARGE' ? 'TOO_LARGE' : r.code === 'NOT_FOUND' ? 'NOT_FOUND' : r.code === 'ABORTED' ? 'CANCELLED' : 'NOT_A_FILE';
  return new OpError(code, `${JSON.stringify(path)} ${r.reason}`, r.code === 'TOO_LARGE' ? tooLargeFix : fix);
}

/**
 * Reads a saved output for `interpret` (MCP and CLI alike): a regular file outside /proc, /sys and /dev,
 * at most MAX_INTERPRET_BYTES (collect/safe-file.ts). A device would never end (/dev/zero) and
 * /proc/self/environ holds the server's own credentials.
 */
export async function readSavedOutput(path: string, signal?: AbortSignal): Promise<string> {
  const r = await readNamedFile(path, { maxBytes: MAX_INTERPRET_BYTES, ...(signal ? { signal } : {}) });
  if (r.ok) return r.text;
  const tooLargeFix = 'Cut the part that matters, or use the log analysis (analyze_logs / `cql-tuner logs`) for big logs.';
  throw fileRefusedError(path, r, 'Give the path of a saved text output.', tooLargeFix);
}
