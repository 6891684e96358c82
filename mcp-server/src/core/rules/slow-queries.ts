/**
 * Slow and timed-out reads from debug.log MonitoringTask reports: which tables, how slow, how many timed out, and
 * how many were measured across nodes. Runs on a log's LogFacts.slowQueries (slowQueriesRule) and on report lines
 * pasted alone (kind logs.slow-queries). PURE; thresholds in knowledge/pastes-slow-queries.yaml.
 */
import type { NodeEvidence } from '../diagnosis/evidence.js';
import type { Finding, Severity } from '../findings.js';
import type { KnowledgeId } from '../knowledge/index.js';
import type { LogFacts } from '../parse/logs/types.js';
import type { SlowOperation, SlowQueries } from '../parse/logs/slow-queries.js';
import type { KindRuleOutcome, KindRules } from './per-kind.js';
import { grade, outcome, PACK, type Rule, type RuleContext } from './rule.js';

const RULE = 'logs.slow-queries';
const CHECKS = 'slow and timed-out reads reported by debug.log MonitoringTask (tables, worst times, cross-node share)';

const opText = (o: SlowOperation) =>
  `${o.reportTime ?? `line ${o.lineNo}`}: ${o.maxMs} ms${o.times > 1 ? ` (${o.times}×, avg ${o.avgMs} ms)` : ''} ` +
  `${o.outcome === 'timed-out' ? 'timed out' : 'slow'}, threshold ${o.thresholdMs} ms${o.crossNode ? ', cross-node' : ''}: ${o.query.slice(0, 160)}`;

/** "ks.a (12, worst 1688 ms), ks.b (3, worst 700 ms)" for the tables with the most slow operations. */
function tablesText(v: SlowQueries, outcome: 'slow' | 'timed-out', k = 3): string {
  const rows = v.byTable.filter((t) => (outcome === 'slow' ? t.slow : t.timedOut) > 0).slice(0, k);
  return rows.map((t) => `${t.table} (${outcome === 'slow' ? t.slow : t.timedOut}, worst ${t.maxMs} ms)`).join(', ');
}

/** "161 slow read(s) (50 listed)": a report names more operations than it lists when its queue was full. */
function count(v: SlowQueries, outcome: 'slow' | 'timed-out'): string {
  const listed = outcome === 'slow' ? v.totals.slow : v.totals.timedOut;
  const reported = outcome === 'slow' ? v.reportedOperations.slow : v.reportedOperations.timedOut;
  const noun = outcome === 'slow' ? 'slow read(s)' : 'read(s)';
  return reported > listed ? `${reported} ${noun} (${listed} listed)` : `${listed} ${noun}`;
}

function slowFinding(v: SlowQueries, ctx: RuleContext): Finding | null {
  const slow = v.operations.filter((o) => o.outcome === 'slow');
  if (v.totals.slow === 0 || slow.length === 0) return null;
  const worst = slow[0]!;
  const sev: Severity = grade(ctx, worst.maxMs, 'logs.slow-query.max-time') ?? 'info';
  const tables = tablesText(v, 'slow');
  const cross = v.totals.crossNode;
  const all = v.totals.slow + v.totals.timedOut;
  const crossShare = all > 0 ? cross / all : 0;
  return {
    id: 'log.slow-queries',
    severity: sev,
    title:
      `${count(v, 'slow')} over the ${worst.thresholdMs} ms slow-query threshold, worst ${worst.maxMs} ms` +
      `${worst.table ? ` on ${worst.table}` : ''}${v.byTable.filter((t) => t.slow > 0).length > 1 ? `; by table: ${tables}` : ''}`,
    evidence: [
      ...slow.slice(0, 3).map(opText),
      `${v.reportCounts.slow} slow report(s)` +
        `${v.reports[0]?.time ? ` from ${v.reports[0].time} to ${v.lastReportTime ?? '?'}` : ''}; ` +
        `${cross} of ${all} operation(s) cross-node, ${v.totals.local} local`,
      ...(v.droppedFromReports > 0 ? [`${v.droppedFromReports} more operation(s) were not listed (the report queue was full)`] : []),
    ],
    ...(worst.table ? { table: worst.table } : {}),
    recommendation:
      `Trace one of these reads (TRACING ON in cqlsh, or nodetool settraceprobability) and read the table's SSTables per read, ` +
      `partition size and tombstones (nodetool tablehistograms${worst.table ? ` ${worst.table.replace('.', ' ')}` : ''}); a large LIMIT or ` +
      `page size, ALLOW FILTERING or an IN over many keys is slow by design. ` +
      (crossShare >= 0.5
        ? 'Most were cross-node: their time starts at the coordinator, so compare proxyhistograms with tablehistograms before blaming the read.'
        : 'Most were local: the time was spent on this node (disk, GC, compaction), check its GC pauses and tpstats at the report times.'),
    knowledgeIds: ['logs.slow-query.max-time', 'logs.slow-query.log-timeout', 'logs.slow-query.cross-node'],
    confidence: 'high',
    when: 'in the logs',
  };
}

function timedOutFinding(v: SlowQueries): Finding | null {
  if (v.totals.timedOut === 0) return null;
  const ops = v.operations.filter((o) => o.outcome === 'timed-out');
  const worst = ops[0];
  const tables = tablesText(v, 'timed-out');
  return {
    id: 'log.timed-out-queries',
    severity: 'warning',
    title:
      `${count(v, 'timed-out')} timed out on the replica${worst ? `, up to ${worst.maxMs} ms against a ${worst.thresholdMs} ms timeout` : ''}` +
      `${worst?.table ? ` on ${worst.table}` : ''}${v.byTable.filter((t) => t.timedOut > 0).length > 1 ? `; by table: ${tables}` : ''}`,
    evidence: ops.slice(0, 3).map(opText),
    ...(worst?.table ? { table: worst.table } : {}),
    recommendation:
      'These reads were abandoned after their request timeout: the client saw an error or retried. Fix the reads first (the same ' +
      'queries usually show up as slow before they time out); raising read_request_timeout only hides them.',
    knowledgeIds: ['logs.slow-query.timed-out', 'logs.slow-query.max-time'],
    confidence: 'high',
    when: 'in the logs',
  };
}

/** The header survived but none of its operation lines did: say so instead of passing as healthy. */
function headersOnly(v: SlowQueries): Finding | null {
  if (v.totals.lines > 0 || v.reports.length === 0) return null;
  const n = v.reportedOperations.slow + v.reportedOperations.timedOut;
  return {
    id: 'log.slow-queries',
    severity: 'info',
    title: `${v.reportCounts.slow + v.reportCounts.timedOut} slow/timed-out report(s) naming ${n} operation(s), but the operation lines are not in the input`,
    evidence: v.reports
      .slice(0, 3)
      .map((r) => `${r.time ?? `line ${r.lineNo}`}: ${r.operations} operation(s) ${r.outcome === 'slow' ? 'were slow' : 'timed out'} in ${r.windowMs} ms`),
    recommendation: 'Paste the lines under each report header ("<query>, time N msec - slow timeout M msec"): they name the tables and times.',
    knowledgeIds: ['logs.slow-query.log-timeout'],
    confidence: 'medium',
    when: 'in the logs',
  };
}

/** Findings of one node's (or one paste's) reports; `node` names them when several nodes are diagnosed. */
/** system.log only says that reads were slow or timed out; the details are in debug.log. */
function noticesOnly(v: SlowQueries): Finding | null {
  if (v.totals.lines > 0 || v.reports.length > 0 || v.notices.slow + v.notices.timedOut === 0) return null;
  const what = [v.notices.slow ? `${v.notices.slow} "operations were slow"` : '', v.notices.timedOut ? `${v.notices.timedOut} "operations timed out"` : '']
    .filter(Boolean)
    .join(' and ');
  return {
    id: v.notices.timedOut ? 'log.timed-out-queries' : 'log.slow-queries',
    severity: v.notices.timedOut ? 'warning' : 'info',
    title: `The log has ${what} notice(s), but the reads themselves are only in debug.log`,
    evidence: [`${v.notices.slow + v.notices.timedOut} "Some operations … details available at debug level (debug.log)" line(s)`],
    recommendation:
      'Read debug.log around the same times (grep -A 60 "operations were slow\\|operations timed out" debug.log): ' +
      'it names each read, its table and its time.',
    knowledgeIds: ['logs.slow-query.log-timeout', ...(v.notices.timedOut ? (['logs.slow-query.timed-out'] satisfies KnowledgeId[]) : [])],
    confidence: 'medium',
    when: 'in the logs',
  };
}

export function slowQueryFindings(v: SlowQueries, node?: string, ctx: RuleContext = PACK): Finding[] {
  const fs = [slowFinding(v, ctx), timedOutFinding(v), headersOnly(v), noticesOnly(v)].filter((f): f is Finding => f !== null);
  return node === undefined ? fs : fs.map((f) => ({ ...f, node, title: `${node}: ${f.title}` }));
}

/** The logs of a diagnosis or of a pasted log (LogFacts.slowQueries, read by parseLogs). */
export const slowQueriesRule: Rule = {
  id: RULE,
  checks: CHECKS,
  // Logs read without a report: checked, nothing slow (a healthy node). No logs at all: not checked.
  dependsOn: ['logs'],
  run(input, ctx) {
    const withSlow = input.nodes.filter((n): n is NodeEvidence & { logs: LogFacts & { slowQueries: SlowQueries } } => n.logs?.slowQueries !== undefined);
    const many = input.nodes.length > 1;
    return outcome(
      RULE,
      withSlow.flatMap((n) => slowQueryFindings(n.logs.slowQueries, many ? n.node : undefined, ctx)),
    );
  },
};

export const SLOW_QUERY_KIND_RULES: KindRules = {
  run: (_kind, value): KindRuleOutcome[] => [outcome(RULE, slowQueryFindings(value as SlowQueries), CHECKS)],
};
