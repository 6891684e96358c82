/**
 * A run's status.json on a full disk (the lab-faults lane fills a real small file system): the atomic write cannot
 * make its temp copy, so the status is written over the file in place. It must never leave an unreadable file: the
 * file keeps room for its last rewrite (reserveBytes), a text that fits is written over it without truncating, and
 * one that does not fit leaves the old status as it was.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJson, rewriteInPlace, writeJson } from '../../mcp-server/src/collect/stress-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'status-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('status.json rewritten on a full disk', () => {
  it('a reserved status file takes a longer final status in place: same size, valid JSON', async () => {
    const path = join(dir, 'status.json');
    await writeJson(path, { state: 'running', error: null }, { reserveBytes: 4096 });
    expect(statSync(path).size).toBe(4096);
    expect(await readJson(path)).toEqual({ state: 'running', error: null });
    const failed = { state: 'failed', error: `latte: No space left on device (os error 28) ${'x'.repeat(2000)}` };
    await rewriteInPlace(path, JSON.stringify(failed, null, 2), new Error('ENOSPC'));
    expect(statSync(path).size).toBe(4096);
    expect(await readJson(path)).toEqual(failed);
  });

  it('a status too long for the file is refused and the old one stays readable', async () => {
    const path = join(dir, 'small.json');
    writeFileSync(path, '{"state":"running"}\n');
    const cause = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    await expect(rewriteInPlace(path, JSON.stringify({ state: 'failed', error: 'y'.repeat(100) }), cause)).rejects.toBe(cause);
    expect(readFileSync(path, 'utf8')).toBe('{"state":"running"}\n');
  });
});
