import { describe, expect, it } from 'vitest';
import { parseGetstreamthroughput } from '../../mcp-server/src/core/parse/nodetool/index.js';

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseGetstreamthroughput(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

// No capture in the corpus: wordings from GetStreamThroughput.java per branch and its tests.
describe('nodetool getstreamthroughput', () => {
  it('megabits (all versions), MiB/s (-m, 4.1+), unlimited (4.1+), 0', () => {
    expect(parseGetstreamthroughput('Current stream throughput: 200 Mb/s')).toMatchObject({
      ok: true,
      value: { cap: { value: 200, unit: 'Mb/s', unlimited: false, megabitsPerSecond: 200, mebibytesPerSecond: null } },
    });
    expect(parseGetstreamthroughput('Current stream throughput: 24.0 MiB/s')).toMatchObject({
      ok: true,
      value: { cap: { mebibytesPerSecond: 24, megabitsPerSecond: null } },
    });
    expect(parseGetstreamthroughput('Current stream throughput: unlimited')).toMatchObject({
      ok: true,
      value: { cap: { value: null, unit: null, unlimited: true } },
    });
    expect(parseGetstreamthroughput('Current stream throughput: 0 Mb/s')).toMatchObject({
      ok: true,
      value: { cap: { unlimited: true, megabitsPerSecond: null } },
    });
    expect(parseGetstreamthroughput('Current stream throughput: 200 megabits per second')).toMatchObject({
      ok: true,
      value: { cap: { megabitsPerSecond: 200 } },
    });
  });

  it('entire-SSTable streaming (-e) and the DSE connections-per-host line', () => {
    expect(parseGetstreamthroughput('Current entire SSTable stream throughput: 24 Mb/s')).toMatchObject({
      ok: true,
      value: { cap: null, entireSstableCap: { megabitsPerSecond: 24 } },
    });
    const dse = parseGetstreamthroughput('Current stream throughput: 200 Mb/s\nCurrent streaming connections per host: 1');
    expect(dse.ok && dse.value.streamingConnectionsPerHost).toBe(1);
  });

  it('prompt and CRLF; ok:false on unrelated, empty and error text', () => {
    expect(parseGetstreamthroughput('$ nodetool getstreamthroughput\r\n  Current stream throughput: 400 Mb/s\r\n')).toMatchObject({
      ok: true,
      value: { cap: { value: 400 } },
    });
    for (const bad of ['', 'Current compaction throughput: 64 MB/s', 'running', 'Current stream throughput: lots']) {
      const r = parseGetstreamthroughput(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason.length).toBeGreaterThan(0);
    }
    expect(parseGetstreamthroughput('nodetool: Failed to connect').ok).toBe(false);
  });

  it('is total on every truncation of a pasted session', () => {
    expectTotalOnEveryTruncation('$ nodetool getstreamthroughput\nCurrent stream throughput: 200 Mb/s\nCurrent streaming connections per host: 1\n');
  });
});
