import { nodeEvidence, type DiagnosisInput } from '../core/diagnosis/evidence.js';
import type { Finding } from '../core/findings.js';
import { runRules, type RulesResult } from '../core/rules/index.js';
import type { LogFacts } from '../core/parse/logs/types.js';
import { labLogPaths, readNodeLogs } from './node-logs.js';
import { OpError } from './errors.js';
import type { ProgressFn } from './progress.js';
import { analyzeBundle, takeSnapshot, type ClusterSnapshot, type SnapshotInput } from './snapshot.js';

export interface DiagnosisReport {
  origin: string;
  collectedAt: string;
  durationMs: number;
  nodes: { address: string; datacenter: string | null; releaseVersion: string | null; status: 'complete' | 'partial' | 'unreachable' }[];
  versions: string[];
  counts: { critical: number; warning: number; info: number };
  findings: Finding[];
  checked: RulesResult['outcomes'];
  bundleDir?: string;
  /** save was asked but the bundle could not be written; the diagnosis itself is complete. */
  bundleError?: { code: string; message: string; fix: string };
  /** About credentials: withheld from hosts not allowed them, or sent without TLS. */
  warnings?: string[];
}

/** What a diagnosis adds to a snapshot: per-node tables and compactions, and the ring from one node. */
export const DIAGNOSE_NODETOOL_PER_NODE = ['compactionstats', 'tablestats', 'getcompactionthroughput'];
export const DIAGNOSE_NODETOOL_ONCE = ['status', 'describecluster'];

export function evidenceFromSnapshot(s: ClusterSnapshot, origin: string, logs: Record<string, LogFacts> = {}): DiagnosisInput {
  return {
    origin,
    nodes: s.nodes.map((n) => {
      const e = nodeEvidence(
        n.address,
        n.reachable,
        { facts: n.facts, nodetool: n.nodetool },
        [
          ...n.sources.filter((x) => !x.ok).map((x) => ({ source: x.name, code: x.error?.code ?? '?', message: x.error?.message ?? '' })),
          // An output that arrived but could not be read is a collection problem too, not an absence of data.
          ...n.unparsed.map((u) => ({ source: u.name, code: 'UNPARSED', message: u.reason })),
        ],
      );
      const l = logs[n.address];
      return l ? { ...e, logs: l } : e;
    }),
  };
}

export function diagnosisFromSnapshot(s: ClusterSnapshot, origin: string, logs: Record<string, LogFacts> = {}): DiagnosisReport {
  const r = runRules(evidenceFromSnapshot(s, origin, logs));
  return {
    origin,
    collectedAt: s.collectedAt,
    durationMs: s.durationMs,
    nodes: s.nodes.map((n) => ({ address: n.address, datacenter: n.datacenter, releaseVersion: n.releaseVersion, status: n.status })),
    versions: [...new Set(s.nodes.map((n) => n.releaseVersion).filter((v): v is string => !!v))].sort(),
    counts: {
      critical: r.findings.filter((f) => f.severity === 'critical').length,
      warning: r.findings.filter((f) => f.severity === 'warning').length,
      info: r.findings.filter((f) => f.severity === 'info').length,
    },
    findings: r.findings,
    checked: r.outcomes,
    ...(s.bundleDir ? { bundleDir: s.bundleDir } : {}),
    ...(s.bundleError ? { bundleError: s.bundleError } : {}),
    ...(s.warnings?.length ? { warnings: s.warnings } : {}),
  };
}

export interface DiagnoseInput extends SnapshotInput {
  /** Log files to read per node address (local paths); the lab's own logs are read without asking. */
  logFiles?: Record<string, string[]>;
}

/** Snapshot (CQL first, nodetool for the rest) + logs where reachable + rules → one report, worst first. */
export async function diagnose(input: DiagnoseInput, deps: { onProgress?: ProgressFn; signal?: AbortSignal } = {}): Promise<DiagnosisReport> {
  const s = await takeSnapshot(
    {
      ...input,
      nodetoolExtra: [...new Set([...DIAGNOSE_NODETOOL_PER_NODE, ...(input.nodetoolExtra ?? [])])],
      nodetoolOnce: [...new Set([...DIAGNOSE_NODETOOL_ONCE, ...(input.nodetoolOnce ?? [])])],
    },
    deps,
  );
  const files = { ...(input.lab ? await labLogPaths() : {}), ...(input.logFiles ?? {}) };
  const logs: Record<string, LogFacts> = {};
  for (const [node, paths] of Object.entries(files)) {
    deps.onProgress?.({ message: `reading logs of ${node}` });
    const r = await readNodeLogs(node, paths, deps.signal);
    if (r.logs) logs[node] = r.logs;
  }
  deps.onProgress?.({ message: 'running rules' });
  return diagnosisFromSnapshot(s, input.lab ? 'local lab' : `cluster via ${s.contactPoints.join(', ')}`, logs);
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
}

export async function diagnoseBundle(dir: string, opts: BundleLogOptions = {}): Promise<DiagnosisReport> {
  const s = await analyzeBundle(dir, opts.signal ? { signal: opts.signal } : {});
  const logs: Record<string, LogFacts> = {};
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
  return diagnosisFromSnapshot(s, `bundle ${dir}`, logs);
}
