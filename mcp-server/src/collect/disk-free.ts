/**
 * `df -P -k` of a host through its Target: every filesystem, so no path read from a cluster ever reaches an argv
 * (matching a node's directories to a filesystem happens in core/rules/disk-space.ts). Never throws.
 */
import type { Target } from './target.js';

export type DfResult = { ok: true; text: string } | { ok: false; error: string };

/** df exits 1 when one filesystem cannot be read (a stale mount, no permission) yet prints the others: kept. */
export async function readDf(target: Target, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<DfResult> {
  try {
    const runOpts = { timeoutMs: opts.timeoutMs ?? 15_000, maxBytes: 1024 * 1024, ...(opts.signal ? { signal: opts.signal } : {}) };
    const r = await target.run(['df', '-P', '-k'], runOpts);
    if (r.spawnError) return { ok: false, error: `${target.describe()}: df could not start (${r.spawnError})` };
    if (r.cancelled) return { ok: false, error: `${target.describe()}: cancelled` };
    if (r.timedOut) return { ok: false, error: `${target.describe()}: df timed out (a hung network mount?)` };
    const why = `exit ${r.exitCode ?? 'killed'}: ${r.stderr.trim().slice(0, 200)}`;
    if (!r.stdout.trim()) return { ok: false, error: `${target.describe()}: df printed nothing (${why})` };
    return { ok: true, text: r.stdout };
  } catch (e) {
    return { ok: false, error: `${target.describe()}: ${e instanceof Error ? e.message : String(e)}` };
  }
}
