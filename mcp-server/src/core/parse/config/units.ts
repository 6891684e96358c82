/**
 * Unit parsers for configuration values. Cassandra 4.1+ writes quantities with units ("64MiB/s", "5000ms",
 * "10s", "512KiB"); older names carry the unit in the key (`*_in_ms`, `*_in_kb`, `*_mb_per_sec`) and a bare
 * number as the value. JVM sizes ("4G", "1995M", "256k") are powers of 1024 as in HotSpot.
 * All functions return null for anything that is not a clean quantity; none throws.
 */
import { SIZE_FACTORS } from '../../units.js';

const DURATION_MS: Record<string, number> = {
  ns: 1e-6,
  nanoseconds: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  microseconds: 1e-3,
  ms: 1,
  milliseconds: 1,
  s: 1000,
  seconds: 1000,
  m: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  days: 86_400_000,
};

// DataStorageSpec (4.1+) knows B, KiB, MiB, GiB; KB/MB/GB and bare letters are accepted leniently as 1024-based,
// the same table nodetool sizes use.
const SIZE_BYTES = SIZE_FACTORS;

// DataRateSpec (4.1+): B/s, KiB/s, MiB/s. Megabits (the pre-4.1 stream throughput unit) as Mbps / Mbit/s.
const RATE_BYTES_PER_SEC: Record<string, number> = {
  'b/s': 1,
  'kib/s': 1024,
  'kb/s': 1024,
  'mib/s': 1024 ** 2,
  'mb/s': 1024 ** 2,
  'gib/s': 1024 ** 3,
  mbps: 125_000,
  'mbit/s': 125_000,
  'mbits/s': 125_000,
  'megabits/s': 125_000,
};

// The unit takes its own blanks (`\s*([…]*)\s*$` splits a run of blanks in n² ways when the unit is absent).
const QUANTITY = /^\s*(-?\d+(?:\.\d+)?)(?:\s*([A-Za-zµ/]+))?\s*$/;

function quantity(text: unknown, table: Record<string, number>, defaultFactor: number | null): number | null {
  if (typeof text === 'number') return Number.isFinite(text) && defaultFactor !== null ? text * defaultFactor : null;
  if (typeof text !== 'string') return null;
  const m = QUANTITY.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2] ?? '';
  if (!Number.isFinite(n)) return null;
  if (unit === '') return defaultFactor === null ? null : n * defaultFactor;
  const f = table[unit] ?? table[unit.toLowerCase()];
  return f === undefined ? null : n * f;
}

/** "5000ms" → 5000, "10s" → 10000, "2h" → 7200000. A bare number is read in `bareUnit` (default: not accepted). */
export function parseDurationMs(text: unknown, bareUnitMs: number | null = null): number | null {
  // "m" for minutes must not be confused with sizes: only durations come here.
  return quantity(text, DURATION_MS, bareUnitMs);
}

/** "512KiB" → 524288, "4G" → 4294967296. A bare number is read as `bareUnitBytes` (default: not accepted). */
export function parseDataSizeBytes(text: unknown, bareUnitBytes: number | null = null): number | null {
  const v = quantity(text, SIZE_BYTES, bareUnitBytes);
  return v === null ? null : Math.round(v);
}

/** "64MiB/s" → 67108864 bytes/s. A bare number is read as `bareUnitBytesPerSec` (default: not accepted). */
export function parseDataRateBytesPerSec(text: unknown, bareUnitBytesPerSec: number | null = null): number | null {
  return quantity(text, RATE_BYTES_PER_SEC, bareUnitBytesPerSec);
}

export const MIB = 1024 ** 2;
/** Bytes per second in one megabit per second (pre-4.1 `stream_throughput_outbound_megabits_per_sec`). */
export const MEGABIT_PER_SEC = 125_000;
