/** Cassandra Reaper's repair runs (REST `GET /repair_run`, `spreaper list-runs`): failed runs, last DONE run per keyspace. */
import { defineKind } from '../types.js';
import { parseReaperRuns, REAPER_RUNS_KIND, reaperRunsSignature } from './parse.js';
import { REAPER_RUN_RULES } from './rules.js';

export const reaperRepairRuns = defineKind({
  kind: REAPER_RUNS_KIND,
  title: "Cassandra Reaper's repair runs (REST /repair_run, spreaper list-runs)",
  signature: reaperRunsSignature,
  parse: parseReaperRuns,
  // JSON field names no log or nodetool output prints
  order: 'before-logs',
  rules: REAPER_RUN_RULES,
  knowledgeIds: ['repair.within-gc-grace', 'datamodel.gc-grace-seconds.default', 'repair.reaper-history-days'],
  fixtures: 'reaper-repair-runs',
  summary: (v) => {
    const done = v.runs.filter((r) => r.ok).length;
    const failed = v.runs.filter((r) => !r.ok && r.finishedAt).length;
    const keyspaces = new Set([...v.runs.map((r) => r.keyspace), ...v.active.map((a) => a.keyspace)]).size;
    return `Reaper: ${v.runs.length} run(s) of ${keyspaces} keyspace(s) — ${done} DONE, ${failed} ERROR/ABORTED, ${v.active.length} RUNNING/PAUSED/NOT_STARTED${v.reaperNow ? `; Reaper's clock ${v.reaperNow}` : ''}`;
  },
});
