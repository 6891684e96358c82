// One definition of the bundle, used by the build and by the test that fails when the committed bundle is stale.
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const outfile = 'mcp-server/dist/cql-tuner.js';

export const buildOptions = {
  absWorkingDir: root,
  entryPoints: ['mcp-server/src/cli/entry.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minify: true,
  legalComments: 'eof',
  // cassandra-driver and other CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cqlTunerCreateRequire } from 'node:module';\nconst require = __cqlTunerCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  // Deterministic output: the staleness test compares bytes.
  metafile: false,
  sourcemap: false,
};
