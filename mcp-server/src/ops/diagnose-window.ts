/**
 * The window of a live diagnosis: host samples and a sweep at the start, a wait (with progress, cancellable),
 * host samples and a sweep at the end; counters of both sweeps become rates and the host samples become
 * iostat/CPU/vmstat figures. Hosts are reached through Targets only: the local machine for the lab, the
 * nodetoolVia target of each node otherwise.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sampleHost, type HostSampleResult } from '../collect/host-sample.js';
import { createTarget, type TargetOrigin } from '../collect/target-spec.js';
import { parseTargetTemplate, specForNode } from '../collect/target-template.js';
import type { Target } from '../collect/target.js';
import { nodeWindowRates } from '../core/diagnosis/counter-rates.js';
import { hostWindow } from '../core/diagnosis/host-window.js';
import type { NodetoolEvidence } from '../core/diagnosis/evidence.js';
import type { TableFact } from '../core/facts/node-facts.js';
import { OpError } from './errors.js';
import type { ProgressFn } from './progress.js';
import type { ClusterSnapshot } from './snapshot.js';
import { profileDurationMs, type NodeProfileLoad } from './window-profileload.js';
import type { DiagnosisWindow, HostWindowResult, NodeRecentLatency, WindowProfileLoad } from '../core/reports/diagnosis.js';
export type { DiagnosisWindow, HostWindowResult, NodeRecentLatency, WindowProfileLoad } from '../core/reports/diagnosis.js';

/** A live diagnosis waits this long between its two sweeps unless told otherwise (0 = one instant sweep). */
export const DEFAULT_WINDOW_SECONDS = 10;
export const MAX_WINDOW_SECONDS = 600;

export interface HostGroup {
  /** How the host is reached, e.g. "local" or "ssh ops@10.0.0.1". */
  target: Target;
  /** The nodes running on it. */
  nodes: string[];
}

/** Samples the nodes of the first sweep for `durationMs` (ops/window-profileload.ts); never throws. */
export type WindowProfiler = (first: ClusterSnapshot, durationMs: number, signal?: AbortSignal) => Promise<{ nodes: NodeProfileLoad[]; note?: string }>;

const SYSTEM_KEYSPACE = /^(system|system_schema|system_auth|system_distributed|system_traces|system_views|system_virtual_schema)$/;

/** The worst p99 over a node's user tables, coordinator figures first (what clients waited), else replica ones. */
export function nodeRecentLatency(node: string, tables: readonly TableFact[]): NodeRecentLatency {
  const user = tables.filter((t) => !SYSTEM_KEYSPACE.test(t.keyspace));
  const worst = (pick: (t: TableFact) => number | null | undefined) => {
    let best: { ms: number; table: string } | null = null;
    for (const t of user) {
      const ms = pick(t);
      if (ms !== null && ms !== undefined && Number.isFinite(ms) && (!best || ms > best.ms)) best = { ms, table: `${t.keyspace}.${t.table}` };
    }
    return best;
  };
  const coordinator = { read: worst((t) => t.coordinatorRead?.p99Ms), write: worst((t) => t.coordinatorWrite?.p99Ms) };
  const useCoordinator = coordinator.read !== null || coordinator.write !== null;
  const { read, write } = useCoordinator ? coordinator : { read: worst((t) => t.localRead?.p99Ms), write: worst((t) => t.localWrite?.p99Ms) };
  return {
    node,
    readP99Ms: read?.ms ?? null,
    readTable: read?.table ?? null,
    writeP99Ms: write?.ms ?? null,
    writeTable: write?.table ?? null,
    scope: read || write ? (useCoordinator ? 'coordinator' : 'local') : null,
  };
}

/** Which hosts to sample: the lab's own machine, or each node's nodetoolVia target; none otherwise (said why). */
export function hostGroups(
  input: { lab?: boolean; nodetoolVia?: string; targetOrigin?: TargetOrigin },
  nodes: string[],
  local: () => Target,
): { groups: HostGroup[]; note?: string } {
  if (input.lab) return { groups: [{ target: local(), nodes }] };
  if (!input.nodetoolVia || input.nodetoolVia.trim().toLowerCase() === 'local') {
    return { groups: [], note: "host figures (disk, CPU, memory) need a way onto the nodes' hosts: give nodetoolVia, e.g. ssh://ops@{host}" };
  }
  const t = parseTargetTemplate(input.nodetoolVia, input.targetOrigin ?? 'untrusted');
  if (!t.ok) return { groups: [], note: `host figures not sampled: nodetoolVia: ${t.error}` };
  const groups: HostGroup[] = [];
  const refused: string[] = [];
  for (const n of nodes) {
    const spec = specForNode(t.value, n);
    if (spec.ok) groups.push({ target: createTarget(spec.value), nodes: [n] });
    else refused.push(`${n}: ${spec.error}`);
  }
  return { groups, ...(refused.length ? { note: `host not sampled for ${refused.join('; ')}` } : {}) };
}

async function sampleAll(groups: HostGroup[], signal?: AbortSignal): Promise<HostSampleResult[]> {
  return Promise.all(groups.map((g) => sampleHost(g.target, signal ? { signal } : {})));
}

function cancelled(): OpError {
  const fix = 'Run it again when needed; windowSeconds 0 takes one instant sweep without waiting.';
  return new OpError('CANCELLED', 'diagnose was cancelled during its window', fix);
}

/** Waits until `until` (ms epoch), reporting each second; an abort ends the wait with CANCELLED. */
export async function waitWindow(until: number, seconds: number, onProgress?: ProgressFn, signal?: AbortSignal): Promise<void> {
  for (;;) {
    if (signal?.aborted) throw cancelled();
    const left = until - Date.now();
    if (left <= 0) return;
    const done = Math.min(seconds, Math.max(0, seconds - Math.ceil(left / 1000)));
    onProgress?.({ message: `window: ${done} of ${seconds} s (counters and host figures are read again at the end)`, progress: done, total: seconds });
    try {
      await sleep(Math.min(1000, left), undefined, signal ? { signal } : {});
    } catch {
      throw cancelled();
    }
  }
}

export interface WindowRun {
  first: ClusterSnapshot;
  last: ClusterSnapshot;
  window: DiagnosisWindow;
}

/**
 * Runs sweep() twice, `seconds` apart (start to start), with host samples taken just before each sweep, and
 * computes the window. The rules then read the last sweep: its gcstats covers exactly the window.
 */
export async function runWindow(
  seconds: number,
  sweep: () => Promise<ClusterSnapshot>,
  hosts: (first: ClusterSnapshot) => { groups: HostGroup[]; note?: string },
  deps: { onProgress?: ProgressFn; signal?: AbortSignal; profile?: WindowProfiler },
): Promise<WindowRun> {
  const t1 = Date.now();
  const first = await sweep();
  const firstSweepSeconds = (Date.now() - t1) / 1000;
  const { groups, note } = hosts(first);
  // Sampled after the first sweep: its nodes are known then. The second sample is taken at the same point of the
  // second sweep, so both windows are equally long.
  const h1 = await sampleAll(groups, deps.signal);
  const h1At = Date.now();
  // The partition sampler runs while the window waits, so it costs no extra time and covers the same load.
  const duration = profileDurationMs(seconds);
  const ms = duration.ms;
  const profiled: Promise<WindowProfileLoad> | null = !deps.profile
    ? null
    : ms === null
      ? Promise.resolve({ durationMs: null, nodes: [], note: 'why' in duration ? duration.why : 'window too short' })
      : deps.profile(first, ms, deps.signal).then(
          (r) => ({ durationMs: ms, ...r }),
          (e: unknown) => ({ durationMs: ms, nodes: [], note: `partition sample failed: ${e instanceof Error ? e.message : String(e)}` }),
        );
  await waitWindow(t1 + seconds * 1000, seconds, deps.onProgress, deps.signal);
  // The second sweep starts when the window ends, not when the sampler is done (its nodetool JVM starts slowly on
  // a busy host): the sample is awaited with the second sweep, so the window stays as long as asked.
  const t2 = Date.now();
  deps.onProgress?.({ message: 'window over: reading counters again' });
  const wait = Math.max(0, h1At - t1 - (Date.now() - t2));
  const lastP = sweep();
  // Host sample B at the same offset into the second sweep as A was into the first.
  const h2P = sleep(wait, undefined, deps.signal ? { signal: deps.signal } : {}).then(
    () => sampleAll(groups, deps.signal),
    () => {
      throw cancelled();
    },
  );
  const [last, h2, profileload] = await Promise.all([lastP, h2P, profiled ?? Promise.resolve(undefined)]);
  const elapsed = (t2 - t1) / 1000;
  const byNode = new Map(first.nodes.map((n) => [n.address, n]));
  const nodes = last.nodes.flatMap((n) => {
    const p = byNode.get(n.address);
    if (!p || !p.reachable || !n.reachable) return [];
    const before = { facts: p.facts, nodetool: p.nodetool as NodetoolEvidence };
    return [nodeWindowRates(n.address, before, { facts: n.facts, nodetool: n.nodetool }, elapsed)];
  });
  const hostResults: HostWindowResult[] = groups.map((g, i) => {
    const a = h1[i]!;
    const b = h2[i]!;
    const base = { target: g.target.describe(), nodes: g.nodes };
    if (!a.ok) return { ...base, error: a.error };
    if (!b.ok) return { ...base, error: b.error };
    return { ...base, window: hostWindow(a.sample, b.sample) };
  });
  return {
    first,
    last,
    window: {
      requestedSeconds: seconds,
      seconds: elapsed,
      firstSweepSeconds,
      nodes,
      hosts: hostResults,
      startedAt: new Date(t1).toISOString(),
      endedAt: new Date(t2).toISOString(),
      nodeLatency: last.nodes.filter((n) => n.reachable).map((n) => nodeRecentLatency(n.address, n.facts.tables ?? [])),
      ...(profileload ? { profileload } : {}),
      latency:
        "p99 latencies are the nodes' own recent figures from the last sweep: virtual tables and nodetool give percentiles of a decaying reservoir, " +
        'not bucket counts, so no exact window histogram can be taken from them',
      notes: [
        ...(firstSweepSeconds > seconds
          ? [
              `the first sweep took ${firstSweepSeconds.toFixed(1)} s, longer than the ${seconds} s asked: ` +
                'the window is that long (the second sweep starts when the first ends)',
            ]
          : []),
        ...(note ? [note] : []),
      ],
    },
  };
}
