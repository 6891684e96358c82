import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildAll, root } from '../../scripts/build-options.mjs';

// Claude Code installs the plugin without building it, so the committed files are what users run.
it('the committed bundle and entry match the sources (run `npm run build` and commit when this fails)', async () => {
  const files = await buildAll();
  expect(files.map((f) => f.path)).toEqual([
    'mcp-server/dist/cql-tuner-main.cjs',
    'mcp-server/dist/cql-tuner-logs.cjs',
    'mcp-server/dist/cql-tuner-interpret.cjs',
    'mcp-server/dist/cql-tuner-review-schema.cjs',
    'mcp-server/dist/cql-tuner.js',
    'mcp-server/dist/cql-tuner-parse-worker.cjs',
    'mcp-server/dist/package.json',
  ]);
  for (const f of files) {
    const committed = readFileSync(join(root, f.path), 'utf8');
    expect(committed.length, f.path).toBe(f.text.length);
    expect(committed === f.text, f.path).toBe(true);
  }
}, 60_000);
