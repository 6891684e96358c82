// Builds the single-file bundle that Claude Code starts without any install step.
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { buildOptions, outfile, root } from './build-options.mjs';

await build(buildOptions);
await chmod(join(root, outfile), 0o755);
process.stderr.write(`built ${outfile}\n`);
