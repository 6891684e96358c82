/**
 * The hot-partition sample of a diagnosis window: while diagnose waits between its two sweeps, each node runs
 * `nodetool profileload -a READS,WRITES -k 10 <ms>` once (every keyspace), through the same nodetool runner and
 * Target as the sweep. A node whose sampler fails or prints nothing is kept with the reason, so the rule says
 * "not checked" instead of "no hot partition".
 */
import { NODETOOL_ALLOW_LIST } from '../core/nodetool-commands.js';
import { parseToppartitions, type TopPartitions } from '../core/parse/nodetool/toppartitions.js';
import type { Target } from '../collect/target.js';
import { worstFirst } from '../core/findings.js';
import { HOT_PARTITION_CHECKS, hotPartitionOutcome, type ProfileSample } from '../core/rules/hot-partition.js';
import type { RulesResult } from '../core/rules/index.js';
import type { DiagnosisWindow, WindowProfiler } from './diagnose-window.js';
import { runNodetool, type NodetoolDeps, type NodetoolInput, type NodetoolReport } from './nodetool.js';
import { nodetoolTargetFor, nodetoolTemplate, resolveTargets, type SnapshotInput } from './snapshot.js';

/** One node's sample: the read/write frequency rows, or `error` when it failed or printed nothing. */
export type NodeProfileLoad = ProfileSample;

/** A node as profileload reaches it: its JMX endpoint and, for remote nodes, the Target nodetool runs on. */
export interface ProfileEndpoint {
  node: string;
  jmxHost: string;
  jmxPort: number;
  target?: Target;
}

const SPEC = NODETOOL_ALLOW_LIST.profileload.samplesFor;
/** Time a nodetool JVM needs to start and connect, kept free so the sample ends inside the window. */
export const PROFILE_MARGIN_MS = 3000;
/** Past its duration the sampler gets this long to answer before it counts as failed. */
const PROFILE_GRACE_MS = 20_000;

/**
 * The sampling duration for a window: min(window, 10 s) less the start-up margin, in whole ms; null (with the
 * reason) when the window is too short to sample anything meaningful.
 */
export function profileDurationMs(windowSeconds: number): { ms: number } | { ms: null; why: string } {
  const ms = Math.floor(Math.min(windowSeconds * 1000, SPEC.maxMs) - PROFILE_MARGIN_MS);
  if (!(ms >= SPEC.minMs)) {
    return { ms: null, why: `the ${windowSeconds} s window is too short to sample partitions (needs at least ${(SPEC.minMs + PROFILE_MARGIN_MS) / 1000} s)` };
  }
  return { ms };
}

type RunNodetool = (input: NodetoolInput, deps: NodetoolDeps) => Promise<NodetoolReport>;

/** Why a profileload answer gives no sample, or null when it does. */
function noSample(r: NodetoolReport, samplers: TopPartitions['samplers'] | undefined): string | null {
  if (!r.ok) return r.error ? `${r.error.code}: ${r.error.message}` : `nodetool profileload failed (exit ${String(r.exitCode)})`;
  if (!samplers) return 'nodetool profileload printed no "Frequency of … by partition" section';
  return null;
}

/** Runs the sampler on every node at once; never throws (failures become the node's error). */
export async function profileNodes(
  endpoints: readonly ProfileEndpoint[],
  durationMs: number,
  opts: { nodetoolPath?: string; signal?: AbortSignal; run?: RunNodetool } = {},
): Promise<NodeProfileLoad[]> {
  const run = opts.run ?? runNodetool;
  return Promise.all(
    endpoints.map(async (e): Promise<NodeProfileLoad> => {
      try {
        const r = await run(
          {
            subcommand: 'profileload',
            host: e.jmxHost,
            port: e.jmxPort,
            durationMs,
            timeoutMs: durationMs + PROFILE_GRACE_MS,
            raw: true,
            ...(opts.nodetoolPath ? { nodetoolPath: opts.nodetoolPath } : {}),
          },
          { ...(opts.signal ? { signal: opts.signal } : {}), ...(e.target ? { target: e.target, credentialHost: e.node } : {}) },
        );
        const parsed = r.ok ? parseToppartitions(r.output.raw ?? '') : null;
        const samplers = parsed?.ok ? parsed.value.samplers : undefined;
        const why = parsed && !parsed.ok ? `nodetool profileload output not read: ${parsed.reason}` : noSample(r, samplers);
        return why || !samplers ? { node: e.node, durationMs, error: why ?? 'no sample' } : { node: e.node, durationMs, samplers };
      } catch (err) {
        return { node: e.node, durationMs, error: err instanceof Error ? err.message : String(err) };
      }
    }),
  );
}

/** The JMX endpoints and Targets the sweep used for these nodes (same resolution as takeSnapshot). */
export async function profileEndpoints(input: SnapshotInput, nodes: readonly string[]): Promise<{ endpoints: ProfileEndpoint[]; refused: string[] }> {
  const { jmxHost, jmxPorts } = await resolveTargets(input);
  const via = nodetoolTemplate(input);
  const endpoints: ProfileEndpoint[] = [];
  const refused: string[] = [];
  for (const node of nodes) {
    try {
      endpoints.push({
        node,
        jmxHost: jmxHost === 'node' ? node : jmxHost,
        jmxPort: jmxPorts[node] ?? input.jmxPort ?? 7199,
        ...(via ? { target: nodetoolTargetFor(via, node) } : {}),
      });
    } catch (err) {
      refused.push(`${node}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { endpoints, refused };
}

/** Adds table.hot-partition to a live diagnosis's rule results (with the window's table rates); unchanged without a window. */
export function withHotPartitions(r: RulesResult, window: DiagnosisWindow | undefined): RulesResult {
  if (!window) return r;
  const p = window.profileload;
  const tableRates = Object.fromEntries(window.nodes.map((n) => [n.node, n.tables]));
  const o = hotPartitionOutcome(p ? { ...p, tableRates } : undefined);
  return {
    ...r,
    findings: worstFirst([...r.findings, ...o.findings]),
    outcomes: [
      ...r.outcomes,
      {
        rule: o.rule,
        checks: HOT_PARTITION_CHECKS,
        checked: o.checked,
        ...(o.skippedBecause ? { skippedBecause: o.skippedBecause } : {}),
        findings: o.findings.length,
      },
    ],
  };
}

/** The window's sampler for a diagnosis: every reachable node of the first sweep; none when nodetool is off. */
export function windowProfiler(input: SnapshotInput): WindowProfiler | undefined {
  if (input.nodetool === false) return undefined;
  return async (first, durationMs, signal) => {
    const reachable = first.nodes.filter((n) => n.reachable).map((n) => n.address);
    const { endpoints, refused } = await profileEndpoints(input, reachable).catch((e: unknown) => ({
      endpoints: [] as ProfileEndpoint[],
      refused: reachable.map((n) => `${n}: ${e instanceof Error ? e.message : String(e)}`),
    }));
    const opts = { ...(input.nodetoolPath ? { nodetoolPath: input.nodetoolPath } : {}), ...(signal ? { signal } : {}) };
    const sampled = await profileNodes(endpoints, durationMs, opts);
    const notReached = refused.map((r) => ({ node: r.slice(0, r.indexOf(':')), durationMs, error: r.slice(r.indexOf(':') + 2) }));
    return { nodes: [...sampled, ...notReached] };
  };
}
