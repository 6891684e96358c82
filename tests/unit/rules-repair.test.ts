import { describe, expect, it } from 'vitest';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { collectionCell, mapCell, timestampMs, tombstoneGcModeFromExtensions } from '../../mcp-server/src/core/facts/from-cluster.js';
import { nodeFactsFromRaw, type RawOutput } from '../../mcp-server/src/core/facts/from-raw.js';
import { durationSettingMs, repairRule } from '../../mcp-server/src/core/rules/repair.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { timeUuidMs } from '../../mcp-server/src/core/timeuuid.js';
import { types } from 'cassandra-driver';
import { PACK, runRule } from '../../mcp-server/src/core/rules/rule.js';

/** Cluster tables as the sweep stores them (collector TSV: JSON collections, ISO timestamps). */
function cluster(parentRows: string[], extra: RawOutput[] = []): RawOutput[] {
  return [
    {
      name: 'cql:system_schema.keyspaces',
      text:
        'keyspace_name\treplication\n' +
        'shop\t{"class":"org.apache.cassandra.locator.NetworkTopologyStrategy","dc1":"3"}\n' +
        'solo\t{"class":"org.apache.cassandra.locator.SimpleStrategy","replication_factor":"1"}\n' +
        'system_auth\t{"class":"org.apache.cassandra.locator.SimpleStrategy","replication_factor":"1"}\n',
    },
    {
      name: 'cql:system_schema.tables#options',
      text:
        'keyspace_name\ttable_name\tgc_grace_seconds\textensions\n' +
        'shop\torders\t864000\t{}\nshop\tcarts\t86400\t{}\nshop\tlogs\t0\t{}\nsolo\tt\t864000\t{}\n',
    },
    { name: 'cql:system.local#clock', text: 'now\n2026-03-20T12:00:00.000Z\n' },
    {
      name: 'cql:system_distributed.parent_repair_history',
      text: ['keyspace_name\tcolumnfamily_names\tstarted_at\tfinished_at\texception_message\toptions', ...parentRows].join('\n') + '\n',
    },
    ...extra,
  ];
}
const run = (outputs: RawOutput[]) => runRule(repairRule, { nodes: [nodeEvidence('n1', true, nodeFactsFromRaw(outputs))], origin: 'test' }, PACK);

describe('last repair vs gc_grace_seconds', () => {
  it('orders repaired 5 days ago is fine (10-day grace); carts (1-day grace) is overdue; RF 1 and gc_grace 0 tables are not judged', () => {
    const o = run(
      cluster(['shop\t["orders","carts"]\t2026-03-15T10:00:00.000Z\t2026-03-15T11:00:00.000Z\t\t{"parallelism":"parallel","incremental":"false"}']),
    );
    expect(o.findings.map((f) => f.id)).toEqual(['repair.overdue']);
    expect(o.findings[0]!.evidence[0]).toMatch(/^shop\.carts: last successful repair 5\.0 d ago .* > gc_grace_seconds 86400 \(1 d\)/);
    expect(o.findings[0]!.confidence).toBe('high');
  });
  it('a failed run does not count as a repair, and is reported', () => {
    const o = run(cluster(['shop\t[]\t2026-03-19T10:00:00.000Z\t2026-03-19T11:00:00.000Z\tRepair session failed\t{}']));
    expect(o.findings.map((f) => f.id).sort()).toEqual(['repair.failed', 'repair.never-repaired']);
    expect(o.findings.find((f) => f.id === 'repair.never-repaired')!.title).toMatch(/2 table\(s\) of shop .* last 30 days/);
  });
  it('a whole-keyspace repair (no table list) covers every table', () => {
    expect(run(cluster(['shop\t[]\t2026-03-20T05:00:00.000Z\t2026-03-20T06:00:00.000Z\t\t{}'])).findings).toEqual([]);
  });
  it('reads cqlsh cell formats (sets, maps, timestamps)', () => {
    expect(collectionCell("{'orders', 'carts'}")).toEqual(['orders', 'carts']);
    expect(mapCell("{'class': 'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': '3'}")).toEqual({
      class: 'org.apache.cassandra.locator.SimpleStrategy',
      replication_factor: '3',
    });
    expect(timestampMs('2024-05-01 10:00:00.000000+0000')).toBe(Date.parse('2024-05-01T10:00:00.000Z'));
  });
});

describe('ScyllaDB tombstone_gc', () => {
  // The extension blob as the collector writes it: the mode map in ScyllaDB's serialisation (length-prefixed strings).
  const blob = (mode: string) => {
    const parts = ['mode', mode, 'propagation_delay_in_seconds', '3600'];
    const bytes = [2, 0, 0, 0, ...parts.flatMap((p) => [p.length, 0, 0, 0, ...Buffer.from(p)])];
    return `0x${Buffer.from(bytes).toString('hex')}`;
  };
  it('finds the mode in the schema extension', () => {
    expect(tombstoneGcModeFromExtensions(JSON.stringify({ tombstone_gc: blob('repair') }))).toBe('repair');
    expect(tombstoneGcModeFromExtensions('{}')).toBeNull();
  });
  it('repair mode with no repair recorded: tombstones are never purged', () => {
    const outputs: RawOutput[] = [
      { name: 'cql:system.versions', text: 'key\tversion\nlocal\t2025.1.0\n' },
      {
        name: 'cql:system_schema.tables#options',
        text: `keyspace_name\ttable_name\tgc_grace_seconds\textensions\nks\tt\t864000\t${JSON.stringify({ tombstone_gc: blob('repair') })}\n`,
      },
      { name: 'cql:system.repair_history', text: 'table_uuid\tkeyspace_name\ttable_name\trepair_time\n' },
    ];
    const o = run(outputs);
    expect(o.findings.map((f) => f.id)).toEqual(['repair.tombstone-gc-repair']);
  });
});

describe('hints vs max_hint_window', () => {
  const hints = (rows: string) => ({
    name: 'cql:system_views.pending_hints',
    text: `host_id\taddress\tport\track\tdc\tstatus\tfiles\tnewest\toldest\n${rows}\n`,
  });
  const settings = { name: 'cql:system_views.settings', text: 'name\tvalue\nmax_hint_window\t3h\n' };
  it('a DOWN node with hints spanning 5 h (window 3 h) must be repaired', () => {
    const o = run([settings, hints('a1b2\t10.0.0.9\t7000\tr1\tdc1\tDOWN\t4\t2026-03-20T11:00:00.000Z\t2026-03-20T06:00:00.000Z')]);
    const f = o.findings.find((x) => x.id === 'repair.hint-window-exceeded');
    expect(f).toMatchObject({ severity: 'critical', node: '10.0.0.9' });
    expect(f!.evidence[0]).toContain('hint window 3 h (max_hint_window = 3h)');
  });
  it('an UP node with files left is a replay backlog; a DOWN node inside the window a warning', () => {
    expect(
      run([settings, hints('a1b2\t10.0.0.9\t7000\tr1\tdc1\tUP\t2\t2026-03-20T11:00:00.000Z\t2026-03-20T10:00:00.000Z')]).findings.map((f) => f.id),
    ).toEqual(['repair.hint-backlog']);
    expect(
      run([settings, hints('a1b2\t10.0.0.9\t7000\tr1\tdc1\tDOWN\t2\t2026-03-20T11:00:00.000Z\t2026-03-20T10:00:00.000Z')]).findings.map((f) => f.id),
    ).toEqual(['repair.hints-for-down-node']);
  });
  it('duration settings in every spelling the nodes print', () => {
    expect([
      durationSettingMs('3h'),
      durationSettingMs('10800000'),
      durationSettingMs('10800000ms'),
      durationSettingMs('180m'),
      durationSettingMs('x'),
    ]).toEqual([10_800_000, 10_800_000, 10_800_000, 10_800_000, null]);
  });
  it('no hints, history or table options: skipped with the reason', () => {
    expect(runRule(repairRule, { nodes: [nodeEvidence('n1', true, nodeFactsFromRaw([]))], origin: 't' }, PACK)).toMatchObject({ checked: false });
  });
});

describe('interpret: a pasted repair history', () => {
  it('cqlsh output of parent_repair_history shows a failed run', () => {
    const text = [
      'cqlsh> SELECT keyspace_name, columnfamily_names, started_at, finished_at, exception_message FROM system_distributed.parent_repair_history;',
      '',
      ' keyspace_name | columnfamily_names | started_at                      | finished_at                     | exception_message',
      '---------------+--------------------+---------------------------------+---------------------------------+-------------------',
      "          shop |       {'orders'}   | 2024-05-01 10:00:00.000000+0000 | 2024-05-01 10:05:00.000000+0000 | " +
        'Got negative replies from endpoints [/10.0.0.3]',
      '',
      '(1 rows)',
    ].join('\n');
    const r = interpretText(text);
    expect(r.kind).toBe('cql.table');
    expect(r.findings.map((f) => f.id)).toEqual(['repair.failed']);
  });
});

describe('a real 1-node 5.0.9 lab bundle (tests/fixtures/repair/lab-c509-1node)', () => {
  it('the never-repaired RF 2 table is reported with the node clock; nothing else from the repair rule', async () => {
    const { readdirSync } = await import('node:fs');
    const { fixture } = await import('../helpers/corpus.js');
    const dir = 'repair/lab-c509-1node';
    const files = readdirSync(new URL(`../fixtures/${dir}/`, import.meta.url)).filter((f) => f.endsWith('.tsv'));
    // Bundle file names: "cql-<ks>.<table>[_<suffix>].tsv" for the source "cql:<ks>.<table>[#<suffix>]".
    const outputs = files.map((f) => ({ name: `cql:${f.slice(4, -4).replace(/_(clock|options)$/, '#$1')}`, text: fixture(`${dir}/${f}`) }));
    const o = run(outputs);
    expect(o.findings.map((f) => f.id)).toEqual(['repair.never-repaired']);
    expect(o.findings[0]!.evidence).toContain('now: node clock 2026-11-24T16:53:02.992Z');
    expect(o.findings[0]!.evidence[0]).toMatch(/^h4proof\.events: no successful repair/);
  });
});

describe('table age from its time-based id', () => {
  const withIds = (created: Record<string, string>): RawOutput[] =>
    cluster([], []).map((o) =>
      o.name === 'cql:system_schema.tables#options'
        ? {
            name: o.name,
            text:
              'keyspace_name\ttable_name\tid\tgc_grace_seconds\textensions\n' +
              `shop\torders\t${created['orders']}\t864000\t{}\nshop\tcarts\t${created['carts']}\t86400\t{}\n`,
          }
        : o,
    );
  it('reads the creation time of a version-1 UUID exactly as the driver writes it; other versions are not dates', () => {
    const at = new Date('2026-03-18T09:30:00.123Z');
    expect(timeUuidMs(types.TimeUuid.fromDate(at).toString())).toBe(at.getTime());
    expect(timeUuidMs('5a1c395e-b41f-3a8e-a7d5-0b1e2a4f9c11')).toBeNull(); // name-based (system tables)
    expect(timeUuidMs('not a uuid')).toBeNull();
  });
  it('a table created 2 days ago with a 10-day grace is not yet due (info); one older than its 1-day grace is never-repaired', () => {
    const o = run(
      withIds({
        orders: types.TimeUuid.fromDate(new Date('2026-03-18T12:00:00Z')).toString(),
        carts: types.TimeUuid.fromDate(new Date('2026-03-18T12:00:00Z')).toString(),
      }),
    );
    expect(o.findings.map((f) => [f.id, f.severity])).toEqual([
      ['repair.never-repaired', 'warning'],
      ['repair.not-yet-due', 'info'],
    ]);
    expect(o.findings[0]!.evidence[0]).toMatch(/^shop\.carts:/);
    expect(o.findings[1]!.evidence[0]).toMatch(/^shop\.orders: created 2026-03-18T12:00:00\.000Z \(2 d ago\), gc_grace_seconds 864000/);
  });
});
