import type { Parsed } from '../../parsed.js';
import { CASSANDRA_STRESS_KIND, parseCassandraStress } from './cassandra-stress.js';
import { LATTE_JSON_KIND, LATTE_TEXT_KIND, parseLatteJson, parseLatteText } from './latte.js';
import { parseScyllaBench, SCYLLA_BENCH_KIND } from './scylla-bench.js';
import { parseYcsb, YCSB_KIND } from './ycsb.js';

export * from './cassandra-stress.js';
export * from './latte.js';
export * from './scylla-bench.js';
export * from './ycsb.js';

export type StressKind = typeof CASSANDRA_STRESS_KIND | typeof LATTE_TEXT_KIND | typeof LATTE_JSON_KIND | typeof SCYLLA_BENCH_KIND | typeof YCSB_KIND;

/** One total parser per stress-tool output kind (kinds as returned in `Parsed.kind`). */
export const STRESS_PARSERS: Record<StressKind, (text: string) => Parsed<unknown>> = {
  [CASSANDRA_STRESS_KIND]: parseCassandraStress,
  [LATTE_TEXT_KIND]: parseLatteText,
  [LATTE_JSON_KIND]: parseLatteJson,
  [SCYLLA_BENCH_KIND]: parseScyllaBench,
  [YCSB_KIND]: parseYcsb,
};

/**
 * Cheap detection signatures, one per kind, for core/detect (try latte-json before the text kinds: a JSON report
 * never matches them anyway). Each matches every corpus sample of its kind and none of the others'.
 */
export const stressSignature: Record<StressKind, RegExp> = {
  // "Results:" block ("Op rate : … Latency 99th percentile : …", 2.0 "real op rate") or the interval/threadCount
  // table header ("type total ops, op/s, pk/s", "id, type total ops", 2.0 "ops , op/s, key/s"); the 2.0 CSV
  // layout ("total,interval_op_rate,interval_key_rate,latency,…") and its "Averages from the middle 80%" summary.
  [CASSANDRA_STRESS_KIND]:
    /^[ \t]*(?:real )?op rate[ \t]*:[^\n]*\n(?:[^\n]*\n){0,6}?[ \t]*latency 99th percentile[ \t]*:|total ops,[ \t]*op\/s,[ \t]*pk\/s|^[ \t]*ops[ \t]*,[ \t]*op\/s,[ \t]*key\/s|^[ \t]*total,[ \t]*interval_op_rate,|^Averages from the middle \d+% of values:|^[ \t]*(?:total|\d+[ \t]*),(?:[ \t]*-?[\d.]+,){16,17}[ \t]*-?[\d.]+[ \t]*$|^Latency (?:mean|median|95th percentile|99th percentile|99\.9th percentile|max)[ \t]*:[ \t]*[\d.,]+ ms \[\w+: |^\*{8,}[ \t]*Stress Settings[ \t]*\*{8,}[ \t]*$/im,
  // Section rulers "CONFIG ====…" (latte 0.x) / "SUMMARY STATS ═══…" (0.2x+), or "Throughput [req/s]:" rows.
  [LATTE_TEXT_KIND]:
    /^[ \t]*(?:CONFIG|SUMMARY STATS|THROUGHPUT DISTRIBUTION|MEAN RESPONSE TIMES|CYCLE LATENCY)\b[^\n]*?[=═]{10,}|^[ \t]*Throughput[ \t]*\[(?:req|op)\/s\]/m,
  // `latte run -o report.json`: {"conf": …, "percentiles": …, "result": {"cycle_throughput": …}}
  [LATTE_JSON_KIND]: /^\s*\{[\s\S]*?"(?:cycle_throughput|req_throughput|elapsed_time_s)"\s*:/,
  // Interval header "time ops/s rows/s errors max 99.9th …" (operations/s in older builds), the Results block, or
  // an interval row pasted without its header ("  2s  4465  0  0 15ms 15ms 3.5ms 3.1ms 2.8ms 2.2ms 2.2ms").
  [SCYLLA_BENCH_KIND]:
    /^[ \t]*time[ \t]+(?:ops|operations)\/s[ \t]+rows\/s[ \t]+errors[ \t]+max\b|^Operations\/s:[ \t]|^[ \t]*\d+(?:\.\d+)?s(?:[ \t]+\d+){3}(?:[ \t]+[\d.]+(?:ms|µs|μs|us|ns|s)){7}(?:[ \t]|$)/m,
  // "[OVERALL], RunTime(ms), …" summary or "N sec: M operations; X current ops/sec" status lines.
  // a summary cut to its per-operation lines still names its return codes: "[READ], Return=NOT_FOUND, 16780"
  [YCSB_KIND]:
    /^\[OVERALL\],\s*(?:RunTime|Throughput)|(?<!\d)\d+ sec: \d+ operations; [\d.]+ current ops\/sec|^\[[A-Z][A-Z0-9_-]{0,30}\], Return=[A-Z_]{2,30}, \d/m,
};
