import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundle, writeBundle } from '../../mcp-server/src/collect/bundle-store.js';
import type { CqlSession } from '../../mcp-server/src/collect/cql-session.js';
import {
  asAbsenceFact,
  collectNode,
  NODETOOL_WITHOUT_VTABLES,
  SCYLLA_LISTING_SOURCE,
  VIRTUAL_SCHEMA_PROBE,
  type NodeRaw,
  type RawSourceResult,
  type SweepNode,
} from '../../mcp-server/src/ops/sweep.js';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { SCYLLA_TABLES, scyllaTablesToRead } from '../../mcp-server/src/core/facts/from-scylla.js';
import { VTABLES_FOR_FACTS } from '../../mcp-server/src/core/facts/from-vtables.js';
import { parseTsv, toTsv, type TsvTable } from '../../mcp-server/src/core/parse/tsv.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';
import { analyzeBundle, snapshotFromRaw } from '../../mcp-server/src/ops/snapshot.js';
import { snapshotView } from '../../mcp-server/src/render/snapshot.js';
import { corpus, fixture, HAVE_CORPUS } from '../helpers/corpus.js';

const C41 = 'lab/cassandra-4.1-1node/node1';
const C50 = 'lab/cassandra-5.0-1node/node1';
const C50N1 = 'lab/cassandra-5.0-3node/node1';
const NODE: SweepNode = {
  address: '10.0.0.1',
  cqlPort: 9042,
  jmxHost: '10.0.0.1',
  jmxPort: 7199,
  datacenter: 'dc1',
  rack: 'r1',
  hostId: null,
  upPerDriver: true,
};

const table = (text: string): TsvTable => {
  const t = parseTsv(text);
  if (!t.ok) throw new Error(t.reason);
  return t.value;
};
/** The driver's answer when a keyspace is missing (ResponseError, code 8704 = Invalid). */
const invalid = (message: string) => Object.assign(new Error(message), { code: 8704 });

/**
 * A CqlSession that answers from captured tables: "ks.table" → TSV text, or an Error to throw. Only
 * query() is used by collectNode. Records every statement so tests can see what was (not) asked.
 */
function fakeSession(answers: Record<string, string | Error>) {
  const asked: string[] = [];
  const session = {
    async query(_address: string, cql: string) {
      asked.push(cql);
      const m = /^SELECT (.+?) FROM (\w+)\.(\w+)/i.exec(cql);
      const answer = m ? answers[`${m[2]}.${m[3]}`] : undefined;
      if (answer === undefined) throw invalid(`unconfigured table ${m?.[3] ?? '?'}`);
      if (answer instanceof Error) throw answer;
      const t = table(answer);
      const cols = m![1]!.trim() === '*' ? t.columns : m![1]!.split(',').map((c) => c.trim());
      return { columns: cols, rows: t.rows.map((r) => cols.map((c) => r[c] ?? null)), ms: 1 };
    },
  };
  return { session: session as unknown as CqlSession, asked };
}
const sweepOpts = { nodetool: [], batchNodetool: false, nodeTimeoutMs: 20_000 } as const;

const NO_VSCHEMA = invalid('Keyspace system_virtual_schema does not exist');
const local311 = toTsv(
  ['key', 'release_version', 'data_center', 'rack', 'host_id'],
  [['local', '3.11.17', 'dc1', 'r1', '6a1b0e6e-0000-4000-8000-000000000001']],
);

describe('1. no system_virtual_schema is a fact, not an error', () => {
  it('a 3.11 node (keyspace missing, system.local answers) comes out complete, the absence recorded', async () => {
    const { session, asked } = fakeSession({ 'system_virtual_schema.tables': NO_VSCHEMA, 'system.local': local311 });
    const raw = await collectNode(session, NODE, sweepOpts);
    const probe = raw.sources.find((s) => s.name === VIRTUAL_SCHEMA_PROBE);
    expect(probe).toMatchObject({ ok: true, rows: 0 });
    expect(probe?.absent).toMatch(/system_virtual_schema does not exist.*no virtual tables/);
    expect(raw.cqlReachable).toBe(true);
    expect(asked.some((q) => /system_views\./.test(q))).toBe(false);
    const snap = snapshotFromRaw([raw], { collectedAt: '', durationMs: 0, contactPoints: [] });
    expect(snap.nodes[0]).toMatchObject({ status: 'complete', releaseVersion: '3.11.17', product: 'cassandra' });
    expect(snapshotView(snap).nodes[0]?.errors).toEqual([]);
  });

  it('bundles written before this (probe stored as a failure) re-analyse as complete too', () => {
    const old: NodeRaw = {
      node: NODE,
      ms: 1,
      cqlReachable: true,
      virtualTables: [],
      sources: [
        { name: VIRTUAL_SCHEMA_PROBE, via: 'cql', ok: false, ms: 3, error: { code: 'INTERNAL', message: 'Keyspace system_virtual_schema does not exist' } },
        { name: 'cql:system.local', via: 'cql', ok: true, ms: 3, rows: 1, text: local311 },
      ],
    };
    const snap = snapshotFromRaw([old], { collectedAt: '', durationMs: 0, contactPoints: [] });
    expect(snap.nodes[0]?.status).toBe('complete');
    expect(snap.nodes[0]?.sources[0]?.absent).toBeDefined();
  });

  it('real failures still count: a probe that times out, or a virtual table that fails on a node that has it', async () => {
    const timeout: RawSourceResult = {
      name: VIRTUAL_SCHEMA_PROBE,
      via: 'cql',
      ok: false,
      ms: 10_000,
      error: { code: 'INTERNAL', message: 'Operation timed out - received only 0 responses' },
    };
    expect(asAbsenceFact(timeout)).toBe(timeout);
    // The same words on another source are not the probe's answer.
    const other: RawSourceResult = {
      name: 'cql:system_views.thread_pools',
      via: 'cql',
      ok: false,
      ms: 1,
      error: { code: 'INTERNAL', message: 'Keyspace system_virtual_schema does not exist' },
    };
    expect(asAbsenceFact(other)).toBe(other);

    const { session } = fakeSession({
      'system_virtual_schema.tables': fixture(`${C50}/vt-system_virtual_schema.tables.tsv`),
      'system.local': fixture(`${C50}/table-system.local.tsv`),
      'system_views.thread_pools': invalid('unconfigured table thread_pools'),
      ...Object.fromEntries(
        VTABLES_FOR_FACTS.filter((t) => t !== 'thread_pools').map((t) => [`system_views.${t}`, fixture(`${C50}/vt-system_views.${t}.tsv`)]),
      ),
    });
    const raw = await collectNode(session, NODE, sweepOpts);
    const snap = snapshotFromRaw([raw], { collectedAt: '', durationMs: 0, contactPoints: [] });
    expect(snap.nodes[0]?.status).toBe('partial');
    expect(snapshotView(snap).nodes[0]?.errors).toEqual([expect.stringMatching(/^cql:system_views.thread_pools: .*unconfigured table/)]);
  });
});

describe('2. nodetool-only path: tablestats → tables, nodetool version → version', () => {
  const nodetoolOnly = (files: Record<string, string>): NodeRaw => ({
    node: NODE,
    ms: 1,
    cqlReachable: false,
    virtualTables: [],
    sources: [
      { name: 'cql:system.local', via: 'cql', ok: false, ms: 0, error: { code: 'CQL_UNREACHABLE', message: 'connection refused' } },
      ...Object.entries(files).map(([sub, text]): RawSourceResult => ({ name: `nodetool:${sub}`, via: 'nodetool', ok: true, ms: 1, text })),
    ],
  });

  it('collects version with the rest when there are no virtual tables', () => {
    expect(NODETOOL_WITHOUT_VTABLES).toEqual(expect.arrayContaining(['version', 'tablestats', 'info', 'tpstats']));
  });

  it('a real 4.1 capture read through nodetool only shows its user data and its version', () => {
    const raw = nodetoolOnly({
      version: fixture(`${C41}/nodetool-version.txt`),
      info: fixture(`${C41}/nodetool-info.txt`),
      tablestats: fixture(`${C41}/nodetool-tablestats.txt`),
      tpstats: fixture(`${C41}/nodetool-tpstats.txt`),
    });
    const snap = snapshotFromRaw([raw], { collectedAt: '', durationMs: 0, contactPoints: [] });
    const n = snap.nodes[0]!;
    expect(n).toMatchObject({ releaseVersion: '4.1.10', product: 'cassandra' });
    const readings = n.facts.tables?.find((t) => t.keyspace === 'fixture_ks' && t.table === 'readings');
    // "Space used (live): 452028" in that capture.
    expect(readings?.diskMiB).toBeCloseTo(452028 / 1024 ** 2, 9);
    expect(readings?.localRead?.count).toBe(1400);
    expect(readings?.localRead?.p99Ms).toBeNull(); // tablestats prints a mean, not a p99
    const view = snapshotView(snap).nodes[0]!;
    expect(view.userDataMiB).toBeGreaterThan(0.4);
    expect(view.topTables[0]?.table).toBe('fixture_ks.readings');
  });

  it.skipIf(!HAVE_CORPUS)('3.11-era (DSE) cfstats gives the user keyspace its size; partition findings are not doubled', () => {
    const text = corpus('nodetool/cfstats_snapshots_21x_live_dse.txt');
    const r = nodeFactsFromRaw([{ name: 'nodetool:tablestats', text }]);
    const abcd = r.facts.tables?.filter((t) => t.keyspace === 'abcd') ?? [];
    expect(abcd.length).toBeGreaterThan(0);
    expect(abcd.find((t) => t.table === 'migration_version')?.diskMiB).toBeCloseTo(16843 / 1024 ** 2, 9);
    for (const t of abcd) expect(t.maxPartitionMiB).toBeUndefined();
    const out = runRules({ origin: 'test', nodes: [nodeEvidence('10.0.0.1', true, r)] });
    const keys = out.findings.filter((f) => f.table).map((f) => `${f.id} ${f.table}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('where virtual tables answered, their values stay (disk_usage wins over tablestats)', () => {
    const r = nodeFactsFromRaw([
      { name: 'cql:system_views.disk_usage', text: fixture(`${C50}/vt-system_views.disk_usage.tsv`) },
      { name: 'nodetool:tablestats', text: fixture(`${C50}/nodetool-tablestats.txt`) },
    ]);
    const diskUsage = table(fixture(`${C50}/vt-system_views.disk_usage.tsv`)).rows.find(
      (x) => x['keyspace_name'] === 'fixture_ks' && x['table_name'] === 'readings',
    );
    expect(r.facts.tables?.find((t) => t.keyspace === 'fixture_ks' && t.table === 'readings')?.diskMiB).toBe(Number(diskUsage?.['mebibytes']));
  });
});

describe('3. virtual tables: discovered, read where present, streaming interpreted', () => {
  it('the sweep reads exactly the listed tables it can interpret, streaming included', async () => {
    const listing = table(fixture(`${C50N1}/vt-system_virtual_schema.tables.tsv`));
    const listed = listing.rows.filter((r) => r['keyspace_name'] === 'system_views').map((r) => r['table_name']!);
    const answers: Record<string, string> = {
      'system_virtual_schema.tables': fixture(`${C50N1}/vt-system_virtual_schema.tables.tsv`),
      'system.local': fixture(`${C50N1}/table-system.local.tsv`),
    };
    for (const t of listed) answers[`system_views.${t}`] = fixture(`${C50N1}/vt-system_views.${t}.tsv`);
    const { session, asked } = fakeSession(answers);
    const raw = await collectNode(session, NODE, sweepOpts);
    const read = asked
      .map((q) => /FROM system_views\.(\w+)/.exec(q)?.[1])
      .filter(Boolean)
      .sort();
    expect(read).toEqual(listed.filter((t) => VTABLES_FOR_FACTS.includes(t)).sort());
    expect(read).toContain('streaming');
    expect(snapshotFromRaw([raw], { collectedAt: '', durationMs: 0, contactPoints: [] }).nodes[0]).toMatchObject({
      status: 'complete',
      releaseVersion: '5.0.9',
    });
  });

  it('every table on the list yields a fact from a real 5.0 capture (the list is what we interpret)', () => {
    for (const t of VTABLES_FOR_FACTS) {
      const { facts, unparsed } = nodeFactsFromRaw([{ name: `cql:system_views.${t}`, text: fixture(`${C50N1}/vt-system_views.${t}.tsv`) }]);
      expect(unparsed, t).toEqual([]);
      expect(Object.keys(facts).length, `${t} gives no fact`).toBeGreaterThan(0);
    }
  });

  // The corpus capture is cqlsh output (None, True, ['…'], "2026-11-21 21:11:34.728000"); the sweep stores what
  // the driver gives (cellText: null, true, JSON lists, ISO dates). Convert the real rows to that form.
  const driverTsv = (cqlshText: string) => {
    const [head, ...lines] = cqlshText.split('\n').filter((l) => l.trim());
    const cell = (v: string): string | null => {
      if (v === 'None') return null;
      if (v === 'True' || v === 'False') return v.toLowerCase();
      if (/^\[.*\]$/.test(v))
        return JSON.stringify(
          v
            .slice(1, -1)
            .split(',')
            .map((x) => x.trim().replace(/^'|'$/g, ''))
            .filter(Boolean),
        );
      if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+$/.test(v)) return `${v.replace(' ', 'T').slice(0, 23)}Z`;
      return v;
    };
    return toTsv(
      head!.split('\t'),
      lines.map((l) => l.split('\t').map(cell)),
    );
  };

  it.skipIf(!HAVE_CORPUS)('streams from real 5.0.9 system_views.streaming rows (two finished bootstrap streams)', () => {
    const text = driverTsv(corpus('local-runs/cassandra-5.0.9-cluster3/cql_node2/vt_streaming.txt'));
    const { facts } = nodeFactsFromRaw([{ name: 'cql:system_views.streaming', text }]);
    expect(facts.streams).toHaveLength(2);
    expect(facts.streams?.[0]).toMatchObject({
      operation: 'Bootstrap',
      follower: true,
      peers: ['/127.0.0.3:7000'],
      status: 'success',
      active: false,
      progressPercent: 100,
      bytesSent: 5170,
      bytesToSend: 5170,
      durationMs: 146,
    });
    expect(facts.streams?.[1]).toMatchObject({ follower: false, peers: ['localhost/127.0.0.1:7000'], bytesReceived: 5170 });
    // The same row while running: status "start" (StreamingState.Status START, lower-cased) is an active stream.
    const running = text.replace('\tsuccess\t', '\tstart\t');
    expect(nodeFactsFromRaw([{ name: 'cql:system_views.streaming', text: running }]).facts.streams?.filter((s) => s.active)).toHaveLength(1);
  });

  it('an empty streaming table (the lab captures) means no streams, not unknown', () => {
    expect(nodeFactsFromRaw([{ name: 'cql:system_views.streaming', text: fixture(`${C41}/vt-system_views.streaming.tsv`) }]).facts.streams).toEqual([]);
  });
});

describe('4. ScyllaDB: known system tables read only where the node lists them; runtime_info used', () => {
  const scyllaLocal = toTsv(
    ['key', 'release_version', 'data_center', 'rack', 'host_id'],
    [['local', '3.0.8', 'dc1', 'r1', '11111111-2222-4333-8444-555555555555']],
  );
  const versions = toTsv(['key', 'build_id', 'build_mode', 'compatible_version', 'version'], [['local', 'b1', 'release', '3.0.8', '5.2.0']]);
  const listing = (names: string[]) =>
    toTsv(
      ['table_name'],
      names.map((n) => [n]),
    );
  const empty = (cols: string[]) => toTsv(cols, []);

  it('an older release without cluster_status/runtime_info is asked only for what it has, and is complete', async () => {
    const { session, asked } = fakeSession({
      'system_virtual_schema.tables': NO_VSCHEMA,
      'system.local': scyllaLocal,
      'system.versions': versions,
      'system_schema.tables': listing(['local', 'peers', 'versions', 'config', 'clients', 'snapshots', 'large_partitions', 'compaction_history']),
      'system.config': toTsv(['name', 'source', 'type', 'value'], [['num_tokens', 'config', 'integer', '256']]),
      'system.clients': empty(['address', 'port', 'client_type', 'driver_name']),
      'system.snapshots': empty(['keyspace_name', 'table_name', 'snapshot_name', 'live', 'total']),
      'system.large_partitions': empty(['keyspace_name', 'table_name', 'partition_size']),
    });
    const raw = await collectNode(session, NODE, sweepOpts);
    expect(asked.some((q) => /runtime_info|cluster_status/.test(q))).toBe(false);
    expect(raw.sources.map((s) => s.name)).toContain(SCYLLA_LISTING_SOURCE);
    const snap = snapshotFromRaw([raw], { collectedAt: '', durationMs: 0, contactPoints: [] });
    expect(snap.nodes[0]).toMatchObject({ status: 'complete', product: 'scylla', releaseVersion: '5.2.0' });
    expect(snap.nodes[0]?.facts.settings?.['num_tokens']).toBe('256');
  });

  it('a listing that does not even show system.versions cannot be trusted: every known table is read', () => {
    expect(scyllaTablesToRead(null)).toEqual({ tables: SCYLLA_TABLES.filter((t) => t !== 'versions'), discovered: false });
    expect(scyllaTablesToRead(table(listing(['local', 'peers']))).discovered).toBe(false);
    expect(scyllaTablesToRead(table(listing(['versions', 'config', 'runtime_info'])))).toEqual({ tables: ['config', 'runtime_info'], discovered: true });
  });

  it('runtime_info (group/item/value as runtime_info_table writes them) gives uptime and the row cache', () => {
    const runtime = toTsv(
      ['group', 'item', 'value'],
      [
        ['generic', 'gossip_active', 'true'],
        ['generic', 'load', '123456789'],
        ['generic', 'uptime', '86400 seconds'],
        ['generic', 'trace_probability', '0'],
        ['cache', 'memory_total', '1073741824'],
        ['cache', 'memory_used', '805306368'],
        ['cache', 'entries', '5000'],
        ['cache', 'hits', '300'],
        ['cache', 'misses', '700'],
        ['cache', 'hit_rate_total', '0.3'],
        ['cache', 'requests_total', '1000'],
        ['memory', 'total', '8589934592'],
      ],
    );
    const { facts } = nodeFactsFromRaw([
      { name: 'cql:system.versions', text: versions },
      { name: 'cql:system.runtime_info', text: runtime },
    ]);
    expect(facts.uptimeSeconds).toBe(86400);
    expect(facts.caches).toEqual([{ name: 'rows', capacityBytes: 1073741824, sizeBytes: 805306368, entries: 5000, hits: 300, requests: 1000, hitRatio: 0.3 }]);
  });
});

describe('5. bundle manifest records each node’s version', () => {
  const meta = { collectedAt: '2026-11-22T00:00:00.000Z', durationMs: 5, contactPoints: ['10.0.0.1'] };
  const liveNode = (): NodeRaw => ({
    node: NODE,
    ms: 2,
    cqlReachable: true,
    virtualTables: ['system_views.thread_pools'],
    sources: [
      { name: 'cql:system.local', via: 'cql', ok: true, ms: 1, rows: 1, text: fixture(`${C50}/table-system.local.tsv`) },
      { name: 'cql:system_views.thread_pools', via: 'cql', ok: true, ms: 1, rows: 1, text: fixture(`${C50}/vt-system_views.thread_pools.tsv`) },
    ],
  });

  it('writes nodes[].version and reads it back; analyze falls back to it when the version output is missing', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cql-tuner-paths-')), 'b');
    await writeBundle(dir, { tool: { name: 'cql-tuner', version: 'test' }, ...meta }, [liveNode()]);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { nodes: { version?: string; product?: string }[] };
    expect(manifest.nodes[0]).toMatchObject({ version: '5.0.9', product: 'cassandra' });
    expect((await readBundle(dir)).nodes[0]).toMatchObject({ version: '5.0.9', product: 'cassandra' });
    rmSync(join(dir, '10.0.0.1', 'cql-system.local.tsv'));
    const again = await analyzeBundle(dir);
    expect(again.nodes[0]).toMatchObject({ releaseVersion: '5.0.9', product: 'cassandra' });
  });

  it('reads a bundle written before versions were recorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-paths-'));
    const n = liveNode();
    writeFileSync(join(dir, 'local.tsv'), n.sources[0]!.text!);
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        format: 'cql-tuner-bundle/1',
        tool: { name: 'cql-tuner', version: '0.1.0' },
        ...meta,
        nodes: [
          {
            node: NODE,
            dir: '.',
            ms: 1,
            cqlReachable: true,
            virtualTables: [],
            sources: [{ name: 'cql:system.local', via: 'cql', ok: true, ms: 1, rows: 1, file: 'local.tsv' }],
          },
        ],
      }),
    );
    const back = await readBundle(dir);
    expect(back.nodes[0]?.version).toBeUndefined();
    expect((await analyzeBundle(dir)).nodes[0]?.releaseVersion).toBe('5.0.9');
  });
});
