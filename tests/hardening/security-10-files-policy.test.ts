/**
 * Issue #13, class 10 (file policy): interpret refused /proc and /dev paths, but review_schema, audit_config and
 * migration_review only checked stat().isFile(), and /proc/self/environ (the server's own environment, with its
 * credentials) is a "regular file" of size 0 there: they read it. One policy now serves every tool that reads a
 * path it is given (collect/safe-file.ts): the same refusal, with the same words, for the same path.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { record } from './stats.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-sec10-'));
const ENVIRON_ENTRIES = readFileSync('/proc/self/environ', 'latin1')
  .split('\0')
  .filter((e) => /^[A-Z_]+=.{12,}$/.test(e))
  .slice(0, 8);
let client: Client;
let tried = 0;
let unsafe = 0;

const FROM = { product: 'cassandra', version: '4.1' };
const TO = { product: 'cassandra', version: '5.0' };
/** Every tool argument that names a file to read, as the assistant could fill it. */
const readers = (p: string): [string, Record<string, unknown>][] => [
  ['audit_config', { files: [p] }],
  ['review_schema', { file: p }],
  ['migration_review', { from: FROM, to: TO, configFile: p }],
  ['migration_review', { from: FROM, to: TO, schemaFile: p }],
  ['migration_review', { from: { product: 'postgres', version: '16' }, to: TO, ddlFile: p }],
  ['analyze_logs', { paths: [p] }],
];

type Res = { isError?: boolean; content?: { text?: string }[] };
const call = async (name: string, args: Record<string, unknown>): Promise<Res & { ms: number }> => {
  const t0 = Date.now();
  const r = (await client
    .callTool({ name, arguments: args }, undefined, { timeout: 10_000 })
    .catch((e: unknown) => ({ isError: true, content: [{ text: String(e) }] }))) as Res;
  return { ...r, ms: Date.now() - t0 };
};
const firstLine = (r: Res) => (r.content?.[0]?.text ?? '').split('\n')[0]!;

beforeAll(async () => {
  const server = createServer();
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  client = new Client({ name: 'security-10', version: '0' });
  await client.connect(ct);
  symlinkSync('/proc/self/environ', join(tmp, 'cassandra.yaml'));
  mkdirSync(join(tmp, 'conf'));
  symlinkSync('/proc/self/environ', join(tmp, 'conf', 'cassandra.yaml'));
  writeFileSync(join(tmp, 'conf', 'jvm-server.options'), '-Xmx4G\n-Xms4G\n');
});

afterAll(async () => {
  await client?.close();
  rmSync(tmp, { recursive: true, force: true });
  record({ section: 'attack', cls: '10 one file policy for every tool', tried, unsafe });
});

describe('class 10: one file policy for every tool that reads a path', () => {
  for (const path of ['/proc/self/environ', '/dev/zero', '/proc/self/cmdline', 'LINK']) {
    it(`${path === 'LINK' ? 'a symlink to /proc/self/environ' : path}: every reader refuses it with interpret's words`, async () => {
      const p = path === 'LINK' ? join(tmp, 'cassandra.yaml') : path;
      const ref = await call('interpret', { path: p });
      expect(ref.isError).toBe(true);
      // `[NOT_A_FILE] "<path>" is <real path>, a kernel or device file …`: the reason after the quoted path.
      const reason = firstLine(ref).replace(/^\[NOT_A_FILE\] ".*?" /, '');
      expect(reason).toMatch(/^is \/(proc|dev)\/\S+, a kernel or device file/);
      for (const [name, args] of readers(p)) {
        tried++;
        const r = await call(name, args);
        const text = JSON.stringify(r);
        const ok = r.isError === true && firstLine(r).includes(reason) && !ENVIRON_ENTRIES.some((e) => text.includes(e)) && r.ms < 1_000;
        if (!ok) unsafe++;
        expect(r.isError, `${name} ${JSON.stringify(args)}: ${text.slice(0, 300)}`).toBe(true);
        expect(firstLine(r), `${name} ${JSON.stringify(args)}`).toContain(reason);
        expect(r.ms).toBeLessThan(1_000);
      }
    }, 30_000);
  }

  it('a conf directory whose cassandra.yaml links to /proc/self/environ is refused the same way', async () => {
    tried++;
    const r = await call('audit_config', { files: [join(tmp, 'conf')] });
    const leaked = ENVIRON_ENTRIES.some((e) => JSON.stringify(r).includes(e));
    const ok = r.isError === true && /is \/proc\/\d+\/environ, a kernel or device file/.test(firstLine(r)) && !leaked;
    if (!ok) unsafe++;
    expect(firstLine(r)).toMatch(/^\[NOT_A_FILE\] ".*conf\/cassandra\.yaml" is \/proc\/\d+\/environ, a kernel or device file/);
  });

  it('honest files still read: a conf directory, a schema file and a config file', async () => {
    const yaml = join(tmp, 'real.yaml');
    writeFileSync(yaml, 'cluster_name: test\nnum_tokens: 16\nconcurrent_reads: 32\n');
    const schema = join(tmp, 'schema.cql');
    const ks = "CREATE KEYSPACE k WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};";
    writeFileSync(schema, `${ks}\nCREATE TABLE k.t (id int PRIMARY KEY, v text);\n`);
    const conf = join(tmp, 'conf-ok');
    mkdirSync(conf);
    writeFileSync(join(conf, 'cassandra.yaml'), 'cluster_name: test\nnum_tokens: 16\n');
    for (const [name, args] of [
      ['audit_config', { files: [yaml] }],
      ['audit_config', { files: [conf] }],
      ['review_schema', { file: schema }],
      ['migration_review', { from: FROM, to: TO, configFile: yaml, schemaFile: schema }],
    ] as const) {
      const r = await call(name, args);
      expect(r.isError, `${name}: ${firstLine(r)}`).toBeFalsy();
    }
  });
});
