/**
 * Dependencies point down only (ARCHITECTURE.md): core is pure and imports nothing above it; collect does I/O for
 * core; lab runs the local Cassandra on collect; render turns core facts into text; ops composes them all; mcp and
 * cli are thin adapters over ops. Every relative import in mcp-server/src is checked. The upward imports that exist
 * today are listed in KNOWN: the list may only shrink (removing one fails here until it is deleted from the list).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = 'mcp-server/src';
/** What each layer may import besides itself; top-level files (version.ts) are importable by all. */
const ALLOWED: Record<string, string[]> = {
  core: [],
  collect: ['core'],
  lab: ['core', 'collect'],
  render: ['core'],
  ops: ['core', 'collect', 'lab', 'render'],
  mcp: ['core', 'collect', 'lab', 'render', 'ops'],
  // The CLI binary is also the server's entry point (`cql-tuner` with no verb serves MCP on stdio).
  cli: ['core', 'collect', 'lab', 'render', 'ops', 'launch', 'mcp'],
  launch: ['core'],
};

/** Upward imports present when this test was written ("file -> layer"); fix them and delete the line. */
const KNOWN = new Set<string>([]);

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const layerOf = (file: string) => {
  const parts = relative(SRC, file).split('/');
  return parts.length > 1 ? parts[0]! : null;
};

function upwardImports(): string[] {
  const found = new Set<string>();
  for (const file of tsFiles(SRC)) {
    const from = layerOf(file);
    if (!from) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)) {
      const to = layerOf(resolve(dirname(file), m[1]!).replace(`${process.cwd()}/`, ''));
      if (to === null || to === from || ALLOWED[from]?.includes(to)) continue;
      found.add(`${relative(SRC, file)} -> ${to}`);
    }
  }
  return [...found].sort();
}

describe('import layers', () => {
  const found = upwardImports();

  it('no new import from a higher layer', () => {
    expect(found.filter((f) => !KNOWN.has(f))).toEqual([]);
  });

  it('the list of known upward imports only shrinks: a fixed one is deleted from KNOWN', () => {
    expect([...KNOWN].filter((k) => !found.includes(k))).toEqual([]);
  });

  it('every layer folder is classified', () => {
    const layers = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(layers.filter((l) => !(l in ALLOWED))).toEqual([]);
  });
});
