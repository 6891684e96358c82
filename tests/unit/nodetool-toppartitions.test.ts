import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hotPartitions, parseToppartitions } from '../../mcp-server/src/core/parse/nodetool/toppartitions.js';

const fx = (name: string) => readFileSync(new URL(`../fixtures/nodetool-toppartitions/${name}`, import.meta.url), 'utf8');

describe('nodetool toppartitions / profileload (Cassandra 5.0.9 lab, 90 % of operations on key 42)', () => {
  it('reads the frequency samplers and ignores the others', () => {
    const p = parseToppartitions(fx('5.0-toppartitions-hot-key.txt'));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(Object.keys(p.value.samplers).sort()).toEqual(['cas', 'reads', 'writes']);
    expect(p.value.samplers.reads).toEqual([{ table: 'h3hot.kv', partition: '42', count: 4806, error: 0 }]);
    expect(p.value.samplers.writes).toHaveLength(10);
    expect(p.value.samplers.writes![1]).toEqual({ table: 'h3hot.kv', partition: '1212', count: 5, error: 3 });
    expect(p.value.samplers.cas).toEqual([]);
  });

  it('names key 42 hot for reads and writes: ~480 reads/s alone, writes 769× the next key', () => {
    const p = parseToppartitions(fx('5.0-toppartitions-hot-key.txt'));
    if (!p.ok) throw new Error(p.reason);
    const hot = hotPartitions(p.value, 10_000);
    expect(hot.map((h) => [h.sampler, h.table, h.partition])).toEqual([
      ['reads', 'h3hot.kv', '42'],
      ['writes', 'h3hot.kv', '42'],
    ]);
    expect(hot[0]!.perSecond).toBeCloseTo(480.6, 1);
    expect(hot[0]!.timesNext).toBeNull();
    expect(hot[1]!.timesNext).toBeCloseTo(768.8, 1);
    expect(hot[1]!.shareOfListed).toBeGreaterThan(0.98);
  });

  it('profileload (every table) reads the same way; an even spread is not hot', () => {
    const p = parseToppartitions(fx('5.0-profileload-hot-key.txt'));
    if (!p.ok) throw new Error(p.reason);
    expect(hotPartitions(p.value, 5000).map((h) => h.sampler)).toEqual(['reads', 'writes']);
    const even = parseToppartitions('Frequency of reads by partition:\n   Table Partition Count +/-\n   ks.t 1 60 0\n   ks.t 2 55 0\n   ks.t 3 50 0\n');
    if (!even.ok) throw new Error(even.reason);
    expect(hotPartitions(even.value, 1000)).toEqual([]);
  });

  it('refuses text that is not toppartitions output, and stays linear on a hostile line', () => {
    expect(parseToppartitions('hello').ok).toBe(false);
    const t0 = performance.now();
    parseToppartitions(`Frequency of reads by partition:\n ks.t ${'a '.repeat(200_000)}x\n`);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
