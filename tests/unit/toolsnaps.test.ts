/**
 * Tool schema snapshots (the github-mcp-server practice): what the assistant sees of each tool — description,
 * input schema, annotations — is kept in tests/toolsnaps/<tool>.json. A change to any of them fails here until the
 * snapshot is regenerated on purpose (UPDATE_TOOLSNAPS=1 npx vitest run tests/unit/toolsnaps.test.ts) and the diff
 * is reviewed with the code change. A new tool without a snapshot and a snapshot without a tool fail too.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../mcp-server/src/mcp/server.js';

const DIR = join('tests', 'toolsnaps');
const update = process.env.UPDATE_TOOLSNAPS === '1';
let client: Client;
let tools: { name: string; description?: string; inputSchema: unknown; annotations?: unknown }[] = [];

beforeAll(async () => {
  const server = createServer();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'toolsnaps', version: '0' });
  await client.connect(b);
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
});

const snapOf = (t: (typeof tools)[number]) =>
  `${JSON.stringify({ name: t.name, description: t.description, annotations: t.annotations, inputSchema: t.inputSchema }, null, 2)}\n`;

describe('tool snapshots', () => {
  it('every listed tool matches its reviewed snapshot', () => {
    expect(tools.length).toBeGreaterThan(10);
    const drifted: string[] = [];
    for (const t of tools) {
      const file = join(DIR, `${t.name}.json`);
      const now = snapOf(t);
      if (update) writeFileSync(file, now);
      else if (!existsSync(file) || readFileSync(file, 'utf8') !== now) drifted.push(t.name);
    }
    expect(drifted, 'changed or new tools: review, then UPDATE_TOOLSNAPS=1 npx vitest run tests/unit/toolsnaps.test.ts').toEqual([]);
  });

  it('no snapshot is left for a tool that no longer exists', () => {
    const names = new Set(tools.map((t) => `${t.name}.json`));
    const stale = readdirSync(DIR).filter((f) => f.endsWith('.json') && !names.has(f));
    expect(stale, 'delete the snapshots of removed tools').toEqual([]);
  });
});
