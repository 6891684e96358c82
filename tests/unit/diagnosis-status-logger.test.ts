/**
 * A StatusLogger table follows the drops (or GC pause) that printed it: Cassandra logs the pool table right after
 * "messages were dropped" (MessagingMetrics) and after a long GC pause (GCInspector), so its pending pools are the
 * node's state during the drops, not a second problem that outranks them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { correlate } from '../../mcp-server/src/core/diagnosis/correlate.js';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { statusLoggerLinks, type LogTimelines } from '../../mcp-server/src/core/diagnosis/status-logger.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import type { LogFacts } from '../../mcp-server/src/core/parse/logs/types.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';

const timelinesOf = (l: LogFacts): LogTimelines => ({
  threadPools: l.events.threadPools.timeline,
  dropped: l.events.dropped.timeline,
  gcPause: l.events.gcPause.timeline,
});

function diagnoseLog(text: string, node = '10.0.0.1') {
  const parsed = parseLogs(text);
  expect(parsed.ok).toBe(true);
  const logs = (parsed as { ok: true; value: LogFacts }).value;
  const ruled = runRules({ origin: 'test', nodes: [{ ...nodeEvidence(node, true, { facts: {}, nodetool: {} }), logs }] });
  return { logs, ruled, node };
}

const f = (id: string, severity: Finding['severity'], node = 'n1', extra: Partial<Finding> = {}): Finding => ({
  id,
  severity,
  node,
  title: `${id} on ${node}`,
  evidence: [`${node}: ${id}`],
  recommendation: 'r',
  knowledgeIds: [],
  confidence: 'high',
  ...extra,
});
const at = (...minutes: number[]) => ({ bucketMs: 60_000, buckets: minutes.map((m) => ({ t: m * 60_000, n: 1 })) });

describe('StatusLogger tables follow the event that printed them', () => {
  it('a real DSE 6 log: the pending pools of its StatusLogger table fold under the drops logged the same minute', () => {
    // ../shared/corpus/logs: DroppedMessages at 16:40:00,861 then StatusLogger at 16:40:01,048 (see SOURCES.tsv).
    const text = readFileSync(new URL('../../../shared/corpus/logs/statuslogger_dse6_dropped_rangeslice_write_remote_pending.txt', import.meta.url), 'utf8');
    const { logs, ruled, node } = diagnoseLog(text);
    const ids = ruled.findings.map((x) => x.id);
    expect(ids).toContain('log.dropped');
    expect(ids).toContain('log.threadpool-pending');
    // Without the log's timelines the two stand apart (log findings carry no time of their own)...
    const apart = correlate(ruled.findings, { clocks: {} });
    expect(apart.filter((x) => x.id === 'log.threadpool-pending').length).toBeGreaterThan(0);
    // ...with them, the drops lead and the pending pools are their effects.
    const out = correlate(ruled.findings, { clocks: {}, logTimelines: { [node]: timelinesOf(logs) } });
    expect(out.map((x) => x.id)).not.toContain('log.threadpool-pending');
    const head = out.find((x) => x.id === 'log.dropped')!;
    expect(head.chain?.effects.map((e) => e.id)).toContain('log.threadpool-pending');
    expect(head.chain?.reason).toMatch(/prints StatusLogger when it has dropped messages; 1 of 1 minutes/);
    const worst = ruled.findings.filter((x) => x.id === 'log.threadpool-pending').some((x) => x.severity === 'critical');
    if (worst) expect(head.severity).toBe('critical');
  });

  it('snapshots in minutes without drops stay a problem of their own', () => {
    const findings = [f('log.dropped', 'warning'), f('log.threadpool-pending', 'critical')];
    // Drops at minute 10; StatusLogger at 10, 40, 41, 42 (printed by something else, e.g. GC): 1 of 4.
    const links = statusLoggerLinks(findings, { n1: { dropped: at(10), threadPools: at(10, 40, 41, 42) } });
    expect(links).toEqual([]);
    // A neighbouring minute counts (a drop at 12:00:59, its table at 12:01:00).
    expect(statusLoggerLinks(findings, { n1: { dropped: at(10), threadPools: at(11) } })).toHaveLength(1);
  });

  it('GC pauses print StatusLogger too; hour-wide buckets and other nodes link nothing', () => {
    const findings = [f('log.gc-pause', 'warning'), f('log.threadpool-pending', 'warning'), f('log.threadpool-pending', 'warning', 'n2')];
    const links = statusLoggerLinks(findings, { n1: { gcPause: at(5, 6), threadPools: at(5, 6) } });
    expect(links.map((l) => [l.cause.id, l.effect.node])).toEqual([['log.gc-pause', 'n1']]);
    const hours = { bucketMs: 3_600_000, buckets: [{ t: 0, n: 3 }] };
    expect(statusLoggerLinks(findings, { n1: { gcPause: hours, threadPools: hours } })).toEqual([]);
  });

  it('a drop explained by another cause takes its StatusLogger table along to that cause', () => {
    const cap = f('host.io-throttle', 'warning');
    const out = correlate([cap, f('log.dropped', 'warning'), f('log.threadpool-pending', 'critical')], {
      clocks: {},
      logTimelines: { n1: { dropped: at(3), threadPools: at(3) } },
    });
    expect(out.map((x) => x.id)).toEqual(['host.io-throttle']);
    expect(out[0]!.severity).toBe('critical');
    expect(out[0]!.chain?.effects.map((e) => e.id).sort()).toEqual(['log.dropped', 'log.threadpool-pending']);
  });
});

describe('what a StatusLogger link leaves alone', () => {
  it('a pool pending now too (merged with nodetool tpstats) stays a problem of its own, whatever the log says', () => {
    // The config-mistake incident: ReadStage cut to 2 threads queues reads now; GC pauses under that load print
    // StatusLogger too, but they do not explain a starved pool (scenario run, session 9).
    const now = f('log.threadpool-pending', 'warning', 'n1', { mergedIds: ['threadpool.pending'] });
    const links = statusLoggerLinks([f('log.gc-pause', 'warning'), now], { n1: { gcPause: at(1, 2), threadPools: at(1, 2) } });
    expect(links).toEqual([]);
  });
});

describe('which way the link points', () => {
  // Shaped as core/rules/logs.ts writes them; one finding per pool, which merge into one per node.
  const pendingIn = (pool: string, severity: Finding['severity'] = 'critical') =>
    f('log.threadpool-pending', severity, 'n1', {
      title: `${pool} reached 88 pending tasks in StatusLogger reports on n1`,
      evidence: [`n1: ${pool} pending in 5 of 9 StatusLogger snapshots, max 88, max blocked 0`],
    });
  it('READ drops with ReadStage queued: the queue leads (the config-mistake incident: ReadStage cut to 2 threads)', () => {
    const drops = f('log.dropped', 'warning', 'n1', { title: '497 messages dropped according to the log of n1' });
    const queue = pendingIn('ReadStage');
    // Listed first, the other pool's finding heads the merge: the ReadStage line is found in its evidence.
    const other = pendingIn('Native-Transport-Requests');
    const out = correlate([drops, other, queue], { clocks: {}, logTimelines: { n1: { dropped: at(4, 5), threadPools: at(4, 5), droppedTypes: ['READ'] } } });
    expect(out.map((x) => x.id)).toEqual(['log.threadpool-pending']);
    expect(out[0]!.evidence.join('\n')).toMatch(/ReadStage pending in 5 of 9/);
    expect(out[0]!.chain?.effects.map((e) => e.id)).toEqual(['log.dropped']);
    expect(out[0]!.chain?.reason).toMatch(/ReadStage runs the dropped ones/);
  });
  it('MUTATION drops with only Native-Transport-Requests queued: the drops lead (the dropped-mutations incident)', () => {
    const drops = f('log.dropped', 'warning');
    const out = correlate([drops, pendingIn('Native-Transport-Requests')], {
      clocks: {},
      logTimelines: { n1: { dropped: at(7), threadPools: at(7), droppedTypes: ['MUTATION'] } },
    });
    expect(out.map((x) => x.id)).toEqual(['log.dropped']);
    expect(out[0]!.severity).toBe('critical');
    expect(out[0]!.chain?.reason).toMatch(/prints StatusLogger when it has dropped messages/);
  });
});
