// One definition of the built files, used by the build and by the test that fails when a committed file is stale.
// Three outputs: the whole program as one CommonJS bundle, the small `cql-tuner` entry that runs it with a
// V8 code cache (mcp-server/src/launch/code-cache.ts; it carries the bundle's sha256 as its cache key), and the
// parse worker the bundle starts for large untrusted texts (mcp-server/src/ops/off-thread.ts).
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const outfile = 'mcp-server/dist/cql-tuner.js';
export const mainBundle = 'mcp-server/dist/cql-tuner-main.cjs';
export const parseWorker = 'mcp-server/dist/cql-tuner-parse-worker.cjs';

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

// off-thread.ts starts the parse worker from this file name beside the bundle; import.meta.url only serves its
// source-tree branch (tests), dead code once built.
const workerDefines = { __CQL_TUNER_PARSE_WORKER__: JSON.stringify(parseWorker.split('/').pop()), 'import.meta.url': 'undefined' };

export const mainOptions = {
  ...common,
  entryPoints: ['mcp-server/src/cli/entry.ts'],
  outfile: mainBundle,
  // CommonJS so node:vm can compile it with a code cache (Node 20 cannot cache an ES module's compilation).
  format: 'cjs',
  minify: true,
  legalComments: 'eof',
  define: workerDefines,
};

export const workerOptions = {
  ...common,
  entryPoints: ['mcp-server/src/ops/parse-worker.ts'],
  outfile: parseWorker,
  format: 'cjs',
  minify: true,
  legalComments: 'eof',
  define: workerDefines,
};

const entryOptions = (sha256) => ({
  ...common,
  entryPoints: ['mcp-server/src/launch/code-cache.ts'],
  outfile,
  format: 'esm',
  banner: { js: '#!/usr/bin/env node' },
  define: { __CQL_TUNER_BUNDLE_SHA256__: JSON.stringify(sha256) },
});

/** Builds every file in memory: [{ path (relative to root), text }], the bundle first. */
export async function buildAll() {
  const main = (await build({ ...mainOptions, write: false })).outputFiles[0];
  const sha256 = createHash('sha256').update(main.contents).digest('hex');
  const entry = (await build({ ...entryOptions(sha256), write: false })).outputFiles[0];
  const worker = (await build({ ...workerOptions, write: false })).outputFiles[0];
  return [
    { path: mainBundle, text: main.text },
    { path: outfile, text: entry.text },
    { path: parseWorker, text: worker.text },
  ];
}
