import { describe, expect, it } from 'vitest';
import { LabError } from '../../mcp-server/src/lab/errors.js';
import { DEFAULT_LAB_HEAP, heapToMb, normalizeHeap } from '../../mcp-server/src/lab/heap.js';

describe('lab heap', () => {
  it('defaults to 512M', () => {
    expect(DEFAULT_LAB_HEAP).toBe('512M');
    expect(normalizeHeap(undefined)).toBe('512M');
  });

  it('normalises M/G sizes', () => {
    expect(normalizeHeap('512m')).toBe('512M');
    expect(normalizeHeap('1G')).toBe('1G');
    expect(normalizeHeap('2g')).toBe('2G');
    expect(normalizeHeap(' 768M ')).toBe('768M');
    expect(normalizeHeap('1GB')).toBe('1G');
    expect(normalizeHeap('256M')).toBe('256M');
  });

  it.each(['', '512', '1T', '-1G', '1.5G', '128M', '33G', 'lots', '512M; rm -rf /'])('rejects %j', (bad) => {
    expect(() => normalizeHeap(bad)).toThrowError(LabError);
    try {
      normalizeHeap(bad);
    } catch (e) {
      expect((e as LabError).code).toBe('BAD_HEAP');
      expect((e as LabError).fix).toContain('512M');
    }
  });

  it('converts to MiB', () => {
    expect(heapToMb('512M')).toBe(512);
    expect(heapToMb('2G')).toBe(2048);
    expect(heapToMb('x')).toBeNaN();
  });
});
