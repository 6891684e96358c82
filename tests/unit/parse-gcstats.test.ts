import { describe, expect, it } from 'vitest';
import { parseGcstats } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const BUSY = 'local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node2_gcstats.txt';
const IDLE = 'local-runs/cassandra-4.1.10-single/nodetool_n41_gcstats.txt';

// GcStats.java (3.x–5.0): "%20s%20s%20s%20s%20s%20s%25s" header and "%20.0f…%25d" values.
const hdr = [
  'Interval (ms)',
  'Max GC Elapsed (ms)',
  'Total GC Elapsed (ms)',
  'Stdev GC Elapsed (ms)',
  'GC Reclaimed (MB)',
  'Collections',
  'Direct Memory Bytes',
];
const line = (cells: string[]) => cells.map((c, i) => c.padStart(i === 6 ? 25 : 20)).join('');
const CLASSIC = [line(hdr), line(['3600012', '812', '20544', '97', '98765432100', '1480', '268435456'])].join('\n');
// Trunk -H: one "label value" row per statistic through a TableBuilder (doubles printed by String.valueOf).
const labels = [...hdr.slice(0, 6), 'Total Direct Memory Bytes', 'Max Direct Memory Bytes', 'Reserved Direct Memory Bytes'];
const values = ['60000.0', '250.0', '900.0', '12.5', '4.294967296E9', '6.0', '1048576', '2147483648', '1048576'];
const HUMAN = labels.map((l, i) => `${l.padEnd(28)} ${values[i]}`).join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseGcstats(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool gcstats', () => {
  it.skipIf(!HAVE_CORPUS)('5.0.9 after load: "GC Reclaimed (MB)" is really bytes (1 GiB by 4 collections)', () => {
    const r = parseGcstats(corpus(BUSY));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      intervalMs: 180074,
      maxGcElapsedMs: 296,
      totalGcElapsedMs: 714,
      stdevGcElapsedMs: 95,
      reclaimedBytes: 1084660880,
      collections: 4,
      directMemoryBytes: null,
    });
    expect(r.value.notes.join(' ')).toMatch(/bytes/);
    expect(r.value.notes.join(' ')).toMatch(/-1/);
  });

  it.skipIf(!HAVE_CORPUS)('idle 4.1 node: NaN stdev and no collections', () => {
    const r = parseGcstats(corpus(IDLE));
    expect(r.ok && r.value).toMatchObject({ intervalMs: 12948, collections: 0, stdevGcElapsedMs: null, reclaimedBytes: 0 });
  });

  it('classic layout with direct memory, and the trunk -H layout', () => {
    const c = parseGcstats(CLASSIC);
    expect(c.ok && c.value).toMatchObject({
      intervalMs: 3600012,
      maxGcElapsedMs: 812,
      reclaimedBytes: 98765432100,
      collections: 1480,
      directMemoryBytes: 268435456,
    });
    const h = parseGcstats(HUMAN);
    expect(h.ok).toBe(true);
    if (!h.ok) return;
    expect(h.value).toMatchObject({
      intervalMs: 60000,
      maxGcElapsedMs: 250,
      reclaimedBytes: 4294967296,
      collections: 6,
      directMemoryBytes: 1048576,
      maxDirectMemoryBytes: 2147483648,
      reservedDirectMemoryBytes: 1048576,
    });
  });

  it('prompt, CRLF, indentation; ok:false on unrelated, empty, error and header-only text', () => {
    const r = parseGcstats(
      `root@n1:~# nodetool gcstats\r\n${CLASSIC.split('\n')
        .map((l) => `  ${l}`)
        .join('\r\n')}\r\n`,
    );
    expect(r.ok && r.value.collections).toBe(1480);
    for (const bad of ['', 'running', 'Pool Name Active Pending']) expect(parseGcstats(bad).ok).toBe(false);
    const headerOnly = parseGcstats(line(hdr));
    expect(headerOnly.ok === false && headerOnly.reason).toMatch(/without its row/);
    expect(parseGcstats('error: Connection refused').ok).toBe(false);
  });

  it('keeps what a cut -H listing has, with a warning', () => {
    const r = parseGcstats(HUMAN.split('\n').slice(0, 3).join('\n'));
    expect(r.ok && r.value.totalGcElapsedMs).toBe(900);
    expect(r.ok && r.warnings.join(' ')).toMatch(/truncated/);
  });

  it('is total on every truncation of the synthetic samples', () => {
    expectTotalOnEveryTruncation(CLASSIC);
    expectTotalOnEveryTruncation(HUMAN);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real gcstats sample', () => {
    const files = corpusFiles('local-runs', /_gcstats\.txt$/);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      expect(parseGcstats(corpus(f)).ok, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });
});
