import { LabError } from './errors.js';

export const DEFAULT_LAB_HEAP = '512M';
const MIN_MB = 256;
const MAX_MB = 32 * 1024;

/**
 * Validates a heap size for -Xms/-Xmx and returns it normalised ('512m' → '512M').
 * Below 256M Cassandra 4.1/5.0 fails at startup or thrashes; above 32G compressed oops are lost.
 */
export function normalizeHeap(input: string | undefined): string {
  const raw = (input ?? DEFAULT_LAB_HEAP).trim();
  const m = /^(\d+)\s*([mMgG])[bB]?$/.exec(raw);
  const bad = (why: string): LabError => new LabError('BAD_HEAP', `Heap '${raw}' is not usable: ${why}.`, 'Give a size like 512M or 1G (256M–32G).');
  if (!m || !m[1] || !m[2]) throw bad('expected a number followed by M or G');
  const n = Number.parseInt(m[1], 10);
  const unit = m[2].toUpperCase() as 'M' | 'G';
  const mb = unit === 'G' ? n * 1024 : n;
  if (mb < MIN_MB) throw bad(`below the ${MIN_MB}M minimum`);
  if (mb > MAX_MB) throw bad('above 32G');
  return `${n}${unit}`;
}

export function heapToMb(heap: string): number {
  const m = /^(\d+)([MG])$/.exec(heap);
  if (!m || !m[1]) return Number.NaN;
  const n = Number.parseInt(m[1], 10);
  return m[2] === 'G' ? n * 1024 : n;
}
