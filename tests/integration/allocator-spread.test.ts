/**
 * kb:ownership.allocator-spread is a measurement of Cassandra's own token allocator (GenerateTokens, 5.0.9). Re-run
 * here on the real jars of both lab lines: a fresh run per layout at 16 tokens must stay within the committed worst
 * (plus the run-to-run margin), so the table cannot silently stop describing what the allocator does.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resolveCassandraJars } from '../../mcp-server/src/lab/resolve.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

describe('allocator spread table against the real allocator', () => {
  for (const line of ['4.1', '5.0'] as const) {
    it(`Cassandra ${line}: GenerateTokens stays within the table`, { timeout: 300_000 }, async () => {
      const jars = await resolveCassandraJars(line);
      const r = await run(
        process.execPath,
        [
          join(root, 'node_modules', 'vite-node', 'vite-node.mjs'),
          'scripts/allocator-spread.ts',
          '--check',
          '--version',
          jars.fullVersion,
          '--lib',
          jars.libDir,
        ],
        { cwd: root, timeout: 240_000 },
      ).catch((e: { stderr?: string; code?: number }) => ({ stderr: e.stderr ?? '', failed: e.code ?? 1 }));
      expect('failed' in r ? r.stderr : '').toBe('');
      // One line per layout names the fresh spread at 24 nodes and the table's worst.
      expect(
        r.stderr.match(new RegExp(`^${jars.fullVersion.replace(/\./g, '\\.')} \\d/\\d/16: after 24 nodes \\d\\.\\d{3} \\(table worst [\\d.]+\\)$`, 'gm')),
      ).toHaveLength(3);
    });
  }
});
