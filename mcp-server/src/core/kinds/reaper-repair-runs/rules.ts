/**
 * Reaper's run list on its own: runs that ended in ERROR or ABORTED (the same judgement as the sweep's repair
 * history), and per keyspace the last run that ended DONE against gc_grace_seconds. The list carries no table
 * options, so the age is compared with the default gc_grace_seconds and the finding says so; the sweep, which reads
 * each table's own, judges per table (repair.overdue). PURE.
 */
import type { Finding } from '../../findings.js';
import { numberOf } from '../../knowledge/index.js';
import { failedRepairFindings } from '../../rules/repair.js';
import { fmtNum } from '../../rules/rule.js';
import type { KindRule } from '../types.js';
import type { ActiveRun, ReaperRuns } from './parse.js';

const DAY = 86_400_000;

export const reaperFailedRuns: KindRule<ReaperRuns> = {
  id: 'repair.failed',
  checks: 'Reaper runs that ended in ERROR or ABORTED',
  run: (v) => failedRepairFindings(v.runs),
};

const progress = (a: ActiveRun) =>
  `${a.state}${a.startedAt ? ` since ${a.startedAt}` : ''}` +
  (a.totalSegments ? `, ${a.segmentsRepaired ?? '?'} of ${a.totalSegments} segments repaired` : '') +
  (a.lastEvent ? ` (last event: ${a.lastEvent.slice(0, 160)})` : '');

export const reaperLastRun: KindRule<ReaperRuns> = {
  id: 'repair.reaper-last-run',
  checks: "each keyspace's last Reaper run that ended DONE vs the default gc_grace_seconds (the list has no table options)",
  run(v) {
    const graceS = numberOf('datamodel.gc-grace-seconds.default');
    const stamps = v.runs.flatMap((r) => [r.startedAt, r.finishedAt]).filter((x): x is string => !!x);
    const nowMs = v.reaperNow ? Date.parse(v.reaperNow) : stamps.length ? Math.max(...stamps.map((s) => Date.parse(s))) : null;
    const nowFrom = v.reaperNow
      ? `Reaper's clock ${v.reaperNow}`
      : nowMs !== null
        ? `newest time in the list ${new Date(nowMs).toISOString()} (no current_time)`
        : null;
    const lastDone = new Map<string, number>();
    for (const r of v.runs) {
      const end = r.ok && r.finishedAt ? Date.parse(r.finishedAt) : NaN;
      if (Number.isFinite(end) && (lastDone.get(r.keyspace) ?? -Infinity) < end) lastDone.set(r.keyspace, end);
    }
    const keyspaces = [...new Set([...v.runs.map((r) => r.keyspace), ...v.active.map((a) => a.keyspace)])].sort();
    const lines: string[] = [];
    let stale = 0;
    for (const ks of keyspaces) {
      const done = lastDone.get(ks);
      const active = v.active.filter((a) => a.keyspace === ks);
      if (done === undefined) {
        stale++;
        lines.push(`${ks}: no run ended DONE in this list${active.length ? `; ${active.map(progress).join('; ')}` : ''}`);
      } else if (nowMs !== null && nowMs - done > graceS * 1000) {
        stale++;
        lines.push(
          `${ks}: last run ended DONE ${fmtNum((nowMs - done) / DAY, 1)} d ago (${new Date(done).toISOString()})${active.length ? `; ${active.map(progress).join('; ')}` : ''}`,
        );
      }
    }
    if (!stale) return keyspaces.length ? [] : 'no run names a keyspace';
    const finding: Finding = {
      id: 'repair.reaper-last-run',
      severity: 'warning',
      title: `${stale} keyspace(s) have no Reaper run ended DONE within the default gc_grace_seconds (${fmtNum(graceS / 86_400, 0)} d)`,
      evidence: [...lines.slice(0, 15), ...(lines.length > 15 ? [`… ${lines.length - 15} more`] : []), ...(nowFrom ? [`now: ${nowFrom}`] : [])],
      recommendation:
        "Check these keyspaces' gc_grace_seconds (SELECT table_name, gc_grace_seconds FROM system_schema.tables WHERE keyspace_name = '…'): tables at the " +
        'default need a full repair now. A run RUNNING for days with few segments done is stuck: read its last event and the coordinator logs, abort it and ' +
        'start it again. `cql-tuner diagnose` reads the table options and judges each table.',
      knowledgeIds: ['repair.within-gc-grace', 'datamodel.gc-grace-seconds.default', 'repair.reaper-history-days'],
      // The tables' own gc_grace_seconds are not in the list.
      confidence: 'low',
    };
    return [finding];
  },
};

export const REAPER_RUN_RULES = [reaperFailedRuns, reaperLastRun] as const;
