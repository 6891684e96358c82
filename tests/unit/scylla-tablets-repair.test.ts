/**
 * ScyllaDB tablet tables: the tablet scheduler's repairs are recorded per tablet in system.tablets (repair_time), not
 * in system.repair_history (repair/row_level.cc at scylla-2026.2.5). Read from a paste (cqlsh) and from the sweep.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { nodeFactsFromRaw, type RawOutput } from '../../mcp-server/src/core/facts/from-raw.js';
import { tabletRepairsFromTable } from '../../mcp-server/src/core/facts/scylla-tablets.js';
import { parseTsv } from '../../mcp-server/src/core/parse/tsv.js';
import { repairRule } from '../../mcp-server/src/core/rules/repair.js';
import { PACK, runRule } from '../../mcp-server/src/core/rules/rule.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const fixture = (f: string) => readFileSync(new URL(`../fixtures/scylla-tablets/${f}`, import.meta.url), 'utf8');
const stateOf = (text: string) => interpretText(text).findings.find((f) => f.id === 'repair.tablet-state');

describe('a pasted system.tablets', () => {
  it('real (scylladb PR #25578): base table t with 2 unrepaired tablets, vt1 and vt2 co-located with it', () => {
    const f = stateOf(fixture('pr25578-colocated-before-repair.txt'));
    expect(f?.title).toBe('3 tablet table(s): 0 repaired in full, 1 with tablets never repaired, 2 co-located (repaired with their base table)');
    expect(f?.evidence).toEqual([
      't: 0 of 2 tablets repaired [system.tablets]',
      'vt2: co-located with fd0f5470-8309-11f0-b840-fa0066f04ac1: repaired with its tablets [system.tablets]',
      'vt1: co-located with fd0f5470-8309-11f0-b840-fa0066f04ac1: repaired with its tablets [system.tablets]',
    ]);
    expect(f?.knowledgeIds).toContain('scylla.tablets.repair-time');
  });

  it('a table is repaired in full as of its oldest tablet; one with unrepaired tablets is named first', () => {
    const f = stateOf(fixture('derived-scheduler-repaired.txt'));
    expect(f?.severity).toBe('info');
    expect(f?.title).toBe('2 tablet table(s): 1 repaired in full, 1 with tablets never repaired');
    expect(f?.evidence).toEqual([
      'shop.carts: 2 of 4 tablets repaired (oldest 2026-11-27T03:01:00.000Z, newest 2026-11-27T03:01:40.000Z) [system.tablets]',
      'shop.orders: 4 of 4 tablets repaired (oldest 2026-11-20T02:10:11.000Z, newest 2026-11-27T02:12:31.000Z) [system.tablets]',
    ]);
  });

  it('ScyllaDB before 2025.1 kept no repair_time: no tablet repair facts', () => {
    const old = parseTsv('table_id\tkeyspace_name\ttable_name\tlast_token\treplicas\nx\tks\tt\t-1\t[]\n');
    expect(old.ok && tabletRepairsFromTable(old.value)).toBeNull();
  });
});

describe('the sweep: tablet repairs count as repairs', () => {
  // The tombstone_gc extension as the collector writes it (ScyllaDB's length-prefixed string map).
  const blob = (mode: string) => {
    const parts = ['mode', mode, 'propagation_delay_in_seconds', '3600'];
    return `0x${Buffer.from([2, 0, 0, 0, ...parts.flatMap((p) => [p.length, 0, 0, 0, ...Buffer.from(p)])]).toString('hex')}`;
  };
  const tablet = (table: string, id: string, token: string, at: string) => `shop\t${table}\t${id}\t${token}\t${at}`;
  const tablets: RawOutput = {
    name: 'cql:system.tablets',
    text:
      [
        'keyspace_name\ttable_name\ttable_id\tlast_token\trepair_time',
        tablet('orders', 'o-id', '-1', '2026-11-20T02:10:11.000Z'),
        tablet('orders', 'o-id', '9223372036854775807', '2026-11-27T02:12:31.000Z'),
        tablet('carts', 'c-id', '-1', '2026-11-27T03:01:00.000Z'),
        tablet('carts', 'c-id', '9223372036854775807', ''),
      ].join('\n') + '\n',
  };
  const outputs = (mode: string, grace: number, withTablets: boolean): RawOutput[] => [
    { name: 'cql:system.versions', text: 'key\tversion\nlocal\t2026.1.0\n' },
    {
      name: 'cql:system_schema.keyspaces',
      text: 'keyspace_name\treplication\nshop\t{"class":"org.apache.cassandra.locator.NetworkTopologyStrategy","dc1":"3"}\n',
    },
    {
      name: 'cql:system_schema.tables#options',
      text: `keyspace_name\ttable_name\tgc_grace_seconds\textensions\n${['orders', 'carts'].map((t) => `shop\t${t}\t${grace}\t${JSON.stringify({ tombstone_gc: blob(mode) })}`).join('\n')}\n`,
    },
    { name: 'cql:system.local#clock', text: 'now\n2026-11-29T12:00:00.000Z\n' },
    { name: 'cql:system.repair_history', text: 'table_uuid\tkeyspace_name\ttable_name\trepair_time\n' },
    ...(withTablets ? [tablets] : []),
  ];
  const run = (o: RawOutput[]) => runRule(repairRule, { nodes: [nodeEvidence('n1', true, nodeFactsFromRaw(o))], origin: 'test' }, PACK).findings;

  it('tombstone_gc mode repair (the tablet default): only the table with unrepaired tablets keeps its tombstones', () => {
    // Reading repair_history alone, both tables look never repaired (the scheduler does not write it).
    expect(run(outputs('repair', 864000, false)).find((f) => f.id === 'repair.tombstone-gc-repair')?.title).toMatch(/^2 table\(s\)/);
    const f = run(outputs('repair', 864000, true));
    expect(f.map((x) => x.id)).toEqual(['repair.tombstone-gc-repair']);
    expect(f[0]!.evidence).toEqual([
      'shop.carts: tombstone_gc mode repair [system_schema.tables extensions]; 1 of 2 tablets repaired (oldest 2026-11-27T03:01:00.000Z, newest 2026-11-27T03:01:00.000Z) [system.tablets]',
    ]);
  });

  it('tombstone_gc mode timeout: the oldest tablet repair is held against gc_grace_seconds', () => {
    // 7-day grace: orders' oldest tablet was repaired 9.4 days ago; carts has never been repaired in full.
    const week = run(outputs('timeout', 7 * 86400, true));
    expect(week.map((x) => x.id).sort()).toEqual(['repair.never-repaired', 'repair.overdue']);
    expect(week.find((x) => x.id === 'repair.overdue')!.evidence[0]).toMatch(/^shop\.orders: last successful repair 9\.4 d ago \(2026-11-20T02:10:11\.000Z\)/);
    expect(week.find((x) => x.id === 'repair.never-repaired')!.evidence[0]).toMatch(/^shop\.carts: no successful repair in .*; 1 of 2 tablets repaired/);
    // 10-day grace: orders is within it.
    expect(run(outputs('timeout', 864000, true)).map((x) => x.id)).toEqual(['repair.never-repaired']);
  });
});
