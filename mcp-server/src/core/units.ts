/**
 * Sizes as nodetool prints them. Cassandra's FileUtils.stringifyFileSize divides by 1024 whatever the label:
 * 3.x prints "KB/MB/GB", 4.0+ "KiB/MiB/GiB"; both mean powers of 1024. "bytes" is plain.
 */
export const SIZE_FACTORS: Readonly<Record<string, number>> = {
  b: 1,
  byte: 1,
  bytes: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
  p: 1024 ** 5,
  pb: 1024 ** 5,
  pib: 1024 ** 5,
};

/** "118.52 KiB" → 121364 (rounded bytes); null when not a size. */
export function parseSize(text: string): number | null {
  // The unit takes its own blanks: `\s*([A-Za-z]*)\s*$` splits a run of blanks in n² ways when the unit is absent.
  const m = /^\s*(-?\d+(?:[.,]\d+)?)(?:\s*([A-Za-z]+))?\s*$/.exec(text);
  if (!m) return null;
  const n = Number(m[1]!.replace(',', '.'));
  const unit = (m[2] ?? '').toLowerCase();
  const factor = unit === '' ? 1 : SIZE_FACTORS[unit];
  if (factor === undefined || !Number.isFinite(n)) return null;
  return Math.round(n * factor);
}

/** Parses a number that may be "NaN", use a decimal comma, or be absent. */
export function parseNumber(text: string | undefined): number | null {
  if (text === undefined) return null;
  const t = text.trim();
  if (t === '' || /^nan$/i.test(t)) return null;
  const n = Number(t.replace(/,(?=\d{1,2}$)/, '.').replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? Math.round(v) : v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${units[i]}`;
}
