/** audit_config: files and inline text, kind detection, JDK from the file name, errors, the MCP tool and the CLI verb. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { auditConfig, auditConfigTexts, configKindOf } from '../../mcp-server/src/ops/audit-config.js';
import type { AuditConfigReport } from '../../mcp-server/src/core/reports/audit-config.js';
import { renderAuditConfig } from '../../mcp-server/src/render/audit-config.js';
import { buildProgram } from '../../mcp-server/src/cli/main.js';
import { CORPUS_DIR, FIXTURES_DIR, HAVE_CORPUS, corpus, fixture } from '../helpers/corpus.js';

const GIB = 1024 ** 3;
const PRE41 = join(CORPUS_DIR, 'config/cassandra_yaml_pre41_unthrottled_compaction_10s_timeouts_no_dsnitch.txt');
const DSE = join(CORPUS_DIR, 'config/dse67_jvm_options_heap_unset_g1_pause500.txt');
const CONFLICT = join(FIXTURES_DIR, 'config/cassandra-4.1-old-new-conflict.yaml');
const tmp = mkdtempSync(join(tmpdir(), 'audit-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ids = (r: AuditConfigReport) => r.findings.map((f) => f.id);

describe('auditConfig', () => {
  it.skipIf(!HAVE_CORPUS)('reads a yaml and a jvm.options by content (corpus names end in .txt) and audits both', async () => {
    const r = await auditConfig({ files: [PRE41, DSE], version: '3.11.4', hostRamBytes: 15 * GIB });
    expect(r.inputs.map((i) => [i.kind, i.ok])).toEqual([
      ['cassandra-yaml', true],
      ['jvm-options', true],
    ]);
    expect(ids(r)).toEqual(
      expect.arrayContaining([
        'config.yaml.compaction-unthrottled',
        'config.yaml.request-timeout-raised',
        'config.yaml.dynamic-snitch-off',
        'config.jvm.heap-unset',
        'config.jvm.g1-pause-target',
      ]),
    );
    expect(r.counts.critical).toBe(0);
    // Worst first.
    expect(r.findings[0]!.severity).toBe('warning');
    const text = renderAuditConfig(r);
    expect(text).toMatch(/^Config audit: 0 critical, 5 warning, \d+ info \(Cassandra 3\.11\.4, JDK not given, 15 GiB RAM, cores not given\)/);
    expect(text).toContain('– config.yaml-threads: not checked (host cores not given)');
  });

  it('jvm17-server.options names the JDK; a java command line inline is read as JVM options', () => {
    const dir = join(tmp, 'conf');
    execFileSync('mkdir', ['-p', dir]);
    writeFileSync(join(dir, 'jvm17-server.options'), fixture('config/jvm17-g1-34g.options'));
    return auditConfig({ files: [join(dir, 'jvm17-server.options')], javaCommandLine: 'java -Xms8G -Xmx8G -XX:+UseConcMarkSweepGC -cp x Main' }).then((r) => {
      expect(r.context).toMatchObject({ jdk: 17, jdkFrom: join(dir, 'jvm17-server.options') });
      // Both inputs combine into one flag list (last wins): 8G heap, and CMS plus G1 selected → conflict.
      expect(ids(r)).toEqual(expect.arrayContaining(['config.jvm.gc-conflict']));
    });
  });

  it('a 4.1 half-migrated file fails the audit with criticals (CLI exit code 1 path)', async () => {
    const r = await auditConfig({ files: [CONFLICT], version: '4.1.10' });
    expect(r.counts.critical).toBe(3);
    expect(ids(r).slice(0, 3).sort()).toEqual(['config.yaml.old-and-new-key', 'config.yaml.removed-key', 'config.yaml.value-without-unit']);
  });

  it('errors say what was wrong and what to do', async () => {
    await expect(auditConfig({})).rejects.toMatchObject({ code: 'NO_INPUT' });
    await expect(auditConfig({ files: [join(tmp, 'missing.yaml')] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(auditConfig({ files: ['/dev/null'] })).rejects.toMatchObject({ code: 'NOT_A_FILE' });
    expect(() => auditConfigTexts([{ source: 'notes.txt', text: 'hello world\n' }])).toThrow(/none of the inputs could be read/);
    expect(configKindOf('x.txt', 'cluster_name: a\nnum_tokens: 16\n')).toBe('cassandra-yaml');
    expect(configKindOf('cassandra-env.sh', 'MAX_HEAP_SIZE="8G"\n')).toBe('jvm-options');
  });
});

describe('audit_config MCP tool', () => {
  it('is read-only and audits inline text with host context', async () => {
    const server = createServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(b);
    const tool = (await client.listTools()).tools.find((t) => t.name === 'audit_config')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    const r = await client.callTool({
      name: 'audit_config',
      arguments: {
        cassandraYaml: fixture('config/cassandra-4.1-old-new-conflict.yaml'),
        jvmOptions: [fixture('config/jvm17-g1-34g.options')],
        version: '4.1.10',
        jdk: 17,
        hostRamGiB: 64,
        cores: 8,
      },
    });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as AuditConfigReport;
    expect(s.context).toMatchObject({ version: '4.1.10', jdk: 17, hostRamBytes: 64 * GIB, cores: 8 });
    expect(s.findings.map((f) => f.id)).toEqual(
      expect.arrayContaining(['config.yaml.old-and-new-key', 'config.jvm.heap-oops-dead-zone', 'config.jvm.heap-ram-ratio']),
    );
    const text = (r.content as { text: string }[])[0]!.text;
    // 4, not 3: -Xmn4G with -XX:+UseG1GC on 4.1 stops cassandra-env.sh at startup (kb:config.jvm.g1-no-xmn), no longer a warning.
    expect(text).toMatch(/^Config audit: 4 critical/);
    const bad = await client.callTool({ name: 'audit_config', arguments: {} });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toMatch(/^\[NO_INPUT\]/);
    await client.close();
  });
});

describe('cql-tuner audit-config', () => {
  it('is a verb with --json, --version, --jdk, --ram, --cores and the cluster flags', () => {
    const cmd = buildProgram().commands.find((c) => c.name() === 'audit-config')!;
    const flags = cmd.options.map((o) => o.long);
    expect(flags).toEqual(expect.arrayContaining(['--json', '--version', '--jdk', '--ram', '--cores', '--lab', '--hosts']));
  });

  it.skipIf(!HAVE_CORPUS)('the corpus java command line reads through the CLI path as well', async () => {
    const f = join(tmp, 'java_command_line.txt');
    writeFileSync(f, corpus('config/cassandra2117_java_cmdline_cms_2g_heap.txt'));
    const r = await auditConfig({ files: [f], jdk: 8 });
    expect(r.inputs[0]).toMatchObject({ kind: 'jvm-options', ok: true });
    expect(ids(r)).toEqual(expect.arrayContaining(['config.jvm.heap-small', 'config.jvm.cms']));
  });
});

describe('a conf directory', () => {
  const conf = join(tmp, 'etc-cassandra');
  execFileSync('mkdir', ['-p', conf]);
  writeFileSync(join(conf, 'cassandra.yaml'), fixture('config/cassandra-4.1-old-new-conflict.yaml'));
  writeFileSync(join(conf, 'jvm-server.options'), '-Xms16G\n-Xmx16G\n-XX:+AlwaysPreTouch\n');
  writeFileSync(join(conf, 'jvm8-server.options'), '-XX:+UseConcMarkSweepGC\n-XX:+PrintGCDateStamps\n');
  writeFileSync(join(conf, 'jvm11-server.options'), '-XX:+UseG1GC\n-XX:MaxGCPauseMillis=500\n-Xlog:gc=info:file=/var/log/cassandra/gc.log\n');
  writeFileSync(join(conf, 'jvm-clients.options'), '-Xmx256M\n');
  writeFileSync(join(conf, 'cassandra-env.sh'), '#MAX_HEAP_SIZE="4G"\n');
  writeFileSync(join(conf, 'logback.xml'), '<configuration/>\n');

  it('without a JDK: the yaml, cassandra-env.sh and jvm-server.options; the JDK-specific files are named as skipped', async () => {
    const r = await auditConfig({ files: [conf], version: '4.1.10' });
    expect(r.inputs.map((i) => i.source.slice(conf.length + 1))).toEqual(['cassandra.yaml', 'cassandra-env.sh', 'jvm-server.options']);
    expect(r.notes).toEqual([`${conf}: jvm11-server.options, jvm8-server.options skipped: give jdk to audit the one in use`]);
    expect(renderAuditConfig(r)).toContain('- note: ');
    expect(ids(r)).not.toContain('config.jvm.heap-unset'); // -Xmx16G in jvm-server.options wins over the commented MAX_HEAP_SIZE
  });

  it('with jdk 11: jvm11-server.options joins, and its G1 pause target is graded', async () => {
    const r = await auditConfig({ files: [conf], version: '4.1.10', jdk: 11 });
    expect(r.inputs.map((i) => basenameOf(i.source))).toEqual(['cassandra.yaml', 'cassandra-env.sh', 'jvm-server.options', 'jvm11-server.options']);
    expect(r.notes).toBeUndefined();
    expect(ids(r)).toEqual(expect.arrayContaining(['config.jvm.g1-pause-target', 'config.yaml.old-and-new-key']));
    expect(ids(r)).not.toContain('config.jvm.jdk8-flags');
    // jdk 8 picks jvm8-server.options: CMS, and its JDK 8 logging flag is fine there.
    const r8 = await auditConfig({ files: [conf], version: '4.1.10', jdk: 8 });
    expect(ids(r8)).toContain('config.jvm.cms');
    expect(ids(r8)).not.toContain('config.jvm.jdk8-flags');
  });

  it('a directory without configuration files is an error with a fix', async () => {
    const empty = join(tmp, 'empty');
    execFileSync('mkdir', ['-p', empty]);
    await expect(auditConfig({ files: [empty] })).rejects.toMatchObject({ code: 'NO_CONFIG_FILES' });
  });
});

function basenameOf(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
