import { describe, expect, it } from 'vitest';
import { parseDf } from '../../mcp-server/src/core/parse/host/df.js';
import { parseExposition } from '../../mcp-server/src/core/parse/metrics/exposition.js';

// A scraped page and a host's df output come from machines we do not control: one long line must cost linear time.
const timed = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

describe('parsers of cluster-side text stay linear on long hostile lines', () => {
  it('a metrics sample whose value is 200,000 digits and a letter is refused quickly, and ordinary values still parse', () => {
    const page = `cassandra_x{a="b"} ${'1'.repeat(200_000)}x\ncassandra_y 1.5e3\ncassandra_z 2.\n`;
    let r: ReturnType<typeof parseExposition> | undefined;
    expect(timed(() => (r = parseExposition(page)))).toBeLessThan(250);
    const values = r!.samples.map((s) => [s.name, s.value]);
    expect(values).toEqual([
      ['cassandra_y', 1500],
      ['cassandra_z', 2],
    ]);
  });
  it('a df row whose mount point holds a 200,000-space run is read quickly', () => {
    const text = `Filesystem 1024-blocks Used Available Capacity Mounted on\n/dev/x 100 50 50 50% /a${' '.repeat(200_000)}b\n/dev/y 100 95 5 95% /data\n`;
    let r: ReturnType<typeof parseDf> | undefined;
    expect(timed(() => (r = parseDf(text)))).toBeLessThan(250);
    expect(r!.ok && r!.value.map((x) => [x.mount.slice(0, 2), x.usedPct])).toEqual([
      ['/a', 50],
      ['/d', 95],
    ]);
  });
});
