/**
 * Issue #17, the "Imprecise" list: knowledge entries (and the rules and skills that repeat them) made precise
 * against primary sources. One describe per entry id; each feeds the rule, planner or review the input whose
 * answer changed and asserts the verified one. The source each claim was checked against is the entry's
 * `verified` field (file@tag or URL#section).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyChangesFor, keyStatus } from '../../mcp-server/src/core/config/renames.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { appliesTo, knowledge, knowledgeFor, numberOf, threshold, type KnowledgeId } from '../../mcp-server/src/core/knowledge/index.js';
import { parseAccessPattern, reviewMigration, type MigrationReview } from '../../mcp-server/src/core/migration/index.js';
import { parseCassandraYaml, parseJvmOptions } from '../../mcp-server/src/core/parse/config/index.js';
import { parsePostgresDdl } from '../../mcp-server/src/core/parse/postgres-ddl.js';
import { emptyFacts, type StorageFacts } from '../../mcp-server/src/core/parse/storage/facts.js';
import type { Parsed } from '../../mcp-server/src/core/parsed.js';
import { planMkfs } from '../../mcp-server/src/core/planners/mkfs.js';
import { cassandraYamlRules, jvmRules, type ConfigContext } from '../../mcp-server/src/core/rules/config.js';
import { emptyOsFacts, osRules, type OsFacts } from '../../mcp-server/src/core/rules/os.js';
import type { KindRuleOutcome } from '../../mcp-server/src/core/rules/per-kind.js';
import { grade, PACK } from '../../mcp-server/src/core/rules/rule.js';
import { storageRules } from '../../mcp-server/src/core/rules/storage.js';

function ok<T>(r: Parsed<T>): T {
  if (!r.ok) throw new Error(`expected ok, got: ${r.reason}`);
  return r.value;
}
const all = (o: KindRuleOutcome[]): Finding[] => o.flatMap((x) => x.findings);
const byId = (o: KindRuleOutcome[], id: string) => all(o).find((f) => f.id === id);
const jvm = (text: string, ctx: ConfigContext = {}) => jvmRules(ok(parseJvmOptions(text)), ctx);
const yaml = (text: string, ctx: ConfigContext = {}) => cassandraYamlRules(ok(parseCassandraYaml(text)), ctx);
const item = (r: MigrationReview, id: string) => {
  const i = r.items.find((x) => x.id === id);
  if (!i) throw new Error(`no item ${id} in ${r.items.map((x) => x.id).join(', ')}`);
  return i;
};
const C = (version: string) => ({ product: 'cassandra' as const, version });
const GIB = 1024 ** 3;
const ROOT = join(import.meta.dirname, '../..');
const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');

const IMPRECISE: KnowledgeId[] = [
  'jvm.heap.default-size',
  'jvm.gc.g1-default',
  'jvm.gc.default-4x',
  'jvm.gc.zgc-jdk17',
  'config.jvm.max-gc-pause-millis',
  'config.jvm.g1-no-xmn',
  'config.jvm.cassandra-5.0-jdk',
  'config.renames.cassandra-5.0',
  'config.removed.cassandra-4.0',
  'config.removed.cassandra-5.0',
  'config.deprecated.cassandra',
  'config.write-request-timeout.default',
  'config.counter-write-request-timeout.default',
  'latest.storage-compatibility-mode',
  'streaming.scylla.stream-io-throughput',
  'config.scylla.ignored-cassandra-keys',
  'storage.xfs.block-size',
  'storage.discard.online',
  'driver.scylla.shard-aware',
  'migration.postgres.lwt-cost',
];

describe('every made-precise entry records what it was verified against', () => {
  it.each(IMPRECISE)('%s has verified { source: file@tag or URL#section, checked: 2026-11-24 }', (id) => {
    const v = knowledge(id).verified;
    expect(v?.checked).toBe('2026-11-24');
    expect(v?.source).toMatch(/@|#/);
  });
});

describe('open Cassandra ranges stop at what was verified (trunk differs: ZGC on JDK 21, 10 s writes)', () => {
  it('no Cassandra entry is open-ended from 5.0 unless it holds on trunk too', () => {
    // Still true on trunk (2024-10), so they stay open: UCS, SAI, cassandra_latest.yaml's trie/BTI/UCS, the 5.0
    // guardrail renames' deprecated old names, nodetool's start-up refusal. Trunk differs on these, so they stop at 5.0:
    const open = knowledgeFor('cassandra', '6.0.0').filter((e) => e.appliesTo.some((a) => a.product === 'cassandra' && /^>=5\.0$/.test(a.versions)));
    const capped: KnowledgeId[] = [
      'jvm.gc.g1-default',
      'jvm.gc.zgc-jdk17',
      'config.jvm.cassandra-5.0-jdk',
      'config.renames.cassandra-5.0',
      'config.removed.cassandra-5.0',
      'latest.storage-compatibility-mode',
    ];
    for (const id of capped) {
      expect(open.map((e) => e.id)).not.toContain(id);
      expect(appliesTo(knowledge(id), 'cassandra', '5.0.9')).toBe(true);
      expect(appliesTo(knowledge(id), 'cassandra', '6.0.0')).toBe(false);
    }
  });
});

describe('jvm.heap.default-size', () => {
  it('keeps the 8 GiB cap of Apache cassandra-env.sh (4.1.7, 5.0.0) and no longer cites DataStax for it', () => {
    const e = knowledge('jvm.heap.default-size');
    expect(e.value).toBe('max(min(1/2 RAM, 1024 MiB), min(1/4 RAM, 8192 MiB))');
    expect(e.sources[0]!.url).toMatch(/cassandra-5\.0\.0\/conf\/cassandra-env\.sh$/);
    expect(e.sources.some((s) => /capped at 8 GB/.test(s.title))).toBe(false);
    expect(e.statement).toMatch(/32765 MiB/);
  });

  it('recommends no heap that config.jvm.heap-ram-ratio grades: 24 GiB on a 32 GiB host is critical, the advice is ≤ ½ RAM', () => {
    const e = knowledge('jvm.heap.default-size');
    expect(e.rationale).not.toMatch(/24 GB/);
    expect(grade(PACK, 24 / 32, 'config.jvm.heap-ram-ratio')).toBe('critical');
    // The heaps the rationale now names: 8–12 GiB on 32 GiB, 16–31 GiB from 64 GiB; none reaches the ratio's critical.
    for (const [heap, ram] of [
      [8, 32],
      [12, 32],
      [16, 64],
      [31, 64],
    ] as const)
      expect(grade(PACK, heap / ram, 'config.jvm.heap-ram-ratio')).not.toBe('critical');
    expect(e.rationale).toMatch(/8–12 GiB on a 32 GiB host and 16–31 GiB for G1 from 64 GiB/);
    const f = byId(jvm('-Xms24G\n-Xmx24G\n-XX:+UseG1GC\n', { hostRamBytes: 32 * GIB }), 'config.jvm.heap-ram-ratio');
    expect(f?.severity).toBe('critical');
  });
});

describe('jvm.gc.g1-default', () => {
  it('says 5.0 runs on JDK 11 and 17 with G1 in both files, and stops at 5.0', () => {
    const e = knowledge('jvm.gc.g1-default');
    expect(e.statement).toMatch(/JDK 11 or JDK 17/);
    expect(e.statement).toMatch(/jvm11-server\.options and jvm17-server\.options/);
    expect(e.appliesTo).toEqual([{ product: 'cassandra', versions: '>=5.0 <5.1' }]);
    expect(e.sources.every((s) => !/blob\/trunk\//.test(s.url ?? ''))).toBe(true);
  });
});

describe('jvm.gc.default-4x', () => {
  it('no longer claims a commented ZGC section in 4.1', () => {
    const e = knowledge('jvm.gc.default-4x');
    expect(e.sources[0]!.title).not.toMatch(/G1 and ZGC sections commented/);
    expect(e.statement).toMatch(/no ZGC section/);
  });
});

describe('jvm.gc.zgc-jdk17', () => {
  it('cites 5.0.0 jvm17-server.options as having no ZGC lines (not "ZGC section commented out") and the JEPs for the pause claims', () => {
    const e = knowledge('jvm.gc.zgc-jdk17');
    expect(e.sources.some((s) => /ZGC section provided commented out/.test(s.title))).toBe(false);
    expect(e.sources[0]!.title).toMatch(/no ZGC lines/);
    expect(e.sources.map((s) => s.url)).toEqual(expect.arrayContaining(['https://openjdk.org/jeps/377', 'https://openjdk.org/jeps/376']));
    expect(e.statement).toMatch(/no ZGC section/);
    expect(appliesTo(e, 'cassandra', '6.0.0')).toBe(false);
  });
});

describe('config.jvm.max-gc-pause-millis', () => {
  it('places the 500 ms template in 3.11 jvm.options and 4.0 jvm11-server.options, and 4.1 at 300 ms', () => {
    const e = knowledge('config.jvm.max-gc-pause-millis');
    expect(e.sources.some((s) => /cassandra-4\.1\/conf\/jvm-server\.options/.test(s.url ?? ''))).toBe(false);
    expect(e.sources.map((s) => s.ref)).toEqual(
      expect.arrayContaining(['apache/cassandra conf/jvm.options (cassandra-3.11.17)', 'apache/cassandra conf/jvm11-server.options (cassandra-4.0.14)']),
    );
    expect(threshold('config.jvm.max-gc-pause-millis').warning).toBe(500);
  });
});

describe('config.jvm.g1-no-xmn', () => {
  const G1_XMN = '-Xms16G\n-Xmx16G\n-Xmn4G\n-XX:+UseG1GC\n';

  it('-Xmn with -XX:+UseG1GC in an options file is critical on 4.0+ (cassandra-env.sh exits 1), and when the version is unknown', () => {
    for (const version of ['4.0.17', '4.1.10', '5.0.9']) {
      const f = byId(jvm(G1_XMN, { version }), 'config.jvm.g1-xmn')!;
      expect(f.severity).toBe('critical');
      expect(f.title).toMatch(/refuses to start/);
      expect(f.evidence.join(' ')).toMatch(/exit 1/);
    }
    expect(byId(jvm(G1_XMN), 'config.jvm.g1-xmn')?.severity).toBe('critical');
  });

  it('stays a warning where the script does not stop: 3.11, NewSize only, G1 by JDK default, a running command line', () => {
    expect(byId(jvm(G1_XMN, { version: '3.11.17' }), 'config.jvm.g1-xmn')?.severity).toBe('warning');
    expect(byId(jvm('-Xms16G\n-Xmx16G\n-XX:+UseG1GC\n-XX:NewSize=2G\n', { version: '4.1.10' }), 'config.jvm.g1-xmn')?.severity).toBe('warning');
    expect(byId(jvm('-Xms16G\n-Xmx16G\n-Xmn4G\n', { version: '5.0.9', jdk: 17 }), 'config.jvm.g1-xmn')?.severity).toBe('warning');
    const cmd = 'java -Xms16G -Xmx16G -Xmn4G -XX:+UseG1GC -cp x org.apache.cassandra.service.CassandraDaemon';
    expect(byId(jvm(cmd, { version: '4.1.10' }), 'config.jvm.g1-xmn')?.severity).toBe('warning');
  });
});

describe('config.jvm.cassandra-5.0-jdk', () => {
  it('holds for 5.0 only; a 5.0 audit still assumes JDK 11+ for the JDK 8 flags', () => {
    expect(knowledge('config.jvm.cassandra-5.0-jdk').appliesTo).toEqual([{ product: 'cassandra', versions: '>=5.0 <5.1' }]);
    expect(byId(jvm('-Xms8G\n-Xmx8G\n-XX:+PrintGCDateStamps\n', { version: '5.0.9' }), 'config.jvm.jdk8-flags')?.severity).toBe('critical');
  });
});

describe('config.renames.cassandra-5.0', () => {
  it('lists exactly the five @Replaces 5.0.9 adds over 4.1.10, two of them converting the count thresholds', () => {
    const rows = knowledge('config.renames.cassandra-5.0').configKeys ?? [];
    expect(rows.map((r) => r.key).sort()).toEqual([
      'compaction_large_partition_warning_threshold',
      'compaction_large_partition_warning_threshold_mb',
      'compaction_tombstone_warning_threshold',
      'keyspace_count_warn_threshold',
      'table_count_warn_threshold',
    ]);
    const converted = rows.filter((r) => /converts the value/.test(r.note ?? '')).map((r) => r.key);
    expect(converted.sort()).toEqual(['keyspace_count_warn_threshold', 'table_count_warn_threshold']);
  });
});

describe('config.removed.cassandra-4.0', () => {
  it('index_interval and encryption_options are refused from 4.0 (critical), an upgrade note on 3.11', () => {
    const text = 'cluster_name: c\nindex_interval: 128\nencryption_options:\n  internode_encryption: none\n';
    const f = byId(yaml(text, { version: '4.0.17' }), 'config.yaml.removed-key')!;
    expect(f.severity).toBe('critical');
    expect(f.evidence.join(' ')).toMatch(/index_interval \(removed in 4\.0.*encryption_options \(removed in 4\.0; use server_encryption_options/);
    expect(byId(yaml(text, { version: '3.11.17' }), 'config.yaml.removed-on-upgrade')?.evidence.join(' ')).toMatch(/index_interval \(removed in 4\.0\)/);
  });

  it('the old internode buffer names are not removed in 4.0: deprecated there, renamed in 4.1', () => {
    const on40 = keyStatus('internode_send_buff_size_in_bytes', '4.0.17');
    expect(on40).toMatchObject({ status: 'deprecated', change: { replacement: 'internode_socket_send_buffer_size_in_bytes' } });
    const on41 = keyStatus('internode_recv_buff_size_in_bytes', '4.1.10');
    expect(on41).toMatchObject({ status: 'renamed', change: { replacement: 'internode_socket_receive_buffer_size' } });
    expect(byId(yaml('cluster_name: c\ninternode_send_buff_size_in_bytes: 65536\n', { version: '4.0.17' }), 'config.yaml.removed-key')).toBeUndefined();
  });
});

describe('config.removed.cassandra-5.0', () => {
  const FOUR_X =
    'cluster_name: c\ncommitlog_sync: batch\ncommitlog_sync_batch_window_in_ms: 2\nconcurrent_replicates: 32\n' +
    'native_transport_max_negotiable_protocol_version: 4\ncommitlog_periodic_queue_size: 1024\n';

  it('a 4.x file carrying the four keys does not start on 5.0: critical, citing the 5.0 entry', () => {
    const f = byId(yaml(FOUR_X, { version: '5.0.9' }), 'config.yaml.removed-key')!;
    expect(f.severity).toBe('critical');
    expect(f.title).toMatch(/^4 settings that 5\.0\.9 no longer has/);
    expect(f.knowledgeIds).toContain('config.removed.cassandra-5.0');
    expect(f.knowledgeIds).not.toContain('config.removed.cassandra-4.0');
  });

  it('on 4.1 they are deprecated, with an upgrade note that 5.0 removes them', () => {
    const o = yaml(FOUR_X, { version: '4.1.10' });
    expect(byId(o, 'config.yaml.removed-key')).toBeUndefined();
    expect(byId(o, 'config.yaml.deprecated-key')?.evidence).toHaveLength(4);
    const later = byId(o, 'config.yaml.removed-on-upgrade')!;
    expect(later.evidence.join(' ')).toMatch(/commitlog_sync_batch_window_in_ms \(removed in 5\.0\)/);
    expect(later.knowledgeIds).toContain('config.removed.cassandra-5.0');
  });

  it('the 4.1 → 5.0 migration review lists them among the removed keys', () => {
    expect(
      keyChangesFor('4.1.10', '5.0.9')
        .filter((c) => c.change === 'removed')
        .map((c) => c.key)
        .sort(),
    ).toEqual([
      'commitlog_periodic_queue_size',
      'commitlog_sync_batch_window_in_ms',
      'concurrent_replicates',
      'native_transport_max_negotiable_protocol_version',
    ]);
    const r = reviewMigration({ from: C('4.1.10'), to: C('5.0.9'), configText: FOUR_X });
    expect(r.items.flatMap((i) => i.evidence).join(' ')).toMatch(/concurrent_replicates/);
  });
});

describe('config.deprecated.cassandra', () => {
  it('adds the two 5.0 deprecations (native_transport_port_ssl, use_deterministic_table_id)', () => {
    for (const key of ['native_transport_port_ssl', 'use_deterministic_table_id']) {
      expect(keyStatus(key, '5.0.9').status).toBe('deprecated');
      expect(keyStatus(key, '4.1.10').status).toBe('current');
    }
    const o = yaml('cluster_name: c\nnative_transport_port_ssl: 9142\n', { version: '5.0.9' });
    expect(byId(o, 'config.yaml.deprecated-key')?.evidence.join(' ')).toMatch(/native_transport_port_ssl \(deprecated since 5\.0; use native_transport_port/);
  });
});

describe('config.write-request-timeout.default', () => {
  it('2000 ms holds up to 5.0: a 10 s write timeout is flagged on 5.0, not on a later release whose file ships 10 s', () => {
    const text = 'cluster_name: c\nwrite_request_timeout: 10000ms\n';
    expect(byId(yaml(text, { version: '5.0.9' }), 'config.yaml.request-timeout-raised')?.evidence.join(' ')).toMatch(/5× the default 2000 ms/);
    expect(byId(yaml(text, { version: '6.0.0' }), 'config.yaml.request-timeout-raised')).toBeUndefined();
    expect(byId(yaml(text), 'config.yaml.request-timeout-raised')).toBeDefined(); // version unknown: the 4.x/5.0 default
  });
});

describe('config.counter-write-request-timeout.default', () => {
  it('5000 ms is capped at 5.0 (trunk ships 1000ms)', () => {
    expect(appliesTo(knowledge('config.counter-write-request-timeout.default'), 'cassandra', '5.0.9')).toBe(true);
    expect(appliesTo(knowledge('config.counter-write-request-timeout.default'), 'cassandra', '6.0.0')).toBe(false);
  });
});

describe('streaming.scylla.stream-io-throughput', () => {
  it('a Cassandra stream throughput key in scylla.yaml is reported as ignored, pointing at stream_io_throughput_mb_per_sec', () => {
    const text = 'cluster_name: c\napi_port: 10000\nstream_throughput_outbound_megabits_per_sec: 200\n';
    const f = byId(yaml(text), 'config.scylla.ignored-keys')!;
    expect(f.evidence.join(' ')).toMatch(/stream_throughput_outbound_megabits_per_sec: 200/);
    expect(f.recommendation).toMatch(/stream_io_throughput_mb_per_sec/);
    expect(f.knowledgeIds).toContain('streaming.scylla.stream-io-throughput');
    expect(knowledge('streaming.scylla.stream-io-throughput').statement).toMatch(/Unused/);
  });

  it('a Cassandra → ScyllaDB review counts it among the keys with no effect', () => {
    const configText = 'cluster_name: c\nstream_throughput_outbound: 24MiB/s\n';
    const r = reviewMigration({ from: C('4.1.10'), to: { product: 'scylla', version: '2026.1.0' }, configText });
    expect(item(r, 'config.mapping').evidence.join(' ')).toMatch(/no effect on ScyllaDB: stream_throughput_outbound/);
  });
});

describe('config.scylla.ignored-cassandra-keys', () => {
  it('names the streaming caps among the Unused keys', () => {
    expect(knowledge('config.scylla.ignored-cassandra-keys').statement).toMatch(/stream_throughput_outbound_megabits_per_sec/);
  });
});

describe('storage.xfs.block-size', () => {
  const dev = (name: string, phys: number) => ({ name, physicalSectorSize: phys, logicalSectorSize: 512, sizeBytes: null });

  it('plan_mkfs for ScyllaDB keeps 4 KiB blocks, as scylla_raid_setup does on kernels ≥ 5.12 (2025.4+), not 1 KiB', () => {
    const p = planMkfs({ product: 'scylla', devices: [dev('nvme0n1', 512)] });
    expect(p.blockSize).toBe(4096);
    expect(p.mkfsArgv).toEqual(['mkfs.xfs', '-b', 'size=4096', '-s', 'size=512', '/dev/nvme0n1']);
    expect(p.flags[0]!.why).toMatch(/kernels 5\.12\+/);
    expect(planMkfs({ product: 'cassandra', devices: [dev('nvme0n1', 512)] }).blockSize).toBe(4096);
  });

  it('the entry states the 2025.4 / kernel 5.12 rule', () => {
    expect(knowledge('storage.xfs.block-size').statement).toMatch(/2025\.4 and later\) keeps mkfs\.xfs's default 4 KiB block on kernels 5\.12/);
  });
});

describe('storage.discard.online', () => {
  const facts = (product: 'cassandra' | 'scylla'): StorageFacts => ({
    ...emptyFacts('test host', product),
    mounts: [{ target: '/var/lib/data', device: '/dev/md0', fstype: 'xfs', options: ['rw', 'noatime', 'discard'] }],
  });

  it('online discard is flagged for Cassandra, and skipped for ScyllaDB whose setup mounts with discard by default', () => {
    expect(byId(storageRules(facts('cassandra')), 'storage.discard-online')?.severity).toBe('info');
    const s = storageRules(facts('scylla'));
    expect(byId(s, 'storage.discard-online')).toBeUndefined();
    expect(s.find((o) => o.rule === 'storage:discard')?.skippedBecause).toMatch(/ScyllaDB's setup mounts its data volume with online discard/);
  });

  it('plan_mkfs mounts ScyllaDB with discard, Cassandra without', () => {
    const dev = { name: 'nvme0n1', physicalSectorSize: 4096, logicalSectorSize: 4096, sizeBytes: null };
    expect(planMkfs({ product: 'scylla', devices: [dev] }).mountOptions.map((m) => m.flag)).toEqual(['noatime', 'discard']);
    expect(planMkfs({ product: 'cassandra', devices: [dev] }).mountOptions.map((m) => m.flag)).toEqual(['noatime', 'no discard (enable fstrim.timer instead)']);
  });
});

describe('driver.scylla.shard-aware', () => {
  it('says what happens without 19042: connections on 9042 until every shard has one, not "random shard assignment"', () => {
    const e = knowledge('driver.scylla.shard-aware');
    expect(e.value).toBe(19042);
    expect(e.statement).toMatch(/keep opening connections until every shard has one/);
    expect(e.rationale).not.toMatch(/silently falls back to 9042 with random shard assignment/);
  });
});

describe('migration.postgres.lwt-cost', () => {
  const pg = ok(parsePostgresDdl('CREATE TABLE users (id bigint PRIMARY KEY, email text UNIQUE);'));
  const pattern = parseAccessPattern('users by email');
  if ('error' in pattern) throw new Error(pattern.error);
  const cons = (to: { product: 'cassandra' | 'scylla'; version: string }) =>
    item(reviewMigration({ from: { product: 'postgres', version: '16' }, to, postgres: { schema: pg, patterns: [pattern] } }), 'model.constraints');

  it('four round trips is Paxos v1 (the default through 5.0); v2 saves one; ScyllaDB folds the read into the prepare', () => {
    const e = knowledge('migration.postgres.lwt-cost');
    expect(e.statement).toMatch(/Paxos v1[\s\S]*still the default in 4\.1 and 5\.0/);
    expect(e.statement).toMatch(/Paxos v2 \(paxos_variant: v2, from 4\.1\) saves one round/);
    expect(cons(C('5.0.9')).evidence.join(' ')).toMatch(/costs 4 round trips \(Paxos v1, the default; v2 saves one\)/);
    expect(cons({ product: 'scylla', version: '2026.1.0' }).evidence.join(' ')).toMatch(/costs 3 round trips \(the read rides on the prepare\)/);
    expect(numberOf('migration.postgres.lwt-cost')).toBe(4);
  });
});

describe('skills: versions and production warnings', () => {
  const diag = read('skills/diagnosing-cluster-performance/SKILL.md');
  const catalogue = read('skills/diagnosing-cluster-performance/references/findings-catalogue.md');

  it('gossip and pending-hints virtual tables are 4.1+, tablehistograms exists since 2.2', () => {
    expect(diag).toMatch(/gossip and pending hints from 4\.1/);
    expect(catalogue).toMatch(/system_views\.gossip_info` \(4\.1\+\)/);
    expect(read('skills/diagnosing-cluster-performance/references/reading-nodetool-output.md')).not.toMatch(/`cfhistograms` before 4\.0/);
  });

  it('swapoff, SimpleStrategy → NTS, upgradesstables -a and XFS stripe mount options carry their production warning', () => {
    expect(catalogue).toMatch(/`swapoff -a` at a quiet hour once the swapped pages fit in free RAM/);
    expect(catalogue).toMatch(/reads can miss rows that exist/);
    expect(catalogue).toMatch(/upgradesstables -a <ks> <table>` one node at a time/);
    expect(catalogue).toMatch(/applies at mount time to new allocations only: stop the node/);
    expect(read('skills/reviewing-data-models/references/anti-patterns.md')).toMatch(/Production warning: until that repair finishes/);
    expect(read('skills/tuning-storage-io/SKILL.md')).toMatch(/apply only when the file system is mounted with them/);
    const swap = byId(osRules(osFactsWithSwap()), 'os.swap-enabled');
    expect(swap?.recommendation).toMatch(/reads every swapped page back into RAM/);
  });
});

/** OS facts of a Cassandra host with swap on and nothing else read. */
function osFactsWithSwap(): OsFacts {
  return { ...emptyOsFacts('test host', 'cassandra'), swapTotalKiB: 4 * 1024 * 1024, swapDevices: ['/swapfile'], swappiness: 60 };
}
