/**
 * Class 11 (issue #13): tool annotations must be true. A client may auto-approve a tool that says it is
 * read-only and idempotent, or skip a confirmation for one that says it is not destructive, so a wrong hint
 * is a way around the user. Every listed tool's annotations must equal the table in mcp/tools/annotations.ts,
 * every tool must be in it, and the table must hold what the code does (the cases below were once wrong).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_ANNOTATIONS, annotationsFor, type ToolName } from '../../mcp-server/src/mcp/tools/annotations.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { record } from './stats.js';

let client: Client;
let tools: { name: string; annotations?: Record<string, unknown>; inputSchema: { properties?: Record<string, unknown> } }[] = [];

beforeAll(async () => {
  const server = createServer();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'security-11', version: '0' });
  await client.connect(b);
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
});

/** What each tool really does, written out independently of the table (readOnly, destructive, idempotent). */
const TRUTH: Partial<Record<ToolName, [boolean, boolean, boolean]>> = {
  // Writes a bundle folder (bundle/save: true) and runs nodetool gcstats, which resets each node's GC interval.
  cluster_snapshot: [false, false, false],
  diagnose: [false, false, false],
  // Wipes the data of an earlier lab of another version or shape (lab/lab.ts prepareDataDirs).
  lab_start: [false, true, false],
  lab_stop: [false, true, true],
  // Writes and deletes lab data, changes lab settings, freezes lab nodes; a second inject adds more of the same.
  lab_incident: [false, true, false],
  // Ends a process group; a run cut short cannot be resumed.
  stress_cancel: [false, true, true],
  run_stress: [false, true, false],
  // Writes the A/B charts into runs/compare-<a>-<b>/.
  compare_runs: [false, false, true],
  // gcstats is not offered, so every subcommand it runs only reads.
  nodetool: [true, false, true],
};

describe('class 11: annotations are read from one table and are true', () => {
  it("every listed tool has exactly the table's four hints, and every tool is in the table", () => {
    const mismatches: string[] = [];
    for (const t of tools) {
      if (!(t.name in TOOL_ANNOTATIONS)) {
        mismatches.push(`${t.name}: not in mcp/tools/annotations.ts`);
        continue;
      }
      const want = annotationsFor(t.name as ToolName);
      const listed = JSON.stringify(t.annotations);
      if (listed !== JSON.stringify(want)) mismatches.push(`${t.name}: listed ${listed}, table ${JSON.stringify(want)}`);
    }
    const listed = new Set(tools.map((t) => t.name));
    for (const name of Object.keys(TOOL_ANNOTATIONS)) if (!listed.has(name)) mismatches.push(`${name}: in the table but not registered`);
    for (const [name, row] of Object.entries(TOOL_ANNOTATIONS)) if (row.why.trim().length < 10) mismatches.push(`${name}: no reason in the table`);
    record({ section: 'attack', cls: '11 annotations (table)', tried: tools.length, unsafe: mismatches.length });
    expect(mismatches).toEqual([]);
    expect(tools.length).toBeGreaterThanOrEqual(21);
  });

  it('the hints say what the tools do (writes, resets, wipes and kills are not read-only)', () => {
    const wrong: string[] = [];
    for (const [name, [ro, destructive, idem]] of Object.entries(TRUTH) as [ToolName, [boolean, boolean, boolean]][]) {
      const a = tools.find((t) => t.name === name)?.annotations ?? {};
      if (a['readOnlyHint'] !== ro || a['destructiveHint'] !== destructive || a['idempotentHint'] !== idem) {
        const has = `${String(a['readOnlyHint'])} ${String(a['destructiveHint'])} ${String(a['idempotentHint'])}`;
        wrong.push(`${name}: readOnly destructive idempotent ${has}, should be ${ro} ${destructive} ${idem}`);
      }
    }
    // A tool that says it is read-only must not be one that writes: destructive only makes sense when not read-only.
    for (const t of tools) {
      if (t.annotations?.['readOnlyHint'] === true && t.annotations?.['destructiveHint'] === true) wrong.push(`${t.name}: read-only and destructive`);
    }
    record({ section: 'attack', cls: '11 annotations (truth)', tried: Object.keys(TRUTH).length + tools.length, unsafe: wrong.length });
    expect(wrong).toEqual([]);
  });

  it('the read-only nodetool tool does not offer gcstats (it resets the GC interval) and says where to get it', async () => {
    const nodetool = tools.find((t) => t.name === 'nodetool')!;
    const sub = nodetool.inputSchema.properties?.['subcommand'] as { enum?: string[] };
    expect(sub.enum).toContain('tpstats');
    let unsafe = 0;
    if (sub.enum?.includes('gcstats')) unsafe++;
    const res = await client.callTool({ name: 'nodetool', arguments: { subcommand: 'gcstats', nodetoolPath: '/nonexistent/nodetool' } });
    const text = ((res.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');
    if (res.isError !== true) unsafe++;
    record({ section: 'attack', cls: '11 annotations (nodetool gcstats)', tried: 2, unsafe });
    expect(unsafe).toBe(0);
    expect(text).toMatch(/resets the node's GC interval/);
    expect(text).toMatch(/diagnose and cluster_snapshot/);
  });
});
