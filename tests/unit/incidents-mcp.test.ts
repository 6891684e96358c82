import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { incidentNames } from '../../mcp-server/src/lab/incidents/index.js';

// lab_incident through the MCP server in process, with an empty CQL_TUNER_HOME (no lab): nothing here can touch a
// lab, so it proves the guards (confirm, name check, lab required) rather than an injection.
let client: Client;
const home = mkdtempSync(join(tmpdir(), 'cql-tuner-incident-mcp-'));
const savedHome = process.env.CQL_TUNER_HOME;

beforeAll(async () => {
  process.env.CQL_TUNER_HOME = home;
  const server = createServer();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'incidents', version: '0' });
  await client.connect(b);
});
afterAll(async () => {
  await client?.close();
  if (savedHome === undefined) delete process.env.CQL_TUNER_HOME;
  else process.env.CQL_TUNER_HOME = savedHome;
  rmSync(home, { recursive: true, force: true });
});

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] };
const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'lab_incident', arguments: args })) as Result;
const text = (r: Result) => r.content.map((c) => c.text ?? '').join('\n');

describe('lab_incident (MCP)', () => {
  it('is destructive, not read-only, and offers exactly the registry’s names', async () => {
    const t = (await client.listTools()).tools.find((x) => x.name === 'lab_incident')!;
    expect(t.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    const name = (t.inputSchema.properties as Record<string, { enum?: string[] }>)['name'];
    expect(name?.enum?.sort()).toEqual(incidentNames().sort());
  });

  it('list needs no confirmation and says per incident whether this host can run it', async () => {
    const r = await call({ list: true });
    expect(r.isError).toBeFalsy();
    const rows = r.structuredContent?.['incidents'] as { name: string; skipReason: string | null }[];
    expect(rows.map((x) => x.name).sort()).toEqual(incidentNames().sort());
    expect(text(r)).toMatch(/tombstones \(1 node\)/);
  });

  it('inject without confirm: true is refused before anything runs', async () => {
    const r = await call({ name: 'tombstones' });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/CONFIRMATION_REQUIRED|not confirmed/);
  });

  it('a name outside the registry is rejected by the schema', async () => {
    const r = await call({ name: '../../etc', confirm: true });
    expect(r.isError).toBe(true);
  });

  it('confirmed, but no lab is running: the error says how to start one', async () => {
    const r = await call({ name: 'tombstones', confirm: true });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/no lab is running/);
    expect(text(r)).toMatch(/lab start/);
  });
});
