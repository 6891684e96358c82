/**
 * What jstat's GC counters say between the first and the last sample of a paste: full collections in the window
 * (kb jvm.gc.full-collections), the share of the time in GC pauses (kb jvm.gc.time-share) and the average young
 * pause (kb jvm.gc.pause). Counters since the JVM started say little about now, so a single sample is read only for
 * the average young pause, and says so. PURE.
 */
import type { Finding } from '../../findings.js';
import { MIN_SHARE_INTERVAL_MS } from '../../rules/jvm.js';
import { fmtNum, grade, PACK } from '../../rules/rule.js';
import type { KindRule } from '../types.js';
import type { Jstat, JstatSample } from './parse.js';

type Rule = KindRule<Jstat>;

const f1 = (x: number) => x.toFixed(1);
/** Seconds as jstat prints them (to the millisecond), without trailing zeros. */
const sec = (x: number) => String(Number(x.toFixed(3)));
const v = (s: JstatSample, c: string): number | null => s.values[c] ?? null;
const collections = (s: JstatSample) => (v(s, 'YGC') ?? 0) + (v(s, 'FGC') ?? 0) + (v(s, 'CGC') ?? 0);

/**
 * The samples the window is read from: the last run in which the counters never go down (a lower YGC or GCT is
 * another JVM, or the same pid restarted), with its length in seconds when the paste says it (-t or the interval).
 */
export interface JstatWindow {
  samples: JstatSample[];
  seconds: number | null;
  /** Samples before a counter went down, left out. */
  before: number;
  /** Lines that are not samples ("...", rows that did not fit) between the window's samples: rows × interval undercounts. */
  gapped: boolean;
}

export function jstatWindow(j: Jstat): JstatWindow {
  let start = 0;
  for (let i = 1; i < j.samples.length; i++) {
    const a = j.samples[i - 1]!;
    const b = j.samples[i]!;
    if ((v(b, 'YGC') ?? 0) < (v(a, 'YGC') ?? 0) || (v(b, 'GCT') ?? 0) < (v(a, 'GCT') ?? 0)) start = i;
  }
  const samples = j.samples.slice(start);
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const gapped = samples.slice(1).some((s) => s.afterGap);
  const seconds =
    samples.length < 2
      ? null
      : first.uptimeS !== null && last.uptimeS !== null
        ? last.uptimeS - first.uptimeS
        : j.intervalMs !== null && !gapped
          ? ((samples.length - 1) * j.intervalMs) / 1000
          : null;
  // GC time larger than the window itself: the window is not what the rows say (rows cut out, another interval)
  const gct = (v(last, 'GCT') ?? 0) - (v(first, 'GCT') ?? 0);
  const sane = seconds !== null && seconds > 0 && gct <= seconds;
  return { samples, seconds: sane ? seconds : null, before: start, gapped };
}

const where = (w: JstatWindow) =>
  `${w.samples.length} samples (lines ${w.samples[0]!.line}–${w.samples.at(-1)!.line})${w.seconds !== null ? ` over ${fmtNum(w.seconds)} s` : ''}` +
  (w.before ? `; the ${w.before} sample(s) before a counter went down (another JVM or a restart) are left out` : '');

/** Old generation occupancy of a sample, %: -gcutil's O, or -gc's OU/OC. */
function oldPct(s: JstatSample): number | null {
  const o = v(s, 'O');
  if (o !== null) return o;
  const ou = v(s, 'OU');
  const oc = v(s, 'OC');
  return ou !== null && oc !== null && oc > 0 ? (100 * ou) / oc : null;
}

/**
 * Counters since the JVM started, when the window shows no full collection: an old generation still full (at the
 * critical level of kb jvm.heap.used-ratio) while full collections have taken more time than every young one
 * together is a heap that cannot hold what is live, and has not for a long time (a full old generation alone may be
 * garbage waiting for its cycle).
 */
function fullSinceStart(j: Jstat, w: JstatWindow): Finding[] | null {
  const last = w.samples.at(-1)!;
  const fgc = v(last, 'FGC');
  const fgct = v(last, 'FGCT');
  const ygct = v(last, 'YGCT');
  const old = oldPct(last);
  if (fgc === null || fgct === null || ygct === null || old === null || fgc < 1 || fgct <= ygct) return null;
  if (grade(PACK, old / 100, 'jvm.heap.used-ratio') !== 'critical') return null;
  return [
    {
      id: 'jvm.jstat.full-gc',
      severity: 'warning',
      title: `Old generation ${f1(old)} % full, and ${fmtNum(fgc)} full collections have taken ${fmtNum(Math.round(fgct))} s since the JVM started — more than all young ones (${fmtNum(Math.round(ygct))} s)`,
      evidence: [
        `line ${last.line}: O ${f1(old)} %, FGC ${fmtNum(fgc)}, FGCT ${fgct} s, YGC ${v(last, 'YGC') ?? '-'}, YGCT ${ygct} s, GCT ${v(last, 'GCT') ?? '-'} s`,
        'counters since the JVM started: sample again (jstat -gcutil <pid> 1000 30) to see whether it is still collecting fully now',
        ...(j.concurrentColumns ? [] : ['no CGC column (JDK 8 or older): a CMS initial mark and remark also count as FGC']),
      ],
      recommendation:
        'The old generation stays full after full collections: what is live does not fit the heap (or it leaks). Take a class histogram (jmap -histo:live <pid>, ' +
        'or a heap dump) to see what holds it, and read gc.log for the causes before resizing the heap.',
      knowledgeIds: ['jvm.gc.full-collections', 'jvm.heap.used-ratio'],
      confidence: 'medium',
    },
  ];
}

const fullGc: Rule = {
  id: 'jvm.jstat.full-gc',
  checks: 'full collections (FGC) between the first and the last sample',
  run(j) {
    if (!j.columns.includes('FGC')) return 'this jstat option has no FGC column';
    const w = jstatWindow(j);
    const first = w.samples[0]!;
    const last = w.samples.at(-1)!;
    const n = w.samples.length < 2 ? 0 : (v(last, 'FGC') ?? 0) - (v(first, 'FGC') ?? 0);
    if (n <= 0) return fullSinceStart(j, w) ?? (w.samples.length < 2 ? 'one sample: FGC counts since the JVM started, not now' : []);
    // -gccapacity counts FGC but has no FGCT
    const secs = j.columns.includes('FGCT') ? (v(last, 'FGCT') ?? 0) - (v(first, 'FGCT') ?? 0) : null;
    const graded = grade(PACK, n, 'jvm.gc.full-collections');
    if (!graded) return [];
    // Without CGC (JDK 8 and older) CMS's initial mark and remark count here too: never more than a warning, and
    // stops that average under the pause warning (kb jvm.gc.pause) are most likely those phases of a normal cycle.
    const avgMs = secs !== null && n > 0 ? (1000 * secs) / n : null;
    const shortStops = !j.concurrentColumns && avgMs !== null && grade(PACK, avgMs, 'jvm.gc.pause') === null;
    const severity = j.concurrentColumns ? graded : shortStops ? 'info' : 'warning';
    const old = oldPct(last);
    const causes = [...new Set(w.samples.map((s) => s.lastCause).filter((c): c is string => c !== null && c !== 'No GC'))];
    const finding: Finding = {
      id: 'jvm.jstat.full-gc',
      severity,
      title: shortStops
        ? `FGC rose by ${n} in ${w.seconds !== null ? `${fmtNum(w.seconds)} s` : 'the sampled window'}, ${fmtNum(Math.round(avgMs))} ms each: ` +
          "on JDK 8 most likely CMS's initial mark and remark (a normal cycle), not full collections"
        : `${n} full collection(s) in ${w.seconds !== null ? `${fmtNum(w.seconds)} s` : 'the sampled window'}` +
          (secs !== null ? `, ${sec(secs)} s stopped in them` : '') +
          (secs !== null && secs > 0 ? ` (${fmtNum(Math.round((1000 * secs) / n))} ms each on average)` : ''),
      evidence: [
        `FGC ${fmtNum(v(first, 'FGC') ?? 0)} → ${fmtNum(v(last, 'FGC') ?? 0)}` +
          (secs !== null ? `, FGCT ${v(first, 'FGCT')} → ${v(last, 'FGCT')} s` : '') +
          `: ${where(w)}`,
        ...(old !== null ? [`old generation ${f1(old)} % occupied at the last sample (line ${last.line})`] : []),
        ...(causes.length ? [`last collection causes (-gccause LGCC): ${causes.slice(0, 5).join(', ')}`] : []),
        j.concurrentColumns
          ? 'CGC is a column of its own here (JDK 9+): FGC counts full collections only'
          : 'no CGC column (JDK 8 or older): a CMS initial mark and remark also count as FGC, two per concurrent cycle — gc.log says "Full GC" for a real one',
        ...(shortStops ? [`${fmtNum(Math.round(avgMs))} ms each on average: short for a whole-heap collection, like CMS's initial mark and remark`] : []),
      ],
      recommendation: shortStops
        ? 'Likely nothing to fix: on JDK 8 jstat counts the two short stops of each CMS cycle as FGC. Confirm in gc.log — "CMS Initial Mark" and ' +
          '"CMS Final Remark" there are the normal cycle; a "Full GC" or "concurrent mode failure" is a real one, and then the old generation fills faster than CMS frees it.'
        : 'A full collection stops the node for the whole heap. Read gc.log for its cause: "Allocation Failure" or "to-space exhausted"/"Evacuation Failure" (G1) ' +
          'mean the old generation fills faster than the concurrent cycle frees it — look for what stays live (large partitions read whole, big batches, on-heap ' +
          'memtables, caches) before resizing the heap; "Metadata GC Threshold" or "System.gc()" are other causes with their own fixes.',
      knowledgeIds: shortStops ? ['jvm.gc.full-collections', 'jvm.gc.pause'] : ['jvm.gc.full-collections'],
      confidence: j.concurrentColumns ? 'high' : 'medium',
    };
    return [finding];
  },
};

const timeShare: Rule = {
  id: 'jvm.jstat.gc-time-share',
  checks: 'share of the sampled time spent in GC pauses (GCT), against G1’s own throughput goal',
  run(j) {
    if (!j.columns.includes('GCT')) return 'this jstat option has no GCT column';
    const w = jstatWindow(j);
    if (w.samples.length < 2) return 'one sample: GCT is the total since the JVM started';
    if (w.seconds === null)
      return w.gapped
        ? 'lines between the samples (cut with "..." or rows that did not fit): the rows cannot tell the window; run jstat with -t'
        : 'no interval: paste the jstat command line (jstat -gcutil <pid> 1000) or run it with -t';
    if (w.seconds * 1000 < MIN_SHARE_INTERVAL_MS) return `${fmtNum(w.seconds)} s sampled: a share needs ${MIN_SHARE_INTERVAL_MS / 1000} s or more`;
    const first = w.samples[0]!;
    const last = w.samples.at(-1)!;
    const gct = (v(last, 'GCT') ?? 0) - (v(first, 'GCT') ?? 0);
    const count = collections(last) - collections(first);
    if (count < 3) return `${count} collection(s) in the window: too few to call a share`;
    // one long stop is a pause (jvm.gc.pause), not a heap that collects constantly: its interval is set aside
    let longest = 0;
    for (let i = 1; i < w.samples.length; i++) {
      const a = w.samples[i - 1]!;
      const b = w.samples[i]!;
      if (collections(b) - collections(a) === 1) longest = Math.max(longest, (v(b, 'GCT') ?? 0) - (v(a, 'GCT') ?? 0));
    }
    const pct = (100 * gct) / w.seconds;
    const rest = (100 * Math.max(0, gct - longest)) / w.seconds;
    const severity = grade(PACK, rest, 'jvm.gc.time-share');
    if (!severity) return [];
    return [
      {
        id: 'jvm.jstat.gc-time-share',
        severity,
        title: `GC pauses took ${f1(pct)} % of the ${fmtNum(w.seconds)} s sampled (${fmtNum(count)} collections, ${sec(gct)} s)`,
        evidence: [
          `GCT ${v(first, 'GCT')} → ${v(last, 'GCT')} s; YGC ${v(first, 'YGC')} → ${v(last, 'YGC')}, FGC ${v(first, 'FGC')} → ${v(last, 'FGC')}` +
            (j.concurrentColumns ? `, CGC ${v(first, 'CGC') ?? '-'} → ${v(last, 'CGC') ?? '-'}` : '') +
            `: ${where(w)}`,
          ...(longest > 0 ? [`without the longest single collection (${fmtNum(Math.round(longest * 1000))} ms): ${f1(rest)} %`] : []),
        ],
        recommendation:
          'The collector misses its own throughput goal: the heap is small for this load. Find what allocates (whole reads of large partitions, big ' +
          'batches, wide IN queries, on-heap memtables), then size the heap to it.',
        knowledgeIds: ['jvm.gc.time-share'],
        confidence: 'high',
      },
    ];
  },
};

const youngPause: Rule = {
  id: 'jvm.jstat.young-pause',
  checks: 'average young collection pause (YGCT / YGC): the longest pauses are at least that long',
  run(j) {
    if (!j.columns.includes('YGCT')) return 'this jstat option has no YGCT column';
    const w = jstatWindow(j);
    const first = w.samples[0]!;
    const last = w.samples.at(-1)!;
    const inWindow = (v(last, 'YGC') ?? 0) - (v(first, 'YGC') ?? 0);
    const [count, secs, span] =
      inWindow > 0
        ? [inWindow, (v(last, 'YGCT') ?? 0) - (v(first, 'YGCT') ?? 0), `in the window: ${where(w)}`]
        : [v(last, 'YGC') ?? 0, v(last, 'YGCT') ?? 0, `since the JVM started (line ${last.line})`];
    if (count <= 0) return 'no young collection counted';
    const avgMs = (1000 * secs) / count;
    const severity = grade(PACK, avgMs, 'jvm.gc.pause');
    if (!severity) return [];
    return [
      {
        id: 'jvm.jstat.young-pause',
        severity,
        title: `Young collections pause ${fmtNum(Math.round(avgMs))} ms on average (${fmtNum(count)} of them ${inWindow > 0 ? 'in the window' : 'since start'})`,
        evidence: [`YGCT ${sec(secs)} s over ${fmtNum(count)} young collections ${span}`, 'an average: the longest pauses are at least this long'],
        recommendation:
          'Young pauses this long stall every request. With G1, read gc.log for the phase that takes the time (object copy: too much survives — ' +
          'large partitions, caches; Ext Root Scanning or time to safepoint: threads or swapping); a young generation sized by hand (-Xmn) stops G1 from ' +
          'adapting it to MaxGCPauseMillis.',
        knowledgeIds: ['jvm.gc.pause'],
        confidence: inWindow > 0 ? 'high' : 'medium',
      },
    ];
  },
};

export const JSTAT_RULES: Rule[] = [fullGc, timeShare, youngPause];
