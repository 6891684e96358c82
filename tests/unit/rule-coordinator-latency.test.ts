/**
 * nodetool proxyhistograms is graded (issue #14: a pasted 1-second coordinator read p99 gave "No findings"): read and
 * write p99 against kb latency.coordinator-read-p99 / -write-p99 (20/100 ms and 10/50 ms).
 */
import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

// Cassandra 4.x layout (ProxyHistograms.java): microseconds per column
const proxy = (readP99: number, writeP99: number) =>
  [
    'proxy histograms',
    'Percentile       Read Latency      Write Latency      Range Latency   CAS Read Latency  CAS Write Latency View Write Latency',
    '                     (micros)           (micros)           (micros)           (micros)           (micros)           (micros)',
    '50%                    454.83             379.02           1131.75               0.00               0.00               0.00',
    '75%                    654.95             545.79           1358.10               0.00               0.00               0.00',
    '95%                   1131.75             943.13           2346.80               0.00               0.00               0.00',
    '98%                   1629.72            1358.10           2816.16               0.00               0.00               0.00',
    `99%                   ${readP99.toFixed(2)}            ${writeP99.toFixed(2)}           3379.39               0.00               0.00               0.00`,
    'Min                     42.51              35.43             88.15               0.00               0.00               0.00',
    'Max                 1155149.00           20924.30           4055.27               0.00               0.00               0.00',
  ].join('\n');

const graded = (text: string) => {
  const r = interpretText(text);
  expect(r.kind).toBe('nodetool.proxyhistograms');
  return r.findings.filter((f) => f.id.startsWith('latency.coordinator-')).map((f) => [f.id, f.severity, f.title]);
};

describe('coordinator latency from nodetool proxyhistograms', () => {
  it('a 1 s read p99 is critical and a 12 ms write p99 a warning, each naming the figure', () => {
    expect(graded(proxy(1000000, 12000))).toEqual([
      ['latency.coordinator-read-p99', 'critical', 'Coordinator read p99 on this node is 1000 ms'],
      ['latency.coordinator-write-p99', 'warning', 'Coordinator write p99 on this node is 12 ms'],
    ]);
  });

  it('p99 under the warning thresholds is quiet, whatever the max', () => {
    expect(graded(proxy(1955.67, 1629.72))).toEqual([]);
  });
});

describe('coordinator latency on ScyllaDB', () => {
  it('says the p99 without grading it: the thresholds are sourced for Cassandra and DSE only', async () => {
    const { runRules } = await import('../../mcp-server/src/core/rules/index.js');
    const { nodeEvidence } = await import('../../mcp-server/src/core/diagnosis/evidence.js');
    const { parseProxyhistograms } = await import('../../mcp-server/src/core/parse/nodetool/proxyhistograms.js');
    const p = parseProxyhistograms(proxy(1000000, 12000));
    if (!p.ok) throw new Error(p.reason);
    const run = (product: 'scylla' | 'cassandra') =>
      runRules({ origin: 'test', nodes: [nodeEvidence('10.0.0.1', true, { facts: { product }, nodetool: { proxyhistograms: p.value } })] }).findings.filter(
        (f) => f.id.startsWith('latency.coordinator-'),
      );
    const scylla = run('scylla');
    expect(scylla.map((f) => [f.id, f.severity])).toEqual([
      ['latency.coordinator-read-p99', 'info'],
      ['latency.coordinator-write-p99', 'info'],
    ]);
    expect(scylla[0]!.title).toBe('Coordinator read p99 on 10.0.0.1 is 1000 ms (not graded on ScyllaDB)');
    expect(scylla[0]!.evidence.join(' ')).toContain('none is sourced for ScyllaDB');
    expect(run('cassandra').map((f) => f.severity)).toEqual(['critical', 'warning']);
  });
});

describe('coordinator latency in a live sweep (no proxyhistograms)', () => {
  it('counts as checked when the coordinator latency virtual tables were read (graded per table), else says what was missing', async () => {
    const { runRules } = await import('../../mcp-server/src/core/rules/index.js');
    const { nodeEvidence } = await import('../../mcp-server/src/core/diagnosis/evidence.js');
    const lat = { count: 10, p50Ms: 1, p99Ms: 2, maxMs: 3, perSecond: null };
    const withVt = nodeEvidence('10.0.0.1', true, { facts: { tables: [{ keyspace: 'ks', table: 't', coordinatorRead: lat }] }, nodetool: {} });
    const row = (nodes: Parameters<typeof runRules>[0]['nodes']) => runRules({ origin: 'test', nodes }).outcomes.find((o) => o.rule === 'coordinator-latency');
    expect(row([withVt])).toMatchObject({ checked: true, findings: 0 });
    const bare = nodeEvidence('10.0.0.1', true, { facts: {}, nodetool: {} });
    expect(row([bare])).toMatchObject({ checked: false, skippedBecause: 'no nodetool proxyhistograms and no coordinator latency virtual table was read' });
  });
});
