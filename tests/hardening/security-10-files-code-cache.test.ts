/**
 * Issue #13, class 10 (file policy): the code-cache sweep of the `cql-tuner` entry (launch/code-cache.ts) deleted
 * every *.bin older than 7 days in its folder, and that folder can be one the user names (CQL_TUNER_CODE_CACHE_DIR):
 * someone else's files went with it, and a link was judged by what it pointed to. It now deletes only files it
 * wrote: its exact name pattern, a regular file (lstat, no link followed) of this user. Runs the built entry
 * (npm run build) as a real process, as tests/e2e/code-cache.test.ts does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, lutimesSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { record } from './stats.js';

const ENTRY = resolve(import.meta.dirname, '../../mcp-server/dist/cql-tuner.js');
const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-sec10-cache-'));
let tried = 0;
let unsafe = 0;

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  record({ section: 'attack', cls: '10 code-cache sweep deletes only its own files', tried, unsafe });
});

describe('class 10: the code-cache sweep', () => {
  it('leaves foreign *.bin files and links alone, and still removes its own stale caches', () => {
    expect(existsSync(ENTRY), 'run `npm run build` first').toBe(true);
    const dir = join(tmp, 'cache');
    mkdirSync(dir, { mode: 0o700 });
    const old = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    const make = (name: string) => {
      writeFileSync(join(dir, name), 'not a cache of cql-tuner\n');
      utimesSync(join(dir, name), old, old);
      return name;
    };
    const foreign = [make('foreign.bin'), make('firmware-2020.bin'), make('0123456789abcdef.bin')];
    // A link named like a cache, to a file outside the folder (both old): neither the link nor its target goes.
    const outside = join(tmp, 'outside.bin');
    writeFileSync(outside, 'precious\n');
    utimesSync(outside, old, old);
    const link = 'aaaaaaaaaaaaaaaa-1-1-v20.0.0-x64.bin';
    symlinkSync(outside, join(dir, link));
    lutimesSync(join(dir, link), old, old);
    // A stale cache of another build, written by cql-tuner: still cleaned up.
    const stale = make('bbbbbbbbbbbbbbbb-2400000-1700000000000-v20.0.0-x64.bin');

    const env = { ...process.env, CQL_TUNER_CODE_CACHE_DIR: dir, CQL_TUNER_CODE_CACHE_DEBUG: '1' };
    const r = spawnSync(process.execPath, [ENTRY, '--version'], { env, timeout: 30_000 });
    expect(r.status).toBe(0);
    expect(r.stderr.toString()).toMatch(/cql-tuner code cache: wrote /);

    const there = (f: string) => lstatSync(f, { throwIfNoEntry: false }) !== undefined;
    for (const f of [...foreign.map((n) => join(dir, n)), join(dir, link), outside]) {
      tried++;
      if (!there(f)) unsafe++;
      expect(there(f), `${f} was deleted`).toBe(true);
    }
    expect(existsSync(join(dir, stale)), 'its own stale cache is removed').toBe(false);
  }, 60_000);
});
