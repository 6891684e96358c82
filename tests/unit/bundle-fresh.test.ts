import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
// @ts-expect-error plain .mjs build script without types
import { buildOptions, outfile, root } from '../../scripts/build-options.mjs';

// Claude Code installs the plugin without building it, so the committed bundle is what users run.
it('the committed bundle matches the sources (run `npm run build` and commit when this fails)', async () => {
  const res = await build({ ...(buildOptions as object), write: false });
  const fresh = res.outputFiles[0]!.text;
  const committed = readFileSync(join(root as string, outfile as string), 'utf8');
  expect(committed.length).toBe(fresh.length);
  expect(committed === fresh).toBe(true);
}, 60_000);
