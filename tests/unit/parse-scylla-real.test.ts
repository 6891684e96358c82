import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import {
  parseCompactionstats,
  parseDescribecluster,
  parseGossipinfo,
  parseInfo,
  parseNetstats,
  parseStatus,
  parseTablehistograms,
  parseTablestats,
} from '../../mcp-server/src/core/parse/nodetool/index.js';
import type { Parsed } from '../../mcp-server/src/core/parsed.js';
import { FIXTURES_DIR, fixture } from '../helpers/corpus.js';

// Real ScyllaDB nodetool outputs published in public issues (tests/fixtures/scylla/SOURCES.tsv gives the issue,
// the ScyllaDB version when stated and what an expert reads from each). Every value asserted below is what
// that reading needs: node counts and states, loads, pending tasks, schema versions, and the ScyllaDB oddities
// (negative counters, "?" states, reversed schema lines) that must surface as notes rather than as facts.
const DIR = join(FIXTURES_DIR, 'scylla');
const sample = (name: string) => fixture(`scylla/${name}`);
const GiB = 1024 ** 3;
const TiB = 1024 ** 4;

function ok<T>(r: Parsed<T>): { value: T; warnings: string[] } {
  if (!r.ok) throw new Error(`not parsed: ${r.reason}`);
  return { value: r.value, warnings: r.warnings };
}

const KIND_BY_PREFIX: Record<string, string> = {
  status: 'nodetool.status',
  compactionstats: 'nodetool.compactionstats',
  cfstats: 'nodetool.tablestats',
  cfhistograms: 'nodetool.tablehistograms',
  info: 'nodetool.info',
  gossipinfo: 'nodetool.gossipinfo',
  describecluster: 'nodetool.describecluster',
  netstats: 'nodetool.netstats',
  proxyhistograms: 'nodetool.proxyhistograms',
  tpstats: 'nodetool.tpstats',
};

describe('real ScyllaDB samples: provenance and detection', () => {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  const sources = fixture('scylla/SOURCES.tsv')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));

  it('every sample has a SOURCES.tsv row with an origin and an expert reading, and vice versa', () => {
    const [header, ...rows] = sources;
    expect(header).toEqual(['file', 'repository', 'path_or_url', 'commit', 'scylladb_version', 'expert_reading']);
    expect(rows.every((r) => r.length === 6 && r[1]!.startsWith('scylladb/') && /^https:\/\/github\.com\/scylladb\//.test(r[2]!) && r[5]!.length > 40)).toBe(
      true,
    );
    expect(rows.map((r) => r[0]).sort()).toEqual(files);
    expect(files.length).toBeGreaterThanOrEqual(20);
    expect(new Set(files.map((f) => f.split('_')[0])).size).toBeGreaterThanOrEqual(6);
  });

  it.each(files)('%s is detected as its nodetool kind', (name) => {
    const d = detect(sample(name));
    expect(d.ok ? d.kind : d.reason).toBe(KIND_BY_PREFIX[name.split('_')[0]!]);
  });
});

describe('nodetool status (ScyllaDB)', () => {
  it('1.6.2, 9 redacted nodes in DC1: all UN, loads and effective ownership', () => {
    const { value: s, warnings } = ok(parseStatus(sample('status_scylla162-9node-redacted_issue2282.txt')));
    expect(s.datacenters).toEqual(['DC1']);
    expect(s.nodes.map((n) => n.address)).toEqual(['IP1', 'IP2', 'IP3', 'IP4', 'IP5', 'IP6', 'IP7', 'IP8', 'IP9']);
    expect(s.nodes.every((n) => n.code === 'UN' && n.tokens === 256)).toBe(true);
    expect(s.ownsEffective).toBe(true);
    expect(s.nodes.map((n) => n.ownsPercent)).toEqual([33.8, 35.1, 32.9, 33.0, 34.2, 35.7, 31.3, 31.9, 32.0]);
    expect(s.nodes[1]!.loadBytes).toBe(Math.round(125.95 * GiB));
    expect(Math.min(...s.nodes.map((n) => n.loadBytes!))).toBe(Math.round(110.87 * GiB));
    expect(new Set(s.nodes.map((n) => n.rack))).toEqual(new Set(['R166', 'R132', 'R189']));
    expect(s.rowsNotParsed).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('1.6rc1 after a failed decommission: one UL, one DN, three UN', () => {
    const { value: s } = ok(parseStatus(sample('status_scylla16rc1-UL-DN_issue2042.txt')));
    expect(s.nodes.map((n) => [n.address, n.code, n.up, n.state])).toEqual([
      ['172.30.0.104', 'UN', true, 'normal'],
      ['172.30.0.199', 'UL', true, 'leaving'],
      ['172.30.0.208', 'UN', true, 'normal'],
      ['172.30.0.64', 'UN', true, 'normal'],
      ['172.30.0.49', 'DN', false, 'normal'],
    ]);
    expect(s.nodes[4]!.loadBytes).toBe(Math.round(5.91 * GiB));
    expect(s.ownsEffective).toBe(false);
    expect(s.nodes.every((n) => n.ownsPercent === null)).toBe(true);
  });

  it('"?N" (liveness unknown to the observer) is a node row, not a dropped line, and is noted', () => {
    const { value: s, warnings } = ok(parseStatus(sample('status_unknown-state-qN_issue13692.txt')));
    expect(s.nodes.map((n) => [n.address, n.code, n.up])).toEqual([
      ['10.0.2.193', '?N', false],
      ['10.0.73.58', 'UN', true],
      ['10.0.1.202', 'UN', true],
    ]);
    expect(s.nodes.map((n) => n.loadBytes)).toEqual([Math.round(1.96 * TiB), Math.round(2.19 * TiB), Math.round(2.31 * TiB)]);
    expect(s.datacenters).toEqual(['ap-southeast-1-dc1']);
    expect(s.notes).toEqual([expect.stringMatching(/^10\.0\.2\.193 is "\?N": status unknown to this observer/)]);
    expect(s.rowsNotParsed).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('0.13.2 negative load is kept as printed and flagged as a counter bug', () => {
    const { value: s } = ok(parseStatus(sample('status_scylla0132-negative-load_issue719.txt')));
    expect(s.nodes).toHaveLength(1);
    expect(s.nodes[0]!.loadBytes).toBe(-1990250000);
    expect(s.notes).toContain("Note: Non-system keyspaces don't have the same replication settings, effective ownership information is meaningless");
    expect(s.notes.some((n) => /127\.0\.0\.1 load is negative .*counter bug.*#719/.test(n))).toBe(true);
  });

  it('2015 bare byte load and "?" load; empty datacenter and rack', () => {
    const { value: s } = ok(parseStatus(sample('status_unitless-load_issue394.txt')));
    expect(s.nodes.map((n) => [n.address, n.loadBytes, n.loadText])).toEqual([
      ['172.31.19.251', 24825, '24825'],
      ['172.31.19.250', null, '?'],
    ]);
    const { value: e } = ok(parseStatus(sample('status_empty-dc-no-load_issue255.txt')));
    expect(e.datacenters).toEqual(['']);
    expect(e.nodes.map((n) => [n.code, n.loadBytes, n.rack, n.hostId])).toEqual([['UN', null, '', '0d2ce3b6-dcc9-4d16-ab72-1b2789f82526']]);
  });

  it('1.6.2 dead node with "?" load', () => {
    const { value: s } = ok(parseStatus(sample('status_scylla162-DN-unknown-load_issue2254.txt')));
    expect(s.nodes.map((n) => [n.address, n.code, n.loadBytes])).toEqual([
      ['10.240.0.23', 'UN', Math.round(13.78 * 1024 ** 2)],
      ['10.240.0.26', 'DN', null],
      ['10.240.0.27', 'UN', Math.round(52.74 * 1024 ** 2)],
      ['10.240.0.28', 'UN', Math.round(63.11 * 1024 ** 2)],
    ]);
  });

  it('native nodetool (2025, single-space columns) quoted through SCT log prefixes', () => {
    const { value: s, warnings } = ok(parseStatus(sample('status_sct-prefix-native-2025_issue22496.txt')));
    expect(s.datacenters).toEqual(['us-east1']);
    expect(s.nodes.map((n) => [n.code, n.address, n.loadBytes, n.tokens, n.ownsPercent, n.hostId, n.rack])).toEqual([
      ['UN', '10.142.0.14', Math.round(1.22 * TiB), 256, null, 'bffa449c-2e06-4fca-beb6-eb11a88b4bb1', 'c'],
      ['UN', '10.142.0.26', Math.round(1.24 * TiB), 256, null, 'ac851e36-4aea-46a7-b301-5585a35e479e', 'c'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('SCT RemoteCmdRunner prefix, header without the DC banner: the leaving node is seen', () => {
    const { value: s } = ok(parseStatus(sample('status_sct-prefix-UL_issue7007.txt')));
    expect(s.nodes).toHaveLength(5);
    expect(s.nodes.filter((n) => n.code !== 'UN').map((n) => [n.address, n.code, n.state, n.loadBytes])).toEqual([
      ['10.0.2.55', 'UL', 'leaving', Math.round(2.7 * GiB)],
    ]);
    expect(s.nodes.every((n) => n.rack === '1a')).toBe(true);
  });
});

describe('nodetool compactionstats (ScyllaDB)', () => {
  it('858255 pending with 8 running keys-unit compactions: product scylla, pending marked unreliable', () => {
    const { value: c, warnings } = ok(parseCompactionstats(sample('compactionstats_pending858255-none-ids_issue4444.txt')));
    expect(c.product).toBe('scylla');
    expect(c.pendingTasks).toBe(858255);
    expect(c.pendingTasksReliable).toBe(false);
    expect(c.pendingByTable).toEqual([{ keyspace: 'keyspace1', table: 'standard1', pending: 858255 }]);
    expect(c.compactions).toHaveLength(8);
    expect(c.compactions.every((x) => x.id === null && x.type === 'COMPACTION' && x.unit === 'keys')).toBe(true);
    expect(c.compactions.map((x) => x.progressPercent)).toEqual([43.04, 58.06, 97.98, 63.12, 0.84, 73.43, 7.66, 29.98]);
    expect(c.compactions[2]).toMatchObject({ completed: 2764672, total: 2821632 });
    expect(c.remainingTimeSeconds).toBe(0);
    expect(c.notes.some((n) => /unreliable/.test(n))).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('3.0.2: 154961134 pending for one table, one compaction at 54.26%', () => {
    const { value: c } = ok(parseCompactionstats(sample('compactionstats_scylla302_issue4228.txt')));
    expect(c.pendingTasks).toBe(154961134);
    expect(c.pendingByTable).toEqual([{ keyspace: 'example_ks', table: 'example_cf', pending: 154961134 }]);
    expect(c.compactions).toEqual([
      {
        id: null,
        type: 'COMPACTION',
        keyspace: 'example_ks',
        table: 'example_cf',
        completed: 183842990,
        total: 338803328,
        unit: 'keys',
        progressPercent: 54.26,
      },
    ]);
  });

  it('4.1.7 -H ignored: counts stay in keys; the paste without the remaining-time line is called truncated', () => {
    const { value: c, warnings } = ok(parseCompactionstats(sample('compactionstats_scylla417-H_issue7927.txt')));
    expect(c.pendingTasks).toBe(3);
    expect(c.compactions.map((x) => [x.keyspace, x.table, x.completed, x.total, x.unit])).toEqual([
      ['e_a_ks', 'r_a', 912979, 4153856, 'keys'],
      ['e_a_ks', 'r_a', 914629, 4083200, 'keys'],
      ['e_a_ks', 'r_a', 940824, 4056064, 'keys'],
      ['e_a_ks', 'r_a', 911964, 4079872, 'keys'],
    ]);
    expect(c.remainingTimeSeconds).toBeNull();
    expect(warnings).toEqual(['no "active compaction remaining time" line: the output looks truncated']);
  });

  it('dtest log prefix on the first line only; right-aligned Java columns', () => {
    const { value: c, warnings } = ok(parseCompactionstats(sample('compactionstats_dtest-prefix_stj30.txt')));
    expect(c.pendingTasks).toBe(0);
    expect(c.compactions).toEqual([
      { id: null, type: 'COMPACTION', keyspace: 'keyspace1', table: 'standard1', completed: 2615, total: 31104, unit: 'keys', progressPercent: 8.41 },
    ]);
    expect(c.product).toBe('scylla');
    expect(warnings).toEqual([]);
  });
});

describe('nodetool cfstats (ScyllaDB 2015)', () => {
  it('tab-indented keyspace/table; negative "Space used (live)" flagged, other counts read', () => {
    const { value: t, warnings } = ok(parseTablestats(sample('cfstats_negative-live-space_issue682.txt')));
    // The paste stops before the dashed line that closes a keyspace: said, not hidden.
    expect(warnings).toEqual(['the last keyspace is not closed by a dashed line: the output may be truncated']);
    expect(t.keyspaces.map((k) => [k.name, k.writeCount, k.readCount, k.pendingFlushes])).toEqual([['keyspace1', 2751529, 0, 0]]);
    expect(t.tables).toHaveLength(1);
    const tb = t.tables[0]!;
    expect([tb.keyspace, tb.name, tb.sstableCount, tb.spaceUsedLiveBytes, tb.spaceUsedTotalBytes, tb.partitionsEstimate]).toEqual([
      'keyspace1',
      'standard1',
      36,
      -1990334556,
      521651737,
      3201540,
    ]);
    expect(t.notes.some((n) => /keyspace1\.standard1: negative "Space used".*#682/.test(n))).toBe(true);
  });
});

describe('nodetool info (ScyllaDB)', () => {
  it('0.13.2 negative load: kept, noted; heap is the JMX proxy JVM', () => {
    const { value: i } = ok(parseInfo(sample('info_scylla0132-negative-load_issue688.txt')));
    expect([i.hostId, i.gossipActive, i.nativeTransportActive, i.uptimeSeconds, i.heapUsedMb, i.heapMaxMb]).toEqual([
      '37b3d89b-fca2-42b7-a15c-d3237a3f2bcc',
      true,
      true,
      529,
      466.32,
      1710.5,
    ]);
    expect(i.loadBytes).toBe(-1990250115);
    expect(i.rowCache).toMatchObject({ entries: 10, hits: 57, requests: 95, recentHitRate: 0.604 });
    expect(i.notes).toEqual([expect.stringMatching(/^Load is negative \(-1990250115 bytes\): a counter bug/)]);
  });

  it('1.3 negative row-cache capacity is read as negative and noted, load 360.1 MB', () => {
    const { value: i } = ok(parseInfo(sample('info_scylla13-negative-rowcache-capacity_issue1801.txt')));
    expect(i.loadBytes).toBe(Math.round(360.1 * 1024 ** 2));
    expect(i.rowCache).toEqual({
      entries: 812536,
      sizeBytes: Math.round(793.49 * 1024),
      capacityBytes: -434297404,
      hits: 115,
      requests: 140,
      recentHitRate: 0.821,
    });
    expect(i.keyCache?.capacityBytes).toBe(0);
    expect(i.notes).toEqual([expect.stringMatching(/^rowCache has a negative size or capacity/)]);
  });
});

describe('nodetool gossipinfo (ScyllaDB)', () => {
  it('2015 layout without "/" before the address', () => {
    const { value: g, warnings } = ok(parseGossipinfo(sample('gossipinfo_scylla2015-no-slash_issue444.txt')));
    expect(g.endpoints.map((e) => [e.address, e.status, e.datacenter, e.rack, e.releaseVersion, e.loadBytes, e.generation, e.heartbeat])).toEqual([
      ['127.0.0.1', 'NORMAL', 'datacenter1', 'rack1', '2.1.8', 905, 1448959255, 80],
    ]);
    expect(g.schemaVersions).toEqual(['59adb24e-f3cd-3e02-97f0-5b395827453f']);
    expect(g.notes).toEqual([expect.stringMatching(/without "\/"/)]);
    expect(warnings).toEqual([]);
  });

  it('2015 numbered application states are named by ScyllaDB’s application_state order (gms/application_state.hh)', () => {
    const { value: g, warnings } = ok(parseGossipinfo(sample('gossipinfo_scylla2015-numeric-keys_issue508.txt')));
    expect(g.endpoints.map((e) => [e.address, e.status, e.datacenter, e.rack, e.hostId, e.loadBytes, e.states['RPC_ADDRESS']?.value])).toEqual([
      ['127.0.0.1', 'NORMAL', 'datacenter1', 'rack1', 'd56deb66-80c0-430e-89c1-ab9765698a72', 906, '127.0.0.1'],
      ['127.0.0.2', 'NORMAL', 'datacenter1', 'rack1', 'df999aec-f645-4d7e-8de6-8521f273e700', 66236, '127.0.0.2'],
    ]);
    expect(g.schemaVersions).toEqual(['cfdcf77d-cb52-341b-81c0-b633c119f0a6']);
    expect(g.releaseVersions).toEqual(['2.1.8']);
    expect(g.notes.some((n) => /18 application state\(s\) printed as numbers.*gms\/application_state\.hh/.test(n))).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('1.7.0: a node in shutdown with heartbeat INT_MAX; LOAD in scientific notation', () => {
    const { value: g, warnings } = ok(parseGossipinfo(sample('gossipinfo_scylla170-shutdown-intmax_issue2419.txt')));
    expect(g.endpoints.map((e) => [e.address, e.status, e.heartbeat, e.loadBytes])).toEqual([
      ['172.30.0.142', 'NORMAL', 22773, 1.91787e12],
      ['172.30.0.15', 'shutdown', 2147483647, 2.1194e12],
    ]);
    expect(g.endpoints[0]!.states['X1']?.value).toBe('RANGE_TOMBSTONES,LARGE_PARTITIONS');
    expect(g.schemaVersions).toEqual(['fe12c0e4-3e86-3fd8-a9f5-b307c17129ee']);
    expect(g.versionedStates).toBe(false);
    expect(g.notes).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('4.x ScyllaDB-only states X1..X8 kept verbatim; DC "unknown" read as printed', () => {
    const { value: g, warnings } = ok(parseGossipinfo(sample('gossipinfo_scylla4x-X-states-dc-unknown_issue7274.txt')));
    const e = g.endpoints[0]!;
    expect([g.endpoints.length, e.address, e.status, e.datacenter, e.rack, e.loadBytes, e.releaseVersion]).toEqual([
      1,
      '100.96.185.100',
      'NORMAL',
      'unknown',
      'apvrd78868.uhc.com',
      655705,
      '3.0.8',
    ]);
    expect(e.states['X5']?.value).toBe('0:18446744073709551615:1600963286679');
    expect(e.states['X8']?.value).toBe('');
    expect(e.states['X1']?.value.split(',')).toHaveLength(26);
    expect(g.versionedStates).toBe(false);
    expect(warnings).toEqual([]);
  });
});

describe('nodetool describecluster (ScyllaDB 2015)', () => {
  it('"endpoint: [schema]" lines are regrouped by schema version, with a note', () => {
    const { value: d, warnings } = ok(parseDescribecluster(sample('describecluster_scylla2015-ip-to-schema_issue684.txt')));
    expect([d.name, d.snitch, d.partitioner]).toEqual([
      'CassandraCluster',
      'org.apache.cassandra.locator.EC2Snitch',
      'org.apache.cassandra.dht.Murmur3Partitioner',
    ]);
    expect(d.schemaVersions).toEqual([{ version: '2bf601ed-840e-3981-b862-f4bd5484920a', endpoints: ['172.31.44.214'] }]);
    expect(d.schemaAgreement).toBe(true);
    expect(d.notes).toEqual([expect.stringMatching(/endpoint: \[version\].*#684/)]);
    expect(warnings).toEqual([]);
  });
});

describe('nodetool cfhistograms and netstats (ScyllaDB 2015-2016)', () => {
  it('cfhistograms: write latency percentiles, no reads, partition sizes', () => {
    const { value: h, warnings } = ok(parseTablehistograms(sample('cfhistograms_scylla2016_issue789.txt')));
    expect(h.tables).toHaveLength(1);
    const t = h.tables[0]!;
    expect([t.keyspace, t.table]).toEqual(['test1', 'standard1']);
    expect(t.writeLatencyMicros).toEqual({ p50: 6, p75: 8, p95: 17, p98: 24, p99: 29, min: 0, max: 24601 });
    expect(t.readLatencyMicros?.max).toBe(0);
    expect(t.partitionSizeBytes).toMatchObject({ p50: 310, min: 259, max: 310 });
    expect(t.cellCount?.p99).toBe(5);
    expect(warnings).toEqual([]);
  });

  it('netstats: NORMAL, no streams, 19 read repairs attempted, no mismatch', () => {
    const { value: n, warnings } = ok(parseNetstats(sample('netstats_scylla2015_issue697.txt')));
    expect(n.mode).toBe('NORMAL');
    expect(n.streams).toEqual([]);
    expect(n.readRepair).toEqual({ attempted: 19, mismatchBlocking: 0, mismatchBackground: 0 });
    expect(n.pools.map((p) => [p.name, p.active, p.pending, p.completed])).toEqual([
      ['Commands', null, 0, 0],
      ['Responses', null, 0, 0],
    ]);
    expect(warnings).toEqual([]);
  });
});

describe('a "?N" node is a finding of its own', () => {
  it('says liveness is unknown, not "up", and names the observer', () => {
    const r = interpretText(sample('status_unknown-state-qN_issue13692.txt'));
    const f = r.findings.find((x) => x.node === '10.0.2.193');
    expect(f?.id).toBe('topology.node-unknown');
    expect(f?.severity).toBe('warning');
    expect(f?.title).toMatch(/liveness unknown/);
    expect(f?.title).not.toMatch(/\(up,/);
  });
});
