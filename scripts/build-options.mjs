// One definition of the built files, used by the build and by the test that fails when a committed file is stale.
// Outputs: the whole program as one CommonJS bundle; one small bundle per verb sperf is compared with (bench/sperf.mjs),
// holding that verb alone, so `cql-tuner logs` neither compiles nor evaluates the MCP SDK, the driver or the lab;
// the small `cql-tuner` entry that runs the bundle argv names with a V8 code cache (mcp-server/src/launch/code-cache.ts;
// it carries each bundle's sha256 as its cache key); and the parse worker the bundles start for large untrusted
// texts (mcp-server/src/ops/off-thread.ts).
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const outfile = 'mcp-server/dist/cql-tuner.js';
export const mainBundle = 'mcp-server/dist/cql-tuner-main.cjs';
export const parseWorker = 'mcp-server/dist/cql-tuner-parse-worker.cjs';
/** Verb → its own bundle (entry mcp-server/src/cli/hot/<verb>.ts); every other verb runs from the main bundle. */
export const verbBundles = {
  logs: 'mcp-server/dist/cql-tuner-logs.cjs',
  interpret: 'mcp-server/dist/cql-tuner-interpret.cjs',
  'review-schema': 'mcp-server/dist/cql-tuner-review-schema.cjs',
};

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

/** The options of a verb's own bundle: the main bundle's, with the verb's entry. */
export const verbOptions = (verb) => ({ ...mainOptions, entryPoints: [`mcp-server/src/cli/hot/${verb}.ts`], outfile: verbBundles[verb] });

const base = (path) => path.split('/').pop();
const sha = (file) => createHash('sha256').update(file.contents).digest('hex');

/**
 * The entry is CommonJS, marked so by a package.json beside it ({"type": "commonjs"}: the project's own says "module"):
 * Node then starts it without its ES module loader — measured on `cql-tuner logs` of a small log, ~1 MiB less peak
 * RSS and ~15 ms less start-up.
 */
export const distPackageJson = 'mcp-server/dist/package.json';
const DIST_PACKAGE_TEXT = `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`;

const entryOptions = (bundles) => ({
  ...common,
  entryPoints: ['mcp-server/src/launch/code-cache.ts'],
  outfile,
  format: 'cjs',
  // Run as `cql-tuner …` (the npm bin), V8 gets one worker thread instead of four: TurboFan compiles there, each
  // thread in its own malloc arena, and four arenas were 6-8 MiB of peak RSS on `cql-tuner logs` of a 100 MB log
  // (measured: 70-81 MiB with four, 64.7 MiB with one, as fast). A V8 option only counts at process start, hence
  // here; `env -S` splits it from "node" (GNU coreutils 8.30+, macOS). `node cql-tuner.js` (the MCP server) skips it.
  banner: { js: '#!/usr/bin/env -S node --v8-pool-size=1' },
  define: { __CQL_TUNER_BUNDLES__: JSON.stringify(bundles) },
});

/** Builds every file in memory: [{ path (relative to root), text }], the bundle first. */
export async function buildAll() {
  const main = (await build({ ...mainOptions, write: false })).outputFiles[0];
  const verbs = [];
  for (const verb of Object.keys(verbBundles)) verbs.push([verb, (await build({ ...verbOptions(verb), write: false })).outputFiles[0]]);
  // What the launcher needs to pick a bundle and key its cache: file names beside it and their sha256.
  const bundles = {
    main: { file: base(mainBundle), sha256: sha(main) },
    verbs: Object.fromEntries(verbs.map(([verb, f]) => [verb, { file: base(verbBundles[verb]), sha256: sha(f) }])),
  };
  const entry = (await build({ ...entryOptions(bundles), write: false })).outputFiles[0];
  const worker = (await build({ ...workerOptions, write: false })).outputFiles[0];
  return [
    { path: mainBundle, text: main.text },
    ...verbs.map(([verb, f]) => ({ path: verbBundles[verb], text: f.text })),
    { path: outfile, text: entry.text },
    { path: parseWorker, text: worker.text },
    { path: distPackageJson, text: DIST_PACKAGE_TEXT },
  ];
}
