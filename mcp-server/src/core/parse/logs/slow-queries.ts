/**
 * Slow and timed-out query reports from a Cassandra / DSE debug.log (MonitoringTask, Cassandra 3.10+ and DSE 5.1+):
 *
 *   DEBUG [ScheduledTasks:1] 2020-01-10 17:01:56,039  MonitoringTask.java:172 - 161 operations were slow in the last 5001 msecs:
 *   <SELECT * FROM ks.tbl WHERE id = … LIMIT 5000>, time 1490 msec - slow timeout 500 msec/cross-node
 *   <SELECT * FROM ks.tbl …>, was slow 3 times: avg/min/max 812/640/1022 msec - slow timeout 500 msec
 *   DEBUG … MonitoringTask.java:152 - 1 operations timed out in the last 5074 msecs:
 *   <SELECT * FROM ks.tbl WHERE key= 1>, total time 10058 msec, timeout 10000 msec
 *
 * The operation lines follow their header without a log prefix. A log carries these facts in LogFacts.slowQueries
 * (parseLogs calls readSlowQueries); operation lines pasted without any log line are the kind logs.slow-queries.
 * Formats: MonitoringTask.java in apache/cassandra (cassandra-3.11 … trunk) and DSE 6.8's build of it.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { tableFromQuery } from './classify.js';

export const SLOW_QUERIES_KIND = 'logs.slow-queries';

/** One operation line: a query reported once (times 1) or aggregated over the report's window. */
export interface SlowOperation {
  /** The operation as logged (the read command's CQL-like text, cut at 300 characters). */
  query: string;
  /** "ks.tbl" from the text, null when it names none. */
  table: string | null;
  outcome: 'slow' | 'timed-out';
  /** How many times it was reported in this window. */
  times: number;
  avgMs: number;
  minMs: number;
  maxMs: number;
  /** The threshold it crossed: slow_query_log_timeout, or the request timeout for a timed-out one. */
  thresholdMs: number;
  /** "msec/cross-node": the replica measured from the coordinator's send time (cross_node_timeout on). */
  crossNode: boolean;
  /** Time of the report header above it, as printed; null when the paste lost the header. */
  reportTime: string | null;
  lineNo: number;
}

/** One "N operations were slow / timed out in the last M msecs:" header. */
export interface SlowReport {
  outcome: 'slow' | 'timed-out';
  time: string | null;
  operations: number;
  windowMs: number;
  lineNo: number;
}

export interface TableSlowness {
  table: string;
  slow: number;
  timedOut: number;
  maxMs: number;
}

export interface SlowQueries {
  /** The first MAX_REPORTS report headers. */
  reports: SlowReport[];
  /** Every report header read, and the operations they said they held (listed or not). */
  reportCounts: { slow: number; timedOut: number };
  reportedOperations: { slow: number; timedOut: number };
  lastReportTime: string | null;
  /** Worst first (max time), at most MAX_KEPT. */
  operations: SlowOperation[];
  /** Every operation line read, counted with its `times`. */
  totals: { slow: number; timedOut: number; crossNode: number; local: number; lines: number };
  /** Operations the node did not list ("... (N were dropped)": the report queue was full). */
  droppedFromReports: number;
  byTable: TableSlowness[];
  /** "Some operations were slow / timed out, details available at debug level" (system.log) lines. */
  notices: { slow: number; timedOut: number };
  /** Operation lines read before any report header (a paste that lost it). */
  withoutHeader: number;
}

const MAX_KEPT = 50;
const MAX_REPORTS = 100;
const MAX_TABLES = 500;
// Every pattern starts at a literal or at the start of a digit run, and the operation patterns run on the text after
// the closing ">" only: no pattern retries from each position of a long run (hostile input stays linear).
const HEADER = /(?<!\d)(\d{1,12}) operations (were slow|timed out) in the last (\d{1,12}) msecs/;
const TIME = /(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d{1,3})?)/;
const SLOW_ONE = /^, time (\d{1,12}) msec - slow timeout (\d{1,12}) msec(\/cross-node)?/;
const SLOW_MANY = /^, was slow (\d{1,12}) times: avg\/min\/max (\d{1,12})\/(\d{1,12})\/(\d{1,12}) msec - slow timeout (\d{1,12}) msec(\/cross-node)?/;
const TIMEOUT_ONE = /^, total time (\d{1,12}) msec, timeout (\d{1,12}) msec(\/cross-node)?/;
// Apache: "<q> timed out 3 times, avg/min/max 1/2/3 msec, timeout 10000 msec"; DSE: "…, timed out 3 times: … msec -timeout 10000 msec"
const TIMEOUT_MANY = /^,? timed out (\d{1,12}) times[:,] avg\/min\/max (\d{1,12})\/(\d{1,12})\/(\d{1,12}) msec,? ?-? ?timeout (\d{1,12}) msec(\/cross-node)?/;
const DROPPED = /\.\.\. \((\d+) were dropped\)/;
const NOTICE = /Some operations (were slow|timed out), details available at debug level/;

/** A query's table, or null (tableFromQuery says "?" when the text names none). */
function tableOf(q: string): string | null {
  const t = tableFromQuery(q);
  if (t !== '?') return t;
  const m = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+("?[\p{L}\p{N}_]+"?)\s*\.\s*("?[\p{L}\p{N}_]+"?)/iu.exec(q);
  return m ? `${m[1]!.replace(/"/g, '')}.${m[2]!.replace(/"/g, '')}` : null;
}

/** An aggregated line: times, avg/min/max, threshold, cross-node in groups 1-6. */
const many = (query: string, outcome: SlowOperation['outcome'], m: RegExpExecArray): Omit<SlowOperation, 'reportTime' | 'lineNo'> => ({
  query,
  table: null,
  outcome,
  times: Number(m[1]),
  avgMs: Number(m[2]),
  minMs: Number(m[3]),
  maxMs: Number(m[4]),
  thresholdMs: Number(m[5]),
  crossNode: !!m[6],
});

/** "<query>, time …" → the operation; the query is everything between the first "<" and the last ">". */
function operationOf(line: string): Omit<SlowOperation, 'reportTime' | 'lineNo'> | null {
  const open = line.indexOf('<');
  if (open < 0 || open > 200) return null;
  const close = line.lastIndexOf('>');
  if (close <= open) return null;
  const query = line.slice(open + 1, close);
  const tail = line.slice(close + 1);
  let m = SLOW_ONE.exec(tail);
  if (m) {
    const t = Number(m[1]);
    return { query, table: null, outcome: 'slow', times: 1, avgMs: t, minMs: t, maxMs: t, thresholdMs: Number(m[2]), crossNode: !!m[3] };
  }
  m = SLOW_MANY.exec(tail);
  if (m) {
    return many(query, 'slow', m);
  }
  m = TIMEOUT_ONE.exec(tail);
  if (m) {
    const t = Number(m[1]);
    return { query, table: null, outcome: 'timed-out', times: 1, avgMs: t, minMs: t, maxMs: t, thresholdMs: Number(m[2]), crossNode: !!m[3] };
  }
  m = TIMEOUT_MANY.exec(tail);
  if (m) {
    return many(query, 'timed-out', m);
  }
  return null;
}

/**
 * Reads report lines one at a time with bounded memory (the worst MAX_KEPT operations, the first MAX_REPORTS report
 * headers, counters): LogAccumulator feeds it the lines that pass mayBe() while it streams a
 * log, and readSlowQueries feeds it a pasted text.
 */
export class SlowQueryReader {
  private readonly reports: SlowReport[] = [];
  private readonly reportCounts = { slow: 0, timedOut: 0 };
  private readonly reported = { slow: 0, timedOut: 0 };
  private lastReportTime: string | null = null;
  private kept: SlowOperation[] = [];
  private readonly totals = { slow: 0, timedOut: 0, crossNode: 0, local: 0, lines: 0 };
  private readonly tables = new Map<string, TableSlowness>();
  private readonly notices = { slow: 0, timedOut: 0 };
  private dropped = 0;
  private reportTime: string | null = null;
  private orphans = 0;

  /** The cheap test a caller runs before line(): a report line always holds one of these. */
  static mayBe(line: string): boolean {
    return line.indexOf('msec') >= 0 || line.indexOf('Some operations') >= 0 || line.indexOf(' were dropped)') >= 0;
  }

  line(line: string, lineNo: number): void {
    // each pattern's own literal is looked for first: NoSpamLogger logs many other things (chunk cache, …)
    const h = line.includes(' msecs') ? HEADER.exec(line) : null;
    if (h) {
      const outcome = h[2] === 'were slow' ? 'slow' : 'timed-out';
      this.reportTime = this.lastReportTime = TIME.exec(line)?.[1] ?? null;
      const key = outcome === 'slow' ? 'slow' : 'timedOut';
      this.reportCounts[key]++;
      this.reported[key] += Number(h[1]);
      if (this.reports.length < MAX_REPORTS) this.reports.push({ outcome, time: this.reportTime, operations: Number(h[1]), windowMs: Number(h[3]), lineNo });
      return;
    }
    const n = line.includes('Some operations') ? NOTICE.exec(line) : null;
    if (n) {
      if (n[1] === 'were slow') this.notices.slow++;
      else this.notices.timedOut++;
      return;
    }
    const d = line.includes(' were dropped)') ? DROPPED.exec(line) : null;
    if (d) {
      this.dropped += Number(d[1]);
      return;
    }
    const op = operationOf(line);
    if (!op) return;
    if (this.reportCounts.slow + this.reportCounts.timedOut === 0) this.orphans++;
    const full: SlowOperation = { ...op, query: op.query.slice(0, 300), table: tableOf(op.query.slice(0, 2000)), reportTime: this.reportTime, lineNo };
    const t = this.totals;
    t.lines++;
    if (op.outcome === 'slow') t.slow += op.times;
    else t.timedOut += op.times;
    if (op.crossNode) t.crossNode += op.times;
    else t.local += op.times;
    if (full.table !== null) {
      const row = this.tables.get(full.table) ?? { table: full.table, slow: 0, timedOut: 0, maxMs: 0 };
      if (op.outcome === 'slow') row.slow += op.times;
      else row.timedOut += op.times;
      row.maxMs = Math.max(row.maxMs, op.maxMs);
      if (this.tables.has(full.table) || this.tables.size < MAX_TABLES) this.tables.set(full.table, row);
    }
    this.kept.push(full);
    if (this.kept.length > MAX_KEPT * 4) this.kept = this.kept.sort(worstFirst).slice(0, MAX_KEPT);
  }

  /** null when no report, operation line or notice was read. */
  result(): SlowQueries | null {
    const t = this.totals;
    if (t.lines === 0 && this.reportCounts.slow + this.reportCounts.timedOut === 0 && this.notices.slow + this.notices.timedOut === 0) return null;
    return {
      reports: [...this.reports],
      reportCounts: { ...this.reportCounts },
      reportedOperations: { ...this.reported },
      lastReportTime: this.lastReportTime,
      operations: [...this.kept].sort(worstFirst).slice(0, MAX_KEPT),
      totals: { ...t },
      droppedFromReports: this.dropped,
      byTable: [...this.tables.values()].map((r) => ({ ...r })).sort((a, b) => b.slow + b.timedOut - (a.slow + a.timedOut) || b.maxMs - a.maxMs),
      notices: { ...this.notices },
      withoutHeader: this.orphans,
    };
  }
}

const worstFirst = (a: SlowOperation, b: SlowOperation) => b.maxMs - a.maxMs || a.lineNo - b.lineNo;

/** Every report, operation line and notice in a text; null when it holds none of them. Never throws on text. */
export function readSlowQueries(text: string): SlowQueries | null {
  const r = new SlowQueryReader();
  // split as given (no prefix stripping): the header's own timestamp is the report time, and line numbers stay exact
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) if (SlowQueryReader.mayBe(lines[i]!)) r.line(lines[i]!, i + 1);
  return r.result();
}

/**
 * Operation lines pasted without the log around them (a text with log lines is read by parseLogs, which carries the
 * same facts): kind logs.slow-queries.
 */
export const parseSlowQueries = total<SlowQueries>(SLOW_QUERIES_KIND, (text) => {
  const v = readSlowQueries(text);
  if (v === null || (v.totals.lines === 0 && v.reports.length === 0)) {
    return unrecognized(SLOW_QUERIES_KIND, 'no "<query>, time N msec - slow timeout M msec" line and no "N operations were slow in the last M msecs" report');
  }
  const warnings: string[] = [];
  if (v.withoutHeader > 0) warnings.push(`${v.withoutHeader} operation line(s) without their "operations were slow/timed out" header: report times unknown`);
  const named = v.reportedOperations.slow + v.reportedOperations.timedOut;
  if (v.reports.length > 0 && v.totals.lines === 0) {
    warnings.push(`${v.reports.length} report header(s) but none of their ${named} operation line(s): the paste stops at the header`);
  }
  return parsedOk(SLOW_QUERIES_KIND, v, warnings);
});

/** Cheap detection: an operation line or a report header (the system.log notice alone is a log, not this kind). */
export const slowQueriesSignature =
  /msec - slow timeout \d{1,12} msec|, was slow \d{1,12} times: avg\/min\/max|(?<!\d)\d{1,12} operations (?:were slow|timed out) in the last \d{1,12} msecs|>, total time \d{1,12} msec/;
