/**
 * Pools whose queue follows the load are graded by their own limits (sperf's, knowledge/threadpools.yaml):
 * Native-Transport-Requests holds every client request in flight, MutationStage absorbs write bursts. CI's healthy
 * lab under latte load (4.1.10, 2 cores) once showed "Native-Transport-Requests has 32 pending tasks" as a warning.
 */
import { describe, expect, it } from 'vitest';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import type { ThreadPoolFact } from '../../mcp-server/src/core/facts/node-facts.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const pool = (name: string, pending: number): ThreadPoolFact => ({
  name,
  active: 2,
  activeLimit: null,
  pending,
  blocked: 0,
  blockedAllTime: 0,
  completed: 100,
});
const pendingFindings = (pools: ThreadPoolFact[]) =>
  runRules({ origin: 't', nodes: [nodeEvidence('n1', true, { facts: { threadPools: pools }, nodetool: {} })] }).findings.filter(
    (f) => f.id === 'threadpool.pending',
  );
const graded = (pools: ThreadPoolFact[]) => pendingFindings(pools).map((f) => [f.title, f.severity, f.knowledgeIds[0]]);

describe('pending tasks are graded per pool', () => {
  it('client requests in flight: 32 or 1000 pending NTR is load, 1001 is a warning cited to the NTR entry', () => {
    expect(graded([pool('Native-Transport-Requests', 32)])).toEqual([]);
    expect(graded([pool('Native-Transport-Requests', 1000)])).toEqual([]);
    expect(graded([pool('Native-Transport-Requests', 1001)])).toEqual([
      ['Native-Transport-Requests has 1001 pending tasks', 'warning', 'threadpool.pending-native-transport'],
    ]);
    // The generic entry stays cited: the catalogue and the chains know the finding by it.
    expect(pendingFindings([pool('Native-Transport-Requests', 5000)])[0]!.knowledgeIds).toEqual(['threadpool.pending-native-transport', 'threadpool.pending']);
  });

  it('write bursts: MutationStage at 4123 is not judged, above 10000 it is critical', () => {
    expect(graded([pool('MutationStage', 4123)])).toEqual([]);
    expect(graded([pool('MutationStage', 10001)])).toEqual([['MutationStage has 10001 pending tasks', 'critical', 'threadpool.pending-mutation']]);
  });

  it('every other stage keeps the generic limits (10 warning, 100 critical), worst first', () => {
    expect(graded([pool('ReadStage', 9), pool('ReadStage', 32), pool('MemtableFlushWriter', 100)])).toEqual([
      ['MemtableFlushWriter has 100 pending tasks', 'critical', 'threadpool.pending'],
      ['ReadStage has 32 pending tasks', 'warning', 'threadpool.pending'],
    ]);
  });
});

describe('StatusLogger snapshots use the same limits', () => {
  // StatusLogger.java (2.1-5.0) row layout "%-25s%10s%10s%15s%10s%18s".
  const row = (n: string, ...v: (string | number)[]) => n.padEnd(25) + [10, 10, 15, 10, 18].map((w, i) => String(v[i]).padStart(w)).join('');
  const line = (msg: string) => `INFO  [ScheduledTasks:1] 2024-05-01 10:00:20,000 StatusLogger.java:65 - ${msg}`;
  const log = [
    line(row('Pool Name', 'Active', 'Pending', 'Completed', 'Blocked', 'All Time Blocked')),
    line(row('Native-Transport-Requests', 128, 640, 98765432, 0, 0)),
    line(row('MutationStage', 32, 4123, 98765432, 0, 0)),
    line(row('ReadStage', 32, 57, 12345678, 0, 0)),
    line(row('ViewMutationStage', 1, 3, 100, 0, 0)),
    line(row('MemtableFlushWriter', 2, 12, 1234, 0, 0)),
    line(row('CompactionExecutor', 2, 11, 1234, 0, 0)),
  ].join('\n');

  it('the queues that follow load drop out; the three worst of the rest are named, each with its limit', () => {
    const r = interpretText(log);
    expect(r.kind).toBe('logs');
    const pending = r.findings.filter((f) => f.id === 'log.threadpool-pending');
    expect(pending.map((f) => [f.title.replace(/ in StatusLogger.*/, ''), f.severity])).toEqual([
      ['ReadStage reached 57 pending tasks', 'warning'],
      ['MemtableFlushWriter reached 12 pending tasks', 'warning'],
      ['CompactionExecutor reached 11 pending tasks', 'warning'],
    ]);
  });
});
