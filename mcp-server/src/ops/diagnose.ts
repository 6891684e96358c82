import { correlate } from '../core/diagnosis/correlate.js';
import { nodeEvidence, type DiagnosisInput, type NodetoolEvidence } from '../core/diagnosis/evidence.js';
import type { NodeClock } from '../core/diagnosis/since-start.js';
import type { LogTimelines } from '../core/diagnosis/status-logger.js';
import { LocalTarget } from '../collect/local-target.js';
import type { Target } from '../collect/target.js';
import { severityCounts, type Finding } from '../core/findings.js';
import { orderFindings } from '../core/diagnosis/chain.js';
import { RULES, runRules } from '../core/rules/index.js';
import type { Rule } from '../core/rules/rule.js';
import type { RulePolicy } from '../core/rules/policy.js';
import { liveSchemaRule } from '../core/rules/schema-live.js';
import { statementsRule } from '../core/rules/statements.js';
import type { LogFacts } from '../core/parse/logs/types.js';
import { labLogPaths, readNodeLogs } from './node-logs.js';
import { OpError } from './errors.js';
import type { ProgressFn } from './progress.js';
import { analyzeBundle, snapshotOfDiagTree, takeSnapshot, type ClusterSnapshot, type SnapshotInput } from './snapshot.js';
import { isDiagTree, readDiagTree, type DiagTree } from '../collect/diag-tree.js';
import { hostGroups, MAX_WINDOW_SECONDS, runWindow, type DiagnosisWindow } from './diagnose-window.js';
import { sinceCutOf, sinceMetrics, withSince } from './diagnose-since.js';
import { checkDiskSpace, withDiskSpace, type DiskSpaceCheck } from './disk-space.js';
import { checkScyllaHost, withScyllaHost } from './scylla-host-check.js';
import { checkIoThrottle, withIoThrottle, type IoThrottleCheck } from './io-throttle-check.js';
import { windowProfiler, withHotPartitions } from './window-profileload.js';
import type { DiagnosisReport } from '../core/reports/diagnosis.js';
export type { DiagnosisReport } from '../core/reports/diagnosis.js';

/** What a diagnosis adds to a snapshot: per-node tables and compactions, and the ring from one node. */
export const DIAGNOSE_NODETOOL_PER_NODE = ['compactionstats', 'tablestats', 'getcompactionthroughput'];
export const DIAGNOSE_NODETOOL_ONCE = ['status', 'describecluster'];

export function evidenceFromSnapshot(s: ClusterSnapshot, origin: string, logs: Record<string, LogFacts> = {}): DiagnosisInput {
  return {
    origin,
    nodes: s.nodes.map((n) => {
      const e = nodeEvidence(n.address, n.reachable, { facts: n.facts, nodetool: n.nodetool }, [
        ...n.sources.filter((x) => !x.ok).map((x) => ({ source: x.name, code: x.error?.code ?? '?', message: x.error?.message ?? '' })),
        // An output that arrived but could not be read is a collection problem too, not an absence of data.
        ...n.unparsed.map((u) => ({ source: u.name, code: 'UNPARSED', message: u.reason })),
      ]);
      const l = logs[n.address];
      return l ? { ...e, logs: l } : e;
    }),
  };
}

/** Per node: uptime and gcstats interval, which say whether a counter covers the window or the node's whole life. */
function clocksOf(s: ClusterSnapshot): Record<string, NodeClock> {
  return Object.fromEntries(s.nodes.map((n) => [n.address, { uptimeSeconds: n.facts.uptimeSeconds ?? null, gcIntervalMs: n.facts.gc?.intervalMs ?? null }]));
}

/** Per node, the log timelines that date a StatusLogger table against the drops or pauses that printed it. */
function logTimelinesOf(logs: Record<string, LogFacts>): Record<string, LogTimelines> {
  return Object.fromEntries(
    Object.entries(logs).map(([node, l]) => [
      node,
      {
        threadPools: l.events.threadPools.timeline,
        dropped: l.events.dropped.timeline,
        gcPause: l.events.gcPause.timeline,
        droppedTypes: l.dropped.byType.map((d) => d.type),
      },
    ]),
  );
}

/** A diagnosis runs every rule plus the schema review on the schema the sweep read and the statement counters. */
export const DIAGNOSE_RULES: readonly Rule[] = [...RULES, liveSchemaRule, statementsRule];

export function diagnosisFromSnapshot(
  s: ClusterSnapshot,
  origin: string,
  logs: Record<string, LogFacts> = {},
  window?: DiagnosisWindow,
  space?: DiskSpaceCheck,
  policy?: RulePolicy,
  throttle?: IoThrottleCheck,
): DiagnosisReport {
  const checked = withIoThrottle(withDiskSpace(runRules(evidenceFromSnapshot(s, origin, logs), DIAGNOSE_RULES, policy), space), throttle);
  // The window's partition sample (nodetool profileload during the wait) joins before correlation, so it can lead a chain.
  const ruled = withHotPartitions(checked, window);
  const rates = window ? Object.fromEntries(window.nodes.map((n) => [n.node, n])) : undefined;
  // One problem one finding, since-start counters labelled or measured over the window, causes before symptoms.
  const findings = correlate(ruled.findings, {
    clocks: clocksOf(s),
    ...(rates && window ? { rates, windowSeconds: Math.round(window.seconds) } : {}),
    logTimelines: logTimelinesOf(logs),
  });
  const r = { ...ruled, findings };
  const clusterName = s.nodes.map((n) => (n.nodetool as NodetoolEvidence).describecluster?.name).find((x): x is string => !!x);
  return {
    origin,
    ...(clusterName ? { clusterName } : {}),
    collectedAt: s.collectedAt,
    durationMs: s.durationMs,
    nodes: s.nodes.map((n) => ({ address: n.address, datacenter: n.datacenter, releaseVersion: n.releaseVersion, status: n.status })),
    versions: [...new Set(s.nodes.map((n) => n.releaseVersion).filter((v): v is string => !!v))].sort(),
    counts: severityCounts(r.findings),
    findings: r.findings,
    checked: r.outcomes,
    ...(s.bundleDir ? { bundleDir: s.bundleDir } : {}),
    ...(s.bundleError ? { bundleError: s.bundleError } : {}),
    ...(s.warnings?.length ? { warnings: s.warnings } : {}),
    ...(window ? { window } : {}),
    ...(ruled.policy ? { policy: ruled.policy } : {}),
  };
}

/**
 * The policy's "off" list also covers findings added after the rules (host checks, the since period): the report
 * leaves out exactly what the operator switched off, counts recomputed, and says so in `policy`.
 */
export function applyPolicyToReport(r: DiagnosisReport, policy: RulePolicy | undefined): DiagnosisReport {
  if (!policy) return r;
  const off = new Set(policy.off);
  const effect = r.policy ?? { source: policy.source, rulesOff: [], findingsOff: {}, thresholds: [] };
  const findings = r.findings.filter((f) => {
    if (!off.has(f.id)) return true;
    effect.findingsOff[f.id] = (effect.findingsOff[f.id] ?? 0) + 1;
    return false;
  });
  return { ...r, findings, counts: severityCounts(findings), policy: effect };
}

export interface DiagnoseInput extends SnapshotInput {
  /** Log files to read per node address (local paths); the lab's own logs are read without asking. */
  logFiles?: Record<string, string[]>;
  /**
   * Seconds between two sweeps whose counters become rates; 0 or absent = one instant sweep. The CLI and the MCP
   * tool default to DEFAULT_WINDOW_SECONDS for live clusters; programmatic callers (demo, tests) choose.
   */
  windowSeconds?: number;
  /** The incident period: logs read from now − sinceSeconds on, and a configured Prometheus's metrics of it (ops/diagnose-since.ts). */
  sinceSeconds?: number;
}

/** Snapshot (CQL first, nodetool for the rest) + logs where reachable + rules → one report, worst first. */
export async function diagnose(
  input: DiagnoseInput,
  deps: {
    onProgress?: ProgressFn;
    signal?: AbortSignal;
    /** The lab's host (default: this machine); tests pass a wrapped LocalTarget. */
    labHost?: Target;
    /** The operator's rule policy (trusted: a CLI flag or the environment, never a tool argument). */
    policy?: RulePolicy;
    /** With sinceSeconds: draw the period's metrics for a hand-over report (the CLI's --report; never a tool result). */
    periodCharts?: boolean;
  } = {},
): Promise<DiagnosisReport> {
  const seconds = input.windowSeconds ?? 0;
  const since = input.sinceSeconds === undefined ? undefined : sinceCutOf(input.sinceSeconds, Date.now());
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WINDOW_SECONDS) {
    const fix = `Give a window between 0 (one instant sweep) and ${MAX_WINDOW_SECONDS} s, e.g. 30.`;
    throw new OpError('BAD_WINDOW', `window of ${seconds} s is outside 0–${MAX_WINDOW_SECONDS} s`, fix);
  }
  const snapshotInput = {
    ...input,
    nodetoolExtra: [...new Set([...DIAGNOSE_NODETOOL_PER_NODE, ...(input.nodetoolExtra ?? [])])],
    nodetoolOnce: [...new Set([...DIAGNOSE_NODETOOL_ONCE, ...(input.nodetoolOnce ?? [])])],
  };
  let s: ClusterSnapshot;
  let window: DiagnosisWindow | undefined;
  if (seconds > 0) {
    // Only the last sweep writes the bundle: it is the one the rules read.
    const { bundleDir: _b, ...firstInput } = snapshotInput;
    let sweeps = 0;
    const run = await runWindow(
      seconds,
      () => takeSnapshot(sweeps++ === 0 ? firstInput : snapshotInput, deps),
      (first) =>
        hostGroups(
          input,
          first.nodes.filter((n) => n.reachable).map((n) => n.address),
          () => deps.labHost ?? new LocalTarget(),
        ),
      { ...deps, profile: windowProfiler(snapshotInput) },
    );
    s = run.last;
    window = run.window;
  } else s = await takeSnapshot(snapshotInput, deps);
  const files = { ...(input.lab ? await labLogPaths() : {}), ...(input.logFiles ?? {}) };
  const logs: Record<string, LogFacts> = {};
  for (const [node, paths] of Object.entries(files)) {
    deps.onProgress?.({ message: `reading logs of ${node}` });
    const r = await readNodeLogs(node, paths, deps.signal, since);
    if (r.logs) logs[node] = r.logs;
  }
  const sinceM = since ? await sinceMetrics(input.sinceSeconds!, { ...deps, charts: deps.periodCharts === true }) : undefined;
  deps.onProgress?.({ message: "reading free space on the nodes' hosts (df)" });
  const space = await checkDiskSpace(input, s, () => deps.labHost ?? new LocalTarget(), deps.signal);
  // ScyllaDB nodes only: their hosts' set-up (perftune, cpuset, IRQs, AIO need), through the same targets as df.
  const scyllaHost = await checkScyllaHost(input, s, () => deps.labHost ?? new LocalTarget(), deps.signal);
  // Cassandra nodes: a cgroup cap on the data disk, which iostat cannot see (the throttle holds I/O before the device).
  const throttle = await checkIoThrottle(input, s, () => deps.labHost ?? new LocalTarget(), deps.signal);
  deps.onProgress?.({ message: 'running rules' });
  const origin = input.lab ? 'local lab' : `cluster via ${s.contactPoints.join(', ')}`;
  const report = withScyllaHost(diagnosisFromSnapshot(s, origin, logs, window, space, deps.policy, throttle), scyllaHost);
  if (!since || !sinceM) return applyPolicyToReport(report, deps.policy);
  const period = {
    from: new Date(since.sinceMs).toISOString(),
    seconds: input.sinceSeconds!,
    logs: Object.keys(logs).length ? 'restricted to the period' : 'no log read',
    metrics: sinceM.note,
    ...(sinceM.charts?.length ? { charts: sinceM.charts } : {}),
  } as const;
  return applyPolicyToReport(withSince(report, period, sinceM.findings), deps.policy);
}

/**
 * A saved bundle, plus log files per node address when given (the user's own --log flags): the bundle holds no
 * logs, so they are read here and join the nodes they name. A node the bundle does not have, or a log that cannot
 * be read, is refused rather than left out: a diagnosis that silently drops asked-for logs would mislead.
 */
export interface BundleLogOptions {
  /** Log files per node address, from the user's own --log flags. */
  logFiles?: Record<string, string[]>;
  signal?: AbortSignal;
  onProgress?: ProgressFn;
  /** The operator's rule policy (trusted: a CLI flag or the environment). */
  policy?: RulePolicy;
}

export async function diagnoseBundle(dir: string, opts: BundleLogOptions = {}): Promise<DiagnosisReport> {
  // An unpacked diagnostic tarball carries each node's logs and cassandra.yaml: read with its nodetool outputs.
  const tree = (await isDiagTree(dir)) ? await readDiagTree(dir, opts.signal ? { signal: opts.signal } : {}) : null;
  const read = tree ? snapshotOfDiagTree(tree, dir) : await analyzeBundle(dir, opts.signal ? { signal: opts.signal } : {});
  const logs: Record<string, LogFacts> = {};
  const unread: string[] = [];
  for (const [node, paths] of Object.entries(tree?.logFiles ?? {})) {
    if (opts.logFiles?.[node]) continue; // the user's own --log for this node wins
    opts.onProgress?.({ message: `reading logs of ${node} from the diagnostic tree` });
    const r = await readNodeLogs(node, paths, opts.signal, undefined, tree!.root);
    if (r.logs) logs[node] = r.logs;
    else unread.push(`logs of ${node} not read: ${r.error ?? 'unreadable'}`);
  }
  const s: ClusterSnapshot = unread.length ? { ...read, warnings: [...(read.warnings ?? []), ...unread] } : read;
  const known = s.nodes.map((n) => n.address);
  for (const [node, paths] of Object.entries(opts.logFiles ?? {})) {
    if (!known.includes(node)) {
      throw new OpError(
        'BAD_ARGUMENT',
        `logs were given for ${node}, which is not a node of the bundle ${dir}`,
        `Name a node of the bundle before "=" (--log NODE=PATH); its nodes are: ${known.join(', ') || '(none)'}.`,
      );
    }
    opts.onProgress?.({ message: `reading logs of ${node}` });
    const r = await readNodeLogs(node, paths, opts.signal);
    const fix = 'Check the paths (absolute or relative to the current directory) and that they are text or .gz log files.';
    if (!r.logs) throw new OpError('LOG_UNREADABLE', r.error ?? `the logs of ${node} could not be read`, fix);
    logs[node] = r.logs;
  }
  const report = diagnosisFromSnapshot(s, tree ? `diagnostic tree ${dir}` : `bundle ${dir}`, logs, undefined, undefined, opts.policy);
  if (!tree) return applyPolicyToReport(report, opts.policy);
  const host = await hostFileFindings(tree, opts.signal);
  const drift = await yamlDrift(tree, opts.signal);
  const joined = withFindings(report, [...drift.findings, ...host.findings]);
  const warnings = [...(joined.warnings ?? []), ...drift.warnings, ...host.warnings];
  return applyPolicyToReport(warnings.length ? { ...joined, warnings } : joined, opts.policy);
}

/** Findings made outside the rules joined to the report: ordered with the rest, counts recomputed. */
function withFindings(report: DiagnosisReport, extra: Finding[]): DiagnosisReport {
  if (!extra.length) return report;
  const findings = orderFindings([...report.findings, ...extra]);
  return { ...report, findings, counts: severityCounts(findings) };
}

/**
 * A diagnostic tree's host outputs (iostat, df, blockdev --report) judged as interpret judges them, per node. Each
 * file is parsed off the event loop with interpret's deadline (a tree's file may be tens of MiB); one that cannot be
 * read is a warning, not the end of the diagnosis.
 */
async function hostFileFindings(tree: DiagTree, signal?: AbortSignal): Promise<{ findings: Finding[]; warnings: string[] }> {
  const { interpretOffThread } = await import('./interpret.js');
  const findings: Finding[] = [];
  const warnings: string[] = [];
  for (const [node, files] of Object.entries(tree.hostFiles)) {
    for (const f of files) {
      try {
        const r = await interpretOffThread(f.text, { signal });
        for (const x of r.findings) findings.push({ ...x, node, evidence: [...x.evidence, `read from ${f.path} of the diagnostic tree`] });
      } catch (e) {
        if (signal?.aborted) throw e;
        warnings.push(`${f.path} not judged: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  return { findings, warnings };
}

/** Settings that differ between the nodes' cassandra.yaml files of a diagnostic tree (sperf's config diff). */
async function yamlDrift(tree: DiagTree, signal?: AbortSignal): Promise<{ findings: Finding[]; warnings: string[] }> {
  const { configDrift } = await import('../core/config/drift.js');
  const { parseOffThread } = await import('./off-thread.js');
  const nodes: { node: string; settings: Record<string, string | null> }[] = [];
  const warnings: string[] = [];
  for (const [node, text] of Object.entries(tree.yamls)) {
    try {
      const settings = await parseOffThread('yamlScalars', text, { what: `the cassandra.yaml of ${node}`, chars: text.length, ...(signal ? { signal } : {}) });
      if (settings) nodes.push({ node, settings });
    } catch (e) {
      if (signal?.aborted) throw e;
      warnings.push(`the cassandra.yaml of ${node} not compared: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (nodes.length < 2) return { findings: [], warnings };
  const findings = configDrift(null, null, nodes).findings.map((f) => ({
    ...f,
    evidence: [...f.evidence, `compared: the cassandra.yaml of ${nodes.length} nodes`],
  }));
  return { findings, warnings };
}
