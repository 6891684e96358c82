import { describe, expect, it } from 'vitest';
import { nodeEvidence, type DiagnosisInput } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';

// The SSTable pile-up: autocompaction off, 30 flushes. A sweep collects tablestats (not tablehistograms),
// so "SSTables per read" must be judged from the SSTable count of size-tiered tables.
const tablestats = (table: string, count: number, extra: string[] = []) =>
  [
    'Keyspace : ks',
    '\tRead Count: 50',
    '\tRead Latency: 1.0 ms',
    '\tWrite Count: 1500',
    '\tWrite Latency: 0.1 ms',
    '\tPending Flushes: 0',
    `\t\tTable: ${table}`,
    `\t\tSSTable count: ${count}`,
    ...extra,
    '\t\tSpace used (live): 1048576',
    '\t\tSpace used (total): 1048576',
    '\t\tSpace used by snapshots (total): 0',
    '\t\tLocal read count: 50',
    '\t\tBloom filter false ratio: 0.00000',
    '\t\tCompacted partition maximum bytes: 103',
    '',
  ].join('\n');

const run = (outputs: Record<string, string>) => {
  const r = nodeFactsFromRaw(Object.entries(outputs).map(([k, text]) => ({ name: `nodetool:${k}`, text })));
  return runRules({ origin: 'test', nodes: [nodeEvidence('127.0.0.1', true, r)] } satisfies DiagnosisInput);
};

describe('tables rule: SSTable pile-up from tablestats alone', () => {
  it('30 SSTables in a size-tiered table is a warning naming the table', () => {
    const r = run({ tablestats: tablestats('piled', 30) });
    const f = r.findings.find((x) => x.id === 'table.sstable-count');
    expect(f).toMatchObject({ severity: 'warning', table: 'ks.piled', node: '127.0.0.1' });
    expect(f!.title).toMatch(/holds 30 SSTables/);
    expect(f!.knowledgeIds).toContain('table.sstables-per-read');
  });

  it('past max_threshold (32) it is critical; a handful is nothing', () => {
    expect(run({ tablestats: tablestats('piled', 40) }).findings.find((x) => x.id === 'table.sstable-count')?.severity).toBe('critical');
    expect(run({ tablestats: tablestats('fine', 6) }).findings.some((x) => x.id === 'table.sstable-count')).toBe(false);
  });

  it('on a table that served no local reads (a write-only load) a pile-up past max_threshold is a warning that says so', () => {
    const text = tablestats('written', 40).replace('Local read count: 50', 'Local read count: 0');
    const f = run({ tablestats: text }).findings.find((x) => x.id === 'table.sstable-count');
    expect(f).toMatchObject({ severity: 'warning', table: 'ks.written' });
    expect(f!.title).toBe('ks.written holds 40 SSTables and has served no reads here: compaction is behind');
    expect(f!.recommendation).toContain('ScyllaDB counts the SSTables of every shard');
  });

  it('LCS tables (levels listed) are left to the level-0 rule', () => {
    const r = run({ tablestats: tablestats('leveled', 40, ['\t\tSSTables in each level: [2/4, 10, 28, 0, 0, 0, 0, 0, 0]']) });
    expect(r.findings.some((x) => x.id === 'table.sstable-count')).toBe(false);
  });

  it('a table that tablehistograms already measured is judged by its SSTables per read, not the count', () => {
    const hist = [
      'ks/piled histograms',
      'Percentile      Read Latency     Write Latency          SSTables    Partition Size        Cell Count',
      '                    (micros)          (micros)                             (bytes)',
      '50%                    20.50              0.00              1.00                 86                 1',
      '75%                    24.60              0.00              1.00                 86                 1',
      '95%                    29.52              0.00              2.00                 86                 1',
      '98%                    29.52              0.00              2.00                 86                 1',
      '99%                    29.52              0.00              2.00                 86                 1',
      'Min                     6.87              0.00              1.00                 73                 1',
      'Max                    29.52              0.00              2.00                103                 1',
    ].join('\n');
    const r = run({ tablestats: tablestats('piled', 30), tablehistograms: hist });
    expect(r.findings.some((x) => x.id === 'table.sstable-count')).toBe(false);
  });
});
