/**
 * Root cause over symptoms: on one node and one time scope, a likely cause (a suspended VM, a GC pause, a
 * compaction backlog) leads, and the symptoms it explains (dropped messages, queued or blocked pools, p99
 * tails) follow inside its chain instead of standing as separate problems. Nodes that stand out from the
 * cluster (cluster.outlier) lead the rest. PURE.
 */
import type { Finding, Severity } from '../findings.js';
import { familyOf, normalTable } from './identity.js';
import { sameTime } from './since-start.js';
import { droppedVerbsOf, poolsOf, STAGE_OF_DROPPED, statusLoggerLinks, type LogTimelines } from './status-logger.js';
import { byCodeUnits } from '../text-order.js';

/** Likely causes, most fundamental first: the lower, the more it explains the ones below it. */
export const CAUSE_RANK: Record<string, number> = {
  'log.suspended-not-gc': 0,
  'log.local-pause': 0,
  // A capped data disk: the node's reads wait on the cgroup throttle, whatever else is slow on it.
  'host.io-throttle': 1,
  // A CPU quota on the node's process: every thread waits for the next period, whatever else is slow on it.
  'host.cpu-throttle': 1,
  'log.time-to-safepoint': 2,
  // A heap that keeps the collector busy a large share of the time: its pauses, queues and drops follow from it.
  'jvm.gc.time-share': 3,
  'jvm.gc.pause': 3,
  'compaction.pending': 4,
  'table.sstables-per-read': 5,
  // One key taking most of a table's traffic: that table's latency and the node's queues follow from it.
  'table.hot-partition': 5,
};

/**
 * What a cgroup cap on a node's data disk explains in that node's logs: threads stalled in page faults on
 * memory-mapped reads cannot reach a safepoint (long time to safepoint, "local pause"), and reads that wait on the
 * capped device time out and are dropped (in the log, and in the dropped-message counters since start). Linked by node
 * only: the cap is in force now and the logs and counters cover the process's life, so the chain says to check their
 * times against when the cap was set.
 */
const DISK_CAP = 'host.io-throttle';
const DISK_CAP_EXPLAINS = /^(log\.(time-to-safepoint|dropped|local-pause|timed-out-queries)|dropped\.messages)$/;
/**
 * A CPU quota that stops the whole process each period explains the same and more: threads held off the CPU
 * reach safepoints late and stretch GC pauses, stages queue, requests time out and are dropped.
 */
const CPU_CAP = 'host.cpu-throttle';
const CPU_CAP_EXPLAINS =
  /^(log\.(time-to-safepoint|stop-the-world|gc-pause|dropped|local-pause|timed-out-queries|threadpool-pending)|jvm\.gc\.pause|dropped\.messages)$/;

/**
 * A request stage held to a few threads now (concurrent_reads 2) explains that stage's queue and the drops of the
 * verbs it runs on the node: linked by node only, like the disk cap, since the setting holds now and logs go back.
 */
const STAGE_LOW = 'threadpool.stage-threads-low';
const stageOf = (f: Finding) => /^(\S+) may run only \d+ threads/.exec(f.title)?.[1] ?? null;
const ids = (f: Finding) => [f.id, ...(f.mergedIds ?? [])];
function stageExplains(stage: string, s: Finding): boolean {
  const all = ids(s);
  if (all.some((id) => id === 'threadpool.pending' || id === 'log.threadpool-pending')) return poolsOf(s).includes(stage) || s.title.startsWith(`${stage} `);
  if (all.some((id) => id === 'dropped.messages' || id === 'log.dropped')) return droppedVerbsOf(s).some((v) => STAGE_OF_DROPPED[v] === stage);
  return false;
}

/**
 * GC pressure read from nodetool gcstats explains the longest pause of the same reading: the pause is how the
 * pressure shows, not a second problem (linked by node: both numbers cover the same gcstats interval).
 */
const GC_SHARE = 'jvm.gc.time-share';

/** Symptoms a cause can explain (by family or id prefix). */
const SYMPTOM = /^(dropped\.messages|threadpool\.(pending|blocked|blocked-all-time)|latency\.|log\.commitlog-sync-lag)/;

export const isCause = (f: Finding) => CAUSE_RANK[familyOf(f)] !== undefined || CAUSE_RANK[f.id] !== undefined;
export const isSymptom = (f: Finding) => SYMPTOM.test(familyOf(f));
const rank = (f: Finding) => CAUSE_RANK[f.id] ?? CAUSE_RANK[familyOf(f)] ?? 99;

const SEV: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };
const worse = (a: Severity, b: Severity): Severity => (SEV[a] <= SEV[b] ? a : b);

/**
 * Folds each node's symptoms into the chain of its most fundamental cause of a compatible time. `timelines` (per
 * node, from its log) date log findings to the minute, so a StatusLogger table can follow the drops that printed it.
 */
export function chainFindings(findings: Finding[], timelines: Record<string, LogTimelines> = {}): Finding[] {
  const taken = new Set<Finding>();
  const heads = new Map<Finding, Finding[]>();
  const reasons = new Map<Finding, string>();
  const owner = new Map<Finding, Finding>();
  const follow = (cause: Finding, effect: Finding) => {
    (heads.get(cause) ?? heads.set(cause, []).get(cause)!).push(effect);
    taken.add(effect);
    owner.set(effect, cause);
  };
  const byNode = new Map<string, Finding[]>();
  for (const f of findings) if (f.node) (byNode.get(f.node) ?? byNode.set(f.node, []).get(f.node)!).push(f);
  for (const list of byNode.values()) {
    const cpuCap = list.find((f) => f.id === CPU_CAP && f.severity !== 'info');
    if (cpuCap) for (const s of list.filter((f) => CPU_CAP_EXPLAINS.test(f.id))) follow(cpuCap, s);
    const gcShare = list.find((f) => f.id === GC_SHARE && f.severity !== 'info' && !taken.has(f));
    if (gcShare) for (const s of list.filter((f) => f.id === 'jvm.gc.pause' && !taken.has(f))) follow(gcShare, s);
    const cap = list.find((f) => f.id === DISK_CAP && f.severity !== 'info') ?? cpuCap;
    if (cap) for (const s of list.filter((f) => DISK_CAP_EXPLAINS.test(f.id) && !taken.has(f))) follow(cap, s);
    for (const low of list.filter((f) => f.id === STAGE_LOW && f.severity !== 'info')) {
      const stage = stageOf(low);
      if (!stage) continue;
      const explained = list.filter((s) => s !== low && !taken.has(s) && stageExplains(stage, s));
      for (const s of explained) follow(low, s);
      if (explained.length)
        reasons.set(
          low,
          `same node (${low.node}): ${stage} held to a few threads now queues its requests until they time out and are dropped (check the log's times against when the setting changed)`,
        );
    }
    for (const l of statusLoggerLinks(list, timelines)) {
      if (taken.has(l.effect) || heads.has(l.effect)) continue;
      // A drop already explained by a capped disk takes its StatusLogger tables along to that cause.
      const head = taken.has(l.cause) ? (cap ?? l.cause) : l.cause;
      follow(head, l.effect);
      if (head === l.cause) reasons.set(head, l.reason);
    }
    const causes = list.filter((f) => isCause(f) && !taken.has(f)).sort((a, b) => rank(a) - rank(b) || SEV[a.severity] - SEV[b.severity]);
    for (const s of list.filter((f) => isSymptom(f) && !isCause(f) && !taken.has(f))) {
      // An info-level cause explains nothing worse than itself; a table's cause only explains that table's symptoms.
      const cause = causes.find((c) => c.severity !== 'info' && sameTime(c, s) && (!c.table || !s.table || normalTable(c.table) === normalTable(s.table)));
      if (!cause) continue;
      follow(cause, s);
    }
  }
  // A head that is itself another cause's symptom hands its effects up, so nothing it explained is lost.
  const top = (f: Finding) => {
    let x = f;
    for (let i = 0; taken.has(x) && owner.has(x) && i < findings.length; i++) x = owner.get(x)!;
    return x;
  };
  for (const [h, effects] of [...heads]) {
    const up = top(h);
    if (up === h || taken.has(up)) continue;
    heads.get(up)!.push(...effects);
    heads.delete(h);
  }
  const out: Finding[] = [];
  for (const f of findings) {
    if (taken.has(f)) continue;
    const effects = heads.get(f);
    if (!effects) {
      out.push(f);
      continue;
    }
    const severity = effects.reduce((s, e) => worse(s, e.severity), f.severity);
    out.push({
      ...f,
      severity,
      title: `${f.title} — likely cause of: ${effects.map((e) => e.title).join('; ')}`,
      evidence: [...f.evidence, ...effects.map((e) => `→ ${e.title}: ${e.evidence[0] ?? ''}`)],
      chain: {
        reason:
          effects.some((e) => DISK_CAP_EXPLAINS.test(e.id)) && f.id === DISK_CAP
            ? `same node (${f.node}): a disk capped now explains these log symptoms (compare their times with when the cap was set)`
            : f.id === CPU_CAP && effects.some((e) => CPU_CAP_EXPLAINS.test(e.id) || DISK_CAP_EXPLAINS.test(e.id))
              ? `same node (${f.node}): a CPU quota hit now explains these symptoms (compare their times with when the quota was set)`
              : f.id === GC_SHARE && effects.every((e) => e.id === 'jvm.gc.pause')
                ? `same node (${f.node}) and gcstats interval: the longest pause is how the collector's share of the time shows`
                : (reasons.get(f) ?? `same node (${f.node}) and time (${f.when ?? 'now'}): ${f.id} explains the others`),
        effects,
      },
    });
  }
  return out;
}

/**
 * Worst first; among equals, chains lead, then nodes that stand out from the cluster, then what holds now, then
 * causes before symptoms (a CPU quota on one node leads another node's dropped messages), then by id and node.
 */
export function orderFindings(findings: Finding[]): Finding[] {
  const outliers = new Set(findings.filter((f) => f.id === 'cluster.outlier' && f.node).map((f) => f.node!));
  const lead = (f: Finding) => (f.chain ? 0 : 1) + (f.node && outliers.has(f.node) && f.id !== 'cluster.outlier' ? 0 : 2);
  // At equal severity a measurement of the cluster as it is now leads a log line, which may be hours old or about
  // another cause (a loaded host's safepoint stalls sorted above the tombstones the operator came for), and a
  // counter that covers the node's whole life (the worst GC pause since start, on a JVM that started under load).
  const sinceStart = (f: Finding) => f.when !== undefined && f.when !== 'now' && f.when !== 'window';
  const history = (f: Finding) => ((f.id.startsWith('log.') && (f.sources?.length ?? 0) < 2) || sinceStart(f) ? 1 : 0);
  // A symptom on one node never outranks another node's cause by the accident of its id sorting first.
  const symptom = (f: Finding) => (isSymptom(f) && !isCause(f) ? 1 : 0);
  return [...findings].sort(
    (a, b) =>
      SEV[a.severity] - SEV[b.severity] ||
      lead(a) - lead(b) ||
      history(a) - history(b) ||
      symptom(a) - symptom(b) ||
      byCodeUnits(a.id, b.id) ||
      byCodeUnits(a.node ?? '', b.node ?? ''),
  );
}
