import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundle, writeBundle } from '../../mcp-server/src/collect/bundle-store.js';
import type { NodeRaw } from '../../mcp-server/src/ops/sweep.js';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { parseTsv, toTsv } from '../../mcp-server/src/core/parse/tsv.js';
import { snapshotFromRaw } from '../../mcp-server/src/ops/snapshot.js';
import { snapshotView } from '../../mcp-server/src/render/snapshot.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

const NODE2 = 'local-runs/cassandra-5.0.9-cluster3';

describe('TSV, the raw form of every CQL result', () => {
  it('round-trips nulls, empty strings, tabs, newlines and backslashes', () => {
    const rows = [
      ['a', null, ''],
      ['tab\there', 'line\nbreak', 'back\\slash'],
    ];
    const parsed = parseTsv(toTsv(['x', 'y', 'z'], rows));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.value.rows.map((r) => [r['x'], r['y'], r['z']])).toEqual(rows);
  });

  it('refuses text that is not a table and warns on a truncated last row', () => {
    expect(parseTsv('').ok).toBe(false);
    expect(parseTsv('not a header!\n1').ok).toBe(false);
    const t = parseTsv('a\tb\n1\t2\n3');
    expect(t.ok && t.value.rows).toEqual([{ a: '1', b: '2' }]);
    expect(t.ok && t.warnings[0]).toMatch(/truncated/);
  });
});

describe('virtual tables → node facts (real 5.0.9 captures)', () => {
  const raw = (names: string[]) => names.map((n) => ({ name: `cql:system_views.${n}`, text: corpus(`${NODE2}/cql_node2/vt_${n}.txt`) }));

  it.skipIf(!HAVE_CORPUS)('types thread pools, caches, settings and per-table latency', () => {
    const { facts, unparsed } = nodeFactsFromRaw(
      raw(['thread_pools', 'caches', 'settings', 'local_read_latency', 'disk_usage', 'max_partition_size', 'tombstones_per_read', 'clients', 'gossip_info']),
    );
    expect(unparsed).toEqual([]);
    expect(facts.threadPools?.find((p) => p.name === 'CompactionExecutor')).toEqual({
      name: 'CompactionExecutor',
      active: 0,
      activeLimit: 2,
      pending: 0,
      blocked: 0,
      blockedAllTime: 0,
      completed: 62,
    });
    const keys = facts.caches?.find((c) => c.name === 'keys');
    expect(keys).toMatchObject({ capacityBytes: 53477376, entries: 30, hits: 148, requests: 173 });
    expect(keys?.hitRatio).toBeCloseTo(0.855, 3);
    expect(facts.caches?.find((c) => c.name === 'rows')?.hitRatio).toBeNull(); // "nan": no requests
    expect(facts.settings?.['allocate_tokens_for_local_replication_factor']).toBe('3');
    const standard1 = facts.tables?.find((t) => t.keyspace === 'keyspace1' && t.table === 'standard1');
    expect(standard1?.localRead).toEqual({ count: 26915, p50Ms: 0, p99Ms: 0.004, maxMs: 0.073, perSecond: 76.503 });
    expect(standard1?.diskMiB).toBe(0);
    expect(facts.clients?.[0]).toMatchObject({ driverName: 'Apache Cassandra Python Driver', protocolVersion: 5 });
    expect(facts.gossip?.map((g) => [g.address, g.status])).toEqual([
      ['127.0.0.1', 'NORMAL'],
      ['127.0.0.2', 'NORMAL'],
      ['127.0.0.3', 'NORMAL'],
    ]);
  });

  it.skipIf(!HAVE_CORPUS)('fills heap, GC and dropped messages from nodetool, pools from the table when both exist', () => {
    const { facts } = nodeFactsFromRaw([
      ...raw(['thread_pools']),
      { name: 'nodetool:info', text: corpus(`${NODE2}/nodetool/nodetool_node2_info.txt`) },
      { name: 'nodetool:gcstats', text: corpus(`${NODE2}/nodetool/nodetool_node2_gcstats.txt`) },
      { name: 'nodetool:tpstats', text: corpus(`${NODE2}/nodetool/nodetool_node2_tpstats.txt`) },
    ]);
    expect(facts.heap).toEqual({ usedMb: 231.77, maxMb: 1024 });
    expect(facts.gc?.collections).toBeGreaterThan(0);
    expect(Object.keys(facts.droppedMessages ?? {})).toContain('MUTATION_REQ');
    expect(facts.threadPools?.[0]?.activeLimit).not.toBeUndefined(); // from the virtual table (has a limit column)
  });

  it('reports outputs it could not parse instead of dropping them silently', () => {
    const { unparsed } = nodeFactsFromRaw([
      { name: 'cql:system_views.thread_pools', text: '' },
      { name: 'nodetool:gcstats', text: 'garbage' },
    ]);
    expect(unparsed.map((u) => u.name)).toEqual(['cql:system_views.thread_pools', 'nodetool:gcstats']);
  });
});

function fakeRaw(address: string, ok: boolean): NodeRaw {
  return {
    node: { address, cqlPort: 9042, jmxHost: '127.0.0.1', jmxPort: 7199, datacenter: 'dc1', rack: 'r1', hostId: null, upPerDriver: ok },
    ms: 5,
    cqlReachable: ok,
    virtualTables: ok ? ['system_views.thread_pools'] : [],
    sources: ok
      ? [
          { name: 'cql:system.local', via: 'cql', ok: true, ms: 1, text: toTsv(['release_version', 'data_center'], [['5.0.9', 'dc1']]), rows: 1 },
          {
            name: 'cql:system_views.thread_pools',
            via: 'cql',
            ok: true,
            ms: 1,
            text: toTsv(['name', 'pending_tasks', 'blocked_tasks', 'blocked_tasks_all_time'], [['MutationStage', '12', '0', '3']]),
            rows: 1,
          },
        ]
      : [{ name: 'cql:system.local', via: 'cql', ok: false, ms: 1, error: { code: 'CQL_UNREACHABLE', message: 'connection refused' } }],
  };
}

describe('bundles', () => {
  it('write then read gives the same snapshot; a dead node stays marked', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cql-tuner-bundle-')), 'b');
    const raw = [fakeRaw('10.0.0.1', true), fakeRaw('10.0.0.2', false)];
    const meta = { collectedAt: '2026-11-21T00:00:00.000Z', durationMs: 10, contactPoints: ['10.0.0.1'] };
    await writeBundle(dir, { tool: { name: 'cql-tuner', version: 'test' }, ...meta }, raw);
    const back = await readBundle(dir);
    const live = snapshotFromRaw(raw, meta);
    const offline = snapshotFromRaw(back.nodes, meta);
    expect(offline.nodes).toEqual(live.nodes);
    const v = snapshotView(offline);
    expect(v.nodes.map((n) => n.status)).toEqual(['complete', 'unreachable']);
    expect(v.nodes[0]).toMatchObject({ releaseVersion: '5.0.9', pendingTasks: 12, blockedAllTime: 3 });
    expect(readdirSync(join(dir, '10.0.0.1')).sort()).toEqual(['cql-system.local.tsv', 'cql-system_views.thread_pools.tsv']);
  });

  it('never overwrites a non-empty folder and leaves no partial folder behind', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'cql-tuner-bundle-'));
    const dir = join(parent, 'taken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'precious');
    await expect(
      writeBundle(dir, { tool: { name: 'cql-tuner', version: 't' }, collectedAt: '', durationMs: 0, contactPoints: [] }, [fakeRaw('a', true)]),
    ).rejects.toMatchObject({ code: 'BUNDLE_EXISTS' });
    expect(readdirSync(parent)).toEqual(['taken']);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });

  it('refuses a manifest that points outside the bundle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-bundle-'));
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        format: 'cql-tuner-bundle/1',
        collectedAt: '',
        durationMs: 0,
        contactPoints: [],
        nodes: [
          {
            node: fakeRaw('a', true).node,
            dir: 'a',
            ms: 0,
            cqlReachable: true,
            virtualTables: [],
            sources: [{ name: 'cql:x.y', via: 'cql', ok: true, ms: 0, file: '../../../etc/passwd' }],
          },
        ],
      }),
    );
    await expect(readBundle(dir)).rejects.toMatchObject({ code: 'NOT_A_BUNDLE' });
  });
});
