// Builds what Claude Code starts without any install step: the bundle and its `cql-tuner` entry (scripts/build-options.mjs).
import { chmod, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildAll, outfile, root } from './build-options.mjs';

for (const { path, text } of await buildAll()) {
  // Write then rename: a server starting meanwhile never reads half a file.
  const tmp = join(root, `${path}.tmp`);
  await writeFile(tmp, text);
  if (path === outfile) await chmod(tmp, 0o755);
  await rename(tmp, join(root, path));
  process.stderr.write(`built ${path}\n`);
}
