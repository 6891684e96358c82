import { describe, expect, it } from 'vitest';
import {
  CASSANDRA_YAML_KIND,
  CONFIG_PARSERS,
  MIB,
  configSignature,
  parseCassandraYaml,
  parseDataRateBytesPerSec,
  parseDataSizeBytes,
  parseDurationMs,
  type CassandraYaml,
} from '../../mcp-server/src/core/parse/config/index.js';
import type { Parsed } from '../../mcp-server/src/core/parsed.js';
import { HAVE_CORPUS, corpus } from '../helpers/corpus.js';

const PRE41 = 'config/cassandra_yaml_pre41_unthrottled_compaction_10s_timeouts_no_dsnitch.txt';

// A 4.1+/5.0-style cassandra.yaml (new names, values with units), written for this test.
const YAML_50 = `# cassandra.yaml (5.0 style)
cluster_name: 'Test Cluster'
num_tokens: 16
allocate_tokens_for_local_replication_factor: 3
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
endpoint_snitch: GossipingPropertyFileSnitch
dynamic_snitch: true
concurrent_reads: 32
concurrent_writes: 48
concurrent_counter_writes: 32
concurrent_compactors: 4
compaction_throughput: 64MiB/s
read_request_timeout: 5000ms
write_request_timeout: 2000ms
range_request_timeout: 10s
commitlog_sync: periodic
commitlog_sync_period: 10000ms
commitlog_segment_size: 32MiB
memtable_allocation_type: offheap_objects
memtable_heap_space: 2048MiB
memtable_offheap_space: 2GiB
memtable_flush_writers: 2
disk_access_mode: mmap_index_only
file_cache_size: 512MiB
stream_throughput_outbound: 24MiB/s
inter_dc_stream_throughput_outbound: 12MiB/s
key_cache_save_period: 4h
memtable:
  configurations:
    skiplist:
      class_name: SkipListMemtable
    trie:
      class_name: TrieMemtable
    default:
      inherits: trie
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "127.0.0.1:7000"
`;

// Old and new names for the same setting in one file (an upgrade half done), plus a duplicate key.
const YAML_MIXED = `cluster_name: mixed
compaction_throughput_mb_per_sec: 16
compaction_throughput: 64MiB/s
read_request_timeout_in_ms: 5000
write_request_timeout: 2s
stream_throughput_outbound_megabits_per_sec: 200
concurrent_reads: 32
concurrent_reads: 64
`;

function ok(r: Parsed<CassandraYaml>): CassandraYaml {
  if (!r.ok) throw new Error(`expected ok, got: ${r.reason}`);
  return r.value;
}

describe('units', () => {
  it('parses durations, sizes and rates from both naming styles', () => {
    expect(parseDurationMs('5000ms')).toBe(5000);
    expect(parseDurationMs('10s')).toBe(10_000);
    expect(parseDurationMs('2h')).toBe(7_200_000);
    expect(parseDurationMs('1m')).toBe(60_000);
    expect(parseDurationMs('500us')).toBe(0.5);
    expect(parseDurationMs(5000)).toBeNull();
    expect(parseDurationMs(5000, 1)).toBe(5000);
    expect(parseDataSizeBytes('512KiB')).toBe(512 * 1024);
    expect(parseDataSizeBytes('4G')).toBe(4 * 1024 ** 3);
    expect(parseDataSizeBytes('1995M')).toBe(1995 * MIB);
    expect(parseDataRateBytesPerSec('64MiB/s')).toBe(64 * MIB);
    expect(parseDataRateBytesPerSec('200Mbps')).toBe(25_000_000);
    for (const bad of ['', 'fast', '64 parsecs', '5000xs', null, undefined, {}, '1e9ms']) {
      expect(parseDurationMs(bad)).toBeNull();
      expect(parseDataSizeBytes(bad)).toBeNull();
      expect(parseDataRateBytesPerSec(bad)).toBeNull();
    }
  });
});

describe('parseCassandraYaml', () => {
  it.skipIf(!HAVE_CORPUS)('pre-4.1 corpus file: unthrottled compaction, 10 s timeouts, no dynamic snitch', () => {
    const r = parseCassandraYaml(corpus(PRE41));
    expect(r.kind).toBe(CASSANDRA_YAML_KIND);
    const v = ok(r);
    expect(v.naming).toBe('pre-4.1');
    expect(v.newStyleKeys).toEqual([]);
    expect(v.oldStyleKeys).toContain('compaction_throughput_mb_per_sec');
    expect(v.settings['compaction_throughput_mb_per_sec']).toBe(0);
    expect(v.audit.compactionThroughputMiBPerSec).toBe(0); // 0 = unthrottled
    expect(v.auditSources.compactionThroughputMiBPerSec).toBe('compaction_throughput_mb_per_sec');
    expect(v.audit.readRequestTimeoutMs).toBe(10_000);
    expect(v.audit.writeRequestTimeoutMs).toBe(10_000);
    expect(v.audit.rangeRequestTimeoutMs).toBe(10_000);
    expect(v.audit.requestTimeoutMs).toBe(10_000);
    expect(v.audit.counterWriteRequestTimeoutMs).toBe(5000);
    expect(v.audit.dynamicSnitch).toBe(false); // written "False"
    expect(v.audit.endpointSnitch).toBe('org.apache.cassandra.locator.Ec2Snitch');
    // "concurrent_compactors left at default": only the commented "#concurrent_compactors: 1" is in the file.
    expect(v.audit.concurrentCompactors).toBeNull();
    expect('concurrent_compactors' in v.settings).toBe(false);
    // The label's RandomPartitioner / 256 vnodes are "elsewhere in the file": not in this excerpt, so default (null).
    expect(v.audit.partitioner).toBeNull();
    expect(v.audit.numTokens).toBeNull();
    expect(v.duplicateKeys).toEqual([]);
    expect(r.ok && r.warnings).toEqual([]);
  });

  it('reads partitioner and vnodes from a 3.x-style file', () => {
    const v = ok(
      parseCassandraYaml(
        'cluster_name: c\nnum_tokens: 256\npartitioner: org.apache.cassandra.dht.RandomPartitioner\nmemtable_heap_space_in_mb: 2048\nfile_cache_size_in_mb: 512\nstream_throughput_outbound_megabits_per_sec: 200\ncommitlog_sync: batch\ncommitlog_sync_batch_window_in_ms: 2\n',
      ),
    );
    expect(v.naming).toBe('pre-4.1');
    expect(v.audit.numTokens).toBe(256);
    expect(v.audit.partitioner).toBe('org.apache.cassandra.dht.RandomPartitioner');
    expect(v.audit.memtableHeapSpaceMiB).toBe(2048);
    expect(v.audit.fileCacheSizeMiB).toBe(512);
    expect(v.audit.streamThroughputOutboundMiBPerSec).toBeCloseTo(23.84, 2);
    expect(v.audit.commitlogSync).toBe('batch');
  });

  it('4.1+/5.0 style: new names with units, normalised', () => {
    const r = parseCassandraYaml(YAML_50);
    const v = ok(r);
    expect(v.naming).toBe('4.1+');
    expect(v.oldStyleKeys).toEqual([]);
    expect(v.newStyleKeys).toEqual(expect.arrayContaining(['compaction_throughput', 'read_request_timeout', 'key_cache_save_period']));
    expect(v.audit).toMatchObject({
      compactionThroughputMiBPerSec: 64,
      concurrentCompactors: 4,
      readRequestTimeoutMs: 5000,
      writeRequestTimeoutMs: 2000,
      rangeRequestTimeoutMs: 10_000,
      requestTimeoutMs: null,
      numTokens: 16,
      partitioner: 'org.apache.cassandra.dht.Murmur3Partitioner',
      endpointSnitch: 'GossipingPropertyFileSnitch',
      dynamicSnitch: true,
      concurrentReads: 32,
      concurrentWrites: 48,
      concurrentCounterWrites: 32,
      memtableAllocationType: 'offheap_objects',
      memtableHeapSpaceMiB: 2048,
      memtableOffheapSpaceMiB: 2048,
      memtableFlushWriters: 2,
      memtableCleanupThreshold: null,
      memtableConfigurations: ['skiplist', 'trie', 'default'],
      commitlogSync: 'periodic',
      commitlogSyncPeriodMs: 10_000,
      commitlogSegmentSizeMiB: 32,
      diskAccessMode: 'mmap_index_only',
      fileCacheSizeMiB: 512,
      streamThroughputOutboundMiBPerSec: 24,
      interDcStreamThroughputOutboundMiBPerSec: 12,
    });
    expect(v.auditSources.readRequestTimeoutMs).toBe('read_request_timeout');
    expect(v.settings['seed_provider']).toEqual([{ class_name: 'org.apache.cassandra.locator.SimpleSeedProvider', parameters: [{ seeds: '127.0.0.1:7000' }] }]);
    expect(r.ok && r.warnings).toEqual([]);
  });

  it("'unknown' naming when no renamed setting appears", () => {
    const v = ok(parseCassandraYaml('cluster_name: c\nnum_tokens: 8\nconcurrent_reads: 32\n'));
    expect(v.naming).toBe('unknown');
    expect(v.audit.numTokens).toBe(8);
    expect(v.audit.compactionThroughputMiBPerSec).toBeNull();
  });

  it("'mixed': old and new name for the same setting, the new one is used; duplicates reported", () => {
    const r = parseCassandraYaml(YAML_MIXED);
    const v = ok(r);
    expect(v.naming).toBe('mixed');
    expect(v.renamedBoth).toEqual([{ oldKey: 'compaction_throughput_mb_per_sec', newKey: 'compaction_throughput' }]);
    expect(v.audit.compactionThroughputMiBPerSec).toBe(64);
    expect(v.auditSources.compactionThroughputMiBPerSec).toBe('compaction_throughput');
    expect(v.audit.readRequestTimeoutMs).toBe(5000);
    expect(v.audit.writeRequestTimeoutMs).toBe(2000);
    expect(v.audit.streamThroughputOutboundMiBPerSec).toBeCloseTo(25_000_000 / MIB, 6);
    expect(v.duplicateKeys).toEqual(['concurrent_reads']);
    expect(v.audit.concurrentReads).toBe(64); // last wins, as SnakeYAML
    expect(r.ok && r.warnings.join('\n')).toMatch(/duplicate key concurrent_reads/);
    expect(r.ok && r.warnings.join('\n')).toMatch(/compaction_throughput_mb_per_sec and compaction_throughput both set/);
  });

  it('unreadable values stay null with a warning; YAML 1.1 booleans', () => {
    const r = parseCassandraYaml('cluster_name: x\ncompaction_throughput: fast\nread_request_timeout: 5000\ndynamic_snitch: no\nconcurrent_reads:\n');
    const v = ok(r);
    expect(v.audit.compactionThroughputMiBPerSec).toBeNull();
    expect(v.audit.readRequestTimeoutMs).toBe(5000); // bare number on a new name: read in ms, warned
    expect(v.audit.dynamicSnitch).toBe(false);
    expect(v.audit.concurrentReads).toBeNull();
    expect(r.ok && r.warnings.join('\n')).toMatch(/compaction_throughput: cannot read "fast"/);
    expect(r.ok && r.warnings.join('\n')).toMatch(/read_request_timeout: 5000 has no unit/);
  });

  it('a YAML syntax error is ok:false with the line', () => {
    const r = parseCassandraYaml('cluster_name: x\nnum_tokens: 16\nseeds: [a, b\nconcurrent_reads: 32\n');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/^YAML error at line \d+: /);
  });

  it('empty, unrelated and non-cassandra YAML are ok:false with a reason', () => {
    const inputs = [
      '',
      '  \n\n',
      '# only a comment\n',
      'hello world',
      'version: "3"\nservices:\n  web:\n    image: nginx\n',
      '- a\n- b\n',
      'Datacenter: datacenter1\n=======================\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n--  Address    Load       Tokens  Owns\nUN  127.0.0.1  1 KiB  16  100.0%  x  rack1\n',
      '-Xms4G\n-Xmx4G\n-XX:+UseG1GC\n',
    ];
    for (const text of inputs) {
      const r = parseCassandraYaml(text);
      expect(r.ok, text).toBe(false);
      expect(!r.ok && r.reason.length).toBeGreaterThan(0);
    }
    expect(parseCassandraYaml(undefined as unknown as string).ok).toBe(false);
  });

  it.skipIf(!HAVE_CORPUS)('the DSE jvm.options corpus file is not a cassandra.yaml', () => {
    expect(parseCassandraYaml(corpus('config/dse67_jvm_options_heap_unset_g1_pause500.txt')).ok).toBe(false);
  });

  const texts = (): [string, string][] => [['5.0', YAML_50], ['mixed', YAML_MIXED], ...(HAVE_CORPUS ? ([['pre41', corpus(PRE41)]] as [string, string][]) : [])];

  it('truncation at every line (and mid-line) never throws: ok with warnings or ok:false with a reason', () => {
    for (const [name, text] of texts()) {
      const lines = text.split('\n');
      for (let i = 0; i <= lines.length; i++) {
        const head = lines.slice(0, i).join('\n');
        const cuts = [head, `${head}\n${(lines[i] ?? '').slice(0, Math.ceil((lines[i] ?? '').length / 2))}`];
        for (const cut of cuts) {
          let r: Parsed<CassandraYaml> | undefined;
          expect(() => (r = parseCassandraYaml(cut)), `${name} @${i}`).not.toThrow();
          if (r!.ok) expect(Array.isArray(r!.warnings)).toBe(true);
          else expect(r!.reason, `${name} @${i}`).not.toMatch(/^parser error/);
        }
      }
    }
  });

  it('is registered in CONFIG_PARSERS and its signature matches the inputs above but not a jvm.options', () => {
    expect(CONFIG_PARSERS[CASSANDRA_YAML_KIND]).toBe(parseCassandraYaml);
    const sig = configSignature[CASSANDRA_YAML_KIND];
    for (const [, text] of texts()) expect(sig.test(text)).toBe(true);
    expect(sig.test('-Xms4G\n-XX:+UseG1GC\n')).toBe(false);
    expect(sig.test('hello world')).toBe(false);
  });
});
