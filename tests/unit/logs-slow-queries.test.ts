/**
 * debug.log slow / timed-out read reports (MonitoringTask) on real DSE logs from datastax-labs/sperf's test data
 * (tests/fixtures/sperf and excerpts in tests/fixtures/real-world/slowquery_*). sperf's own test of
 * `sperf core slowquery` (tests/test_slowquery.py) asserts for the DSE_CLUSTER diag: "75 total, 48 cross-node,
 * 0 timeouts", worst 1688 ms; for the DSE 6.8 node: "8 total, 0 cross-node, 7 timeouts", worst 10058 ms.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import { parseSlowQueries, readSlowQueries, type SlowQueries } from '../../mcp-server/src/core/parse/logs/slow-queries.js';
import { slowQueryFindings } from '../../mcp-server/src/core/rules/slow-queries.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { fixture, FIXTURES_DIR } from '../helpers/corpus.js';
import { PACK, runRule } from '../../mcp-server/src/core/rules/rule.js';

const rw = (f: string) => fixture(join('real-world', f));
const sperfLog = (node: string) => gunzipSync(readFileSync(join(FIXTURES_DIR, 'sperf', `dse677-${node}-debug.log.gz`))).toString('utf8');

describe('slow-query reports in a whole debug.log (sperf DSE_CLUSTER parity)', () => {
  it('two nodes: 75 slow reads, 48 cross-node, none timed out, worst 1688 ms (sperf core slowquery)', () => {
    const all: SlowQueries[] = [];
    for (const n of ['10.101.35.102', '10.101.33.205', '10.101.35.71']) {
      const p = parseLogs(sperfLog(n));
      expect(p.ok, n).toBe(true);
      if (p.ok && p.value.slowQueries) all.push(p.value.slowQueries);
    }
    expect(all).toHaveLength(2); // 10.101.35.71 reported none
    const sum = (f: (s: SlowQueries) => number) => all.reduce((a, s) => a + f(s), 0);
    expect(sum((s) => s.totals.slow + s.totals.timedOut)).toBe(75);
    expect(sum((s) => s.totals.crossNode)).toBe(48);
    expect(sum((s) => s.totals.timedOut)).toBe(0);
    expect(Math.max(...all.map((s) => s.operations[0]!.maxMs))).toBe(1688);
    expect(all[0]!.operations[0]!.query).toBe('SELECT * FROM my_solr.my_table WHERE id = 00000000-0041-d584-0000-0000004956fd LIMIT 5000');
    expect(all[0]!.byTable).toEqual([{ table: 'my_solr.my_table', slow: 74, timedOut: 0, maxMs: 1688 }]);
    // the 161-operation report listed 50 and said "... (111 were dropped)"
    expect(all[0]!.reports.map((r) => r.operations)).toEqual([24, 161]);
    expect(all[0]!.droppedFromReports).toBe(111);
  });

  it("a log without any report carries no slowQueries (checked, none seen is the rule's skip)", () => {
    const p = parseLogs(sperfLog('10.101.35.71'));
    expect(p.ok && p.value.slowQueries).toBe(undefined);
  });
});

describe('pasted reports', () => {
  it('a DSE 6.8 excerpt: one slow read (2080 ms) and one timed out at 10058 ms, each on its table', () => {
    const r = interpretText(rw('slowquery_dse68-insights-slow-and-timed-out_sperf-dse68.txt'));
    expect(r.kind).toBe('logs');
    const slow = r.findings.find((f) => f.id === 'log.slow-queries')!;
    expect(slow.title).toContain('2080 ms on dse_insights.insights_config');
    expect(slow.severity).toBe('warning'); // 2080 ms: past 1 s, below the 5 s read timeout
    const to = r.findings.find((f) => f.id === 'log.timed-out-queries')!;
    expect(to.title).toContain('10058 ms against a 10000 ms timeout on keyspace1.standard1');
    expect(to.evidence[0]).toContain('2020-07-22 13:39:05,889');
  });

  it('a report whose queue overflowed says how many were reported, not only the 50 listed', () => {
    const r = interpretText(rw('slowquery_dse-161-slow-111-dropped-mutation-drops_sperf-dse-cluster-35-102.txt'));
    const slow = r.findings.find((f) => f.id === 'log.slow-queries')!;
    expect(slow.title).toMatch(/^161 slow read\(s\) \(50 listed\) over the 500 ms slow-query threshold, worst 1688 ms on my_solr\.my_table/);
    expect(slow.evidence.join('\n')).toContain('111 more operation(s) were not listed');
    // the same paste's dropped mutations are still read by the log rules
    expect(r.findings.map((f) => f.id)).toContain('log.dropped');
  });

  it('operation lines pasted without any log line are their own kind, read with their times', () => {
    const text = rw('slowquery_bare-operation-lines-no-header_sperf-dse-cluster-35-102.txt');
    const d = detect(text);
    expect(d.ok && d.kind).toBe('logs.slow-queries');
    const p = parseSlowQueries(text);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.value.totals).toEqual({ slow: 12, timedOut: 0, crossNode: 11, local: 1, lines: 12 });
    expect(p.value.withoutHeader).toBe(12);
    expect(p.warnings[0]).toMatch(/12 operation line\(s\) without their .* header/);
    const r = interpretText(text);
    expect(r.findings.map((f) => [f.id, f.severity])).toEqual([['log.slow-queries', 'warning']]);
    expect(r.findings[0]!.recommendation).toMatch(/Most were cross-node/);
  });

  it('grep of the timed-out lines: 7 reads on keyspace1.standard1, worst 10058 ms (sperf: 7 timeouts)', () => {
    const r = interpretText(rw('slowquery_grep-total-time-timed-out-lines_sperf-dse68.txt'));
    expect(r.kind).toBe('logs.slow-queries');
    expect(r.findings.map((f) => f.id)).toEqual(['log.timed-out-queries']);
    expect(r.findings[0]!.title).toMatch(/^7 read\(s\) timed out on the replica, up to 10058 ms against a 10000 ms timeout on keyspace1\.standard1/);
  });

  it('system.log only has the notice: says the reads are in debug.log', () => {
    const r = interpretText(rw('slowquery_system-log-notice-only_sperf-dse-cluster-35-102.txt'));
    const f = r.findings.find((x) => x.id === 'log.slow-queries')!;
    expect(f.severity).toBe('info');
    expect(f.title).toContain('only in debug.log');
  });

  it('every format of MonitoringTask: aggregated slow, aggregated timed out (Apache and DSE wording), INSERT/UPDATE tables', () => {
    const text = [
      'DEBUG [ScheduledTasks:1] 2024-03-01 10:00:05,001 MonitoringTask.java:173 - 3 operations were slow in the last 5002 msecs:',
      '<SELECT * FROM "Ks"."Tbl" WHERE pk = 1>, was slow 3 times: avg/min/max 812/640/1022 msec - slow timeout 500 msec/cross-node',
      'DEBUG [ScheduledTasks:1] 2024-03-01 10:00:10,001 MonitoringTask.java:152 - 4 operations timed out in the last 5000 msecs:',
      '<SELECT * FROM ks.a WHERE pk = 2> timed out 2 times, avg/min/max 5003/5001/5005 msec, timeout 5000 msec',
      '<SELECT * FROM ks.b WHERE pk = 3>, timed out 2 times: avg/min/max 5010/5002/5018 msec -timeout 5000 msec/cross-node',
    ].join('\n');
    const v = readSlowQueries(text)!;
    expect(v.totals).toEqual({ slow: 3, timedOut: 4, crossNode: 5, local: 2, lines: 3 });
    expect(v.operations.map((o) => [o.table, o.maxMs, o.times])).toEqual([
      ['ks.b', 5018, 2],
      ['ks.a', 5005, 2],
      ['Ks.Tbl', 1022, 3],
    ]);
    expect(v.operations[2]!.reportTime).toBe('2024-03-01 10:00:05,001');
    const ids = slowQueryFindings(v).map((f) => [f.id, f.severity]);
    expect(ids).toEqual([
      ['log.slow-queries', 'warning'],
      ['log.timed-out-queries', 'warning'],
    ]);
  });

  it('a header without its operation lines is reported as incomplete, never as healthy', () => {
    const v = readSlowQueries('DEBUG [ScheduledTasks:1] 2020-01-10 17:01:56,039  MonitoringTask.java:172 - 161 operations were slow in the last 5001 msecs:')!;
    const f = slowQueryFindings(v);
    expect(f.map((x) => x.id)).toEqual(['log.slow-queries']);
    expect(f[0]!.title).toContain('161 operation(s), but the operation lines are not in the input');
  });

  it('text with none of these lines is not this kind, and a plain log gets no slow-query facts', () => {
    expect(parseSlowQueries('Pool Name  Active  Pending\nMutationStage 0 0 1 0 0').ok).toBe(false);
    expect(readSlowQueries('INFO  [main] 2024-01-01 00:00:00,000 CassandraDaemon.java:1 - hello')).toBe(null);
  });
});

describe('slow-queries rule in a diagnosis: checked whenever logs were read', () => {
  it('a healthy node whose logs hold no report is checked with no finding; without any log it is not checked', async () => {
    const { slowQueriesRule } = await import('../../mcp-server/src/core/rules/slow-queries.js');
    const { nodeEvidence } = await import('../../mcp-server/src/core/diagnosis/evidence.js');
    const quiet = parseLogs('INFO  [main] 2026-11-24 10:00:00,000 CassandraDaemon.java:100 - Startup complete\n');
    if (!quiet.ok) throw new Error('the one-line log did not parse');
    const withLogs = { ...nodeEvidence('n1', true, { facts: {}, nodetool: {} }), logs: quiet.value };
    expect(runRule(slowQueriesRule, { origin: 't', nodes: [withLogs] }, PACK)).toMatchObject({ checked: true, findings: [] });
    const none = runRule(slowQueriesRule, { origin: 't', nodes: [nodeEvidence('n1', true, { facts: {}, nodetool: {} })] }, PACK);
    expect(none.checked).toBe(false);
  });
});
