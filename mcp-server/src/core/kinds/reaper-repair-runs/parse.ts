/**
 * Cassandra Reaper's repair runs as its REST API (`GET /repair_run`) and `spreaper list-runs` print them: a JSON
 * array of RepairRunStatus objects (keyspace_name, column_families, state, start_time, end_time, segments_repaired,
 * total_segments, current_time, …), spreaper's lines before it starting with "#". PURE and total.
 */
import type { RepairRunFact } from '../../facts/from-cluster.js';
import { reaperRunsFromStatus } from '../../facts/reaper-runs.js';
import { finiteNumber, stringOrNull } from '../../json-values.js';
import { total, unrecognized, type Parsed } from '../../parsed.js';

export const REAPER_RUNS_KIND = 'reaper.repair-runs';

/** A run that has not ended (RUNNING, PAUSED, NOT_STARTED), with its progress. */
export interface ActiveRun {
  keyspace: string;
  state: string;
  startedAt: string | null;
  segmentsRepaired: number | null;
  totalSegments: number | null;
  lastEvent: string | null;
}

export interface ReaperRuns {
  runs: RepairRunFact[];
  active: ActiveRun[];
  /** Reaper's clock when it answered (current_time; the REST API prints it, old spreaper does not). */
  reaperNow: string | null;
}

function parse(text: string): Parsed<ReaperRuns> {
  // spreaper prints "# …" lines first; the JSON starts at the first line opening an array or object
  const lines = text.split(/\r?\n/);
  // (a line such as "[root@host reaper]# spreaper list-runs" is a prompt, not JSON)
  const start = lines.findIndex((l) => /^\s*(?:\[\s*(?:\{.*)?|\{\s*(?:".*)?)$/.test(l));
  if (start < 0) return unrecognized(REAPER_RUNS_KIND, 'no JSON array or object of repair runs');
  const body = lines.slice(start).join('\n');
  const end = Math.max(body.lastIndexOf(']'), body.lastIndexOf('}'));
  let json: unknown;
  try {
    json = JSON.parse(body.slice(0, end + 1));
  } catch (e) {
    return unrecognized(REAPER_RUNS_KIND, `the repair-run JSON does not parse: ${(e as Error).message.slice(0, 120)}`);
  }
  const items = (Array.isArray(json) ? json : [json]).filter((x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x));
  const runs = items.filter((r) => typeof r['keyspace_name'] === 'string' && typeof r['state'] === 'string');
  if (!runs.length) return unrecognized(REAPER_RUNS_KIND, 'no object with keyspace_name and state (Reaper RepairRunStatus)');
  const warnings: string[] = [];
  if (runs.length < items.length) warnings.push(`${items.length - runs.length} object(s) without keyspace_name and state skipped`);
  const active = runs
    .filter((r) => /^(RUNNING|PAUSED|NOT_STARTED)$/.test(String(r['state'])))
    .map((r) => ({
      keyspace: String(r['keyspace_name']),
      state: String(r['state']),
      startedAt: stringOrNull(r['start_time']),
      segmentsRepaired: finiteNumber(r['segments_repaired']),
      totalSegments: finiteNumber(r['total_segments']),
      lastEvent: stringOrNull(r['last_event']),
    }));
  const clocks = runs.map((r) => stringOrNull(r['current_time'])).filter((x): x is string => !!x && Number.isFinite(Date.parse(x)));
  const reaperNow = clocks.length ? new Date(Math.max(...clocks.map((c) => Date.parse(c)))).toISOString() : null;
  return { kind: REAPER_RUNS_KIND, ok: true, value: { runs: reaperRunsFromStatus(runs), active, reaperNow }, warnings };
}

export const parseReaperRuns = total(REAPER_RUNS_KIND, parse);

/** RepairRunStatus fields no other output prints together. */
export const reaperRunsSignature = /"(?:total_segments|segments_repaired|repair_parallelism)"\s*:/m;
