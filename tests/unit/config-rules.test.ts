/**
 * Configuration audit rules on real files: the corpus's three config samples (labels in SOURCES.tsv), the
 * lab's own generated cassandra.yaml and JVM flags, a half-migrated 4.1 yaml and a G1 options file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { parseCassandraYaml, parseJvmOptions } from '../../mcp-server/src/core/parse/config/index.js';
import type { Parsed } from '../../mcp-server/src/core/parsed.js';
import { CONFIG_KIND_RULES, cassandraYamlRules, jvmRules, type ConfigContext } from '../../mcp-server/src/core/rules/config.js';
import { kindRulesFor } from '../../mcp-server/src/core/rules/per-kind.js';
import type { KindRuleOutcome } from '../../mcp-server/src/core/rules/per-kind.js';
import { renderCassandraYaml } from '../../mcp-server/src/lab/config-files.js';
import { serverJvmFlags } from '../../mcp-server/src/lab/jvm-flags.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { HAVE_CORPUS, corpus, fixture } from '../helpers/corpus.js';

const GIB = 1024 ** 3;

function ok<T>(r: Parsed<T>): T {
  if (!r.ok) throw new Error(`expected ok, got: ${r.reason}`);
  return r.value;
}
const findings = (o: KindRuleOutcome[]): Finding[] => o.flatMap((x) => x.findings);
const byId = (o: KindRuleOutcome[], id: string) => findings(o).find((f) => f.id === id);
const yamlAudit = (text: string, ctx: ConfigContext = {}) => cassandraYamlRules(ok(parseCassandraYaml(text)), ctx);
const jvmAudit = (text: string, ctx: ConfigContext = {}) => jvmRules(ok(parseJvmOptions(text)), ctx);

describe('cassandra.yaml rules — corpus pre-4.1 sample (3.11)', () => {
  const PRE41 = 'config/cassandra_yaml_pre41_unthrottled_compaction_10s_timeouts_no_dsnitch.txt';

  it.skipIf(!HAVE_CORPUS)('finds unthrottled compaction, raised read/write timeouts and the dynamic snitch off', () => {
    const o = yamlAudit(corpus(PRE41), { version: '3.11.4' });
    const comp = byId(o, 'config.yaml.compaction-unthrottled');
    expect(comp?.severity).toBe('warning');
    expect(comp?.evidence[0]).toContain('compaction_throughput_mb_per_sec: 0');
    const to = byId(o, 'config.yaml.request-timeout-raised');
    expect(to?.severity).toBe('warning');
    // read 10000 = 2× 5000, write 10000 = 5× 2000; range 10000 is its default and is not listed.
    expect(to?.evidence).toHaveLength(2);
    expect(to?.evidence.join('\n')).toMatch(/read_request_timeout_in_ms: 10000 = 2× the default 5000 ms/);
    expect(to?.evidence.join('\n')).toMatch(/write_request_timeout_in_ms: 10000 = 5× the default 2000 ms/);
    expect(to?.evidence.join('\n')).not.toMatch(/range_request/);
    expect(byId(o, 'config.yaml.dynamic-snitch-off')?.evidence[0]).toMatch(/dynamic_snitch: false.*Ec2Snitch/);
    // Naming era: pre-4.1, judged for 3.11 — nothing is removed or conflicting there.
    expect(byId(o, 'config.yaml.naming')?.title).toMatch(/^pre-4\.1 setting names/);
    for (const id of ['config.yaml.old-and-new-key', 'config.yaml.value-without-unit', 'config.yaml.removed-key']) expect(byId(o, id)).toBeUndefined();
    expect(findings(o).filter((f) => f.severity === 'critical')).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('judged for 4.1, the same file lists the renames it needs with their old units', () => {
    const n = byId(yamlAudit(corpus(PRE41), { version: '4.1.10' }), 'config.yaml.naming')!;
    expect(n.evidence.join('\n')).toContain('compaction_throughput_mb_per_sec → compaction_throughput (a bare number meant MiB/s');
    expect(n.evidence.join('\n')).toContain('read_request_timeout_in_ms → read_request_timeout (a bare number meant ms');
  });

  it.skipIf(!HAVE_CORPUS)('interpret runs the config rules on the pasted file', () => {
    const r = interpretText(corpus(PRE41));
    expect(r.kind).toBe('config.cassandra-yaml');
    const ids = r.findings.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining(['config.yaml.compaction-unthrottled', 'config.yaml.request-timeout-raised', 'config.yaml.dynamic-snitch-off']));
    expect(kindRulesFor('config.jvm-options')).toBe(CONFIG_KIND_RULES);
  });
});

describe('cassandra.yaml rules — a 4.1 file with old and new names', () => {
  const text = fixture('config/cassandra-4.1-old-new-conflict.yaml');

  it('old and new key both present is critical (the node refuses to start)', () => {
    const o = yamlAudit(text, { version: '4.1.10' });
    const c = byId(o, 'config.yaml.old-and-new-key')!;
    expect(c.severity).toBe('critical');
    expect(c.evidence).toEqual(['cassandra.yaml: compaction_throughput_mb_per_sec: 16 and compaction_throughput: 64MiB/s']);
    expect(c.knowledgeIds).toContain('config.old-and-new-key');
  });

  it('a bare number under a new name is flagged; a unit-only change (key_cache_save_period) is not', () => {
    const u = byId(yamlAudit(text, { version: '4.1.10' }), 'config.yaml.value-without-unit')!;
    expect(u.severity).toBe('critical');
    expect(u.evidence).toHaveLength(1);
    expect(u.evidence[0]).toMatch(/read_request_timeout: 5000 — a duration needs a unit \(old name read_request_timeout_in_ms meant ms\)/);
  });

  it('Thrift keys are removed on 4.x (critical) and otc_* is deprecated (info)', () => {
    const o = yamlAudit(text, { version: '4.1.10' });
    const r = byId(o, 'config.yaml.removed-key')!;
    expect(r.severity).toBe('critical');
    expect(r.evidence.map((e) => e.split(' ')[1])).toEqual(['start_rpc', 'rpc_port']);
    expect(byId(o, 'config.yaml.deprecated-key')?.evidence[0]).toMatch(/otc_coalescing_window_us \(deprecated since 4\.0/);
    expect(byId(o, 'config.yaml.naming')?.title).toMatch(/^mixed naming/);
  });

  it('without a version the 4.1 names imply ≥ 4.1 (inferred, medium confidence)', () => {
    const r = byId(yamlAudit(text), 'config.yaml.removed-key')!;
    expect(r.confidence).toBe('medium');
    expect(r.title).toMatch(/4\.1\+ \(inferred/);
  });

  it('judged for 4.0, the 4.1 names are unknown keys', () => {
    const n = byId(yamlAudit(text, { version: '4.0.11' }), 'config.yaml.new-names-on-old-version')!;
    expect(n.severity).toBe('critical');
    expect(n.evidence.join('\n')).toMatch(/compaction_throughput \(from 4\.1; on 4\.0\.11: compaction_throughput_mb_per_sec\)/);
    expect(n.evidence.join('\n')).not.toMatch(/key_cache_save_period/);
  });
});

describe('cassandra.yaml rules — the lab’s own generated file', () => {
  for (const version of ['4.1', '5.0'] as const) {
    it(`lab ${version} yaml: 4.1+ naming, no warnings or criticals`, () => {
      const text = renderCassandraYaml({ version, host: '127.0.0.1', nodeDir: '/tmp/lab/node1' });
      const o = yamlAudit(text, { version, cores: 2 });
      expect(byId(o, 'config.yaml.naming')?.title).toMatch(/^4\.1\+ setting names/);
      expect(findings(o).filter((f) => f.severity !== 'info')).toEqual([]);
      expect(o.filter((x) => x.checked).map((x) => x.rule)).toEqual(['config.yaml-keys', 'config.yaml-values']);
    });
  }
});

describe('JVM rules — corpus samples', () => {
  it.skipIf(!HAVE_CORPUS)('DSE 6.7 jvm.options: heap not pinned (auto-sized) and a lax G1 pause target of 500 ms', () => {
    const o = jvmAudit(corpus('config/dse67_jvm_options_heap_unset_g1_pause500.txt'), { hostRamBytes: 15 * GIB });
    const h = byId(o, 'config.jvm.heap-unset')!;
    expect(h.severity).toBe('warning');
    expect(h.evidence[0]).toContain('commented out: -Xmx4G');
    expect(h.evidence[1]).toMatch(/auto-sizing on 15 GiB RAM: 3840 MiB/);
    const p = byId(o, 'config.jvm.g1-pause-target')!;
    expect(p.severity).toBe('warning');
    expect(p.evidence[0]).toContain('-XX:MaxGCPauseMillis=500');
    expect(byId(o, 'config.jvm.cms')).toBeUndefined();
  });

  it.skipIf(!HAVE_CORPUS)('Cassandra 2.1.17 java command line: 1995 MB heap with -Xmn200M on CMS', () => {
    const o = jvmAudit(corpus('config/cassandra2117_java_cmdline_cms_2g_heap.txt'), { jdk: 8 });
    const s = byId(o, 'config.jvm.heap-small')!;
    expect(s.severity).toBe('warning');
    expect(s.evidence[0]).toMatch(/-Xmx 1995 MiB; young generation -Xmn 200 MiB — what cassandra-env\.sh picks on a host with about 7\.79 GiB RAM/);
    const c = byId(o, 'config.jvm.cms')!;
    expect(c.severity).toBe('info'); // JDK 8: CMS works, but plan G1
    expect(c.evidence[0]).toMatch(/ParNew\+CMS, CMSInitiatingOccupancyFraction=75, MaxTenuringThreshold=1, heap 1995 MiB/);
    expect(byId(o, 'config.jvm.heap-unset')).toBeUndefined();
    expect(byId(o, 'config.jvm.g1-xmn')).toBeUndefined(); // -Xmn is right for CMS
    // The same flags on JDK 17 (a Cassandra 5.0 host): CMS is gone and the flags are unrecognized options, so the
    // JVM does not start. This asserted 'warning' ("runs G1") before issue #17; checked on OpenJDK 17.0.15.
    expect(byId(jvmAudit(corpus('config/cassandra2117_java_cmdline_cms_2g_heap.txt'), { jdk: 17 }), 'config.jvm.cms')?.severity).toBe('critical');
  });
});

describe('JVM rules — lines the start script skips (k8ssandra/k8ssandra#1353)', () => {
  // The top of a jvm-server.options a Helm chart generated: CMS values rendered as bare lines (real-world corpus).
  const PASTE = readFileSync(new URL('../fixtures/real-world/jvm_cms-values-under-wrong-key-garbage-cut_k8ssandra1353.txt', import.meta.url), 'utf8');

  it('names each bare value with its line, and does not claim the heap is unset on a three-line fragment', () => {
    const o = jvmAudit(PASTE);
    const s = byId(o, 'config.jvm.stray-line')!;
    expect(s.severity).toBe('warning');
    expect(s.title).toMatch(/^2 lines .* not a JVM option/);
    expect(s.evidence).toEqual([expect.stringMatching(/line 1: "66" \(a bare value\)/), expect.stringMatching(/line 2: "15000" \(a bare value\)/)]);
    expect(byId(o, 'config.jvm.heap-unset')).toBeUndefined();
  });

  it('a flag that lost its dash is named too; prompts, file names and prose are not', () => {
    const text = [
      '$ cat conf/jvm-server.options',
      'jvm-server.options',
      '# heap',
      'XX:+UseG1GC',
      'Xmx8G',
      '-Xms8G',
      'Default settings follow',
      'Dcassandra.ring_delay_ms=30000',
    ].join('\n');
    const j = ok(parseJvmOptions(text));
    expect(j.strayLines.map((l) => [l.line, l.text])).toEqual([
      [4, 'XX:+UseG1GC'],
      [5, 'Xmx8G'],
      [8, 'Dcassandra.ring_delay_ms=30000'],
    ]);
    expect(byId(jvmRules(j), 'config.jvm.stray-line')?.evidence[0]).toMatch(/line 4: "XX:\+UseG1GC" \(a flag without its leading "-"\)/);
  });

  it('a java command line or a ps row has no stray lines: only one-flag-per-line files are judged', () => {
    const j = ok(parseJvmOptions('java -Xms4G -Xmx4G -XX:+UseG1GC org.apache.cassandra.service.CassandraDaemon\n15000\n'));
    expect(j.format).toBe('command-line');
    expect(j.strayLines).toEqual([]);
  });

  it('a whole file without -Xmx still gets heap-unset (comments mark it whole)', () => {
    expect(byId(jvmAudit('# jvm-server.options\n-ea\n-XX:+UseG1GC\n'), 'config.jvm.heap-unset')).toBeDefined();
    expect(byId(jvmAudit('-ea\n-XX:+UseG1GC\n'), 'config.jvm.heap-unset')).toBeUndefined();
  });
});

describe('JVM rules — corpus samples through interpret', () => {
  it.skipIf(!HAVE_CORPUS)('interpret gives each JVM sample its labelled conclusion', () => {
    const dse = interpretText(corpus('config/dse67_jvm_options_heap_unset_g1_pause500.txt'));
    expect(dse.kind).toBe('config.jvm-options');
    expect(dse.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['config.jvm.heap-unset', 'config.jvm.g1-pause-target']));
    const c21 = interpretText(corpus('config/cassandra2117_java_cmdline_cms_2g_heap.txt'));
    expect(c21.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['config.jvm.heap-small', 'config.jvm.cms']));
    expect(c21.checked.find((c) => c.rule === 'config.jvm-ram')).toMatchObject({ checked: false, skippedBecause: 'host RAM not given' });
  });
});

describe('JVM rules — options file and the lab’s command line', () => {
  it('34 GiB G1 heap: compressed-oops dead zone, -Xmn with G1, NUMA noted; heap vs RAM graded', () => {
    const text = fixture('config/jvm17-g1-34g.options');
    const o = jvmAudit(text, { jdk: 17, hostRamBytes: 64 * GIB });
    expect(byId(o, 'config.jvm.heap-oops-dead-zone')?.severity).toBe('warning');
    expect(byId(o, 'config.jvm.g1-xmn')?.evidence[0]).toBe('jvm options: -Xmn4G with G1');
    expect(byId(o, 'config.jvm.numa')?.title).toBe('NUMA-aware allocation is on');
    expect(byId(o, 'config.jvm.g1-pause-target')).toBeUndefined(); // 300 ms is fine
    expect(byId(o, 'config.jvm.heap-ram-ratio')?.severity).toBe('warning'); // 34/64 = 53 %
    expect(byId(jvmAudit(text, { jdk: 17, hostRamBytes: 40 * GIB }), 'config.jvm.heap-ram-ratio')?.severity).toBe('critical'); // 85 %
    expect(byId(jvmAudit(text, { jdk: 17, hostRamBytes: 128 * GIB }), 'config.jvm.heap-ram-ratio')).toBeUndefined();
    expect(byId(jvmAudit(text, { jdk: 11 }), 'config.jvm.numa')?.title).toMatch(/does nothing for G1 on JDK 11/);
  });

  it('the lab daemon command line: pinned 512 MiB G1 heap is small (a lab), nothing else to fix', () => {
    const flags = serverJvmFlags({
      version: '5.0',
      heap: '512M',
      nodeDir: '/tmp/lab/node1',
      logDir: '/tmp/lab/node1/logs',
      configUrl: 'file:///tmp/lab/node1/cassandra.yaml',
      logbackPath: '/tmp/lab/node1/logback.xml',
      jmxPort: 7199,
      index: 1,
      jammJar: null,
    });
    const o = jvmAudit(`java ${flags.join(' ')} -cp /x org.apache.cassandra.service.CassandraDaemon`, { jdk: 17 });
    expect(
      findings(o)
        .filter((f) => f.severity !== 'info')
        .map((f) => f.id),
    ).toEqual(['config.jvm.heap-small']);
    expect(o.find((x) => x.rule === 'config.jvm-ram')?.skippedBecause).toBe('host RAM not given');
  });

  it('conflicting collectors are critical', () => {
    expect(byId(jvmAudit('-Xms8G\n-Xmx8G\n-XX:+UseG1GC\n-XX:+UseConcMarkSweepGC\n'), 'config.jvm.gc-conflict')?.severity).toBe('critical');
  });
});

describe('scylla.yaml rules', () => {
  const text = fixture('config/scylla-dev-mode.yaml');

  it('is recognised as scylla.yaml and judged by ScyllaDB rules, not Cassandra’s', () => {
    const y = ok(parseCassandraYaml(text));
    expect(y.product).toBe('scylla');
    expect(y.scyllaKeys).toEqual(['api_port', 'api_address', 'developer_mode']);
    const o = cassandraYamlRules(y, { version: '5.0' });
    expect(byId(o, 'config.scylla.developer-mode')?.severity).toBe('critical');
    expect(byId(o, 'config.scylla.ignored-keys')?.evidence.map((e) => e.split(': ')[1])).toEqual([
      'concurrent_reads',
      'concurrent_writes',
      'memtable_flush_writers',
    ]);
    expect(byId(o, 'config.yaml.request-timeout-raised')?.evidence).toEqual(['scylla.yaml: read_request_timeout_in_ms: 12000 = 2.4× the default 5000 ms']);
    // Not Cassandra findings: rpc_port is no removed key for ScyllaDB, compaction 0 is its controller's default, 256 tokens its default.
    for (const id of ['config.yaml.removed-key', 'config.yaml.compaction-unthrottled', 'config.yaml.num-tokens-legacy', 'config.yaml.naming'])
      expect(byId(o, id)).toBeUndefined();
  });

  it('a plain Cassandra file is not taken for ScyllaDB', () => {
    expect(ok(parseCassandraYaml(fixture('config/cassandra-4.1-old-new-conflict.yaml'))).product).toBe('cassandra');
  });
});

describe('JVM rules — cassandra-env.sh', () => {
  it('HEAP_NEWSIZE with G1 is not a fixed young generation (the script drops it for G1); commented MAX_HEAP_SIZE = unset', () => {
    const env = '#MAX_HEAP_SIZE="8G"\nHEAP_NEWSIZE="800M"\nJVM_OPTS="$JVM_OPTS -XX:+UseG1GC"\nJVM_OPTS="$JVM_OPTS -XX:MaxGCPauseMillis=500"\n';
    const o = jvmAudit(env, { jdk: 11 });
    expect(byId(o, 'config.jvm.g1-xmn')).toBeUndefined();
    expect(byId(o, 'config.jvm.heap-unset')?.evidence[0]).toContain('commented out: -Xmx8G');
    expect(byId(o, 'config.jvm.g1-pause-target')?.severity).toBe('warning');
    expect(byId(jvmAudit('-Xms16G\n-Xmx16G\n-XX:+UseG1GC\n-XX:NewSize=2G\n'), 'config.jvm.g1-xmn')?.evidence[0]).toBe('jvm options: -XX:NewSize=2G with G1');
  });
});

describe('JVM rules — JDK 8 options on a newer JDK', () => {
  it.skipIf(!HAVE_CORPUS)('the DSE 6.7 (JDK 8) jvm.options moved to Cassandra 5.0: its GC-logging flags stop the JVM', () => {
    const text = corpus('config/dse67_jvm_options_heap_unset_g1_pause500.txt');
    expect(byId(jvmAudit(text, { jdk: 8 }), 'config.jvm.jdk8-flags')).toBeUndefined();
    const f = byId(jvmAudit(text, { version: '5.0.9' }), 'config.jvm.jdk8-flags')!;
    expect(f.severity).toBe('critical');
    expect(f.title).toBe('JDK 8 GC-logging flags stop the JVM on Cassandra 5.0.9 (JDK 11+)');
    expect(f.evidence[0]).toMatch(/-XX:\+PrintGCDateStamps \(line \d+\)/);
    expect(f.evidence[0]).toMatch(/-XX:\+UseGCLogFileRotation/);
    const ignored = byId(jvmAudit(`${text}\n-XX:+IgnoreUnrecognizedVMOptions\n`, { jdk: 11 }), 'config.jvm.jdk8-flags')!;
    expect(ignored.severity).toBe('warning');
  });
});

describe('version inferred from the file', () => {
  it('a 5.0-only setting makes the 5.0 renames apply; without one, 4.1 names imply 4.1', () => {
    const text = 'cluster_name: c\nstorage_compatibility_mode: NONE\ncompaction_large_partition_warning_threshold: 100MiB\n';
    const n = byId(yamlAudit(text), 'config.yaml.naming')!;
    expect(n.title).toMatch(/judged for 5\.0\+ \(inferred from settings that exist from 5\.0\)/);
    expect(n.evidence[0]).toContain('compaction_large_partition_warning_threshold → partition_size_warn_threshold');
    const n41 = byId(yamlAudit('cluster_name: c\ncompaction_large_partition_warning_threshold: 100MiB\n'), 'config.yaml.naming')!;
    expect(n41.title).toMatch(/judged for 4\.1\+ \(inferred from the 4\.1 names\)/);
    expect(n41.evidence).toEqual([]);
  });
});

describe('removed keys without a version', () => {
  it('a pre-4.1 file with Thrift settings and no version: upgrade notes, not criticals', () => {
    const o = yamlAudit('cluster_name: c\nstart_rpc: false\nrpc_port: 9160\nread_request_timeout_in_ms: 5000\n');
    expect(byId(o, 'config.yaml.removed-key')).toBeUndefined();
    expect(byId(o, 'config.yaml.removed-on-upgrade')?.evidence).toEqual([
      'cassandra.yaml: start_rpc (removed in 4.0)',
      'cassandra.yaml: rpc_port (removed in 4.0)',
    ]);
    expect(byId(o, 'config.yaml.naming')?.evidence).toEqual([
      'cassandra.yaml: read_request_timeout_in_ms → read_request_timeout (a bare number meant ms; write the unit)',
    ]);
    // The same file declared for 4.0: the Thrift keys stop the node.
    expect(byId(yamlAudit('cluster_name: c\nstart_rpc: false\n', { version: '4.0.11' }), 'config.yaml.removed-key')?.severity).toBe('critical');
  });
});
