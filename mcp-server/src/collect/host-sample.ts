/**
 * One /proc sample of a host through its Target: a single `grep -H ''` over uptime, diskstats, stat, vmstat and
 * loadavg, so the five files are read by one process at nearly one instant and every line names its file. Never
 * throws: a host that cannot be read gives the reason.
 */
import { parseProcSample, PROC_SAMPLE_FILES, type ProcSample } from '../core/parse/proc/sample.js';
import type { Target } from './target.js';

export type HostSampleResult = { ok: true; sample: ProcSample; ms: number } | { ok: false; error: string; ms: number };

/** grep exits 2 when a file is missing but still prints the others: the parsed sample names what was not read. */
export async function sampleHost(target: Target, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<HostSampleResult> {
  const t0 = performance.now();
  try {
    const runOpts = { timeoutMs: opts.timeoutMs ?? 15_000, maxBytes: 4 * 1024 * 1024, ...(opts.signal ? { signal: opts.signal } : {}) };
    const r = await target.run(['grep', '-H', '', ...PROC_SAMPLE_FILES], runOpts);
    const ms = Math.round(performance.now() - t0);
    if (r.spawnError) return { ok: false, error: `${target.describe()}: grep could not start (${r.spawnError})`, ms };
    if (r.cancelled) return { ok: false, error: `${target.describe()}: cancelled`, ms };
    if (r.timedOut) return { ok: false, error: `${target.describe()}: reading /proc timed out`, ms };
    const sample = parseProcSample(r.stdout);
    if (sample.unread.length === PROC_SAMPLE_FILES.length) {
      const why = `exit ${r.exitCode ?? 'killed'}${r.stderr ? `: ${r.stderr.trim().slice(0, 200)}` : ''}`;
      return { ok: false, error: `${target.describe()}: no /proc file could be read (${why})`, ms };
    }
    return { ok: true, sample, ms };
  } catch (e) {
    return { ok: false, error: `${target.describe()}: ${e instanceof Error ? e.message : String(e)}`, ms: Math.round(performance.now() - t0) };
  }
}
