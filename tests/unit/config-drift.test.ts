/**
 * Drift between a cassandra.yaml and system_views.settings (real rows captured from Cassandra 4.1.10 and
 * 5.0.9 in the corpus), and between nodes (two hand-built snapshots).
 */
import { describe, expect, it } from 'vitest';
import { configDrift, type NodeSettings } from '../../mcp-server/src/core/config/drift.js';
import { parseCassandraYaml } from '../../mcp-server/src/core/parse/config/index.js';
import type { CassandraYaml } from '../../mcp-server/src/core/parse/config/index.js';
import { renderCassandraYaml } from '../../mcp-server/src/lab/config-files.js';
import { auditConfigTexts } from '../../mcp-server/src/ops/audit-config.js';
import type { ClusterSnapshot, NodeSnapshot } from '../../mcp-server/src/ops/snapshot.js';
import { HAVE_CORPUS, corpus } from '../helpers/corpus.js';

function yaml(text: string): CassandraYaml {
  const r = parseCassandraYaml(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

/** vt_settings.txt: "name<TAB>value" rows under a header, as cqlsh printed system_views.settings. */
function settingsFrom(rel: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const line of corpus(rel).split('\n').slice(1)) {
    const i = line.indexOf('\t');
    if (i <= 0) continue;
    const v = line.slice(i + 1);
    out[line.slice(0, i)] = v === 'None' ? null : v;
  }
  return out;
}

const node = (address: string, settings: Record<string, string | null>): NodeSnapshot => ({
  address,
  datacenter: 'dc1',
  rack: 'r1',
  hostId: null,
  releaseVersion: '5.0.9',
  product: 'cassandra',
  upPerDriver: true,
  reachable: true,
  status: 'complete',
  ms: 1,
  sources: [],
  facts: { settings },
  nodetool: {},
  unparsed: [],
});
const snap = (nodes: NodeSnapshot[]): ClusterSnapshot => ({ collectedAt: '2026-11-22T00:00:00Z', durationMs: 1, contactPoints: ['127.0.0.1'], nodes });

describe('configDrift — file vs node', () => {
  it.skipIf(!HAVE_CORPUS)('the 3.11 corpus yaml against a real 4.1.10 node: old names matched to the new ones, units normalised', () => {
    const live = settingsFrom('local-runs/cassandra-4.1.10-single/cql/vt_settings.txt');
    const y = yaml(corpus('config/cassandra_yaml_pre41_unthrottled_compaction_10s_timeouts_no_dsnitch.txt'));
    const d = configDrift(y, 'cassandra.yaml', [{ node: '127.0.0.1', settings: live }]);
    const byKey = Object.fromEntries(d.fileVsNode.map((x) => [x.key, x]));
    expect(byKey['compaction_throughput_mb_per_sec']).toMatchObject({ fileValue: '0', liveName: 'compaction_throughput_mb_per_sec', liveValue: '64' });
    expect(byKey['read_request_timeout_in_ms']).toMatchObject({ fileValue: '10000', liveValue: '5000' });
    expect(byKey['dynamic_snitch']).toMatchObject({ fileValue: 'false', liveValue: 'true' });
    // range_request_timeout_in_ms 10000 = the node's 10000ms: not drift.
    expect(byKey['range_request_timeout_in_ms']).toBeUndefined();
    expect(d.findings.map((f) => f.id)).toEqual(['config.drift.file-vs-node']);
    expect(d.keysCompared).toBeGreaterThan(10);
  });

  it.skipIf(!HAVE_CORPUS)('the lab’s own 5.0 yaml against a 5.0.9 loopback node captured by an earlier lab run: only real differences', () => {
    const live = settingsFrom('local-runs/cassandra-5.0.9-cluster3/cql_node2/vt_settings.txt');
    const y = yaml(renderCassandraYaml({ version: '5.0', host: '127.0.0.2', nodeDir: '/var/lib/cassandra-lab/c3/node2' }));
    const d = configDrift(y, 'cassandra.yaml', [{ node: '127.0.0.2', settings: live }]);
    // commitlog_sync_period 10000ms vs the node's value, num_tokens 16, partitioner by class name: equal after normalising.
    const keys = d.fileVsNode.map((x) => x.key);
    for (const k of ['commitlog_sync_period', 'num_tokens', 'partitioner', 'endpoint_snitch', 'listen_address', 'auto_snapshot']) expect(keys).not.toContain(k);
    expect(d.keysCompared).toBeGreaterThanOrEqual(10);
    // That run named its cluster "feas3" and kept the 10 s peer wait the generator now lowers to 1 s: real drift.
    expect(d.fileVsNode.map((x) => [x.key, x.fileValue, x.liveValue])).toEqual([
      ['cluster_name', 'cql-tuner lab', 'feas3'],
      ['block_for_peers_timeout_in_secs', '1', '10'],
    ]);
  });

  it('4.1 names with units vs a node that reports old names: 64MiB/s = 64, 5s = 5000', () => {
    const y = yaml(
      'cluster_name: c\ncompaction_throughput: 64MiB/s\nread_request_timeout: 5s\nstream_throughput_outbound: 24MiB/s\nkey_cache_save_period: 4h\n',
    );
    const d = configDrift(y, 'f', [
      {
        node: 'a',
        settings: {
          compaction_throughput_mb_per_sec: '64',
          read_request_timeout_in_ms: '5000',
          stream_throughput_outbound: '24MiB/s',
          key_cache_save_period: '14400',
          cluster_name: 'c',
        },
      },
    ]);
    expect(d.fileVsNode).toEqual([]);
    expect(d.keysCompared).toBe(5);
  });
});

describe('configDrift — between nodes', () => {
  it.skipIf(!HAVE_CORPUS)('two snapshots of the real 5.0.9 settings, one node changed at runtime', () => {
    const a = settingsFrom('local-runs/cassandra-5.0.9-cluster3/cql_node2/vt_settings.txt');
    const b = { ...a, compaction_throughput: '0MiB/s', listen_address: '127.0.0.3', rpc_address: '127.0.0.3', concurrent_compactors: '4' };
    const d = configDrift(null, null, [
      { node: '127.0.0.2', settings: a },
      { node: '127.0.0.3', settings: b },
      { node: '127.0.0.4', settings: null },
    ] satisfies NodeSettings[]);
    expect(d.nodesCompared).toBe(2);
    expect(d.betweenNodes.map((x) => x.name)).toEqual(['compaction_throughput', 'concurrent_compactors']);
    expect(d.betweenNodes[0]!.values).toEqual({ '127.0.0.2': '64MiB/s', '127.0.0.3': '0MiB/s' });
    expect(d.findings.map((f) => f.id)).toEqual(['config.drift.between-nodes']);
  });

  it.skipIf(!HAVE_CORPUS)('audit_config with a snapshot reports both kinds of drift and lists the check', () => {
    const a = settingsFrom('local-runs/cassandra-5.0.9-cluster3/cql_node2/vt_settings.txt');
    const r = auditConfigTexts(
      [{ source: 'cassandra.yaml', text: 'cluster_name: x\ncompaction_throughput: 64MiB/s\ndynamic_snitch: false\n' }],
      { version: '5.0.9' },
      snap([node('127.0.0.2', a), node('127.0.0.3', { ...a, compaction_throughput: '16MiB/s' })]),
    );
    const ids = r.findings.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining(['config.drift.file-vs-node', 'config.drift.between-nodes', 'config.yaml.dynamic-snitch-off']));
    const fv = r.findings.find((f) => f.id === 'config.drift.file-vs-node')!;
    expect(fv.evidence.join('\n')).toContain('127.0.0.3: compaction_throughput: 64MiB/s in cassandra.yaml, compaction_throughput = 16MiB/s');
    expect(r.checked.find((c) => c.rule === 'config.drift')).toMatchObject({ checked: true });
  });

  it('a snapshot without settings says the drift check was skipped', () => {
    const r = auditConfigTexts([{ source: 'x.yaml', text: 'cluster_name: x\nnum_tokens: 16\n' }], {}, snap([node('10.0.0.1', {})]));
    expect(r.checked.find((c) => c.rule === 'config.drift')).toMatchObject({
      checked: false,
      skippedBecause: expect.stringContaining('system_views.settings'),
    });
  });
});

describe('configDrift — ScyllaDB system.config values', () => {
  it('JSON-quoted strings compare equal to the yaml text', () => {
    const y = yaml(
      '# Scylla storage config YAML\ncluster_name: shop\nendpoint_snitch: GossipingPropertyFileSnitch\napi_port: 10000\nread_request_timeout_in_ms: 5000\n',
    );
    const d = configDrift(y, 'scylla.yaml', [
      {
        node: 'a',
        settings: {
          cluster_name: '"shop"',
          endpoint_snitch: '"org.apache.cassandra.locator.GossipingPropertyFileSnitch"',
          api_port: '10000',
          read_request_timeout_in_ms: '12000',
        },
      },
    ]);
    expect(d.fileVsNode.map((x) => [x.key, x.liveValue])).toEqual([['read_request_timeout_in_ms', '12000']]);
    expect(d.keysCompared).toBe(4);
  });
});
