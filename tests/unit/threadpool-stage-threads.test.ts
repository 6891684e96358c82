/**
 * A request stage held to a few threads (the config-mistake incident: `nodetool setconcurrency ReadStage 2`, as a bad
 * concurrent_reads would) is read live from system_views.thread_pools and leads the queue and drops it causes.
 */
import { describe, expect, it } from 'vitest';
import { correlate } from '../../mcp-server/src/core/diagnosis/correlate.js';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import type { ThreadPoolFact } from '../../mcp-server/src/core/facts/node-facts.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';

const pool = (name: string, activeLimit: number | null, pending = 0, active = 0): ThreadPoolFact => ({
  name,
  active,
  activeLimit,
  pending,
  blocked: 0,
  blockedAllTime: 0,
  completed: 100,
});
const rule = (pools: ThreadPoolFact[]) =>
  runRules({ origin: 't', nodes: [nodeEvidence('n1', true, { facts: { threadPools: pools }, nodetool: {} })] }).findings;
// Shaped as core/rules/logs.ts writes it for a log with 148 READ messages dropped.
const logDrops = (verb: string): Finding => ({
  id: 'log.dropped',
  severity: 'critical',
  node: 'n1',
  title: '148 messages dropped according to the log of n1',
  evidence: [`n1: ${verb} 148 internal + 0 cross-node in 3 report(s)`],
  recommendation: 'r',
  knowledgeIds: ['dropped.messages'],
  confidence: 'high',
});

describe('request stages held to a few threads', () => {
  it('ReadStage at 2 threads (default 32) is a warning; the defaults, other pools and nodetool rows without a limit are not', () => {
    const out = rule([pool('ReadStage', 2, 250, 2), pool('MutationStage', 32), pool('CompactionExecutor', 2), pool('CounterMutationStage', null)]);
    const low = out.filter((f) => f.id === 'threadpool.stage-threads-low');
    expect(low.map((f) => [f.title, f.severity])).toEqual([['ReadStage may run only 2 threads on n1', 'warning']]);
    expect(low[0]!.recommendation).toMatch(/concurrent_reads/);
    expect(rule([pool('ReadStage', 8), pool('MutationStage', 5)]).filter((f) => f.id === 'threadpool.stage-threads-low')).toEqual([]);
    expect(rule([pool('MutationStage', 4)]).map((f) => f.title)).toContain('MutationStage may run only 4 threads on n1');
  });

  it('it leads the queue of its stage and the drops of the verbs that stage runs', () => {
    const ruled = rule([pool('ReadStage', 2, 250, 2)]);
    const out = correlate([...ruled, logDrops('READ')], { clocks: {} });
    const head = out[0]!;
    expect(out).toHaveLength(1);
    expect(head.id).toBe('threadpool.stage-threads-low');
    expect(head.severity).toBe('critical');
    expect(head.chain?.effects.map((e) => e.id).sort()).toEqual(['log.dropped', 'threadpool.pending']);
    expect(head.chain?.reason).toMatch(/ReadStage held to a few threads now/);
  });
  it('drops of verbs another stage runs are not its doing', () => {
    const out = correlate([...rule([pool('ReadStage', 2)]), logDrops('MUTATION')], { clocks: {} });
    expect(out.map((f) => f.id).sort()).toEqual(['log.dropped', 'threadpool.stage-threads-low']);
    expect(out.every((f) => !f.chain)).toBe(true);
  });
});

describe('CompactionExecutor', () => {
  it('its queue is a compaction backlog, graded as compaction.pending (the compaction-backlog incident: 30 queued)', () => {
    const out = rule([pool('CompactionExecutor', 2, 30, 2)]);
    expect(out.map((f) => [f.id, f.severity, f.title])).toEqual([['compaction.pending', 'warning', '30 compaction tasks queued in CompactionExecutor on n1']]);
    expect(rule([pool('CompactionExecutor', 2, 5, 2)])).toEqual([]);
  });
});
