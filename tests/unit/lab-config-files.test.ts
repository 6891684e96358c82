import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderCassandraYaml, renderClientLogbackXml, renderNodeLogbackXml, renderResolvePom } from '../../mcp-server/src/lab/config-files.js';

describe('lab cassandra.yaml', () => {
  const text = renderCassandraYaml({ version: '5.0', host: '127.0.0.2', nodeDir: '/lab/node2' });
  const y = parse(text) as Record<string, unknown>;

  it('binds the node to its loopback address and the standard ports', () => {
    expect(y.listen_address).toBe('127.0.0.2');
    expect(y.rpc_address).toBe('127.0.0.2');
    expect(y.storage_port).toBe(7000);
    expect(y.native_transport_port).toBe(9042);
    expect(y.start_native_transport).toBe(true);
  });

  it('uses the 4.0+ token defaults and the 4.1/5.0 key names with units', () => {
    expect(y.num_tokens).toBe(16);
    expect(y.allocate_tokens_for_local_replication_factor).toBe(3);
    expect(y.commitlog_sync).toBe('periodic');
    expect(y.commitlog_sync_period).toBe('10000ms');
    expect(text).not.toMatch(/commitlog_sync_period_in_ms/);
    expect(y.partitioner).toBe('org.apache.cassandra.dht.Murmur3Partitioner');
    expect(y.endpoint_snitch).toBe('SimpleSnitch');
    expect(y.auto_snapshot).toBe(false);
    // Sequential starts: a restarted node 1 must not block 10 s for peers that are not started yet.
    expect(y.block_for_peers_timeout_in_secs).toBe(1);
  });

  it('keeps every directory inside the node dir', () => {
    expect(y.data_file_directories).toEqual(['/lab/node2/data']);
    expect(y.commitlog_directory).toBe('/lab/node2/commitlog');
    expect(y.saved_caches_directory).toBe('/lab/node2/saved_caches');
    expect(y.hints_directory).toBe('/lab/node2/hints');
    expect(y.cdc_raw_directory).toBe('/lab/node2/cdc_raw');
  });

  it('seeds from node 1', () => {
    expect(y.seed_provider).toEqual([{ class_name: 'org.apache.cassandra.locator.SimpleSeedProvider', parameters: [{ seeds: '127.0.0.1:7000' }] }]);
  });

  it('quotes odd paths safely', () => {
    const odd = parse(renderCassandraYaml({ version: '4.1', host: '127.0.0.1', nodeDir: '/tmp/a: b #c' })) as Record<string, unknown>;
    expect(odd.commitlog_directory).toBe('/tmp/a: b #c/commitlog');
  });
});

describe('lab logback and pom', () => {
  it('logs system.log in the upstream line format', () => {
    const x = renderNodeLogbackXml();
    expect(x).toContain('${cassandra.logdir}/system.log');
    expect(x).toContain('%-5level [%thread] %date{ISO8601} %F:%L - %msg%n');
  });

  it('sends nodetool client logs to stderr at WARN', () => {
    const x = renderClientLogbackXml();
    expect(x).toContain('<target>System.err</target>');
    expect(x).toContain('<root level="WARN">');
  });

  it('asks for cassandra-all with runtime scope into lib/', () => {
    const p = renderResolvePom('5.0.9');
    expect(p).toContain('<artifactId>cassandra-all</artifactId>');
    expect(p).toContain('<version>5.0.9</version>');
    expect(p).toContain('<includeScope>runtime</includeScope>');
    expect(p).toContain('<outputDirectory>${project.basedir}/lib</outputDirectory>');
    expect(renderResolvePom('1<2')).toContain('1&lt;2');
  });
});
