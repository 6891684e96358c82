/**
 * Why a StatusLogger table is in the log at all, and what it says about the drops around it. Cassandra prints the
 * thread-pool table when it logs dropped messages (MessagingMetrics.logDroppedMessages: "if any were dropped,
 * StatusLogger.log()") and after a GC pause over the status threshold (GCInspector). On a node whose drops (or
 * pauses) fall in the same minutes as most of its StatusLogger snapshots, the two are one incident:
 * - the pending pool is the stage that runs the dropped verb (READ drops, ReadStage queued): a message is dropped
 *   when it waited in its stage's queue past its timeout, so the queue leads and the drops follow it;
 * - any other pool (Native-Transport-Requests queued while MUTATIONs are dropped) is the node's state during the
 *   drops: the drops lead and the snapshot follows as context. A GC pause leads the snapshots it printed.
 * PURE. Sources: apache/cassandra 4.1/5.0 src/java/org/apache/cassandra/metrics/MessagingMetrics.java,
 * service/GCInspector.java, net/Verb.java (the stage of each verb).
 */
import type { Finding } from '../findings.js';
import type { LogEventKind, Timeline } from '../parse/logs/types.js';

/** The timelines a node's log gives for the events that print StatusLogger, and the snapshots themselves. */
export type LogTimelines = Partial<Record<LogEventKind, Timeline | null>> & {
  /** Message types the log reports dropped (MUTATION, READ, …), most dropped first. */
  droppedTypes?: readonly string[];
};

/** The stage that runs each droppable verb as the drop lines name it (net/Verb.java, 4.0+; 3.x used the same stages). */
export const STAGE_OF_DROPPED: Readonly<Record<string, string>> = {
  MUTATION: 'MutationStage',
  HINT: 'MutationStage',
  READ_REPAIR: 'MutationStage',
  BATCH_STORE: 'MutationStage',
  BATCH_REMOVE: 'MutationStage',
  PAXOS_PREPARE: 'MutationStage',
  PAXOS_PROPOSE: 'MutationStage',
  PAXOS_COMMIT: 'MutationStage',
  COUNTER_MUTATION: 'CounterMutationStage',
  READ: 'ReadStage',
  RANGE_SLICE: 'ReadStage',
  PAGED_RANGE: 'ReadStage',
  REQUEST_RESPONSE: 'RequestResponseStage',
  _TRACE: 'TracingStage',
};

/**
 * The pools a StatusLogger finding names: its title ("ReadStage reached 88 pending tasks …") and, once several pools'
 * findings merged into one, each evidence line ("n1: ReadStage pending in 5 of 9 StatusLogger snapshots, …").
 */
export function poolsOf(f: Finding): string[] {
  const out = new Set<string>();
  const t = /^(\S+) reached \d+ pending tasks in StatusLogger/.exec(f.title);
  if (t) out.add(t[1]!);
  for (const e of f.evidence) {
    const m = /: (\S+) pending in \d+ of \d+ StatusLogger snapshots/.exec(e);
    if (m) out.add(m[1]!);
  }
  return [...out];
}

/** Finding id of each StatusLogger trigger → the log event kind that dates it; the first that matches wins. */
const TRIGGERS: readonly { id: string; kind: LogEventKind; what: string }[] = [
  { id: 'log.dropped', kind: 'dropped', what: 'dropped messages' },
  { id: 'log.gc-pause', kind: 'gcPause', what: 'paused for GC' },
];

/** The finding read from StatusLogger snapshots (alone, or merged with nodetool's pending pools). */
const SNAPSHOT_FINDING = 'log.threadpool-pending';

/** The finding is, or has merged, the given rule outcome. */
const has = (f: Finding, id: string) => f.id === id || (f.mergedIds?.includes(id) ?? false);

/**
 * Read from the log alone. A pool that is pending now as well (merged with nodetool tpstats) is a present problem
 * with its own cause (a config that starves the pool), which a pause or drop in the log does not explain.
 */
const logOnly = (f: Finding) => [f.id, ...(f.mergedIds ?? [])].every((id) => id.startsWith('log.'));

/** Minutes only: with hour or day buckets two events in one bucket may be far apart. */
const MAX_BUCKET_MS = 300_000;

export interface TriggerLink {
  cause: Finding;
  effect: Finding;
  reason: string;
}

/** Share of the snapshot buckets that have a trigger event in the same or a neighbouring bucket. */
function coverage(snapshots: Timeline, trigger: Timeline): { hit: number; of: number } {
  const w = snapshots.bucketMs;
  const at = new Set(trigger.buckets.filter((b) => b.n > 0).map((b) => b.t));
  let hit = 0;
  for (const b of snapshots.buckets) if (at.has(b.t) || at.has(b.t - w) || at.has(b.t + w)) hit++;
  return { hit, of: snapshots.buckets.length };
}

/**
 * The message types a drop finding counts, as its evidence prints them: "n1: READ 12 internal + 0 cross-node …"
 * (the log) or "n1: READ_REQ dropped 12 (nodetool tpstats …)" (4.0+ names end in _REQ / _RSP).
 */
export function droppedVerbsOf(f: Finding): string[] {
  const out = new Set<string>();
  for (const e of f.evidence) {
    const m = /^\S+: ([A-Z][A-Z_]*?)(?:_REQ|_RSP)? (?:dropped \d|\d+ internal)/.exec(e);
    if (m) out.add(m[1]!);
  }
  return [...out];
}

/**
 * Per node, how its StatusLogger findings and the drop or pause finding of the same log are one incident: at least
 * half of the minutes with a snapshot also have that trigger. Nodes without dated timelines link nothing.
 */
export function statusLoggerLinks(findings: Finding[], timelines: Record<string, LogTimelines>): TriggerLink[] {
  const links: TriggerLink[] = [];
  for (const [node, t] of Object.entries(timelines)) {
    const snaps = t.threadPools;
    if (!snaps || snaps.bucketMs > MAX_BUCKET_MS || !snaps.buckets.length) continue;
    const pending = findings.filter((f) => f.node === node && has(f, SNAPSHOT_FINDING) && logOnly(f));
    if (!pending.length) continue;
    for (const trig of TRIGGERS) {
      const trigger = findings.find((f) => f.node === node && has(f, trig.id) && f.severity !== 'info' && !pending.includes(f));
      const tl = t[trig.kind];
      if (!trigger || !tl || tl.bucketMs !== snaps.bucketMs) continue;
      const c = coverage(snaps, tl);
      if (c.hit * 2 < c.of) continue;
      const minutes = snaps.bucketMs === 60_000 ? 'minutes' : `${snaps.bucketMs / 60_000}-minute spans`;
      const together = `${c.hit} of ${c.of} ${minutes} with a StatusLogger snapshot also have them`;
      // A queue in the very stage that runs the dropped verb is where those messages waited out their timeout.
      const stages = trig.kind === 'dropped' ? new Set((t.droppedTypes ?? []).map((d) => STAGE_OF_DROPPED[d.toUpperCase()]).filter(Boolean)) : new Set();
      const queue = pending.find((f) => poolsOf(f).some((p) => stages.has(p)));
      if (queue) {
        const pool = poolsOf(queue).find((p) => stages.has(p))!;
        const reason = `same node (${node}): messages are dropped when they wait in their stage's queue past their timeout, and ${pool} runs the dropped ones; ${together}`;
        links.push({ cause: queue, effect: trigger, reason });
        for (const other of pending) if (other !== queue) links.push({ cause: queue, effect: other, reason });
      } else {
        const reason = `same node (${node}): Cassandra prints StatusLogger when it has ${trig.what}; ${together}`;
        for (const effect of pending) links.push({ cause: trigger, effect, reason });
      }
      break;
    }
  }
  return links;
}
