/**
 * What an expert concludes from a stress run (cassandra-stress, latte, scylla-bench, YCSB): saturation, tail
 * latency explained by GC, bimodal tails, errors, closed-loop measurement, run length and warm-up, client-side
 * limits, impossible values and the tool's own A/B significance. PURE: reads StressFacts (core/stress/facts.ts).
 */
import type { Finding, Severity } from '../findings.js';
import { numberOf, threshold, type KnowledgeId } from '../knowledge/index.js';
import { median, stressFacts, type IntervalFacts, type StressFacts } from '../stress/facts.js';
import { fmtNum, grade, outcomeOf, PACK, skipped } from './rule.js';
import type { KindRuleOutcome, KindRules } from './per-kind.js';
import { maxOf } from '../arrays.js';

const ms = (v: number) => `${fmtNum(v)} ms`;
const ops = (v: number) => `${Math.round(v).toLocaleString('en-US')} op/s`;
const pct = (v: number) => `${fmtNum(v * 100)} %`;
const finite = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);

function finding(
  id: string,
  severity: Severity,
  title: string,
  evidence: string[],
  recommendation: string,
  knowledgeIds: KnowledgeId[],
  confidence: Finding['confidence'] = 'high',
): Finding {
  return { id, severity, title, evidence, recommendation, knowledgeIds, confidence };
}

type StressRule = { id: string; checks: string; run(f: StressFacts): Finding[] | string };

/** Intervals after the ramp: drop leading intervals below the ramp fraction of the median throughput. */
export function steadyIntervals(f: StressFacts): { ramp: IntervalFacts[]; steady: IntervalFacts[] } {
  const rated = f.intervals.filter((i) => finite(i.opRate));
  const med = median(rated.map((i) => i.opRate!));
  if (med === null || rated.length < 4) return { ramp: [], steady: rated };
  const frac = numberOf('benchmarking.warm-up-ramp');
  let k = 0;
  // Only the first quarter of a run can be its warm-up; later dips are something else.
  while (k < Math.ceil(rated.length / 4) && rated[k]!.opRate! < frac * med) k++;
  return { ramp: rated.slice(0, k), steady: rated.slice(k) };
}

const saturation: StressRule = {
  id: 'stress.saturation',
  checks: 'throughput plateau while p99 climbs (thread-count sweep, or over the run)',
  run(f) {
    const plateauFrac = numberOf('benchmarking.saturation-plateau');
    const climb = numberOf('benchmarking.p99-climb');
    const steps = f.steps.filter((s) => finite(s.opRate) && finite(s.p99Ms));
    if (steps.length >= 3) {
      const peak = maxOf(steps.map((s) => s.opRate!));
      const startIdx = steps.findIndex((s) => s.opRate! >= plateauFrac * peak);
      const start = steps[startIdx]!;
      const last = steps.at(-1)!;
      const first = steps[0]!;
      const plateau = steps.slice(startIdx);
      if (plateau.length < 2 || last.p99Ms! < climb * start.p99Ms!) return [];
      const knee = startIdx > 0 ? steps[startIdx - 1]! : null;
      const gcNote =
        f.gcCollected && finite(f.gcAvgMs) && f.gcAvgMs < (threshold('jvm.gc.pause').warning ?? 200) / 10
          ? [`server GC is small (Results: ${fmtNum(f.gcCount ?? 0)} collections, avg ${ms(f.gcAvgMs)}), so the limit is CPU (node or client), not GC`]
          : [];
      return [
        finding(
          'stress.saturation',
          'warning',
          `Saturated: throughput plateaus at ~${ops(peak)} from ${start.threads} threads while p99 climbs ${ms(start.p99Ms!)} → ${ms(last.p99Ms!)}`,
          [
            `thread-count sweep: ${steps.map((s) => `${s.threads} thr ${ops(s.opRate!)} p99 ${ms(s.p99Ms!)}`).join('; ')}`,
            `plateau (≥ ${pct(plateauFrac)} of the ${ops(peak)} peak): ${plateau.map((s) => s.threads).join(', ')} threads`,
            `p99 from ${ms(first.p99Ms!)} (${first.threads} thr) to ${ms(start.p99Ms!)} (${start.threads} thr) to ${ms(last.p99Ms!)} (${last.threads} thr)${finite(last.maxMs) ? `, max ${ms(last.maxMs)}` : ''}`,
            ...(knee ? [`useful capacity ≈ ${ops(knee.opRate!)} at p99 ${ms(knee.p99Ms!)} (${knee.threads} threads, last step before the plateau)`] : []),
            ...gcNote,
          ],
          `Report the knee, not the peak: about ${ops(knee?.opRate ?? start.opRate!)} at p99 ${ms(knee?.p99Ms ?? start.p99Ms!)}. More client threads only add queueing. Confirm with a fixed-rate run just below the knee (-rate threads=N fixed=R/s, latte --rate) and check node CPU; if client and server share the host, move the client.`,
          ['benchmarking.saturation-plateau', 'benchmarking.p99-climb', 'benchmarking.coordinated-omission'],
        ),
      ];
    }
    // Over time: throughput flat between the halves of the steady part while p99 doubles.
    const { steady } = steadyIntervals(f);
    const withP99 = steady.filter((i) => finite(i.p99Ms));
    if (withP99.length < 6) return steps.length ? 'thread-count sweep has fewer than 3 steps' : 'fewer than 6 steady intervals with a p99';
    const half = withP99.length >> 1;
    const a = withP99.slice(0, half);
    const b = withP99.slice(half);
    const rateA = median(a.map((i) => i.opRate!))!;
    const rateB = median(b.map((i) => i.opRate!))!;
    const p99A = median(a.map((i) => i.p99Ms!))!;
    const p99B = median(b.map((i) => i.p99Ms!))!;
    if (p99A <= 0 || p99B < climb * p99A || rateB > rateA / plateauFrac || rateB < rateA * plateauFrac) return [];
    return [
      finding(
        'stress.saturation',
        'warning',
        `p99 climbs ${ms(p99A)} → ${ms(p99B)} while throughput stays at ~${ops(rateB)}: queueing builds up`,
        [`first half of the steady intervals: median ${ops(rateA)}, p99 ${ms(p99A)}`, `second half: median ${ops(rateB)}, p99 ${ms(p99B)}`],
        'The cluster is at or past its capacity for this load (or degrading: compaction backlog, GC). Lower the rate or threads until p99 is stable, and check pending compactions and GC on the nodes.',
        ['benchmarking.saturation-plateau', 'benchmarking.p99-climb'],
        'medium',
      ),
    ];
  },
};

const gcMax: StressRule = {
  id: 'stress.gc-max-latency',
  checks: 'max latency explained by a server GC pause of the same size (cassandra-stress gc columns)',
  run(f) {
    if (f.tool !== 'cassandra-stress') return 'GC columns are printed by cassandra-stress only';
    if (!f.gcCollected) return 'cassandra-stress did not read GC over JMX (gc columns absent or zero)';
    const frac = numberOf('benchmarking.gc-explains-max');
    const iv = f.intervals;
    let worst: { i: number; max: number } | null = null;
    iv.forEach((x, i) => {
      if (finite(x.maxMs) && (!worst || x.maxMs > worst.max)) worst = { i, max: x.maxMs };
    });
    const pick = worst as { i: number; max: number } | null;
    if (pick) {
      const { i, max } = pick;
      for (const j of [i, i - 1]) {
        const g = iv[j];
        if (!g || !finite(g.gcMaxMs) || g.gcMaxMs <= 0) continue;
        const pause = Math.max(g.gcMaxMs, g.gcSumMs ?? 0);
        if (pause < frac * max || pause > max / frac) continue;
        return [
          finding(
            'stress.gc-max-latency',
            grade(PACK, pause, 'jvm.gc.pause') ?? 'info',
            `Max latency ${ms(max)} matches a ${ms(pause)} server GC pause`,
            [
              `interval at ${fmtNum(iv[i]!.timeS ?? i + 1)} s: max ${ms(max)} (p99 ${finite(iv[i]!.p99Ms) ? ms(iv[i]!.p99Ms) : '?'})`,
              `interval at ${fmtNum(g.timeS ?? j + 1)} s: gc # ${fmtNum(g.gcCount ?? 0)}, max ${ms(g.gcMaxMs)}, sum ${ms(g.gcSumMs ?? g.gcMaxMs)}`,
              ...(finite(f.maxMs) ? [`Results: latency max ${ms(f.maxMs)}, p99 ${finite(f.p99Ms) ? ms(f.p99Ms) : '?'}`] : []),
            ],
            "The tail is a stop-the-world GC on the server, not the disk or the data model: read the node's gc.log / GCInspector lines for that time, check heap size and young-generation sizing (G1 MaxGCPauseMillis), and compare p99, which excludes this single stall.",
            ['benchmarking.gc-explains-max', 'jvm.gc.pause'],
          ),
        ];
      }
    }
    // Summary only (no interval table): one collection whose average equals the max latency.
    if (finite(f.maxMs) && f.gcCount === 1 && finite(f.gcAvgMs) && f.gcAvgMs >= frac * f.maxMs && f.gcAvgMs <= f.maxMs / frac) {
      return [
        finding(
          'stress.gc-max-latency',
          grade(PACK, f.gcAvgMs, 'jvm.gc.pause') ?? 'info',
          `Max latency ${ms(f.maxMs)} matches the single ${ms(f.gcAvgMs)} server GC pause`,
          [`Results: latency max ${ms(f.maxMs)}, Total GC count 1, Avg GC time ${ms(f.gcAvgMs)}`],
          'The tail is a stop-the-world GC on the server: read its gc.log for that pause and size the heap / young generation accordingly.',
          ['benchmarking.gc-explains-max', 'jvm.gc.pause'],
          'medium',
        ),
      ];
    }
    return [];
  },
};

const bimodal: StressRule = {
  id: 'stress.bimodal-tail',
  checks: 'p99 far above p95 (two latency populations)',
  run(f) {
    if (!finite(f.p95Ms) || !finite(f.p99Ms)) return 'the output has no p95 and p99 for the whole run';
    if (f.p95Ms <= 0) return [];
    const ratio = f.p99Ms / f.p95Ms;
    const sev = grade(PACK, ratio, 'benchmarking.bimodal-tail');
    if (!sev) return [];
    const gc =
      f.gcCollected && f.gcCount === 0
        ? 'no server GC was recorded by the client, so look at compaction, commit-log sync, CPU throttling or a noisy neighbour'
        : f.gcCollected && finite(f.gcAvgMs)
          ? `server GC: ${fmtNum(f.gcCount ?? 0)} collections, avg ${ms(f.gcAvgMs)}`
          : 'server GC was not measured by the client';
    return [
      finding(
        'stress.bimodal-tail',
        sev,
        `Bimodal latency: p99 ${ms(f.p99Ms)} is ${fmtNum(ratio, 0)}× p95 ${ms(f.p95Ms)}`,
        [
          `median ${finite(f.p50Ms) ? ms(f.p50Ms) : '?'}, p95 ${ms(f.p95Ms)}, p99 ${ms(f.p99Ms)}${finite(f.p999Ms) ? `, p99.9 ${ms(f.p999Ms)}` : ''}${finite(f.maxMs) ? `, max ${ms(f.maxMs)}` : ''}`,
          `throughput ${finite(f.opRate) ? ops(f.opRate) : '?'}; ${gc}`,
        ],
        "Roughly 1–5 % of requests stall on something the rest never meet: read the nodes' GC logs and pauses, pending compactions, commit-log sync and CPU throttling (steal, cgroup quota) for the run's window; the average throughput hides it.",
        ['benchmarking.bimodal-tail'],
      ),
    ];
  },
};

const errors: StressRule = {
  id: 'stress.errors',
  checks: 'error and timeout rate',
  run(f) {
    const errs = f.errors ?? (f.intervals.some((i) => finite(i.errors)) ? f.intervals.reduce((a, i) => a + (i.errors ?? 0), 0) : null);
    const fnc = f.failedNoCount;
    if (!errs && fnc && f.errorMessages.length === 0) {
      // old YCSB status lines: "[READ-FAILED AverageLatency(us)=4593.01]" says operations failed, not how many
      return [
        finding(
          'stress.errors',
          'warning',
          `Operations failed in ${fnc.lines} of ${fnc.of} status line(s) (${fnc.ops.join(', ')}); this YCSB prints no count`,
          [
            `${fnc.ops.join(', ')} in ${fnc.lines} of ${fnc.of} interval(s): YCSB times every operation whose status is not OK under <OP>-FAILED`,
            'the [OP], Return=… lines of the final summary count them by status (ERROR, NOT_FOUND, …)',
          ],
          "Read the run's summary for the Return= counts: NOT_FOUND means keys the load never wrote (check recordcount/insertstart of load and run), ERROR means the database refused or timed out. Fix that before reading the latencies.",
          ['benchmarking.error-rate', 'benchmarking.ycsb-not-found'],
          'medium',
        ),
      ];
    }
    if (errs === null && f.errorMessages.length === 0) return 'the output has no error count';
    if ((errs ?? 0) === 0 && f.errorMessages.length === 0) return [];
    const total = f.totalOps;
    const rate = errs !== null && finite(total) && total > 0 ? errs / total : null;
    const sev: Severity = rate !== null ? (grade(PACK, rate, 'benchmarking.error-rate') ?? 'info') : 'warning';
    const timeouts = f.errorMessages.filter((m) => /timeout|timed out/i.test(m)).length;
    return [
      finding(
        'stress.errors',
        sev,
        `${errs !== null ? `${fmtNum(errs)} errors` : 'Errors'}${rate !== null ? ` (${pct(rate)} of ${fmtNum(total!)} operations)` : ''} during the run`,
        [
          ...(errs !== null ? [`errors: ${fmtNum(errs)}${finite(total) ? ` of ${fmtNum(total)} operations` : ''}`] : []),
          ...(timeouts ? [`${timeouts} of the printed error lines are timeouts`] : []),
          ...f.errorMessages.slice(0, 3),
        ],
        'Failed and retried requests distort both throughput and percentiles: find the cause first (timeouts mean overload or a down replica; unavailable means too few live replicas for the consistency level), then re-run.',
        ['benchmarking.error-rate'],
      ),
    ];
  },
};

const notFound: StressRule = {
  id: 'stress.not-found',
  checks: 'reads of keys that are not there (YCSB Return=NOT_FOUND)',
  run(f) {
    if (f.tool !== 'ycsb') return 'only YCSB counts reads that found no row';
    const nf = f.notFound;
    if (!nf) return [];
    const share = nf.of ? nf.count / nf.of : null;
    // a few misses are said (info) without grading the run
    const sev = share === null ? 'warning' : (grade(PACK, share, 'benchmarking.ycsb-not-found') ?? 'info');
    return [
      finding(
        'stress.not-found',
        sev,
        `${fmtNum(nf.count)} read(s) found no row${share !== null ? ` (${share < 0.001 ? 'under 0.1 %' : pct(share)} of ${fmtNum(nf.of!)})` : ''}: the run read keys that are not there`,
        [
          `Return=NOT_FOUND ${fmtNum(nf.count)}${nf.of ? ` of ${fmtNum(nf.of)} operations` : ''}`,
          ...(f.errors ? [`other failures (Return=ERROR …): ${fmtNum(f.errors)}`] : []),
        ],
        'Load and run must cover the same keys: run the load phase to completion with the same recordcount (and insertstart/insertcount per client) that the run ' +
          'phase uses, and check the table holds them (SELECT count(*) on a sample). With a consistency level of ONE, a replica that missed writes answers empty too. ' +
          'Until then the read latency is that of misses, not of the workload.',
        ['benchmarking.ycsb-not-found'],
      ),
    ];
  },
};

const rateShortfall: StressRule = {
  id: 'stress.rate-not-reached',
  checks: 'fixed target rate actually achieved',
  run(f) {
    if (f.fixedRate === null) return f.rateKnown ? 'closed-loop run: no target rate' : 'the output does not say whether a rate limit was set';
    const { steady } = steadyIntervals(f);
    const achieved = median(steady.map((i) => i.opRate!)) ?? f.opRate;
    if (!finite(achieved)) return 'no throughput figure';
    const frac = numberOf('benchmarking.rate-shortfall');
    if (achieved >= frac * f.fixedRate) return [];
    const p99s = steady.filter((i) => finite(i.p99Ms));
    const climb = p99s.length >= 2 ? ` while p99 went ${ms(p99s[0]!.p99Ms!)} → ${ms(p99s.at(-1)!.p99Ms!)}` : '';
    return [
      finding(
        'stress.rate-not-reached',
        'warning',
        `Target rate not reached: ${ops(achieved)} of the ${ops(f.fixedRate)} asked (${pct(achieved / f.fixedRate)})${climb}`,
        [
          `target ${ops(f.fixedRate)}; median achieved ${ops(achieved)} over ${steady.length} intervals${f.concurrency !== null ? `; concurrency ${fmtNum(f.concurrency)}` : f.threads !== null ? `; threads ${fmtNum(f.threads)}` : ''}`,
          ...(p99s.length >= 2
            ? [
                `p99 per interval: ${p99s
                  .slice(0, 8)
                  .map((i) => ms(i.p99Ms!))
                  .join(', ')}${p99s.length > 8 ? ' …' : ''}`,
              ]
            : []),
        ],
        "The client (too few threads / too little concurrency for the latency: Little's law) or the cluster cannot sustain this rate. Measured from the intended send time the backlog grows without bound, so these latencies describe the queue, not the server. Raise concurrency if the client is the limit, or lower the rate below the cluster's knee.",
        ['benchmarking.rate-shortfall', 'benchmarking.coordinated-omission'],
      ),
    ];
  },
};

const closedLoop: StressRule = {
  id: 'stress.closed-loop',
  checks: 'closed-loop run without a fixed rate (coordinated omission)',
  run(f) {
    if (!f.rateKnown) return 'the output does not say whether a rate limit was set';
    if (f.fixedRate !== null) return [];
    return [
      finding(
        'stress.closed-loop',
        'info',
        'Closed-loop run (no fixed rate): its latency percentiles leave out queueing',
        [
          `${f.tool}: no rate limit${f.threads !== null ? `, ${fmtNum(f.threads)} threads` : ''}${f.concurrency !== null ? `, concurrency ${fmtNum(f.concurrency)}` : ''}${f.steps.length ? ' (auto-rate thread-count sweep)' : ''}`,
        ],
        f.tool === 'cassandra-stress'
          ? 'Good for finding peak throughput; to check a latency SLA re-run at a fixed rate below the knee: -rate threads=N fixed=R/s.'
          : f.tool === 'latte'
            ? 'Good for finding peak throughput; to check a latency SLA re-run with latte run --rate R below the knee.'
            : 'Good for finding peak throughput; to check a latency SLA re-run at a fixed target rate below the knee.',
        ['benchmarking.coordinated-omission'],
      ),
    ];
  },
};

const runLength: StressRule = {
  id: 'stress.too-short',
  checks: 'run length against steady state (≥ 3 min) and measured window (≥ 10 min)',
  run(f) {
    const d = f.durationS ?? f.intervals.at(-1)?.timeS ?? null;
    if (!finite(d)) return 'the output has no run duration';
    const steady = numberOf('benchmarking.steady-state-min');
    const window = numberOf('benchmarking.measured-window-min');
    if (d >= steady + window) return [];
    const short = d < steady;
    return [
      finding(
        'stress.too-short',
        short ? 'warning' : 'info',
        short
          ? `Run of ${fmtNum(d)} s is too short to reach a steady state`
          : `Run of ${fmtNum(d)} s is shorter than a steady state plus a 10-minute measured window`,
        [`duration ${fmtNum(d)} s${f.steps.length ? ' (last step of the sweep)' : ''}; steady state needs ≥ ${steady} s, then ≥ ${window} s measured`],
        `Numbers from a short run describe a transient (no flush, compaction or old-generation GC yet). For a result to report, load the data set first, run ≥ ${steady / 60} min to settle, then measure ≥ ${window / 60} min (cassandra-stress duration=${(steady + window) / 60}m, latte -w ${steady / 60}m -d ${window / 60}m).`,
        ['benchmarking.steady-state-min', 'benchmarking.measured-window-min'],
      ),
    ];
  },
};

const warmup: StressRule = {
  id: 'stress.warm-up-in-window',
  checks: 'warm-up (ramp) inside the measured window',
  run(f) {
    if (f.intervals.filter((i) => finite(i.opRate)).length < 4) return 'fewer than 4 intervals';
    const { ramp, steady } = steadyIntervals(f);
    if (ramp.length === 0) return [];
    const med = median(steady.map((i) => i.opRate!))!;
    return [
      finding(
        'stress.warm-up-in-window',
        'warning',
        `Warm-up inside the measured window: the first ${ramp.length} interval(s) ran at ${ramp.map((i) => ops(i.opRate!)).join(', ')} vs a steady ${ops(med)}`,
        [
          `first intervals: ${ramp.map((i) => `${fmtNum(i.timeS ?? 0)} s ${ops(i.opRate!)}${finite(i.p99Ms) ? ` p99 ${ms(i.p99Ms)}` : ''}`).join('; ')}`,
          `median of the remaining ${steady.length} intervals: ${ops(med)}`,
          ...(f.warmup === false ? ['the tool was configured without warm-up'] : []),
        ],
        'Exclude the ramp: run a warm-up before measuring (latte --warmup, cassandra-stress without no-warmup and with duration= rather than n=), or read only the steady intervals.',
        ['benchmarking.warm-up', 'benchmarking.warm-up-ramp'],
      ),
    ];
  },
};

const clientSide: StressRule = {
  id: 'stress.client-bottleneck',
  checks: 'client-side limits (all concurrency slots busy, client CPU)',
  run(f) {
    const out: Finding[] = [];
    const satFrac = numberOf('benchmarking.client-concurrency-saturated');
    if (finite(f.meanConcurrency) && finite(f.concurrency) && f.concurrency > 0) {
      const busy = f.meanConcurrency / f.concurrency;
      if (busy >= satFrac) {
        const little = finite(f.opRate) && f.opRate > 0 ? (1000 * f.meanConcurrency) / f.opRate : null;
        out.push(
          finding(
            'stress.client-bottleneck',
            'warning',
            `Client keeps ${pct(busy)} of its ${fmtNum(f.concurrency)} request slots busy: latency includes client-side queueing`,
            [
              `mean in flight ${fmtNum(f.meanConcurrency)} of ${fmtNum(f.concurrency)} (${pct(busy)})`,
              ...(little !== null
                ? [
                    `Little's law: ${fmtNum(f.meanConcurrency)} in flight / ${ops(f.opRate!)} = ${ms(little)} per request, ≈ the measured mean ${finite(f.meanMs) ? ms(f.meanMs) : '?'}`,
                  ]
                : []),
            ],
            'At this concurrency the run is saturated and latency ≈ concurrency / throughput. Lower the concurrency (or set a fixed rate) to measure service time, and raise it only while throughput still grows.',
            ['benchmarking.client-concurrency-saturated', 'benchmarking.coordinated-omission'],
            'medium',
          ),
        );
      }
    }
    if (finite(f.clientCpuPercent)) {
      const sev = grade(PACK, f.clientCpuPercent, 'benchmarking.client-cpu');
      if (sev) {
        out.push(
          finding(
            'stress.client-bottleneck',
            sev,
            `Load generator CPU at ${fmtNum(f.clientCpuPercent)} %: the client may be the bottleneck`,
            [`client CPU utilisation ${fmtNum(f.clientCpuPercent)} %${f.threads !== null ? ` with ${fmtNum(f.threads)} threads` : ''}`],
            'Run the client on its own host (or several clients) before concluding about the cluster.',
            ['benchmarking.client-cpu'],
            'medium',
          ),
        );
      }
    }
    if (!finite(f.meanConcurrency) && !finite(f.clientCpuPercent)) return 'the output has neither client concurrency use nor client CPU';
    return out;
  },
};

const impossible: StressRule = {
  id: 'stress.impossible-value',
  checks: 'impossible values (+Inf / NaN rates)',
  run(f) {
    if (f.impossible.length === 0) return [];
    return [
      finding(
        'stress.impossible-value',
        'warning',
        `The output prints ${f.impossible.length} impossible value(s) (Infinity): those numbers are not measurements`,
        f.impossible.slice(0, 3),
        'An infinite rate comes from an interval of (near) zero length, e.g. a run that ended at once or a clock step: ignore that line, and if the whole run is affected re-run longer.',
        [],
      ),
    ];
  },
};

const comparison: StressRule = {
  id: 'stress.comparison',
  checks: "significance of the tool's own comparison against a baseline (p-values)",
  run(f) {
    if (f.comparison.length === 0) return 'the run was not compared against a baseline';
    const alpha = numberOf('benchmarking.significance-level');
    const key = f.comparison.filter((c) => /^(throughput|mean resp|cycle latency|mean latency)/.test(c.metric));
    const stats = key.length ? key : f.comparison;
    const significant = stats.filter((c) => c.pValue! < alpha);
    const list = stats.map(
      (c) =>
        `${c.metric}: ${c.value ?? '?'} vs baseline ${c.baseline ?? '?'} (${c.changePercent !== null ? `${c.changePercent > 0 ? '+' : ''}${c.changePercent}%` : '?'}), p = ${c.pValue}`,
    );
    if (significant.length === 0) {
      return [
        finding(
          'stress.comparison',
          'info',
          `No significant difference from the baseline (p ≥ ${alpha} on ${stats.map((c) => c.metric.replace(/ \[.*\]$/, '')).join(', ')})`,
          list,
          'The change is within run-to-run noise: do not report it as a regression or an improvement. Repeat both runs (longer, same data set state) if a few percent matter.',
          ['benchmarking.significance-level'],
        ),
      ];
    }
    const worse = significant.some((c) => c.changePercent !== null && (/^throughput/.test(c.metric) ? c.changePercent < 0 : c.changePercent > 0));
    return [
      finding(
        'stress.comparison',
        worse ? 'warning' : 'info',
        `${worse ? 'Significant regression' : 'Significant improvement'} against the baseline (p < ${alpha})`,
        list,
        worse
          ? 'A real regression at the 5 % level: find what changed between the runs (config, data size, compaction state, versions).'
          : 'A real improvement at the 5 % level; keep the change and record both runs.',
        ['benchmarking.significance-level'],
      ),
    ];
  },
};

const stall: StressRule = {
  id: 'stress.stall',
  checks: 'throughput stalls in the middle of a run (a replica lost, a stop-the-world pause)',
  run(f) {
    const { ramp, steady } = steadyIntervals(f);
    if (steady.length < 4) return 'fewer than 4 intervals with a throughput';
    // Against the peak, not the median: when a node dies early most of the run may be the stall itself.
    const peak = maxOf(steady.map((i) => i.opRate!));
    const frac = numberOf('benchmarking.throughput-stall');
    // Runs of consecutive intervals far below the median, not counting the last one (a run's tail is short).
    const body = steady.slice(0, -1);
    const stalls: IntervalFacts[][] = [];
    let cur: IntervalFacts[] = [];
    for (const i of body) {
      if (i.opRate! <= frac * peak) cur.push(i);
      else if (cur.length) {
        stalls.push(cur);
        cur = [];
      }
    }
    if (cur.length) stalls.push(cur);
    const retried = finite(f.retries) && f.retries > 0;
    if (!stalls.length) {
      if (!retried) return [];
      return [
        finding(
          'stress.retries',
          'info',
          `${fmtNum(f.retries!)} requests were retried by the client`,
          [
            `retries: ${fmtNum(f.retries!)}${finite(f.totalOps) ? ` over ${fmtNum(f.totalOps)} operations` : ''}; errors: ${finite(f.errors) ? fmtNum(f.errors) : '?'}`,
          ],
          'Retries hide failures from the error count: check the nodes during the run (a replica down, timeouts) before trusting the latencies.',
          ['benchmarking.error-rate'],
          'medium',
        ),
      ];
    }
    const worst = stalls.reduce((a, b) => (b.length > a.length ? b : a));
    const seconds = stalls.reduce((a, s) => a + s.length, 0);
    const at = (i: IntervalFacts) => (finite(i.timeS) ? `t=${fmtNum(i.timeS)} s` : `interval ${f.intervals.indexOf(i) + 1}`);
    return [
      finding(
        'stress.stall',
        'warning',
        `Throughput stalled ${stalls.length === 1 ? 'once' : `${stalls.length} times`} mid-run (${worst.length} interval${worst.length > 1 ? 's' : ''} from ${at(worst[0]!)} at ≤ ${pct(frac)} of the ${ops(peak)} peak)`,
        [
          `stalled intervals: ${stalls.map((s) => `${at(s[0]!)}${s.length > 1 ? `–${at(s.at(-1)!)}` : ''}: ${s.map((i) => ops(i.opRate!)).join(', ')}`).join('; ')}`,
          `${seconds} of ${steady.length} intervals after the warm-up${ramp.length ? ` (${ramp.length} warm-up intervals left out)` : ''}; peak ${ops(peak)}, median ${ops(median(steady.map((i) => i.opRate!))!)}`,
          ...(retried ? [`retries: ${fmtNum(f.retries!)}; errors: ${finite(f.errors) ? fmtNum(f.errors) : '?'} — the client retried through the stall`] : []),
          ...(f.errorMessages.length ? f.errorMessages.slice(0, 2) : []),
        ],
        "A run that stops serving for a while measured an incident, not the cluster's capacity. Check what happened at that time: a node down (nodetool status, the after-snapshot), a long GC or safepoint pause in its logs, a compaction or repair burst. Fix or explain it, then re-run; report the stall separately from the steady-state numbers.",
        ['benchmarking.throughput-stall', 'benchmarking.error-rate'],
      ),
    ];
  },
};

export const STRESS_RULES: StressRule[] = [
  saturation,
  gcMax,
  bimodal,
  errors,
  notFound,
  stall,
  closedLoop,
  rateShortfall,
  runLength,
  warmup,
  clientSide,
  impossible,
  comparison,
];

/** All stress rules on one run's facts. */
export function runStressRules(f: StressFacts): KindRuleOutcome[] {
  return STRESS_RULES.map((r) => {
    return outcomeOf(r.id, r.checks, r.run(f));
  });
}

export const STRESS_KIND_RULES: KindRules = {
  run(kind, value) {
    const f = stressFacts(kind, value);
    if (!f) return [skipped('stress', `no stress facts for kind ${kind}`, 'stress run')];
    return runStressRules(f);
  },
};
