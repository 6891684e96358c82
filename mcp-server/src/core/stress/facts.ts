/**
 * One tool-independent view of a stress run, built from any stress parser's value, so that rules, status,
 * charts and comparisons read the same fields whichever tool produced the output. PURE.
 */
import type { CassandraStress, StressInterval } from '../parse/stress/cassandra-stress.js';
import type { LatteJson, LatteLogRow, LatteStat, LatteText } from '../parse/stress/latte.js';
import { CASSANDRA_STRESS_KIND } from '../parse/stress/cassandra-stress.js';
import { LATTE_JSON_KIND, LATTE_TEXT_KIND } from '../parse/stress/latte.js';
import { SCYLLA_BENCH_KIND, type ScyllaBench } from '../parse/stress/scylla-bench.js';
import { YCSB_KIND, type Ycsb } from '../parse/stress/ycsb.js';
import { maxOf } from '../arrays.js';

export type StressTool = 'cassandra-stress' | 'latte' | 'scylla-bench' | 'ycsb';

/** One sampling interval. Latencies in ms; null where the tool does not print the column. */
export interface IntervalFacts {
  /** Seconds since the start of the run (end of the interval). */
  timeS: number | null;
  opRate: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  errors: number | null;
  /** Server GC seen by cassandra-stress over JMX during the interval (null when not measured). */
  gcCount: number | null;
  gcMaxMs: number | null;
  gcSumMs: number | null;
}

/** One step of a thread-count sweep (cassandra-stress auto-rate). */
export interface StepFacts {
  threads: number;
  opRate: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  gcCount: number | null;
  gcMaxMs: number | null;
}

/** A statistic compared against a baseline by the tool itself (latte -x / --baseline). */
export interface ComparedStat {
  metric: string;
  value: number | null;
  baseline: number | null;
  changePercent: number | null;
  pValue: number | null;
}

export interface StressFacts {
  tool: StressTool;
  kind: string;
  intervals: IntervalFacts[];
  steps: StepFacts[];
  opRate: number | null;
  meanMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  p999Ms: number | null;
  maxMs: number | null;
  totalOps: number | null;
  errors: number | null;
  /** Requests the client retried (latte): a run can show 0 errors while a replica is gone. */
  retries: number | null;
  durationS: number | null;
  threads: number | null;
  /** Configured in-flight requests (latte concurrency / max parallelism). */
  concurrency: number | null;
  /** Mean requests in flight measured by the tool (latte), for client-side queueing. */
  meanConcurrency: number | null;
  /** Configured rate limit in op/s; null when the run was closed-loop (no limit). */
  fixedRate: number | null;
  /** false when the output does not say whether a rate limit was set. */
  rateKnown: boolean;
  /** Configured warm-up: true/false when printed, null when unknown. */
  warmup: boolean | null;
  gcCollected: boolean;
  /** Whole-run server GC (cassandra-stress Results). */
  gcCount: number | null;
  gcAvgMs: number | null;
  gcTimeMs: number | null;
  clientCpuPercent: number | null;
  nodes: string[];
  comparison: ComparedStat[];
  impossible: string[];
  errorMessages: string[];
  /**
   * YCSB reads of a key that was not there (Return=NOT_FOUND), and the reads they are out of: not errors of the
   * database, but the run read keys the load never wrote. Null for other tools.
   */
  notFound: { count: number; of: number | null } | null;
  /** Status lines that show a -FAILED operation without a count (YCSB 0.1–0.5 prints its latency only). */
  failedNoCount: { lines: number; of: number; ops: string[] } | null;
}

function empty(tool: StressTool, kind: string): StressFacts {
  return {
    tool,
    kind,
    intervals: [],
    steps: [],
    opRate: null,
    meanMs: null,
    p50Ms: null,
    p95Ms: null,
    p99Ms: null,
    p999Ms: null,
    maxMs: null,
    totalOps: null,
    errors: null,
    retries: null,
    durationS: null,
    threads: null,
    concurrency: null,
    meanConcurrency: null,
    fixedRate: null,
    rateKnown: false,
    warmup: null,
    gcCollected: false,
    gcCount: null,
    gcAvgMs: null,
    gcTimeMs: null,
    clientCpuPercent: null,
    nodes: [],
    comparison: [],
    impossible: [],
    errorMessages: [],
    notFound: null,
    failedNoCount: null,
  };
}

/** An interval from a tool that does not measure server GC. */
const withoutGc = (i: Omit<IntervalFacts, 'gcCount' | 'gcMaxMs' | 'gcSumMs'>): IntervalFacts => ({ ...i, gcCount: null, gcMaxMs: null, gcSumMs: null });

/** A latte log row (text or JSON output: the same columns); the caller supplies the time and p95 it reads differently. */
type LatteRow = Pick<LatteLogRow, 'throughput' | 'p50Ms' | 'p99Ms' | 'maxMs' | 'errors'>;
const latteInterval = (l: LatteRow, timeS: number | null, p95Ms: number | null): IntervalFacts =>
  withoutGc({ timeS, opRate: l.throughput, p50Ms: l.p50Ms, p95Ms, p99Ms: l.p99Ms, maxMs: l.maxMs, errors: l.errors });

const numText = (s: string | undefined): number | null => {
  if (s === undefined) return null;
  const v = Number(s.replace(/,/g, '').trim());
  return s.trim() !== '' && Number.isFinite(v) ? v : null;
};

function csInterval(r: StressInterval): IntervalFacts {
  return {
    timeS: r.timeS,
    opRate: r.opRate,
    p50Ms: r.medianMs,
    p95Ms: r.p95Ms,
    p99Ms: r.p99Ms,
    maxMs: r.maxMs,
    errors: r.errors,
    gcCount: r.gcCount,
    gcMaxMs: r.gcMaxMs,
    gcSumMs: r.gcSumMs,
  };
}

function fromCassandraStress(v: CassandraStress): StressFacts {
  const f = empty('cassandra-stress', CASSANDRA_STRESS_KIND);
  const longest = v.runs.reduce<CassandraStress['runs'][number] | null>((b, r) => (!b || r.intervals.length > b.intervals.length ? r : b), null);
  const rows = longest ? longest.intervals.filter((i) => i.type.toLowerCase() === 'total') : [];
  f.intervals = (rows.length ? rows : (longest?.intervals ?? [])).map(csInterval);
  f.steps = v.threadCounts
    .filter((s) => s.threadCount !== null)
    .map((s) => ({
      threads: s.threadCount!,
      opRate: s.opRate,
      p50Ms: s.medianMs,
      p95Ms: s.p95Ms,
      p99Ms: s.p99Ms,
      maxMs: s.maxMs,
      gcCount: s.gcCount,
      gcMaxMs: s.gcMaxMs,
    }));
  const r = v.results;
  if (r) {
    f.opRate = r.opRate;
    f.meanMs = r.latencyMeanMs;
    f.p50Ms = r.latencyMedianMs;
    f.p95Ms = r.latencyP95Ms;
    f.p99Ms = r.latencyP99Ms;
    f.p999Ms = r.latencyP999Ms;
    f.maxMs = r.latencyMaxMs;
    f.totalOps = r.totalPartitions;
    f.errors = r.totalErrors;
    f.durationS = r.operationTimeS;
    f.gcCount = r.gcCount;
    f.gcAvgMs = r.gcAvgMs;
    f.gcTimeMs = r.gcTimeMs;
  }
  const last = f.intervals.at(-1);
  if (f.durationS === null && last) f.durationS = last.timeS;
  if (f.errors === null && f.intervals.length) f.errors = f.intervals.reduce((a, i) => a + (i.errors ?? 0), 0);
  const s = v.settings;
  f.threads = numText(s['Rate.Thread Count']) ?? longest?.threadCount ?? null;
  const opsPerSec = numText(s['Rate.OpsPer Sec']);
  if (opsPerSec !== null) {
    f.rateKnown = true;
    f.fixedRate = opsPerSec > 0 ? opsPerSec : null;
  } else if (v.threadCounts.length > 0 || /^true$/i.test(s['Rate.Auto'] ?? '')) {
    f.rateKnown = true; // auto-rate sweeps are closed-loop by construction
  }
  if (s['Command.No Warmup'] !== undefined) f.warmup = !/^true$/i.test(s['Command.No Warmup']);
  f.gcCollected = v.gcCollected && (r?.gcCount !== null || f.intervals.some((i) => i.gcCount !== null));
  f.nodes = (s['Node.Nodes'] ?? '')
    .replace(/[[\]]/g, '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  f.impossible = v.impossibleLines ?? [];
  f.errorMessages = v.errorLines;
  return f;
}

const statValue = (s: LatteStat | undefined | null): number | null => s?.value ?? null;

function latteCompared(summary: Record<string, LatteStat>, label: (k: string) => string): ComparedStat[] {
  const out: ComparedStat[] = [];
  for (const [k, s] of Object.entries(summary)) {
    if (s.pValue === null && s.baseline === null) continue;
    if (s.pValue === null) continue;
    out.push({ metric: label(k), value: s.value, baseline: s.baseline, changePercent: s.changePercent, pValue: s.pValue });
  }
  return out;
}

function fromLatteText(v: LatteText): StressFacts {
  const f = empty('latte', LATTE_TEXT_KIND);
  f.intervals = v.log.map((l) => latteInterval(l, l.timeS, l.latencyMs['95'] ?? null));
  f.opRate = statValue(v.throughput);
  f.meanMs = statValue(v.meanLatency);
  f.p50Ms = v.p50Ms;
  f.p95Ms = statValue(v.latencyPercentiles['95']);
  f.p99Ms = v.p99Ms;
  f.p999Ms = v.p999Ms;
  f.maxMs = v.maxMs;
  f.totalOps = v.completed;
  f.errors = v.errors;
  f.durationS = v.elapsedS;
  f.threads = v.threads;
  f.concurrency = v.concurrency;
  const sm = v.summary;
  f.retries = statValue(sm['retries [req]'] ?? sm['retries [op]']);
  f.meanConcurrency = statValue(sm['concurrency [req]'] ?? sm['parallelism [req]']);
  const rateKey = Object.keys(v.config).find((k) => /^max rate\b/.test(k));
  if (rateKey !== undefined) {
    f.rateKnown = true;
    const rate = numText(v.config[rateKey]);
    f.fixedRate = rate !== null && rate > 0 ? rate : null;
  }
  const warm = v.config['warmup [op]'] ?? v.config['warmup [req]'] ?? v.config['warmup [s]'];
  if (warm !== undefined) {
    const w = numText(warm);
    f.warmup = w !== null && w > 0;
  }
  const cpuPct = statValue(sm['cpu utilisation [%]']);
  const cpuS = statValue(sm['cpu time [s]']);
  f.clientCpuPercent = cpuPct ?? (cpuS !== null && v.elapsedS ? (100 * cpuS) / v.elapsedS / Math.max(1, v.threads ?? 1) : null);
  f.comparison = latteCompared(v.summary, (k) => k);
  f.errorMessages = v.errorMessages;
  return f;
}

function fromLatteJson(v: LatteJson): StressFacts {
  const f = empty('latte', LATTE_JSON_KIND);
  f.intervals = v.log.map((l) => latteInterval(l, l.timeS !== null && l.durationS !== null ? l.timeS + l.durationS : l.timeS, null));
  f.opRate = v.throughput;
  f.meanMs = v.meanLatencyMs;
  f.p50Ms = v.p50Ms;
  f.p95Ms = v.latencyPercentilesMs['95'] ?? null;
  f.p99Ms = v.p99Ms;
  f.p999Ms = v.p999Ms;
  f.maxMs = v.maxMs;
  f.totalOps = v.cycles;
  f.errors = v.errors;
  f.retries = v.retries;
  f.durationS = v.elapsedS;
  f.threads = v.threads;
  f.concurrency = v.concurrency;
  f.meanConcurrency = v.meanConcurrency;
  f.rateKnown = true; // conf.rate is always serialised (null = unthrottled)
  f.fixedRate = v.rate !== null && v.rate > 0 ? v.rate : null;
  f.clientCpuPercent = v.cpuUtilPercent;
  f.errorMessages = v.errorMessages;
  return f;
}

function fromScyllaBench(v: ScyllaBench): StressFacts {
  const f = empty('scylla-bench', SCYLLA_BENCH_KIND);
  f.intervals = v.intervals.map((i) =>
    withoutGc({ timeS: i.timeS, opRate: i.opRate, p50Ms: i.medianMs, p95Ms: i.p95Ms, p99Ms: i.p99Ms, maxMs: i.maxMs, errors: i.errors }),
  );
  // Under -max-rate the latency that counts is measured from the intended send time (c-o fixed).
  const lat = v.maxRate !== null && v.coFixed ? v.coFixed : (v.raw ?? v.coFixed);
  const last = f.intervals.at(-1);
  f.opRate = v.opRate ?? median(f.intervals.flatMap((i) => (i.opRate !== null ? [i.opRate] : [])));
  f.meanMs = lat?.meanMs ?? null;
  f.p50Ms = lat?.medianMs ?? null;
  f.p95Ms = lat?.p95Ms ?? null;
  f.p99Ms = lat?.p99Ms ?? null;
  f.p999Ms = lat?.p999Ms ?? null;
  f.maxMs = lat?.maxMs ?? null;
  f.totalOps = v.totalOps;
  f.errors = v.totalErrors ?? (v.opRate !== null ? 0 : f.intervals.reduce((a, i) => a + (i.errors ?? 0), 0));
  f.durationS = v.timeS ?? last?.timeS ?? null;
  f.concurrency = v.concurrency;
  f.threads = v.concurrency;
  f.rateKnown = v.rateKnown;
  f.fixedRate = v.maxRate;
  f.errorMessages = v.criticalErrors;
  return f;
}

// YCSB 0.17.0 DBWrapper.measure: an operation whose status is not OK/BATCHED_OK is timed as "<OP>-FAILED", or as
// "<OP>-<STATUS>" under -p reportlatencyforeacherror=true or latencytrackederrors=<STATUS,…> (Status.java names, and
// a binding's own: TIMEOUT, CLIENT_ERROR, ERROR-404 …); measurement.interval=intended|both adds "Intended-<OP>" (and
// "Intended-<OP>-FAILED"), the same operations timed from their intended start: never counted twice.
const YCSB_FAILURE = /^(.+)-(FAILED|ERROR|NOT_FOUND|NOT_IMPLEMENTED|UNEXPECTED_STATE|BAD_REQUEST|FORBIDDEN|SERVICE_UNAVAILABLE)$/;
const YCSB_STATUS = /^[A-Z][A-Z0-9_-]*$/;

/** How a run's measurement names read: failures with their operation and status, and the operations themselves. */
function ycsbNames(v: Ycsb): { failure: (k: string) => { op: string; status: string } | null; main: (k: string) => boolean } {
  const names = new Set([...Object.keys(v.ops), ...v.intervals.flatMap((i) => Object.keys(i.ops))]);
  const failure = (k: string) => {
    if (k.startsWith('Intended-')) return null;
    const m = YCSB_FAILURE.exec(k);
    if (m) return { op: m[1]!, status: m[2]! };
    // "<OP>-<STATUS>" of a binding's own status: the longest operation of this run that the name starts with
    if (k === 'READ-MODIFY-WRITE') return null;
    for (let i = k.lastIndexOf('-'); i > 0; i = k.lastIndexOf('-', i - 1)) {
      const op = k.slice(0, i);
      if (names.has(op) && YCSB_STATUS.test(k.slice(i + 1))) return { op, status: k.slice(i + 1) };
    }
    return null;
  };
  return { failure, main: (k) => k !== 'CLEANUP' && !k.startsWith('Intended-') && failure(k) === null };
}

function fromYcsb(v: Ycsb): StressFacts {
  const f = empty('ycsb', YCSB_KIND);
  const { failure: ycsbFailure, main: MAIN_OP } = ycsbNames(v);
  const maxOrNull = (xs: (number | null)[]) => {
    const ok = xs.filter((x): x is number => x !== null && Number.isFinite(x));
    return ok.length ? maxOf(ok) : null;
  };
  // "<OP>-FAILED" mixes every status but OK: when the summary's Return= lines show that all of OP's failures were
  // NOT_FOUND, its interval failures are reads of absent keys too (stress.not-found), not errors.
  const onlyNotFound = (op: string) => {
    const bad = Object.keys(v.ops[op]?.returns ?? {}).filter((c) => c !== 'OK' && c !== 'BATCHED_OK');
    return bad.length > 0 && bad.every((c) => c === 'NOT_FOUND');
  };
  const isError = (k: string) => {
    const fail = ycsbFailure(k);
    if (!fail || fail.status === 'NOT_FOUND') return false;
    return fail.status !== 'FAILED' || !onlyNotFound(fail.op);
  };
  f.intervals = v.intervals
    .map((i) => {
      const main = Object.entries(i.ops)
        .filter(([k]) => MAIN_OP(k))
        .map(([, o]) => o);
      const failed = Object.entries(i.ops)
        .filter(([k]) => isError(k))
        .reduce((a, [, o]) => a + (o.count ?? 0), 0);
      // Percentiles of different operations cannot be merged: the worst one stands for the interval.
      return withoutGc({
        timeS: i.timeS,
        opRate: i.opRate,
        p50Ms: null,
        p95Ms: null,
        p99Ms: maxOrNull(main.map((o) => o.p99Ms)),
        maxMs: maxOrNull(main.map((o) => o.maxMs)),
        errors: failed,
      });
    })
    .filter((i) => i.opRate !== null);
  const main = Object.entries(v.ops)
    .filter(([k]) => MAIN_OP(k))
    .map(([, o]) => o);
  const total = main.reduce((a, o) => a + (o.operations ?? 0), 0);
  // YCSB's DBWrapper: every status but OK/BATCHED_OK is timed under "<OP>-FAILED" and counted as "[OP], Return=<status>"
  // (Status.isOk); NOT_FOUND (the Cassandra binding's empty result) is a read of a key that is not there, kept apart.
  let returnErrors = 0;
  let notFound = 0;
  let notFoundOf = 0;
  const counted = new Set<string>();
  for (const [op, o] of Object.entries(v.ops)) {
    const codes = Object.entries(o.returns);
    if (codes.length === 0) continue;
    counted.add(op);
    for (const [code, c] of codes) {
      if (code === 'NOT_FOUND') notFound += c;
      else if (code !== 'OK' && code !== 'BATCHED_OK') returnErrors += c;
    }
    // every status of the op is counted once (0.1 put failures in READ's Operations, 0.17 under READ-FAILED)
    if (o.returns['NOT_FOUND'] !== undefined) notFoundOf += codes.reduce((a, [, c]) => a + c, 0);
  }
  // failure measurements of an operation without Return= lines: their own counts, by the status in their name
  let failedOps = 0;
  for (const [k, o] of Object.entries(v.ops)) {
    const fail = ycsbFailure(k);
    if (!fail || counted.has(fail.op)) continue;
    if (fail.status === 'NOT_FOUND') notFound += o.operations ?? 0;
    else failedOps += o.operations ?? 0;
  }
  if (notFound > 0) f.notFound = { count: notFound, of: notFoundOf || null };
  const noCountOps = (i: Ycsb['intervals'][number]) => Object.entries(i.ops).filter(([k, o]) => ycsbFailure(k) !== null && o.count === null);
  const noCount = v.intervals.filter((i) => noCountOps(i).length > 0);
  if (noCount.length)
    f.failedNoCount = {
      lines: noCount.length,
      of: v.intervals.length,
      ops: [...new Set(noCount.flatMap((i) => noCountOps(i).map(([k]) => k)))],
    };
  f.opRate = v.throughput;
  f.meanMs = total > 0 ? main.reduce((a, o) => a + (o.avgMs ?? 0) * (o.operations ?? 0), 0) / total : null;
  f.p95Ms = maxOrNull(main.map((o) => o.p95Ms));
  f.p99Ms = maxOrNull(main.map((o) => o.p99Ms));
  f.maxMs = maxOrNull(main.map((o) => o.maxMs));
  f.totalOps = total || null;
  // a failure seen without any count leaves the number unknown rather than 0
  f.errors = returnErrors + failedOps > 0 || !f.failedNoCount ? returnErrors + failedOps : null;
  f.durationS = v.runTimeMs !== null ? v.runTimeMs / 1000 : (v.intervals.at(-1)?.timeS ?? null);
  f.threads = v.threads;
  f.rateKnown = v.commandLineSeen;
  f.fixedRate = v.target;
  const hosts = v.properties['hosts'];
  f.nodes = hosts ? hosts.split(',') : [];
  return f;
}

/** Facts for a parsed stress value of the given kind; null for a kind this module does not know. */
export function stressFacts(kind: string, value: unknown): StressFacts | null {
  if (value === null || typeof value !== 'object') return null;
  switch (kind) {
    case CASSANDRA_STRESS_KIND:
      return fromCassandraStress(value as CassandraStress);
    case LATTE_TEXT_KIND:
      return fromLatteText(value as LatteText);
    case LATTE_JSON_KIND:
      return fromLatteJson(value as LatteJson);
    case SCYLLA_BENCH_KIND:
      return fromScyllaBench(value as ScyllaBench);
    case YCSB_KIND:
      return fromYcsb(value as Ycsb);
    default:
      return null;
  }
}

export function emptyFacts(tool: StressTool, kind: string): StressFacts {
  return empty(tool, kind);
}

export function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
