/**
 * Text people and the assistant read about the kinds is generated from the registry: every kind in KINDS has a
 * title (and no title is left for a kind that is gone), README's "What interpret reads" table is the rendering of
 * the registry (UPDATE_DOCS=1 rewrites it), and the interpret tool's description names every family.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_KINDS } from '../../mcp-server/src/core/detect.js';
import { KIND_TITLES, kindFamilies, kindsMarkdownTable } from '../../mcp-server/src/core/kind-titles.js';
import { connectInProcess } from '../helpers/mcp-client.js';

const README = new URL('../../README.md', import.meta.url);
const START = '<!-- kinds:start -->';
const END = '<!-- kinds:end -->';

describe('kinds documented from the registry', () => {
  it('every kind has a title, and every title a kind', () => {
    expect(Object.keys(KIND_TITLES).sort()).toEqual([...SUPPORTED_KINDS].sort());
  });

  it("README's table is the registry's", () => {
    const text = readFileSync(README, 'utf8');
    const a = text.indexOf(START);
    const b = text.indexOf(END);
    expect(a, 'README has the kinds markers').toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a);
    const want = `${START}\n${kindsMarkdownTable(SUPPORTED_KINDS)}\n${END}`;
    const have = text.slice(a, b + END.length);
    if (process.env.UPDATE_DOCS === '1' && have !== want) writeFileSync(README, text.slice(0, a) + want + text.slice(b + END.length));
    else expect(have).toBe(want);
  });

  it("the interpret tool's description names every family and counts the kinds", async () => {
    const client = await connectInProcess();
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'interpret')!;
      expect(tool.description).toContain(`${SUPPORTED_KINDS.length} kinds`);
      for (const f of kindFamilies(SUPPORTED_KINDS)) expect(tool.description).toContain(f.family);
      expect(tool.description).toContain('top -H of the JVM');
    } finally {
      await client.close();
    }
  });
});
