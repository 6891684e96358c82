/**
 * The `cql-tuner` entry (mcp-server/src/launch/code-cache.ts, built to mcp-server/dist/cql-tuner.js) runs the
 * bundle with a V8 code cache in a private per-user folder. Run as a real process: a miss writes the cache, the
 * next start uses it, a damaged or untrusted cache is never used, stdout carries only the program's output.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE } from './helpers/claude-home.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-code-cache-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const VERSION = execFileSync(process.execPath, [BUNDLE, '--version'], { env: { ...process.env, CQL_TUNER_CODE_CACHE: '0' } }).toString();

function start(dir: string, extra: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BUNDLE, '--version'], {
    env: { ...process.env, CQL_TUNER_CODE_CACHE_DIR: dir, CQL_TUNER_CODE_CACHE_DEBUG: '1', ...extra },
    timeout: 30_000,
  });
  return {
    code: r.status,
    stdout: r.stdout.toString(),
    said: r.stderr
      .toString()
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('cql-tuner code cache:')),
  };
}
const bins = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.bin')) : []);

describe('the cql-tuner entry and its V8 code cache', () => {
  it('a first start writes a private cache, the next start uses it, and stdout is only the program’s output', () => {
    const dir = join(tmp, 'fresh');
    const first = start(dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(VERSION);
    expect(first.said).toEqual([expect.stringMatching(/^cql-tuner code cache: miss /), expect.stringMatching(/^cql-tuner code cache: wrote /)]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = bins(dir);
    expect(file).toMatch(new RegExp(`^[0-9a-f]{16}-\\d+-\\d+-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.bin$`));
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, file!)).size).toBeGreaterThan(100_000);
    const second = start(dir);
    expect(second.stdout).toBe(VERSION);
    expect(second.said).toEqual([expect.stringMatching(/^cql-tuner code cache: hit /)]);
  });

  it('a damaged cache is rejected by V8, the program still runs, and the cache is written again', () => {
    const dir = join(tmp, 'damaged');
    start(dir);
    const [file] = bins(dir);
    writeFileSync(join(dir, file!), Buffer.alloc(4096, 7), { mode: 0o600 });
    const r = start(dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(VERSION);
    expect(r.said[0]).toMatch(/^cql-tuner code cache: rejected /);
    expect(start(dir).said).toEqual([expect.stringMatching(/ hit /)]);
  });

  it('a folder or file others can write is never trusted; CQL_TUNER_CODE_CACHE=0 turns the cache off', () => {
    const shared = join(tmp, 'shared');
    mkdirSync(shared, { mode: 0o700 });
    chmodSync(shared, 0o777);
    const r = start(shared);
    expect(r.stdout).toBe(VERSION);
    expect(r.said).toEqual([expect.stringMatching(/unusable folder .*writable by others/)]);
    expect(bins(shared)).toEqual([]);

    // A cache file someone else could have written is not read, and is replaced by a private one.
    const dir = join(tmp, 'loose-file');
    start(dir);
    const [file] = bins(dir);
    chmodSync(join(dir, file!), 0o666);
    expect(start(dir).said[0]).toMatch(/ miss /);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);

    const off = join(tmp, 'off');
    const o = start(off, { CQL_TUNER_CODE_CACHE: '0' });
    expect(o.stdout).toBe(VERSION);
    expect(o.said).toEqual(['cql-tuner code cache: off (CQL_TUNER_CODE_CACHE=0)']);
    expect(bins(off)).toEqual([]);
  });
});
