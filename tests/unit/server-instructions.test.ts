import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_GROUPS } from '../../mcp-server/src/mcp/instructions.js';
import { connectInProcess } from '../helpers/mcp-client.js';

const ROOT = join(import.meta.dirname, '..', '..');
let client: Client;
let registered: string[];
let instructions: string;

beforeAll(async () => {
  client = await connectInProcess('instructions-test');
  registered = (await client.listTools()).tools.map((t) => t.name).sort();
  instructions = client.getInstructions() ?? '';
});
afterAll(async () => client?.close());

describe('text the assistant reads names every tool the server registers', () => {
  it('the instructions group exactly the registered tools, each once', () => {
    const listed = TOOL_GROUPS.flatMap((g) => g.tools);
    expect(new Set(listed).size, 'a tool is listed in two groups').toBe(listed.length);
    expect([...listed].sort()).toEqual(registered);
    for (const t of registered) expect(instructions, t).toMatch(new RegExp(`\\b${t}\\b`));
    expect(registered.length).toBeGreaterThanOrEqual(23);
  });

  it("README's tool table has a row naming every registered tool", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('| Tool · CLI verb |'), readme.indexOf('\n\n', readme.indexOf('| Tool · CLI verb |')));
    const missing = registered.filter((t) => !table.includes(`\`${t}\``));
    expect(missing, 'add a row to the tool table in README.md').toEqual([]);
  });

  it('commands and skills name only tools that exist', () => {
    const files = [
      ...readdirSync(join(ROOT, 'commands')).map((f) => join(ROOT, 'commands', f)),
      ...readdirSync(join(ROOT, 'skills'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(ROOT, 'skills', f)),
    ];
    const unknown: string[] = [];
    for (const f of files) {
      for (const m of readFileSync(f, 'utf8').matchAll(/mcp__plugin_cql-tuner_tuner__([a-z_]+)/g)) {
        if (!registered.includes(m[1]!)) unknown.push(`${f.slice(ROOT.length + 1)}: ${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
