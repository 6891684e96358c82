/**
 * Issue #13, class 5: a request over the stdio transport's limit killed the server silently (the SDK's
 * ReadBuffer throws at 10 MiB and the transport closes), while interpret.text advertised 20 MiB and
 * review_schema.text 32 MiB. Now: one limit for every text argument (mcp/limits.ts, below what the transport
 * takes), and a message over the transport's limit is answered with an error for its id (a tool error for
 * tools/call), dropped when it has none, logged on stderr, and the server goes on serving.
 * Over real stdio against the built bundle (npm run build first).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STDIO_MESSAGE_BYTES, MAX_TOOL_TEXT_CHARS } from '../../mcp-server/src/mcp/limits.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { oversizeId } from '../../mcp-server/src/mcp/stdio.js';
import { BUNDLE, connectBundle } from '../helpers/mcp-client.js';
import { record } from './stats.js';

const MIB = 1024 * 1024;

/** Walks a JSON schema: every string property's maxLength with its path. */
function stringLimits(schema: unknown, path: string, out: { path: string; max: number | undefined }[]): void {
  if (!schema || typeof schema !== 'object') return;
  const s = schema as Record<string, unknown>;
  if (s['type'] === 'string') out.push({ path, max: typeof s['maxLength'] === 'number' ? s['maxLength'] : undefined });
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' && v && typeof v === 'object') for (const [p, sub] of Object.entries(v)) stringLimits(sub, `${path}.${p}`, out);
    else if (['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf'].includes(k)) {
      (Array.isArray(v) ? v : [v]).forEach((sub, i) => stringLimits(sub, `${path}${k === 'items' ? '[]' : `.${k}${i}`}`, out));
    }
  }
}

describe('class 5: the size limits agree', () => {
  it('no text argument of any tool may be longer than MAX_TOOL_TEXT_CHARS, which the transport takes even fully escaped', async () => {
    const server = createServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'security-5', version: '0.0.0' });
    await client.connect(b);
    const { tools } = await client.listTools();
    await client.close();
    const limits: { path: string; max: number | undefined }[] = [];
    for (const t of tools) stringLimits(t.inputSchema, t.name, limits);
    const over = limits.filter((l) => l.max !== undefined && l.max > MAX_TOOL_TEXT_CHARS);
    expect(over).toEqual([]);
    // The texts that take pasted outputs carry exactly the shared limit.
    for (const p of ['interpret.text', 'review_schema.text', 'migration_review.ddlText', 'migration_review.schemaText']) {
      expect(limits.find((l) => l.path === p)?.max, p).toBe(MAX_TOOL_TEXT_CHARS);
    }
    // A text at the limit is at most 6 bytes a character in JSON (\uXXXX): still one acceptable message.
    expect(6 * MAX_TOOL_TEXT_CHARS).toBeLessThan(MAX_STDIO_MESSAGE_BYTES);
    record({ section: 'attack', cls: '5 oversize request', tried: limits.length, unsafe: over.length });
  });

  it('finds the id of an oversize request at its start or at its end', () => {
    expect(oversizeId('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"aaa', '')).toBe(7);
    expect(oversizeId('{"method":"tools/call","params":{"arguments":{"id":1,"text":"aa', 'aaaa"}},"jsonrpc":"2.0","id":42}')).toBe(42);
    expect(oversizeId('{"method":"x","params":{"t":"aa', 'aa"},"jsonrpc":"2.0","id":"req-9"}\r')).toBe('req-9');
    expect(oversizeId('{"method":"notifications/x","params":{"t":"aa', 'aa"},"jsonrpc":"2.0"}')).toBeUndefined();
  });
});

/** The built server on raw stdio: lines written as given, answers read as JSON lines. */
interface RawServer {
  child: ChildProcessWithoutNullStreams;
  answers: Map<unknown, Record<string, unknown>>;
  stderr: () => string;
  write: (s: string) => Promise<void>;
  waitFor: (id: unknown, ms?: number) => Promise<Record<string, unknown>>;
}

function rawServer(): RawServer {
  const child = spawn(process.execPath, [BUNDLE, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = new Map<unknown, Record<string, unknown>>();
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      const m = JSON.parse(line) as Record<string, unknown>;
      if ('id' in m) answers.set(m['id'], m);
    }
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const write = (s: string) => new Promise<void>((resolve, reject) => child.stdin.write(s, (e) => (e ? reject(e) : resolve())));
  const waitFor = async (id: unknown, ms = 30_000) => {
    const t0 = Date.now();
    while (!answers.has(id)) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}); stderr: ${err.slice(-500)}`);
      if (Date.now() - t0 > ms) throw new Error(`no answer to id ${JSON.stringify(id)} in ${ms} ms; stderr: ${err.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return answers.get(id)!;
  };
  return { child, answers, stderr: () => err, write, waitFor };
}

describe('class 5: an oversize request over real stdio is answered, and the server lives on', () => {
  let raw: ReturnType<typeof rawServer>;
  const line = (m: object) => `${JSON.stringify(m)}\n`;
  const call = (id: number, args: object) => line({ method: 'tools/call', params: { name: 'interpret', arguments: args }, jsonrpc: '2.0', id });
  const small = (id: number) => call(id, { text: 'ReleaseVersion: 4.1.10\n' });

  beforeAll(async () => {
    raw = rawServer();
    const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } };
    await raw.write(line({ jsonrpc: '2.0', id: 0, method: 'initialize', params }));
    await raw.waitFor(0);
    await raw.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }, 60_000);
  afterAll(() => {
    raw.child.kill();
  });

  it('a tools/call of 11 MiB (over the SDK’s old 10 MiB buffer, over the text limit) gets a tool error', async () => {
    await raw.write(line({ method: 'tools/call', params: { name: 'interpret', arguments: { text: 'x'.repeat(11 * MIB) } }, jsonrpc: '2.0', id: 1 }));
    const a = await raw.waitFor(1);
    expect(JSON.stringify(a)).toMatch(/8388608|too big|Too big/i);
    await raw.write(small(2));
    expect(JSON.stringify(await raw.waitFor(2))).toContain('4.1.10');
    record({ section: 'attack', cls: '5 oversize request', tried: 1, unsafe: raw.child.exitCode === null ? 0 : 1 });
  }, 60_000);

  it('a tools/call over the transport limit gets REQUEST_TOO_LARGE for its id; a request and a notification too', async () => {
    const over = MAX_STDIO_MESSAGE_BYTES + MIB;
    // id at the end, as the SDK's clients write it
    await raw.write(line({ method: 'tools/call', params: { name: 'interpret', arguments: { text: 'y'.repeat(over) } }, jsonrpc: '2.0', id: 3 }));
    const a = (await raw.waitFor(3, 60_000)) as { result?: { isError?: boolean; content?: { text: string }[] } };
    expect(a.result?.isError).toBe(true);
    expect(a.result?.content?.[0]?.text).toMatch(/^\[REQUEST_TOO_LARGE\] a request of [\d.]+ MiB is over the [\d.]+ MiB limit of one message\n/);
    expect(a.result?.content?.[0]?.text).toMatch(/\nFix: Give at most 8 MiB of text/);
    // id first, another method: a JSON-RPC error
    await raw.write(`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"pad":"${'z'.repeat(over)}"}}}\n`);
    const b = (await raw.waitFor(4, 60_000)) as { error?: { code: number; message: string } };
    expect(b.error?.code).toBe(-32600);
    // no id at all: dropped, logged
    await raw.write(line({ jsonrpc: '2.0', method: 'notifications/x', params: { pad: 'w'.repeat(over) } }));
    await raw.write(small(5));
    expect(JSON.stringify(await raw.waitFor(5, 60_000))).toContain('4.1.10');
    expect(raw.child.exitCode).toBeNull();
    expect(raw.stderr()).toMatch(/refused a request of [\d.]+ MiB .*\(id 3\)/);
    expect(raw.stderr()).toMatch(/no request id found: not answered/);
    record({ section: 'attack', cls: '5 oversize request', tried: 3, unsafe: raw.child.exitCode === null ? 0 : 3 });
  }, 180_000);

  it('the SDK client sees the same: a tool error, and the next call works', async () => {
    const { client, close } = await connectBundle();
    try {
      const args = { text: 'q'.repeat(MAX_STDIO_MESSAGE_BYTES) };
      type Answer = { isError?: boolean; content: { text?: string }[] };
      const r = (await client.callTool({ name: 'interpret', arguments: args }, undefined, { timeout: 120_000 })) as Answer;
      expect(r.isError).toBe(true);
      expect(r.content[0]?.text).toMatch(/REQUEST_TOO_LARGE/);
      const ok = (await client.callTool({ name: 'interpret', arguments: { text: 'ReleaseVersion: 5.0.2\n' } })) as { content: { text?: string }[] };
      expect(ok.content[0]?.text).toContain('5.0.2');
    } finally {
      await close();
    }
  }, 180_000);
});
