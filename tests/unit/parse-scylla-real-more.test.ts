import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseInfo, parseNetstats, parseProxyhistograms, parseStatus, parseTablehistograms } from '../../mcp-server/src/core/parse/nodetool/index.js';
import type { Parsed } from '../../mcp-server/src/core/parsed.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { fixture } from '../helpers/corpus.js';

// More real ScyllaDB nodetool outputs from public scylladb/* issues (provenance and an expert reading per file in
// tests/fixtures/scylla/SOURCES.tsv; the provenance/detection sweep over every file is in parse-scylla-real.test.ts).
// Each test pins what an operator reads from the sample: nodes per datacenter and their states, loads with their
// units, latency percentiles, stream progress, and the ScyllaDB oddities that must not be read as facts.
const sample = (name: string) => fixture(`scylla/${name}`);
const KiB = 1024;
const GiB = 1024 ** 3;

function ok<T>(r: Parsed<T>): { value: T; warnings: string[] } {
  if (!r.ok) throw new Error(`not parsed: ${r.reason}`);
  return { value: r.value, warnings: r.warnings };
}

const NEW_SAMPLES: Array<[string, string]> = [
  ['status_scylla017-3dc-ec2_issue893.txt', 'nodetool.status'],
  ['status_scylla170-2dc-multiregion_issue2460.txt', 'nodetool.status'],
  ['status_native-ipv6-DN_sct10727.txt', 'nodetool.status'],
  ['proxyhistograms_scylla232_issue4470.txt', 'nodetool.proxyhistograms'],
  ['proxyhistograms_scylla0132-nan-range_issue696.txt', 'nodetool.proxyhistograms'],
  ['cfhistograms_scylla2x-huge-partitions_issue3005.txt', 'nodetool.tablehistograms'],
  ['cfhistograms_scylla441-indented-sstables_issue10089.txt', 'nodetool.tablehistograms'],
  ['cfhistograms_scylla2015-zero-partition-size_issue720.txt', 'nodetool.tablehistograms'],
  ['cfhistograms_scylla17-no-latency_issue2155.txt', 'nodetool.tablehistograms'],
  ['netstats_scylla141-repair-streams-redacted_issue1868.txt', 'nodetool.netstats'],
  ['netstats_scylla2016-unbootstrap_issue948.txt', 'nodetool.netstats'],
  ['info_scylla2015-quoted-id-gen0_issue253.txt', 'nodetool.info'],
  ['info_scylla2016-ami-datacenter-error_issue1041.txt', 'nodetool.info'],
];

describe('more real ScyllaDB samples: detection and provenance', () => {
  it.each(NEW_SAMPLES)('%s is detected as %s', (name, kind) => {
    const d = detect(sample(name));
    expect(d.ok ? d.kind : d.reason).toBe(kind);
  });

  it('each new sample has its SOURCES.tsv row naming the public issue it was copied from', () => {
    const rows = new Map(
      fixture('scylla/SOURCES.tsv')
        .trim()
        .split('\n')
        .map((l) => {
          const c = l.split('\t');
          return [c[0]!, c] as const;
        }),
    );
    for (const [name] of NEW_SAMPLES) {
      const row = rows.get(name);
      const issue = /(?:issue|sct)(\d+)\.txt$/.exec(name)![1]!;
      expect(row?.[2], name).toMatch(new RegExp(`^https://github\\.com/${row?.[1]}/issues/${issue}$`));
    }
  });
});

describe('multi-datacenter nodetool status (ScyllaDB)', () => {
  it('0.17, three EC2 regions with two UN nodes each; Owns "?" and KB loads', () => {
    const { value: s, warnings } = ok(parseStatus(sample('status_scylla017-3dc-ec2_issue893.txt')));
    expect(s.datacenters).toEqual(['us-west-2', 'us-east', 'us-west']);
    const perDc = Object.fromEntries(s.datacenters.map((dc) => [dc, s.nodes.filter((n) => n.datacenter === dc).map((n) => [n.address, n.code, n.rack])]));
    expect(perDc).toEqual({
      'us-west-2': [
        ['54.201.206.206', 'UN', '2b'],
        ['54.191.208.128', 'UN', '2b'],
      ],
      'us-east': [
        ['52.87.239.229', 'UN', '1b'],
        ['52.87.247.79', 'UN', '1b'],
      ],
      'us-west': [
        ['52.53.255.236', 'UN', '1a'],
        ['52.53.226.233', 'UN', '1a'],
      ],
    });
    expect(s.nodes.map((n) => n.loadBytes)).toEqual([71.77, 72.27, 72.27, 72.27, 72.02, 72.02].map((k) => Math.round(k * KiB)));
    expect(s.nodes.every((n) => n.ownsPercent === null && n.tokens === 256 && n.up)).toBe(true);
    expect(s.ownsEffective).toBe(false);
    expect([s.rowsNotParsed, warnings]).toEqual([[], []]);
  });

  it('1.7.0 Ec2MultiRegionSnitch: two DCs named as the snitch prints them, public addresses', () => {
    const { value: s, warnings } = ok(parseStatus(sample('status_scylla170-2dc-multiregion_issue2460.txt')));
    expect(s.datacenters).toEqual(['us-east', 'us-west-2']);
    expect(s.nodes.map((n) => [n.datacenter, n.address, n.loadText, n.loadBytes, n.hostId])).toEqual([
      ['us-east', '107.23.128.5', '294.19 KB', Math.round(294.19 * KiB), '3101b413-ea11-4544-847a-342beebddbd6'],
      ['us-east', '54.226.213.119', '292.83 KB', Math.round(292.83 * KiB), 'ddc2ad67-8435-4e88-89f7-31d6017e6be1'],
      ['us-west-2', '54.187.95.105', '284.06 KB', Math.round(284.06 * KiB), '5c789da7-5bbb-4bc3-bb3f-ab890868159b'],
      ['us-west-2', '54.202.89.57', '266.76 KB', Math.round(266.76 * KiB), 'e4ae79b6-945f-4b27-a729-d94b0b9d257b'],
    ]);
    expect(new Set(s.nodes.map((n) => `${n.datacenter}/${n.rack}`))).toEqual(new Set(['us-east/1b', 'us-west-2/2b']));
    expect(warnings).toEqual([]);
  });

  it('the multi-DC clusters raise no down-node or imbalance finding (all UN, sub-MB loads)', () => {
    for (const name of ['status_scylla017-3dc-ec2_issue893.txt', 'status_scylla170-2dc-multiregion_issue2460.txt']) {
      const ids = interpretText(sample(name)).findings.map((f) => f.id);
      expect(
        ids.filter((id) => /^topology\.(node-down|node-transition|node-unknown|load-imbalance|token-count-mismatch)$/.test(id)),
        name,
      ).toEqual([]);
    }
  });
});

describe('native nodetool status with IPv6 addresses and a DN node (2025)', () => {
  it('reads the six IPv6 rows, the DN one included, with GB loads and rack 2c', () => {
    const { value: s, warnings } = ok(parseStatus(sample('status_native-ipv6-DN_sct10727.txt')));
    expect(s.datacenters).toEqual(['eu-west-2scylla_node_west']);
    expect(s.nodes).toHaveLength(6);
    expect(s.nodes.filter((n) => !n.up).map((n) => [n.code, n.address, n.loadBytes])).toEqual([
      ['DN', '2a05:d01c:964:7d02:eff2:6989:7b97:cab', Math.round(18.47 * GiB)],
    ]);
    expect(s.nodes.map((n) => n.loadText)).toEqual(['18.61 GB', '18.49 GB', '18.60 GB', '18.44 GB', '18.52 GB', '18.47 GB']);
    expect(s.nodes[0]).toMatchObject({
      address: '2a05:d01c:964:7d02:44d8:fd94:6565:742',
      tokens: 256,
      ownsPercent: null,
      hostId: '9a6f532f-4c6a-47f8-84f6-f091edd77207',
      rack: '2c',
    });
    // Trailing blanks after the rack (as printed) are not part of the rack name.
    expect(new Set(s.nodes.map((n) => n.rack))).toEqual(new Set(['2c']));
    expect([s.rowsNotParsed, warnings]).toEqual([[], []]);
  });

  it('the DN node is a critical topology.node-down finding naming its IPv6 address', () => {
    const down = interpretText(sample('status_native-ipv6-DN_sct10727.txt')).findings.filter((f) => f.id === 'topology.node-down');
    expect(down.map((f) => [f.node, f.severity])).toEqual([['2a05:d01c:964:7d02:eff2:6989:7b97:cab', 'critical']]);
  });
});

describe('nodetool proxyhistograms (ScyllaDB)', () => {
  it('2.3.2: read/write/range coordinator latency percentiles in microseconds', () => {
    const { value: p, warnings } = ok(parseProxyhistograms(sample('proxyhistograms_scylla232_issue4470.txt')));
    expect(p.readLatencyMicros).toEqual({ p50: 12619, p75: 18524, p95: 30418.6, p98: 32977.8, p99: 33206.64, min: 52, max: 33235 });
    expect(p.writeLatencyMicros).toEqual({ p50: 361, p75: 8013, p95: 9177.4, p98: 13596.96, p99: 24168, min: 57, max: 24168 });
    expect(p.rangeLatencyMicros).toMatchObject({ p50: 16242, p75: 34466.5, p99: 63633, min: 1783 });
    expect([p.casReadLatencyMicros, p.casWriteLatencyMicros]).toEqual([null, null]);
    expect(warnings).toEqual([]);
  });

  it('0.13.2: a NaN column is "not measured" (null), never 0, and the other columns are still read', () => {
    const { value: p, warnings } = ok(parseProxyhistograms(sample('proxyhistograms_scylla0132-nan-range_issue696.txt')));
    expect(Object.values(p.rangeLatencyMicros ?? {})).toEqual([null, null, null, null, null, null, null]);
    expect(p.readLatencyMicros).toMatchObject({ p50: 124, p99: 3973, min: 36 });
    expect(p.writeLatencyMicros).toMatchObject({ p50: 535, p99: 11864, max: 51012 });
    expect(warnings).toEqual([]);
  });
});

describe('nodetool cfhistograms (ScyllaDB)', () => {
  it('huge partitions: p99 268 MB and max 464 MB partitions with 8.4 M cells', () => {
    const { value: h, warnings } = ok(parseTablehistograms(sample('cfhistograms_scylla2x-huge-partitions_issue3005.txt')));
    expect(h.tables).toHaveLength(1);
    const t = h.tables[0]!;
    expect([t.keyspace, t.table]).toEqual(['veraminetest', 'filechange']);
    expect(t.partitionSizeBytes).toEqual({ p50: 61214, p75: 219342, p95: 10090808, p98: 107964792, p99: 268650950, min: 536, max: 464228842 });
    expect(t.cellCount).toMatchObject({ p99: 5839588, max: 8409007 });
    expect(t.writeLatencyMicros).toMatchObject({ p95: 25.15, p99: 32.86, max: 19730 });
    expect(t.readLatencyMicros?.max).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('4.4.1 paste without a title and with indented rows: columns still found by name', () => {
    const { value: h, warnings } = ok(parseTablehistograms(sample('cfhistograms_scylla441-indented-sstables_issue10089.txt')));
    const t = h.tables[0]!;
    expect([h.tables.length, t.keyspace, t.table]).toEqual([1, null, null]);
    // The cumulative (not per-read) SSTables figures of that release, kept as printed.
    expect(t.sstablesPerRead).toEqual({ p50: 0, p75: 0, p95: 1469901.75, p98: 9799345, p99: 9799345, min: 0, max: 9799345 });
    expect(t.readLatencyMicros).toEqual({ p50: 1065.5, p75: 1286.5, p95: 1706.15, p98: 1934.88, p99: 2067.69, min: 554, max: 2202 });
    expect(t.writeLatencyMicros?.p99).toBe(0);
    expect(t.partitionSizeBytes).toMatchObject({ p50: 14237, max: 785939 });
    expect(t.cellCount).toMatchObject({ p50: 72, min: 5, max: 3973 });
    expect(warnings).toEqual([]);
  });

  it('2015: partition size and cell count all 0 (nothing flushed yet), writes 7-10 us', () => {
    const { value: h } = ok(parseTablehistograms(sample('cfhistograms_scylla2015-zero-partition-size_issue720.txt')));
    const t = h.tables[0]!;
    expect([t.keyspace, t.table]).toEqual(['test', 'users']);
    expect(Object.values(t.partitionSizeBytes!)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(t.writeLatencyMicros).toEqual({ p50: 7, p75: 10, p95: 10, p98: 10, p99: 10, min: 7, max: 10 });
  });

  it('1.7: zero latencies under load, SSTables per read 1-3, ~5.7 KB partitions', () => {
    const { value: h } = ok(parseTablehistograms(sample('cfhistograms_scylla17-no-latency_issue2155.txt')));
    const t = h.tables[0]!;
    expect([t.keyspace, t.table]).toEqual(['repair1', 'standard1']);
    expect([t.readLatencyMicros?.p99, t.writeLatencyMicros?.p99, t.readLatencyMicros?.max]).toEqual([0, 0, 0]);
    expect(t.sstablesPerRead).toEqual({ p50: 1, p75: 1, p95: 1, p98: 2, p99: 2, min: 0, max: 3 });
    expect(t.partitionSizeBytes).toMatchObject({ p50: 5722, p99: 6866, min: 180 });
    expect(t.cellCount).toMatchObject({ p50: 103, max: 124 });
  });
});

describe('nodetool netstats with streams (ScyllaDB 2016)', () => {
  it('1.4.1 repair-out to two peers (one redacted): bytes sent, read-repair counters and pool pending', () => {
    const { value: n, warnings } = ok(parseNetstats(sample('netstats_scylla141-repair-streams-redacted_issue1868.txt')));
    expect(n.mode).toBe('NORMAL');
    expect(n.streams.map((p) => [p.operation, p.planId, p.sessions.length])).toEqual([['repair-out', '2602ff70-afde-11e6-b552-000000000002', 2]]);
    expect(n.streams[0]!.sessions.map((s) => [s.peer, s.sending, s.receiving])).toEqual([
      ['/X.X.X.147', { totalFiles: 1, totalBytes: 0, doneFiles: 1, doneBytes: 6647515120 }, null],
      ['/10.10.122.109', { totalFiles: 1, totalBytes: 0, doneFiles: 1, doneBytes: 6648327810 }, null],
    ]);
    expect(n.readRepair).toEqual({ attempted: 275, mismatchBlocking: 221887, mismatchBackground: 0 });
    expect(n.pools.map((p) => [p.name, p.active, p.pending, p.completed])).toEqual([
      ['Commands', null, 2, 98856256],
      ['Responses', null, 0, 9661301],
    ]);
    expect(warnings).toEqual([]);
  });

  it('2016 Unbootstrap plan: receiving 1 file, nothing received yet', () => {
    const { value: n, warnings } = ok(parseNetstats(sample('netstats_scylla2016-unbootstrap_issue948.txt')));
    expect(n.streams).toEqual([
      {
        operation: 'Unbootstrap',
        planId: 'eae51470-dc64-11e5-a25d-000000000000',
        sessions: [
          { peer: '/127.0.0.3', connecting: null, receiving: { totalFiles: 1, totalBytes: 0, doneFiles: 0, doneBytes: 0 }, sending: null, fileLines: 0 },
        ],
      },
    ]);
    expect(n.readRepair).toEqual({ attempted: 10, mismatchBlocking: 0, mismatchBackground: 0 });
    expect(n.pools.map((p) => [p.name, p.pending, p.completed])).toEqual([
      ['Commands', 0, 94],
      ['Responses', 0, 1],
    ]);
    expect(warnings).toEqual([]);
  });
});

describe('nodetool info (ScyllaDB 2015-2016)', () => {
  it('a host id printed in double quotes is still the host id; gossip off, generation 0, empty DC and rack', () => {
    const { value: i, warnings } = ok(parseInfo(sample('info_scylla2015-quoted-id-gen0_issue253.txt')));
    expect(i.hostId).toBe('0d2ce3b6-dcc9-4d16-ab72-1b2789f82526');
    expect([i.gossipActive, i.nativeTransportActive, i.generation, i.loadBytes, i.uptimeSeconds]).toEqual([false, true, 0, 0, 2260]);
    expect([i.datacenter, i.rack, i.heapUsedMb, i.heapMaxMb]).toEqual(['', '', 53.81, 6690]);
    expect(i.rowCache).toEqual({ entries: 13, sizeBytes: 13, capacityBytes: Math.round(2.13 * 1024 ** 2), hits: 23, requests: 36, recentHitRate: 0.618 });
    expect(i.keyCache?.capacityBytes).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('output cut by "error: Index: 0, Size: 0" and a stack trace: fields before it kept, the failure is a warning', () => {
    const { value: i, warnings } = ok(parseInfo(sample('info_scylla2016-ami-datacenter-error_issue1041.txt')));
    expect([i.hostId, i.gossipActive, i.nativeTransportActive, i.generation, i.uptimeSeconds, i.offHeapMb]).toEqual([
      'b4f4ce96-6864-47f2-b171-97d1d525a51c',
      true,
      true,
      1457994079,
      562,
      1.75,
    ]);
    expect(i.loadBytes).toBe(Math.round(16.84 * KiB));
    expect([i.heapUsedMb, i.heapMaxMb]).toEqual([134.79, 247.5]);
    expect([i.datacenter, i.rack, i.keyCache, i.rowCache]).toEqual([null, null, null, null]);
    // The error line is not a field called "error", and the stack trace adds nothing.
    expect(Object.keys(i.fields)).not.toContain('error');
    expect(Object.keys(i.fields)).toHaveLength(9);
    expect(warnings).toEqual([
      expect.stringMatching(/^nodetool stopped with an error after 9 field\(s\): error: Index: 0, Size: 0; the fields after it are missing$/),
    ]);
  });

  it('output cut by ScyllaDB\'s "nodetool: Scylla API server HTTP GET … failed": the line is no field, the failure is a warning', () => {
    // scylladb/scylladb#1325, pasted from a dtest failure (tests/fixtures/real-world)
    const text = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'real-world', 'info_dtest-stdout-cut-by-api-invalid-double_scylla1325.txt'), 'utf8');
    const { value: i, warnings } = ok(parseInfo(text));
    expect(Object.keys(i.fields)).not.toContain('nodetool');
    expect([i.datacenter, i.rack, i.uptimeSeconds]).toEqual(['datacenter1', 'rack1', 74]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^nodetool stopped with an error after \d+ field\(s\): nodetool: Scylla API server HTTP GET .* Invalid double value; the fields after it are missing$/,
      ),
    ]);
  });
});
