/**
 * YCSB's failure measurements (DBWrapper.measure at YCSB 0.17.0): a status other than OK/BATCHED_OK is timed as
 * "<OP>-FAILED", or as "<OP>-<STATUS>" with -p reportlatencyforeacherror=true / latencytrackederrors; with
 * measurement.interval=both every operation is also timed from its intended start as "Intended-<OP>". None of these
 * is another operation: counting them as one double-counts the run and mixes failure or queueing latency into p99.
 */
import { describe, expect, it } from 'vitest';
import { parseYcsb } from '../../mcp-server/src/core/parse/stress/index.js';
import { stressFacts } from '../../mcp-server/src/core/stress/facts.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { fixture } from '../helpers/corpus.js';

const facts = (text: string) => {
  const p = parseYcsb(text);
  if (!p.ok) throw new Error(p.reason);
  return stressFacts('stress.ycsb', p.value)!;
};
const summary = (rows: [string, string, number][]) => rows.map(([op, k, v]) => `[${op}], ${k}, ${v}`).join('\n');
const head = ['[OVERALL], RunTime(ms), 60000', '[OVERALL], Throughput(ops/sec), 1000'].join('\n');
const read = (ops: number, p99us: number, maxUs: number): [string, string, number][] => [
  ['READ', 'Operations', ops],
  ['READ', 'AverageLatency(us)', 900],
  ['READ', '95thPercentileLatency(us)', 2000],
  ['READ', '99thPercentileLatency(us)', p99us],
  ['READ', 'MaxLatency(us)', maxUs],
];

describe('YCSB failure and intended-time measurements are not operations of their own', () => {
  it('real 0.17 run (benchant): the READ-FAILED of its status lines are its 120 NOT_FOUND reads, not interval errors', () => {
    const f = facts(fixture('stress/ycsb_0.17_cassandra_balanced_closed_loop_benchant.txt'));
    expect(f.notFound).toEqual({ count: 120, of: 21761667 });
    expect(f.errors).toBe(0);
    expect(f.intervals.reduce((a, i) => a + (i.errors ?? 0), 0)).toBe(0);
  });

  it('the same READ-FAILED counts are errors when the summary says the reads failed (Return=ERROR)', () => {
    const status =
      '2022-02-24 20:56:08:744 80 sec: 1000 operations; 100 current ops/sec; [READ: Count=995, Max=9000, Avg=900, 99=3000] [READ-FAILED: Count=5, Max=2000000, Avg=2000000, 99=2000000]';
    const f = facts(`${status}\n${head}\n${summary([...read(995, 3000, 9000), ['READ', 'Return=OK', 995], ['READ', 'Return=ERROR', 5]])}`);
    expect(f.intervals.map((i) => i.errors)).toEqual([5]);
    expect(f.errors).toBe(5);
    // the 2 s timeouts are failures, not READ's tail
    expect(f.intervals[0]!.p99Ms).toBe(3);
  });

  it('reportlatencyforeacherror: READ-ERROR and READ-NOT_FOUND are failures by status, not operations', () => {
    const text = `${head}\n${summary([
      ...read(990, 3000, 9000),
      ['READ-ERROR', 'Operations', 6],
      ['READ-ERROR', '99thPercentileLatency(us)', 2000000],
      ['READ-ERROR', 'MaxLatency(us)', 2000000],
      ['READ-NOT_FOUND', 'Operations', 4],
      ['READ-NOT_FOUND', '99thPercentileLatency(us)', 800],
    ])}`;
    const f = facts(text);
    expect(f.totalOps).toBe(990);
    expect(f.errors).toBe(6);
    expect(f.notFound).toMatchObject({ count: 4 });
    expect(f.p99Ms).toBe(3);
    expect(f.maxMs).toBe(9);
    const r = interpretText(text);
    expect(r.findings.find((x) => x.id === 'stress.errors')?.title).toMatch(/^6 errors \(0\.6 % of 990 operations\)/);
  });

  it('measurement.interval=both: Intended-READ is READ again, timed from its intended start; the run has 1000 reads, not 2000', () => {
    const f = facts(
      `${head}\n${summary([...read(1000, 3000, 9000), ['Intended-READ', 'Operations', 1000], ['Intended-READ', '99thPercentileLatency(us)', 665087]])}`,
    );
    expect(f.totalOps).toBe(1000);
    expect(f.p99Ms).toBe(3);
  });

  it('measurement.interval=both with failures: Intended-READ-FAILED is the same 10 failures, not 10 more', () => {
    const f = facts(
      `${head}\n${summary([
        ...read(990, 3000, 9000),
        ['READ', 'Return=OK', 990],
        ['READ', 'Return=ERROR', 10],
        ['READ-FAILED', 'Operations', 10],
        ['Intended-READ', 'Operations', 990],
        ['Intended-READ-FAILED', 'Operations', 10],
      ])}`,
    );
    expect(f.errors).toBe(10);
    expect(f.totalOps).toBe(990);
  });

  it("a binding's own status (kudu's TIMEOUT, googledatastore's ERROR-404) names a failure too; READ-MODIFY-WRITE stays an operation", () => {
    const f = facts(
      `${head}\n${summary([
        ...read(990, 3000, 9000),
        ['READ-TIMEOUT', 'Operations', 7],
        ['READ-TIMEOUT', '99thPercentileLatency(us)', 2000000],
        ['READ-ERROR-404', 'Operations', 3],
        ['READ-MODIFY-WRITE', 'Operations', 500],
        ['READ-MODIFY-WRITE', '99thPercentileLatency(us)', 5000],
      ])}`,
    );
    expect(f.errors).toBe(10);
    expect(f.totalOps).toBe(1490);
    expect(f.p99Ms).toBe(5);
  });

  it('a summary cut above RunTime(ms) is a summary without the run length, not a missing summary (scylladb#13449)', () => {
    const p = parseYcsb(fixture('real-world/stress_ycsb-unthrottled-write-heavy-p95_scylla13449.txt'));
    expect(p.ok && p.value.throughput).toBeCloseTo(31562.57, 2);
    expect(p.ok && p.warnings).toContain('the [OVERALL] summary has no RunTime(ms) line (cut?): the run length is unknown');
    expect(p.ok && p.warnings.some((w) => w.startsWith('no [OVERALL] summary'))).toBe(false);
  });

  it('status lines of an old YCSB with READ-ERROR and no count still say operations failed', () => {
    const line = (t: number) => `${t} sec: ${t * 100} operations; 100 current ops/sec; [READ AverageLatency(us)=900] [READ-ERROR AverageLatency(us)=4593.01]`;
    const f = facts(`${line(10)}\n${line(20)}`);
    expect(f.failedNoCount).toEqual({ lines: 2, of: 2, ops: ['READ-ERROR'] });
    expect(f.errors).toBeNull();
  });
});
