import { renderVersion } from '../../mcp-server/src/render/nodetool.js';
import { describe, expect, it } from 'vitest';
import { parseInfo, parseStatus, parseVersion } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

describe('nodetool status', () => {
  it.skipIf(!HAVE_CORPUS)('reads a real 3-node 5.0.9 cluster (uneven ownership)', () => {
    const r = parseStatus(corpus('local-runs/cassandra-5.0.9-cluster3/nodetool_status_jmx7399.txt'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.datacenters).toEqual(['datacenter1']);
    expect(r.value.ownsEffective).toBe(true);
    expect(r.value.nodes.map((n) => [n.code, n.address, n.ownsPercent, n.tokens])).toEqual([
      ['UN', '127.0.0.3', 76, 16],
      ['UN', '127.0.0.2', 59.3, 16],
      ['UN', '127.0.0.1', 64.7, 16],
    ]);
    expect(r.value.nodes[0]!.loadBytes).toBe(Math.round(85.1 * 1024));
    expect(r.value.nodes[2]!.hostId).toBe('c474c29e-f16d-49e0-a4fd-b8989fe524a4');
  });

  it.skipIf(!HAVE_CORPUS)('finds the DN node in a filtered two-DC listing from the Cassandra docs', () => {
    const r = parseStatus(corpus('nodetool/status_multidc_dn_cassandra_docs.txt'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.datacenters).toEqual(['dc1', 'dc2']);
    expect(r.value.nodes).toHaveLength(1);
    const dn = r.value.nodes[0]!;
    expect(dn).toMatchObject({ datacenter: 'dc2', code: 'DN', up: false, state: 'normal', address: '127.0.0.5', tokens: 1, ownsPercent: 33.3, rack: 'r1' });
  });

  it('handles "?" load and ownership, null host ids, joining/leaving states and 3.x units', () => {
    const text = [
      '  Datacenter: east',
      '  ================',
      '  --  Address     Load       Tokens  Owns    Host ID                               Rack',
      '  UJ  10.0.0.7    ?          256     ?       null                                  r1',
      '  UL  10.0.0.8    1.5 TB     256     12,5%   0b9c7a1e-0000-4000-8000-000000000001  r 2',
      '  DL  10.0.0.9    512 bytes  256     ?       ?                                     r1',
      "  Note: Non-system keyspaces don't have the same replication settings, effective ownership information is meaningless",
    ].join('\r\n');
    const r = parseStatus(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.ownsEffective).toBe(false);
    expect(r.value.notes).toHaveLength(1);
    expect(r.value.nodes.map((n) => [n.code, n.state, n.loadBytes, n.ownsPercent, n.hostId, n.rack])).toEqual([
      ['UJ', 'joining', null, null, null, 'r1'],
      ['UL', 'leaving', Math.round(1.5 * 1024 ** 4), 12.5, '0b9c7a1e-0000-4000-8000-000000000001', 'r 2'],
      ['DL', 'leaving', 512, null, null, 'r1'],
    ]);
  });

  it('says why it could not read other text', () => {
    for (const bad of ['', 'garbage', 'ReleaseVersion: 5.0.9', '\u0000\u0001']) {
      const r = parseStatus(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/header/);
    }
  });
});

describe('nodetool info', () => {
  it.skipIf(!HAVE_CORPUS)('types the fields of a real 5.0.9 node', () => {
    const r = parseInfo(corpus('local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node2_info.txt'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      hostId: '3d841101-e7e4-47f8-b2bd-93220e9f5ad5',
      gossipActive: true,
      nativeTransportActive: true,
      loadBytes: 120 * 1024,
      uptimeSeconds: 178,
      heapUsedMb: 231.77,
      heapMaxMb: 1024,
      datacenter: 'datacenter1',
      rack: 'rack1',
      exceptions: 0,
      percentRepaired: 100,
      bootstrapState: 'COMPLETED',
    });
    expect(r.value.keyCache).toEqual({
      entries: 30,
      sizeBytes: Math.round(2.54 * 1024),
      capacityBytes: 51 * 1024 ** 2,
      hits: 146,
      requests: 171,
      recentHitRate: 0.854,
    });
    // NaN hit rate (no requests yet) is "unknown", not a number.
    expect(r.value.rowCache?.recentHitRate).toBeNull();
  });

  it.skipIf(!HAVE_CORPUS)('reads every info capture in the corpus', () => {
    const files = corpusFiles('local-runs', /^nodetool_.*_info\.txt$/);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const r = parseInfo(corpus(f));
      expect(r.ok, f).toBe(true);
      if (r.ok) expect(r.value.heapMaxMb, f).toBeGreaterThan(0);
    }
  });

  it('returns ok:false on text that is not info output', () => {
    expect(parseInfo('Datacenter: dc1\nUN 1.2.3.4').ok).toBe(false);
  });
});

describe('nodetool version', () => {
  it.skipIf(!HAVE_CORPUS)('reads 4.1 and 5.0 captures', () => {
    for (const [file, release, major, minor] of [
      ['local-runs/cassandra-4.1.10-single/nodetool_n41_version.txt', '4.1.10', 4, 1],
      ['local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node2_version.txt', '5.0.9', 5, 0],
    ] as const) {
      const r = parseVersion(corpus(file));
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.value).toMatchObject({ release, major, minor, product: 'cassandra' });
    }
  });

  it('recognises ScyllaDB releases and flags the ambiguous 3.0.8', () => {
    const s = parseVersion('ReleaseVersion: 2024.1.3-0.20240610.b3d6a7e0e3a4');
    expect(s.ok && s.value.product).toBe('scylla');
    const amb = parseVersion('ReleaseVersion: 3.0.8');
    expect(amb.ok && amb.value.product).toBe('unknown');
    expect(amb.ok && amb.warnings[0]).toMatch(/ScyllaDB/);
  });

  // Real DSE outputs from datastax-labs/sperf's test data @b3f66da (tests/testdata/diag/DSE_CLUSTER/nodes/10.101.33.205
  // and tests/testdata/dse68/nodes/172.17.0.2, nodetool/version): DSE names itself on a line before ReleaseVersion.
  it('reads DSE as DSE: its ReleaseVersion is an internal build, not Apache Cassandra 4.0', () => {
    for (const [text, dse, release] of [
      ['DSE version: 6.7.7\nReleaseVersion: 4.0.0.677\n', '6.7.7', '4.0.0.677'],
      ['DSE version: 6.8.1\nReleaseVersion: 4.0.0.681\n', '6.8.1', '4.0.0.681'],
    ] as const) {
      const r = parseVersion(text);
      expect(r.ok && r.value).toMatchObject({ product: 'dse', dse, release });
      expect(r.ok && renderVersion(r.value)).toBe(`DataStax Enterprise ${dse} (internal Cassandra build ${release}, not an Apache Cassandra release)`);
    }
    // Apache Cassandra's own output has no DSE line (sperf's 2.1.17 diag): unchanged
    const apache = parseVersion('ReleaseVersion: 2.1.17\n');
    expect(apache.ok && apache.value).toMatchObject({ product: 'cassandra', dse: null, major: 2, minor: 1 });
  });

  it('tolerates log prefixes and indentation', () => {
    const r = parseVersion('2026-11-21T10:00:00.123Z     ReleaseVersion: 5.0.9\n');
    expect(r.ok && r.value.release).toBe('5.0.9');
  });

  it('is total on truncated or odd input', () => {
    for (const bad of ['', 'ReleaseVersion:', 'ReleaseVersion: banana', 'Release']) expect(parseVersion(bad).ok).toBe(false);
  });
});
