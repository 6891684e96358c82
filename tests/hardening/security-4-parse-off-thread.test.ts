/**
 * Issue #13, class 4: a large untrusted text is parsed off the event loop. Pasted texts (interpret, review_schema,
 * audit_config, migration_review) of 64 KiB or more are parsed in a worker thread with a deadline
 * (mcp-server/src/ops/off-thread.ts): a hostile paste answers fast, a slow parse blocks no other call, and a parse
 * that runs past its deadline or is cancelled is stopped and answered with a tool error.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { parseOffThread } from '../../mcp-server/src/ops/off-thread.js';
import { record } from './stats.js';

let client: Client;
const savedTimeout = process.env['CQL_TUNER_PARSE_TIMEOUT_MS'];

beforeAll(async () => {
  const server = createServer();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'security-4', version: '0.0.0' });
  await client.connect(b);
  // The first worker start in the sources bundles parse-worker.ts with esbuild: pay for it before timing anything.
  await parseOffThread('interpret', 'x'.repeat(70_000), { what: 'warm-up', chars: 70_000 });
}, 60_000);

afterAll(async () => {
  await client.close();
  if (savedTimeout === undefined) delete process.env['CQL_TUNER_PARSE_TIMEOUT_MS'];
  else process.env['CQL_TUNER_PARSE_TIMEOUT_MS'] = savedTimeout;
});

type ToolAnswer = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
const call = (name: string, args: Record<string, unknown>, signal?: AbortSignal) =>
  client.callTool({ name, arguments: args }, undefined, { timeout: 120_000, ...(signal ? { signal } : {}) }) as Promise<ToolAnswer>;
const textOf = (r: ToolAnswer) => r.content.map((c) => c.text ?? '').join('\n');

/** A `nodetool status` of n rows: a legitimate text that takes a while to parse when n is large. */
function status(n: number): string {
  const rows = ['Datacenter: dc1', '===============', 'Status=Up/Down', '|/ State=Normal/Leaving/Joining/Moving'];
  rows.push('--  Address  Load  Tokens  Owns (effective)  Host ID  Rack');
  for (let i = 0; i < n; i++) {
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    rows.push(`UN  ${ip}  ${(i % 13) + 1}.5 GiB  16  ${(100 / n).toFixed(4)}%  ${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000  rack1`);
  }
  return rows.join('\n');
}
const SMALL = 'ReleaseVersion: 4.1.10\n';

describe('class 4: parsing of large pastes runs off the event loop', () => {
  it('the 391 KiB-class hostile paste (384 KiB of long runs of blanks ending in a letter) is answered in under a second', async () => {
    // cleanLines trimmed each line with /\s+$/: retried from every blank, quadratic in the run (163 s for this).
    const paste = `Pool Name Active Pending\n${`${' '.repeat(16 * 1024 - 2)}x\n`.repeat(24)}`;
    expect(paste.length).toBeGreaterThan(384 * 1024);
    const t0 = performance.now();
    const r = await call('interpret', { text: paste });
    const ms = performance.now() - t0;
    expect(r.isError ?? false).toBe(false);
    expect(ms).toBeLessThan(1000);
    record({ section: 'attack', cls: '4 parse blocking the server', tried: 1, unsafe: ms < 1000 ? 0 : 1 });
  });

  it('while a large paste is being parsed, a small interpret call answers at once', async () => {
    const big = status(90_000);
    const order: string[] = [];
    const t0 = performance.now();
    const slow = call('interpret', { text: big }).then((r) => {
      order.push('big');
      return r;
    });
    // Let the big call start first: inline, it would hold the event loop from here on.
    await new Promise((r) => setTimeout(r, 30));
    const small = await call('interpret', { text: SMALL });
    const smallMs = performance.now() - t0;
    order.push('small');
    const bigResult = await slow;
    const bigMs = performance.now() - t0;
    expect(textOf(small)).toContain('4.1.10');
    expect(bigResult.isError ?? false).toBe(false);
    expect(bigResult.structuredContent?.['kind']).toBe('nodetool.status');
    // The small call must not have waited for the big one.
    expect(order).toEqual(['small', 'big']);
    expect(smallMs).toBeLessThan(Math.max(500, bigMs / 2));
    record({ section: 'attack', cls: '4 parse blocking the server', tried: 1, unsafe: order[0] === 'small' ? 0 : 1 });
  }, 60_000);

  it('a parse past its deadline is stopped and answered with PARSE_TIMEOUT (what, how big, the fix)', async () => {
    process.env['CQL_TUNER_PARSE_TIMEOUT_MS'] = '150';
    try {
      const t0 = performance.now();
      const r = await call('interpret', { text: status(90_000) });
      const ms = performance.now() - t0;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/\[PARSE_TIMEOUT\] the pasted text \([\d.]+ MiB\) was still being parsed after 0\.15 s/);
      expect(textOf(r)).toMatch(/Fix: Cut the paste/);
      expect(ms).toBeLessThan(1500);
      // The server is still there and answers.
      expect(textOf(await call('interpret', { text: SMALL }))).toContain('4.1.10');
      record({ section: 'attack', cls: '4 parse blocking the server', tried: 1, unsafe: ms < 1500 ? 0 : 1 });
    } finally {
      delete process.env['CQL_TUNER_PARSE_TIMEOUT_MS'];
    }
  }, 30_000);

  it('cancelling the request stops the parse', async () => {
    const ac = new AbortController();
    const t0 = performance.now();
    const p = parseOffThread('interpret', status(90_000), { what: 'the pasted text', chars: 10_000_000, signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    await expect(p).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(performance.now() - t0).toBeLessThan(1000);
    // Through the MCP client too: the request's AbortSignal reaches the tool.
    const ac2 = new AbortController();
    const q = call('interpret', { text: status(90_000) }, ac2.signal);
    setTimeout(() => ac2.abort(), 100);
    await expect(q).rejects.toThrow(/abort/i);
    record({ section: 'attack', cls: '4 parse blocking the server', tried: 2, unsafe: 0 });
  }, 30_000);

  it('review_schema, audit_config and migration_review parse large texts off the event loop too', async () => {
    process.env['CQL_TUNER_PARSE_TIMEOUT_MS'] = '1';
    try {
      const schema = `CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n${'-- x\n'.repeat(40_000)}`;
      const yaml = `cluster_name: test\nnum_tokens: 16\n${'# comment\n'.repeat(20_000)}`;
      const ddl = `CREATE TABLE t (id int PRIMARY KEY);\n${'-- x\n'.repeat(40_000)}`;
      const answers = [
        await call('review_schema', { text: schema }),
        await call('audit_config', { cassandraYaml: yaml }),
        await call('migration_review', { from: { product: 'postgres', version: '16' }, to: { product: 'cassandra', version: '5.0' }, ddlText: ddl }),
      ];
      // A 1 ms deadline cannot be met by a worker: each answer proves the parse went through one.
      for (const r of answers) expect(textOf(r)).toMatch(/\[PARSE_TIMEOUT\]/);
      const unsafe = answers.filter((r) => !/PARSE_TIMEOUT/.test(textOf(r))).length;
      record({ section: 'attack', cls: '4 parse blocking the server', tried: answers.length, unsafe });
    } finally {
      delete process.env['CQL_TUNER_PARSE_TIMEOUT_MS'];
    }
  }, 30_000);
});
