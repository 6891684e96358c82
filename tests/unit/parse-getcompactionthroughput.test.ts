import { describe, expect, it } from 'vitest';
import { parseGetcompactionthroughput } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseGetcompactionthroughput(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

// Trunk (CASSANDRA-13890) prints measured rates after the cap; our own text in that wording.
const TRUNK = [
  'Current compaction throughput: 64 MiB/s',
  'Current compaction throughput (1 minute): 12.5 MiB/s',
  'Current compaction throughput (5 minute): 10.25 MiB/s',
  'Current compaction throughput (15 minute): 9.0 MiB/s',
].join('\n');

describe('nodetool getcompactionthroughput', () => {
  it.skipIf(!HAVE_CORPUS)('4.1 and 5.0 still print "64 MB/s" (a MiB/s cap)', () => {
    const files = corpusFiles('local-runs', /_getcompactionthroughput\.txt$/);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const r = parseGetcompactionthroughput(corpus(f));
      expect(r.ok && r.value.cap, f).toEqual({ value: 64, unit: 'MB/s', unlimited: false, mebibytesPerSecond: 64, megabitsPerSecond: null });
      expectTotalOnEveryTruncation(corpus(f));
    }
  });

  it('0 means unthrottled; -d prints MiB/s with decimals; trunk adds measured rates', () => {
    expect(parseGetcompactionthroughput('Current compaction throughput: 0 MB/s')).toMatchObject({
      ok: true,
      value: { cap: { value: 0, unlimited: true, mebibytesPerSecond: null } },
    });
    expect(parseGetcompactionthroughput('Current compaction throughput: 15.5 MiB/s')).toMatchObject({
      ok: true,
      value: { cap: { value: 15.5, unit: 'MiB/s', mebibytesPerSecond: 15.5 } },
    });
    const t = parseGetcompactionthroughput(TRUNK);
    expect(t.ok && t.value.measuredMiBPerSec).toEqual([
      { window: '1 minute', value: 12.5 },
      { window: '5 minute', value: 10.25 },
      { window: '15 minute', value: 9 },
    ]);
  });

  it('prompt and CRLF; ok:false on unrelated, empty and the 4.1 "-d" error', () => {
    expect(parseGetcompactionthroughput('$ nodetool getcompactionthroughput\r\nCurrent compaction throughput: 128 MB/s\r\n')).toMatchObject({
      ok: true,
      value: { cap: { value: 128 } },
    });
    for (const bad of ['', 'Current stream throughput: 200 Mb/s', 'running', 'Current compaction throughput: fast'])
      expect(parseGetcompactionthroughput(bad).ok).toBe(false);
    const e = parseGetcompactionthroughput('error: Use the -d flag to quiet this error and get the exact throughput in MiB/s');
    expect(e.ok === false && e.reason).toMatch(/-d flag/);
  });

  it('is total on every truncation of the synthetic sample', () => {
    expectTotalOnEveryTruncation(TRUNK);
  });
});
