import { describe, expect, it } from 'vitest';
import { nodeFactsFromRaw } from '../../mcp-server/src/core/facts/from-raw.js';
import { toTsv } from '../../mcp-server/src/core/parse/tsv.js';
import { runRules } from '../../mcp-server/src/core/rules/index.js';
import { nodeEvidence } from '../../mcp-server/src/core/diagnosis/evidence.js';

// Synthetic rows in the shape of ScyllaDB's system-keyspace views (schemas from scylladb docs/dev/system_keyspace.md).
const cql = (table: string, columns: string[], rows: (string | null)[][]) => ({ name: `cql:system.${table}`, text: toTsv(columns, rows) });

const scyllaNode = [
  cql(
    'local',
    ['release_version', 'data_center', 'rack', 'host_id', 'schema_version'],
    [['3.0.8', 'dc1', 'r1', '11111111-2222-4333-8444-555555555555', 'abcd']],
  ),
  cql('versions', ['key', 'build_id', 'build_mode', 'compatible_version', 'version'], [['local', 'b1', 'release', '3.0.8', '2025.1.4']]),
  cql(
    'config',
    ['name', 'source', 'type', 'value'],
    [
      ['compaction_large_partition_warning_threshold_mb', 'default', 'integer', '1000'],
      ['num_tokens', 'config', 'integer', '256'],
    ],
  ),
  cql(
    'clients',
    ['address', 'port', 'client_type', 'driver_name', 'driver_version', 'protocol_version', 'shard_id', 'username'],
    [['10.1.0.9', '41000', 'cql', 'ScyllaDB Python Driver', '3.28.0', '4', '3', 'app']],
  ),
  cql('snapshots', ['keyspace_name', 'table_name', 'snapshot_name', 'live', 'total'], [['shop', 'orders', 'pre-upgrade', '1048576', '52428800']]),
  cql(
    'cluster_status',
    ['peer', 'dc', 'host_id', 'load', 'owns', 'status', 'tokens', 'up'],
    [
      ['10.0.0.1', 'dc1', 'h1', '1.2 GB', '0.33', 'NORMAL', '256', 'true'],
      ['10.0.0.2', 'dc1', 'h2', '1.1 GB', '0.33', 'NORMAL', '256', 'false'],
    ],
  ),
  cql(
    'large_partitions',
    ['keyspace_name', 'table_name', 'sstable_name', 'partition_size', 'partition_key', 'range_tombstones', 'dead_rows', 'rows', 'compaction_time'],
    [
      ['shop', 'events', 'me-1-big-Data.db', String(2200 * 1024 ** 2), 'tenant-42', '0', '0', '9000000', '2026-11-01T00:00:00.000Z'],
      ['shop', 'events', 'me-2-big-Data.db', String(300 * 1024 ** 2), 'tenant-7', '0', '0', '1000', '2026-11-01T00:00:00.000Z'],
    ],
  ),
];

describe('ScyllaDB node facts from system.* views', () => {
  it('takes the version from system.versions, not the emulated 3.0.8', () => {
    const { facts } = nodeFactsFromRaw(scyllaNode);
    expect(facts.product).toBe('scylla');
    expect(facts.releaseVersion).toBe('2025.1.4');
    expect(facts.settings?.['num_tokens']).toBe('256');
    expect(facts.clients?.[0]).toMatchObject({ driverName: 'ScyllaDB Python Driver', protocolVersion: 4, username: 'app' });
    expect(facts.snapshots?.[0]).toMatchObject({ name: 'pre-upgrade', sizeOnDiskBytes: 52428800 });
    expect(facts.gossip?.map((g) => [g.address, g.status])).toEqual([
      ['10.0.0.1', 'NORMAL'],
      ['10.0.0.2', 'DOWN'],
    ]);
    expect(facts.tables).toEqual([{ keyspace: 'shop', table: 'events', maxPartitionMiB: 2200 }]);
  });

  it('feeds the same rules: the 2.2 GiB partition and the down peer are reported', () => {
    const r = nodeFactsFromRaw(scyllaNode);
    const out = runRules({ origin: 'test', nodes: [nodeEvidence('10.0.0.1', true, r)] });
    expect(out.findings.find((f) => f.id === 'table.partition-size')).toMatchObject({ severity: 'critical', table: 'shop.events' });
    expect(out.findings.find((f) => f.id === 'topology.gossip-state')).toMatchObject({ node: '10.0.0.2', severity: 'critical' });
    expect(out.findings.find((f) => f.id === 'topology.gossip-state')?.evidence[0]).toMatch(/system.cluster_status/);
  });
});
