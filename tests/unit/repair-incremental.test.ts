import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

// Real outputs of a 3-node Cassandra 5.0.9 lab (tests/fixtures/repair-incremental/SOURCES.tsv): shop.orders repaired
// incrementally then written to again, shop.events repaired with --full.
const fx = (f: string) => readFileSync(new URL(`../fixtures/repair-incremental/${f}`, import.meta.url), 'utf8');
const LAB_41 = (f: string) => readFileSync(new URL(`../fixtures/lab/cassandra-4.1-3node/node1/${f}`, import.meta.url), 'utf8');
const DSE_CFSTATS = readFileSync(new URL('../../../shared/corpus/nodetool/cfstats_snapshots_21x_live_dse.txt', import.meta.url), 'utf8');

const node = (addr: string, outputs: Record<string, string>) =>
  nodeEvidence(addr, true, nodeFactsFromRaw(Object.entries(outputs).map(([k, text]) => ({ name: `nodetool:${k}`, text }))));
const incremental = (nodes: ReturnType<typeof node>[]) => runRules({ origin: 'test', nodes }).findings.filter((f) => f.id === 'repair.incremental-state');

describe('incremental repair state from tablestats (kb:repair.percent-repaired)', () => {
  it('three real nodes: the incrementally repaired table is listed with its share and bytes; the fully repaired one at 0 % is not', () => {
    const nodes = [1, 2, 3].map((i) => node(`127.0.0.${i}`, { tablestats: fx(`node${i}-tablestats.txt`), version: fx('version.txt') }));
    const [f, ...more] = incremental(nodes);
    expect(more).toEqual([]);
    expect(f).toMatchObject({
      severity: 'info',
      knowledgeIds: ['repair.percent-repaired'],
      title: 'Incremental repair has marked data repaired in 1 table(s)',
    });
    expect(f!.evidence[0]).toBe('shop.orders: 62.5 % repaired on 3 node(s), 1.97 MiB unrepaired across them');
    expect(f!.evidence.join('\n')).not.toMatch(/shop\.events/);
  });

  it('a pasted tablestats alone (no version) counts by its 4.0+ byte lines, through interpret', () => {
    const r = interpretText(fx('node1-tablestats.txt'));
    const f = r.findings.find((x) => x.id === 'repair.incremental-state');
    expect(f?.evidence[0]).toBe('shop.orders: 62.5 % repaired on 1 node(s), 673 KiB unrepaired across them');
  });

  it('tables without SSTables print 100 % and system keyspaces are skipped: a fresh 4.1 lab has nothing to say', () => {
    expect(LAB_41('nodetool-tablestats.txt')).toMatch(/Percent repaired: 100\.0/);
    expect(incremental([node('127.0.0.1', { tablestats: LAB_41('nodetool-tablestats.txt') })])).toEqual([]);
  });

  it('before 4.0 full repairs marked data too: a DSE 2.1-era cfstats at 58 % is not read as incremental repair', () => {
    expect(DSE_CFSTATS).toMatch(/Percent repaired: 58\.25/);
    expect(incremental([node('10.0.0.1', { tablestats: DSE_CFSTATS })])).toEqual([]);
  });

  it('the repair rule runs on tablestats alone and says so in what it checked', () => {
    const r = runRules({ origin: 'test', nodes: [node('127.0.0.1', { tablestats: fx('node1-tablestats.txt') })] });
    const o = r.outcomes.find((x) => x.rule === 'repair')!;
    expect(o).toMatchObject({ checked: true, findings: 1 });
    expect(o.checks).toMatch(/incremental repair state/);
    expect(r.findings.map((x) => x.id)).toContain('repair.incremental-state');
  });
});
