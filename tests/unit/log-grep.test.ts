/**
 * `logs --grep`: the pattern may come from an MCP argument or a paste, so a regex runs on RE2 (linear time): a
 * pattern that makes a backtracking engine run for minutes finishes at once, and one RE2 cannot run is refused with
 * its reason. Literal search is the default and ignores case, as sperf bgrep does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { LogGrep } from '../../mcp-server/src/core/parse/logs/grep.js';
import { grepLogFiles, grepMatcher } from '../../mcp-server/src/ops/log-grep.js';

const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-grep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('log search', () => {
  it('a catastrophic-backtracking pattern on a long line finishes in well under a second (RE2)', async () => {
    const p = file('long.log', `INFO  [main] 2024-05-01 10:00:00,000 X.java:1 - ${'a'.repeat(50_000)}b\n`);
    const t0 = performance.now();
    const r = await grepLogFiles([p], { pattern: '(a+)+$', regex: true });
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(r.matches).toBe(0);
  });

  it('a pattern RE2 cannot run (a backreference) is refused, naming RE2 and the fix', async () => {
    await expect(grepMatcher({ pattern: '(a)\\1', regex: true })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', message: /not a valid RE2/ });
    await expect(grepMatcher({ pattern: '' })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });

  it('literal by default, case ignored unless asked; regex metacharacters are plain text then', async () => {
    const m = await grepMatcher({ pattern: 'Dropped.*' });
    expect([m('x dropped.* y'), m('Dropped 5')]).toEqual([true, false]);
    const cs = await grepMatcher({ pattern: 'GC', caseSensitive: true });
    expect([cs('G1 GC'), cs('gc')]).toEqual([true, false]);
  });

  it('matches per hour bucket, undated lines before any date counted apart, lines across chunks joined', () => {
    const g = new LogGrep((s) => s.includes('timeout'), 3600);
    g.push('stray timeout before any date\nINFO  [main] 2024-05-01 10:05:00,000 X.java:1 - a timeout\n\tat frame timeout');
    g.push('\nINFO  [main] 2024-05-01 11:59:59,000 X.java:1 - no\nINFO  [main] 2024-05-01 12:00:01,000 X.java:1 - time');
    g.push('out split\n');
    const r = g.end();
    expect([r.lines, r.matches, r.undated, r.times]).toEqual([5, 4, 1, 2]);
    expect(r.buckets).toEqual([
      { start: '2024-05-01T10:00:00.000Z', matches: 2 },
      { start: '2024-05-01T12:00:00.000Z', matches: 1 },
    ]);
    expect(r.examples[2]).toEqual({ line: 3, time: '2024-05-01T10:05:00.000Z', text: '\tat frame timeout' });
  });

  it('a missing file among readable ones is named; none readable is an error', async () => {
    const p = file('ok.log', 'INFO  [main] 2024-05-01 10:00:00,000 X.java:1 - hello\n');
    const r = await grepLogFiles([p, join(dir, 'absent.log')], { pattern: 'hello' });
    expect(r.files.map((f) => f.read)).toEqual([true, false]);
    await expect(grepLogFiles([join(dir, 'absent.log')], { pattern: 'x' })).rejects.toMatchObject({ code: 'LOG_UNREADABLE' });
  });

  it('a rotated .gz log is inflated on the way (the one stream helper logs and grep share); a corrupt one is named, not fatal', async () => {
    const text = Array.from({ length: 3000 }, (_, i) => `INFO  [main] 2024-05-01 10:${String(i % 60).padStart(2, '0')}:00,000 X.java:1 - row ${i} timeout\n`);
    const plain = file('rot.log', text.join(''));
    const gz = join(dir, 'rot.log.1.gz');
    writeFileSync(gz, gzipSync(text.join('')));
    const bad = file('bad.log.gz', 'not gzip at all');
    const a = await grepLogFiles([plain], { pattern: 'timeout' });
    const b = await grepLogFiles([gz, bad], { pattern: 'timeout' });
    expect(b.matches).toBe(3000);
    expect([b.lines, b.matches, b.buckets]).toEqual([a.lines, a.matches, a.buckets]);
    expect(b.files.map((f) => [f.read, f.error === undefined])).toEqual([
      [true, true],
      [false, false],
    ]);
  });

  it('logs (not a search): a named file that is not there is listed in notFound and printed first, the rest is read', async () => {
    const { analyzeLogFiles } = await import('../../mcp-server/src/ops/analyze-logs.js');
    const { renderLogsReport } = await import('../../mcp-server/src/render/logs-report.js');
    const p = file('present.log', 'INFO  [main] 2024-05-01 10:00:00,000 X.java:1 - hello\n');
    const r = await analyzeLogFiles([join(dir, 'typo.log'), p]);
    expect(r.notFound).toEqual([join(dir, 'typo.log')]);
    expect(r.facts.lines.bytes).toBe(55);
    expect(renderLogsReport(r).split('\n')[0]).toBe(`Not found, skipped: ${join(dir, 'typo.log')}`);
  });
});
