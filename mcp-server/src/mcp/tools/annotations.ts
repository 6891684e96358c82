/**
 * Every MCP tool's annotations in one table, each with the reason it is true. The tools read their hints from
 * here (annotationsFor) and tests/hardening/security-11-annotations.test.ts checks the listed tools against it,
 * so a client that auto-approves "read-only" or skips confirmation for "not destructive" is never misled.
 *
 * readOnlyHint: the tool changes nothing (no file written, no process started or ended, no counter reset).
 * destructiveHint: it may do more than add (delete data, end a process); meaningful only when not read-only.
 * idempotentHint: a second identical call has no further effect.
 * openWorldHint: it reaches outside this machine's own files (a cluster, a host, a download).
 */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

interface AnnotationRow extends ToolHints {
  why: string;
}

const row = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean, openWorldHint: boolean, why: string): AnnotationRow => ({
  readOnlyHint,
  destructiveHint,
  idempotentHint,
  openWorldHint,
  why,
});

export const TOOL_ANNOTATIONS = {
  nodetool: row(true, false, true, true, "only read-only subcommands; gcstats (it resets the node's GC interval) is left to diagnose"),
  lab_start: row(false, true, false, true, 'starts processes and downloads jars; wipes the data of an earlier lab of another version or shape'),
  lab_status: row(true, false, true, false, 'reads the lab state file and probes local ports'),
  lab_stop: row(false, true, true, false, 'ends the lab processes; wipe: true deletes the lab data'),
  lab_incident: row(false, true, false, false, 'writes, deletes and reconfigures the local lab (loopback only): lab data only, confirm: true required'),
  cluster_snapshot: row(false, false, false, true, "bundle: true writes a new bundle folder each call; nodetool gcstats resets each node's GC interval"),
  analyze_bundle: row(true, false, true, false, 'reads a saved bundle folder'),
  diagnose: row(false, false, false, true, "save: true writes a new bundle folder each call; nodetool gcstats resets each node's GC interval"),
  interpret: row(true, false, true, false, 'parses text or one local file'),
  analyze_logs: row(true, false, true, false, 'reads local log files'),
  grep_logs: row(true, false, true, false, 'reads local log files'),
  inspect_storage: row(true, false, true, true, 'runs read-only commands (find, grep, cat, lsblk, xfs_info) on a host'),
  plan_mkfs: row(true, false, true, true, 'reads sysfs; at most mkfs.xfs -N, which writes nothing'),
  plan_queue_depth: row(true, false, true, false, 'arithmetic on its arguments'),
  audit_os: row(true, false, true, true, 'reads sysctl, limits and sysfs on a host'),
  estimate_scaling: row(true, false, true, false, 'arithmetic on its arguments'),
  review_schema: row(true, false, true, true, 'reads DESCRIBE SCHEMA from a cluster or a local file'),
  migration_review: row(true, false, true, false, 'reads its arguments and local files'),
  audit_config: row(true, false, true, true, 'reads config files and, with hosts, CQL settings tables (no nodetool)'),
  run_stress: row(false, true, false, true, 'loads a cluster and writes data into it; starts processes'),
  stress_status: row(true, false, true, false, 'reads the run folder'),
  stress_cancel: row(false, true, true, false, "ends the run's process group (once /proc shows it is still the run's); a run cut short cannot be resumed"),
  metrics_window: row(true, false, true, true, "queries the user's configured Prometheus over HTTP (GET only)"),
  compare_runs: row(false, false, true, false, 'writes the A/B charts into runs/compare-<a>-<b>/ (the same files again on a second call)'),
} as const satisfies Record<string, AnnotationRow>;

export type ToolName = keyof typeof TOOL_ANNOTATIONS;

/** The four hints of a tool, as registerTool takes them (the reason stays in the table). */
export function annotationsFor(name: ToolName): ToolHints {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = TOOL_ANNOTATIONS[name];
  return { readOnlyHint, destructiveHint, idempotentHint, openWorldHint };
}
