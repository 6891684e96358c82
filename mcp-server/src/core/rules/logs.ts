import type { NodeEvidence } from '../diagnosis/evidence.js';
import type { Finding, Severity } from '../findings.js';
import type { KnowledgeId } from '../knowledge/index.js';
import type { LogExample, LogFacts } from '../parse/logs/types.js';
import { formatBytes } from '../units.js';
import { configErrorFinding } from './log-config-error.js';
import { grade, outcome, type Rule } from './rule.js';
import { pendingKnowledgeIds } from './pending-limits.js';

/**
 * No collection on a Cassandra heap stops the JVM this long: a "pause" of 5 minutes or more is a suspended VM or
 * host (snapshot, live migration, a sleeping laptop), a wall-clock jump, or a detector that had nothing to measure.
 */
const NOT_GC_MS = 300_000;
const dur = (ms: number) => (ms >= 120_000 ? `${(ms / 60_000).toFixed(1)} min` : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

const ex = (n: string, e: LogExample | undefined) => (e ? `${n}: ${e.time ?? `line ${e.lineNo}`} ${e.line}`.slice(0, 320) : null);
const worst = (l: LogFacts, kind: keyof LogFacts['events'], k = 2) => l.events[kind].worst.slice(0, k);

/**
 * What the logs show that counters do not: pauses with their time, time to safepoint vs. GC work, drops,
 * tombstone warnings and aborted reads, large partitions, OOM, a full disk, local pauses, hint and repair failures,
 * commit log sync lag, ScyllaDB reactor stalls.
 */
/**
 * "Not marking nodes down due to local pause of N ns" is the failure detector finding a long time since its last
 * check of a peer. GC is one cause; when the GC pauses logged are far shorter, it is not the cause, and when the log
 * was silent for about as long, the node was idle, alone (no peer to check) or suspended: say which, never "GC".
 */
function localPauseFinding(node: string, l: LogFacts): Finding {
  const pause = l.localPauses.maxMs;
  const top = l.events.localPause.worst[0];
  const quiet = typeof top?.detail?.['longestSilenceMs'] === 'number' ? top.detail['longestSilenceMs'] : null;
  const gcMax = Math.max(l.gc.pauses ? l.gc.maxPauseMs : 0, l.safepoint.maxStoppedMs);
  const gcSeen = l.gc.pauses > 0 || l.safepoint.count > 0;
  const byGc = gcSeen && gcMax >= pause / 2 && gcMax < NOT_GC_MS;
  const silent = quiet !== null && quiet >= pause / 2;
  const evidence = [
    `${n(node)}local pause up to ${dur(pause)} (${l.localPauses.count} report(s)); ` +
      (gcSeen ? `longest GC/safepoint stop in the same log ${dur(gcMax)}` : 'no GC pause or safepoint line in the input'),
    ...(quiet !== null ? [`${n(node)}the node logged nothing for ${dur(quiet)} in the time the pause covers`] : []),
    ...worst(l, 'localPause', 2).map((e) => ex(node, e)),
  ].filter((e): e is string => !!e);
  if (byGc) {
    return {
      id: 'log.local-pause',
      severity: 'warning',
      title: `${node} noticed it had paused itself ${l.localPauses.count} time(s), up to ${dur(pause)}, in line with its GC pauses`,
      evidence,
      node,
      recommendation:
        'The whole process stopped long enough that gossip would have failed, and GC pauses as long were logged: ' +
        'treat it as a GC problem (see the GC findings at the same times).',
      knowledgeIds: ['jvm.gc.pause'],
      confidence: 'medium',
    };
  }
  const long = pause >= NOT_GC_MS;
  const what = silent
    ? 'the node logged nothing for about as long before it, so it was idle, alone (the detector only measures between ' +
      'checks of a peer), or the VM was suspended'
    : 'the VM or host was suspended, the node was starved of CPU (steal, swapping), or the wall clock jumped';
  return {
    id: 'log.local-pause',
    severity: silent ? 'info' : 'warning',
    title:
      `${node} reported a ${long ? '' : 'local '}pause of ${dur(pause)} that GC does not explain` +
      (long ? ': a suspended VM, a clock jump or an idle detector, not a GC pause' : ''),
    evidence,
    node,
    recommendation:
      `Not GC: ${gcSeen ? `the longest GC or safepoint stop in the log is ${dur(gcMax)}` : 'no GC pause was seen (add gc.log to be sure)'}; ${what}. ` +
      'Check the hypervisor (pauses, snapshots, live migration, steal time), clock steps in the NTP/chrony logs, and whether peers were up then.',
    knowledgeIds: [],
    confidence: gcSeen ? 'medium' : 'low',
  };
}

const n = (node: string) => `${node}: `;

/** What to do after a failed start-up: ScyllaDB's (status 7; an AIO failure has its own fix) or Cassandra's. */
function startupFailureAdvice(exceptions: string[], scyllaFatal: boolean): { recommendation: string; knowledgeIds: KnowledgeId[] } {
  const scylla = scyllaFatal || exceptions.some((e) => e.startsWith('std::') || e.startsWith('seastar::'));
  if (!scylla)
    return {
      recommendation:
        'Cassandra exits when an exception escapes its start-up, so the node stays down until the cause is fixed. The exception names it — a token or ' +
        'address to replace that the ring does not have (replace_address, initial_token), seeds or peers it cannot reach, a directory it cannot ' +
        'read or write — fix that and start the node again; the lines before it in the log show the step that failed.',
      knowledgeIds: ['logs.startup-exception'],
    };
  const aio = exceptions.some((e) => /Could not setup Async I\/O|aio-max-nr/.test(e));
  return {
    recommendation: aio
      ? 'ScyllaDB exits (status 7) when it cannot set up Async I/O, and its supervisor restarts it into the same failure. Raise fs.aio-max-nr on the ' +
        'host (sysctl -w fs.aio-max-nr=…, persisted in /etc/sysctl.d/; the packages ship 30000000) — it is kernel-wide, so every ScyllaDB on the host or ' +
        'in the Docker VM counts — or run fewer shards (--smp). Where it cannot be raised (Docker Desktop on macOS), --reactor-backend=epoll, for development only.'
      : 'ScyllaDB exits (status 7) when an exception escapes its start-up, and stays down until the cause is fixed: the exception names it. Fix that and ' +
        'start the node again; the log lines before it show the step that failed.',
    knowledgeIds: aio ? ['logs.scylla-startup-fatal', 'scylla-host.aio-per-shard', 'scylla-host.reactor-backend-epoll'] : ['logs.scylla-startup-fatal'],
  };
}

export const logsRule: Rule = {
  id: 'logs',
  checks:
    'GC pauses and time to safepoint, dropped messages, StatusLogger backlogs, tombstone warnings/aborts, large partitions, OOM, a full disk, commit log failures, local pauses, batches over the size thresholds, hint/repair failures, commit log sync lag, ScyllaDB reactor stalls (from logs)',
  dependsOn: ['logs'],
  run(input, ctx) {
    const withLogs = input.nodes.filter((n): n is NodeEvidence & { logs: LogFacts } => n.logs !== undefined);
    const findings: Finding[] = [];
    const push = (sev: Severity | null, f: Omit<Finding, 'severity' | 'evidence'> & { evidence: (string | null)[] }) => {
      if (sev) findings.push({ ...f, severity: sev, evidence: f.evidence.filter((e): e is string => !!e) });
    };
    for (const n of withLogs) {
      const l = n.logs;
      const span = l.time.firstTime && l.time.lastTime ? ` between ${l.time.firstTime} and ${l.time.lastTime}` : '';
      // "GC pauses" of NOT_GC_MS or more are the VM or the clock, not the collector: reported apart, never as GC
      const notGc = l.events.gcPause.worst.filter((e) => (e.magnitude ?? 0) >= NOT_GC_MS);
      if (notGc.length) {
        findings.push({
          id: 'log.suspended-not-gc',
          severity: 'warning',
          title:
            `${n.node} logged ${notGc.length} "GC" pause(s) of up to ${dur(notGc[0]!.magnitude ?? 0)}: ` +
            'too long for GC, the VM was suspended or the clock jumped',
          evidence: notGc
            .slice(0, 2)
            .map((e) => ex(n.node, e))
            .filter((e): e is string => !!e),
          node: n.node,
          recommendation:
            'No collector stops a JVM this long. Check the hypervisor (VM paused, snapshotted or live-migrated), host sleep, and clock steps ' +
            '(NTP/chrony logs); compare with gc.log, whose "real=" times say what GC actually took.',
          knowledgeIds: ['jvm.gc.pause'],
          confidence: 'medium',
        });
      }
      const gcPauses = l.gc.pauses - notGc.length;
      if (gcPauses > 0) {
        const realWorst = l.events.gcPause.worst.filter((e) => (e.magnitude ?? 0) < NOT_GC_MS);
        const maxMs = notGc.length ? (realWorst[0]?.magnitude ?? l.gc.p99PauseMs) : l.gc.maxPauseMs;
        // One or two long pauses (a node starting up on a busy host) are not a pattern: they stay info until
        // at least three pauses cross the warning level, unless one crosses the critical level.
        let sev = grade(ctx, maxMs, 'jvm.gc.pause');
        const warnAt = ctx.threshold('jvm.gc.pause').warning ?? Infinity;
        if (sev === 'warning' && realWorst.filter((e) => (e.magnitude ?? 0) >= warnAt).length < 3) sev = 'info';
        const totals = notGc.length ? '' : `, p99 ${l.gc.p99PauseMs} ms, max ${maxMs} ms, total ${l.gc.totalPauseMs} ms`;
        push(sev, {
          id: 'log.gc-pause',
          title: `${gcPauses} GC pauses in the log of ${n.node}, the longest ${maxMs} ms`,
          evidence: [
            `${n.node}: ${gcPauses} pauses${span}${totals || `, max ${maxMs} ms`} (${l.gc.byCollector.map((c) => `${c.collector} ×${c.count}`).join(', ')})`,
            ...realWorst.slice(0, 2).map((e) => ex(n.node, e)),
          ],
          node: n.node,
          recommendation:
            'Match the pause times with client timeouts and dropped messages. Long young-generation pauses usually mean too much live data per collection (large partitions, big batches, oversized memtables on heap); consider a pause target, heap size review, or ZGC on JDK 17+.',
          knowledgeIds: ['jvm.gc.pause'],
          confidence: 'high',
        });
      }
      if (l.safepoint.count && l.safepoint.ttspDominated.count) {
        // Stops while the node was still starting (boot to "Startup complete") say nothing about the running node:
        // graded from the steady state, and the evidence says how many were set aside.
        const su = l.safepoint.startup;
        const maxTtsp = su ? su.steadyMaxTtspMs : l.safepoint.maxTtspMs;
        const dominated = su ? Math.max(0, l.safepoint.ttspDominated.count - su.ttspDominated) : l.safepoint.ttspDominated.count;
        const worst = su ? su.steadyWorstTtsp : l.safepoint.worstTtsp;
        const setAside = su
          ? `${n.node}: ${su.count} stop(s) while the node was starting (up to ${Math.round(su.maxTtspMs)} ms to reach the safepoint) set aside: ` +
            'a JVM starting on a busy host is slow to reach safepoints; graded from the stops after "Startup complete"'
          : null;
        const steadyGrade = dominated > 0 ? grade(ctx, maxTtsp, 'jvm.safepoint.time-to-safepoint') : null;
        push(su && !steadyGrade ? 'info' : steadyGrade, {
          id: 'log.time-to-safepoint',
          title: su
            ? `Reaching the safepoint made ${dominated} of ${l.safepoint.count - su.count} steady-state stops long on ${n.node} (up to ${Math.round(maxTtsp)} ms; ${su.count} start-up stop(s) set aside)`
            : `Reaching the safepoint, not GC, made ${dominated} of ${l.safepoint.count} stops long on ${n.node} (up to ${l.safepoint.maxTtspMs} ms)`,
          evidence: [
            `${n.node}: ${Math.round(l.safepoint.ttspShare * 100)} % of ${l.safepoint.totalStoppedMs} ms stopped was spent reaching the safepoint`,
            setAside,
            ...worst.slice(0, 2).map((e) => ex(n.node, e)),
          ],
          node: n.node,
          recommendation:
            'A thread could not stop: look for page faults on memory-mapped reads (slow or saturated disk, swap), transparent huge page compaction, or long counted loops. Changing the collector will not help.',
          knowledgeIds: ['jvm.safepoint.time-to-safepoint', 'jvm.gc.pause'],
          confidence: 'medium',
        });
      }
      // Stops whose time went into the VM operation itself (usually GC work), from the worst stops kept.
      const opStops = l.events.safepoint.worst.filter(
        (e) => typeof e.detail?.['ttspMs'] === 'number' && typeof e.detail?.['stoppedMs'] === 'number' && e.detail['ttspMs'] * 2 < e.detail['stoppedMs'],
      );
      const longestOp = opStops.reduce((m, e) => Math.max(m, (e.detail?.['stoppedMs'] as number) ?? 0), 0);
      if (opStops.length) {
        push(grade(ctx, longestOp, 'jvm.gc.pause'), {
          id: 'log.stop-the-world',
          title: `Stop-the-world pauses of up to ${Math.round(longestOp)} ms spent in the VM operation (GC work) on ${n.node}`,
          evidence: [
            `${n.node}: time to safepoint under half of each of these stops: the collector itself took the time`,
            ...opStops.slice(0, 2).map((e) => ex(n.node, e)),
          ],
          node: n.node,
          recommendation:
            'This is GC (or another VM operation) doing work while everything waits: review heap size and collector settings (pause target, young generation size), and what allocates so much (large partitions, big batches, heavy scans).',
          knowledgeIds: ['jvm.gc.pause'],
          confidence: 'medium',
        });
      }
      if (l.bufferPool.count) {
        findings.push({
          id: 'log.buffer-pool-full',
          severity: 'info',
          title: `The chunk cache / buffer pool hit its limit ${l.bufferPool.count} time(s) on ${n.node}`,
          evidence: l.bufferPool.byPool.map(
            (p) => `${n.node}: ${p.pool} limit ${p.limitBytes === null ? '?' : formatBytes(p.limitBytes)}, ${p.count} message(s)`,
          ),
          node: n.node,
          recommendation:
            'Informational: reads allocate outside the pool when it is full (cache pressure). If read latency suffers, size file_cache_size for the hot data set, or look for reads of huge partitions filling it.',
          knowledgeIds: [],
          confidence: 'medium',
        });
      }
      if (l.dropped.total) {
        push(grade(ctx, l.dropped.total, 'dropped.messages'), {
          id: 'log.dropped',
          title: `${l.dropped.total} messages dropped according to the log of ${n.node}`,
          evidence: l.dropped.byType
            .slice(0, 4)
            .map((t) => `${n.node}: ${t.type} ${t.internal} internal + ${t.crossNode} cross-node in ${t.lines} report(s)${span}`),
          node: n.node,
          recommendation:
            'See when the drops happened (the timeline) and what else happened then: GC pauses, compaction bursts, a client surge. Dropped mutations need a repair.',
          knowledgeIds: ['dropped.messages'],
          confidence: 'high',
        });
      }
      // Each pool graded by its own limit (pools that follow the load have higher ones); the three worst are named.
      const backlog = l.threadPools.pools
        .map((p) => ({ p, ids: pendingKnowledgeIds(p.pool) }))
        .map((b) => ({ ...b, sev: grade(ctx, b.p.maxPending, b.ids[0]) }))
        .filter((b) => b.sev !== null);
      for (const { p, ids, sev } of backlog.slice(0, 3)) {
        push(sev, {
          id: 'log.threadpool-pending',
          title: `${p.pool} reached ${p.maxPending} pending tasks in StatusLogger reports on ${n.node}`,
          evidence: [
            `${n.node}: ${p.pool} pending in ${p.snapshotsWithPending} of ${p.snapshots} StatusLogger snapshots, max ${p.maxPending}, max blocked ${p.maxBlocked ?? '?'}`,
          ],
          node: n.node,
          recommendation:
            'StatusLogger prints when a stage backs up; the pool names the bottleneck (writes, reads, flushes, compaction). Check disk and GC at those times.',
          knowledgeIds: [...ids],
          confidence: 'medium',
        });
      }
      if (l.tombstones.aborts || l.tombstones.warnings) {
        const top = l.tombstones.byTable[0];
        findings.push({
          id: 'log.tombstones',
          severity: l.tombstones.aborts ? 'critical' : 'warning',
          title: l.tombstones.aborts
            ? `${l.tombstones.aborts} reads aborted on tombstones on ${n.node}`
            : `${l.tombstones.warnings} tombstone warnings on ${n.node}`,
          evidence: [
            ...l.tombstones.byTable
              .slice(0, 3)
              .map((t) => `${n.node}: ${t.table}: ${t.warnings} warning(s), ${t.aborts} abort(s), up to ${t.maxTombstones} tombstones per read`),
            ...worst(l, l.tombstones.aborts ? 'tombstoneAbort' : 'tombstoneWarn', 1).map((e) => ex(n.node, e)),
          ].filter((e): e is string => !!e),
          node: n.node,
          ...(top && top.table !== '?' ? { table: top.table } : {}),
          recommendation:
            'Cassandra logs these only above tombstone_warn_threshold and aborts above tombstone_failure_threshold. Fix the access pattern (queue-like tables, deleting and re-reading the same partition, wide-range deletes), use TWCS for TTL data, and check that compaction and repair run within gc_grace_seconds.',
          knowledgeIds: ['table.tombstones-per-read'],
          confidence: 'high',
        });
      }
      for (const t of l.largeData.byTable.filter((x) => x.what === 'partition').slice(0, 3)) {
        push(grade(ctx, t.maxBytes / 1024 ** 2, 'table.partition-size') ?? 'warning', {
          id: 'log.large-partition',
          title: `${t.table} wrote a ${formatBytes(t.maxBytes)} partition (${t.count} log line(s)) on ${n.node}`,
          evidence: [
            `${n.node}: largest key ${t.maxKey ?? '?'}; ${t.count} large-partition warning(s)`,
            ...worst(l, 'largePartition', 1).map((e) => ex(n.node, e)),
          ],
          node: n.node,
          table: t.table,
          recommendation:
            'The node logs partitions above its warning threshold when writing or compacting them. Split the partition key (time bucket, shard suffix) before they grow further.',
          knowledgeIds: ['table.partition-size'],
          confidence: 'high',
        });
      }
      if (l.oom.count) {
        findings.push({
          id: 'log.oom',
          severity: 'critical',
          title: `Out of memory ${l.oom.count} time(s) on ${n.node}`,
          evidence: [`${n.node}: ${l.oom.byKind.map((k) => `${k.kind} ×${k.count}`).join(', ')}`, ...worst(l, 'oom', 1).map((e) => ex(n.node, e))].filter(
            (e): e is string => !!e,
          ),
          node: n.node,
          recommendation:
            'Find what filled memory before restarting into the same state: a heap dump if one was written, large partitions or batches, off-heap memtables or direct buffers (the kind says which), and the OS memory left beside the heap.',
          knowledgeIds: [],
          confidence: 'high',
        });
      }
      if (l.diskFull.count) {
        // writes failing (ENOSPC, Cassandra's own disk-full errors) is critical; compaction shrinking for space is not yet
        const failing = l.diskFull.byKind.filter((k) => k.kind !== 'compaction').reduce((a, k) => a + k.count, 0);
        const what: Record<string, string> = {
          enospc: 'No space left on device',
          write: 'insufficient disk space to write',
          stream: 'insufficient disk space to stream',
          compaction: 'not enough space for compaction',
        };
        findings.push({
          id: 'log.disk-full',
          severity: failing ? 'critical' : 'warning',
          title: failing
            ? `A disk is full on ${n.node}: ${failing} write(s) failed for lack of space`
            : `A disk is nearly full on ${n.node}: compaction shrank or gave up ${l.diskFull.count} time(s) for lack of space`,
          evidence: [
            `${n.node}: ${l.diskFull.byKind.map((k) => `${what[k.kind] ?? k.kind} ×${k.count}`).join(', ')}`,
            ...worst(l, 'diskFull', 2).map((e) => ex(n.node, e)),
          ].filter((e): e is string => !!e),
          node: n.node,
          recommendation:
            'Free space on the disk the lines name before anything else (df -h on the data and commit log mounts): clear old snapshots ' +
            '(nodetool listsnapshots / clearsnapshot), move or delete files that do not belong to the database, or add disk. ' +
            // ScyllaDB has no commit_failure_policy: an I/O error on the commit log or an SSTable isolates the node
            (l.source.product === 'scylla'
              ? 'ScyllaDB stops serving on such an I/O error ("Shutting down communications due to I/O errors until operator intervention": ' +
                'transports and gossip off) and stays isolated until it is restarted; restart it only after freeing space.'
              : 'A node whose commit log disk filled stops (commit_failure_policy) and will not start again until there is room; restart it only after freeing space.'),
          knowledgeIds: ['logs.disk-full'],
          confidence: 'high',
        });
      }
      if (l.commitlogFailures.count) {
        const policies = l.commitlogFailures.policies;
        findings.push({
          id: 'log.commitlog-failure',
          severity: 'critical',
          title: `The commit log failed ${l.commitlogFailures.count} time(s) on ${n.node}${policies.length ? ` (commit_failure_policy ${policies.join(', ')})` : ''}`,
          evidence: worst(l, 'commitlogFailure', 2)
            .map((e) => ex(n.node, e))
            .filter((e): e is string => !!e),
          node: n.node,
          recommendation:
            'The node could not write its commit log: under stop or die it stopped taking client requests, under stop_commit its writes stall. ' +
            'The exception logged under the line says why (no space, permissions, an I/O error, a file system that refuses the call): fix the commit log disk, then restart the node.',
          knowledgeIds: ['logs.commitlog-failure'],
          confidence: 'high',
        });
      }
      if (l.localPauses.count) findings.push(localPauseFinding(n.node, l));
      const config = configErrorFinding(n.node, l, ex);
      if (config) findings.push(config);
      // start-up ended on another exception (a refused configuration with its stack trace is log.config-error's)
      const sf = l.startupFailures;
      const others = sf ? sf.exceptions.filter((e) => !e.includes('ConfigurationException')) : [];
      if (sf?.count && !(l.configErrors.count > 0 && others.length === 0)) {
        findings.push({
          id: 'log.startup-failure',
          severity: 'critical',
          title: `${n.node} stopped at startup${others.length ? `: ${others[0]!.slice(0, 160)}` : ' on an exception'}`,
          evidence: [
            ...others.slice(0, 3).map((e) => `${n.node}: ${e}`),
            ...(others.length ? [] : [`${n.node}: the exception under "Exception encountered during startup" is not in this text`]),
            ...worst(l, 'startupFailure', 2)
              .map((e) => ex(n.node, e))
              .filter((e): e is string => !!e),
          ],
          node: n.node,
          ...startupFailureAdvice(others, sf.scylla > 0),
          confidence: 'high',
        });
      }
      const lb = l.largeBatches;
      if (lb?.count) {
        const top = lb.byTables[0]!;
        const size = (b: number | null) => (b === null ? '?' : formatBytes(b));
        findings.push({
          id: 'log.large-batch',
          severity: lb.rejected ? 'critical' : 'warning',
          title: lb.rejected
            ? `${lb.rejected} batch(es) refused as too large on ${n.node} (largest ${size(top.maxBytes)} for ${top.tables}): those writes failed`
            : `${lb.count} batch(es) over the warn threshold on ${n.node} (largest ${size(top.maxBytes)} for ${top.tables})`,
          evidence: [
            ...lb.byTables
              .slice(0, 3)
              .map(
                (b) =>
                  `${n.node}: ${b.tables} ×${b.count}${b.rejected ? ` (${b.rejected} refused)` : ''}, up to ${size(b.maxBytes)} against a threshold of ${size(b.thresholdBytes)}`,
              ),
            ...worst(l, 'largeBatch', 2)
              .map((e) => ex(n.node, e))
              .filter((e): e is string => !!e),
          ],
          node: n.node,
          recommendation:
            (lb.rejected
              ? 'A batch over batch_size_fail_threshold is refused whole: the client got "Batch too large" and none of it was written. '
              : 'Batches this size load one coordinator with the whole batch (and the batchlog when logged). ') +
            'Fix it in the client: send smaller batches, or separate (asynchronous) writes instead of batches across partitions — a batch is ' +
            'for atomicity across tables of one partition, not for speed. Raising batch_size_warn_threshold / batch_size_fail_threshold only hides it.',
          knowledgeIds: ['logs.batch-size', lb.rejected ? 'write.batch-size-fail.default' : 'write.batch-size-warn.default'],
          confidence: 'high',
        });
      }
      if (l.hints.failures || l.hints.partial) {
        findings.push({
          id: 'log.hint-failures',
          severity: 'warning',
          title: `Hinted handoff failed or stopped part-way ${l.hints.failures + l.hints.partial} time(s) on ${n.node}`,
          evidence: l.hints.byEndpoint.slice(0, 3).map((e) => `${n.node}: to ${e.endpoint} ×${e.count}`),
          node: n.node,
          recommendation:
            'Hints that are not delivered leave replicas inconsistent: run repair for the ranges of the endpoints named, and check why they were unreachable.',
          knowledgeIds: [],
          confidence: 'medium',
        });
      }
      if (l.repair.failures) {
        const asked = l.repair.terminated;
        // every failure is a session stopped on request (JMX forceTerminateAllRepairSessions): no fault to chase
        const onlyAsked = asked === l.repair.failures;
        findings.push({
          id: 'log.repair-failures',
          severity: onlyAsked ? 'info' : 'warning',
          title: onlyAsked
            ? `${asked} repair session(s) on ${n.node} were stopped on request ("Terminate session is called")`
            : `${l.repair.failures} repair failure(s) on ${n.node}${asked ? ` (${asked} of them stopped on request)` : ''}`,
          evidence: worst(l, 'repairFailure', 2)
            .map((e) => ex(n.node, e))
            .filter((e): e is string => !!e),
          node: n.node,
          recommendation:
            (asked
              ? '"Terminate session is called" is how a session ends when forceTerminateAllRepairSessions is called over JMX — Cassandra Reaper does it when it aborts or times out a segment: not a node fault; if nobody asked for it, find the tool that calls it. '
              : '') +
            'Repairs that keep failing let replicas drift past gc_grace_seconds (deleted data can come back). Read the cause in the failing session and re-run repair for those ranges.',
          knowledgeIds: [],
          confidence: 'medium',
        });
      }
      if (l.commitlogSync.laggingSyncs) {
        findings.push({
          id: 'log.commitlog-sync-lag',
          severity: 'warning',
          title: `Commit log syncs fell behind ${l.commitlogSync.laggingSyncs} time(s) on ${n.node} (by up to ${l.commitlogSync.maxExceededByMs} ms)`,
          evidence: worst(l, 'commitlogSync', 2)
            .map((e) => ex(n.node, e))
            .filter((e): e is string => !!e),
          node: n.node,
          recommendation:
            'The commit log disk cannot fsync within commitlog_sync_period: put the commit log on its own fast device, and check the device latency.',
          knowledgeIds: ['logs.commitlog-sync-lag'],
          confidence: 'high',
        });
      }
      if (l.reactorStalls.count) {
        // stalls below the warning level are still logged facts (the node's threshold was set that low): info
        push(grade(ctx, l.reactorStalls.maxMs, 'scylla.reactor-stall') ?? 'info', {
          id: 'log.reactor-stall',
          title: `${l.reactorStalls.count} reactor stalls on ${n.node}, the longest ${l.reactorStalls.maxMs} ms`,
          evidence: [
            `${n.node}: p99 ${l.reactorStalls.p99Ms} ms; by shard ${l.reactorStalls.byShard
              .slice(0, 6)
              .map((s) => `#${s.shard} ×${s.count} (max ${s.maxMs} ms)`)
              .join(', ')}`,
            ...worst(l, 'reactorStall', 1).map((e) => ex(n.node, e)),
          ],
          node: n.node,
          recommendation:
            'Decode the backtrace logged with the stall (scylla-addr2line / the decoder) to find the code path; large partitions, rows or cells and huge IN queries are common causes.',
          knowledgeIds: ['scylla.reactor-stall'],
          confidence: 'medium',
        });
      }
    }
    return outcome('logs', findings);
  },
};
