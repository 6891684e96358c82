// One definition of the built files, used by the build and by the test that fails when a committed file is stale.
// Two outputs: the whole program as one CommonJS bundle, and the small `cql-tuner` entry that runs it with a
// V8 code cache (mcp-server/src/launch/code-cache.ts). The entry carries the bundle's sha256 as its cache key.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const outfile = 'mcp-server/dist/cql-tuner.js';
export const mainBundle = 'mcp-server/dist/cql-tuner-main.cjs';

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // Deterministic output: the staleness test compares bytes.
  metafile: false,
  sourcemap: false,
};

export const mainOptions = {
  ...common,
  entryPoints: ['mcp-server/src/cli/entry.ts'],
  outfile: mainBundle,
  // CommonJS so node:vm can compile it with a code cache (Node 20 cannot cache an ES module's compilation).
  format: 'cjs',
  minify: true,
  legalComments: 'eof',
};

const entryOptions = (sha256) => ({
  ...common,
  entryPoints: ['mcp-server/src/launch/code-cache.ts'],
  outfile,
  format: 'esm',
  banner: { js: '#!/usr/bin/env node' },
  define: { __CQL_TUNER_BUNDLE_SHA256__: JSON.stringify(sha256) },
});

/** Builds both files in memory: [{ path (relative to root), text }], the bundle first. */
export async function buildAll() {
  const main = (await build({ ...mainOptions, write: false })).outputFiles[0];
  const sha256 = createHash('sha256').update(main.contents).digest('hex');
  const entry = (await build({ ...entryOptions(sha256), write: false })).outputFiles[0];
  return [
    { path: mainBundle, text: main.text },
    { path: outfile, text: entry.text },
  ];
}
