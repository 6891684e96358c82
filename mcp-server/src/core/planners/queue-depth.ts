import { OpError } from '../errors.js';
/**
 * plan_queue_depth: Little's law for block I/O. outstanding = rate × latency, where rate is IOPS or
 * bandwidth ÷ request size (kb:storage.queue-depth.littles-law). PURE.
 *
 * Units are read literally: SI prefixes are powers of 1000 (kB, MB, GB), IEC prefixes powers of 1024
 * (KiB, MiB, GiB); "K"/"k" alone is 1000. So 14.5 GB/s of 128 kB requests at 1 ms needs ≈ 113 in flight
 * (14.5e9 ÷ 128e3 × 0.001), while 128 KiB requests need ≈ 111 and 14.5 GiB/s of 128 KiB ≈ 119.
 */
export interface QueueDepthInput {
  /** "14.5 GB/s", "3200 MiB/s", or bytes per second as a number. */
  bandwidth?: string | number;
  iops?: number;
  /** "128 KiB", "4k", "131072", or bytes as a number; needed with bandwidth. */
  requestSize?: string | number;
  /** Device latency per request, milliseconds. */
  latencyMs: number;
}

export interface QueueDepthPlan {
  iops: number;
  bytesPerSecond: number | null;
  requestBytes: number | null;
  latencyMs: number;
  /** Little's law result, unrounded. */
  outstanding: number;
  /** Whole requests to keep in flight (rounded up). */
  inFlight: number;
  formula: string;
  notes: string[];
}

export class QueueDepthError extends OpError {
  constructor(message: string, fix: string) {
    super('BAD_ARGUMENT', message, fix);
    this.name = 'QueueDepthError';
  }
}

const PREFIX: Record<string, number> = {
  '': 1,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
};

/** Bytes from "128 KiB", "128kB", "4k", "1.5 GB", "131072" (bare = bytes). Null when unreadable. */
export function parseBytes(v: string | number): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? v : null;
  const m = /^\s*([\d.]+)\s*(|[kKMGT]i?)\s*(?:B|b(?:ytes?)?)?\s*$/.exec(v);
  if (!m || !Number.isFinite(Number(m[1]))) return null;
  const f = PREFIX[m[2]!];
  if (f === undefined) return null;
  const n = Number(m[1]) * f;
  return n > 0 ? n : null;
}

/** Bytes per second from "14.5 GB/s", "3200 MiB/s", "800MB/sec". */
export function parseBandwidth(v: string | number): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? v : null;
  const m = /^(.*?)\s*\/\s*s(?:ec(?:ond)?)?\s*$/.exec(v);
  return parseBytes(m ? m[1]! : v);
}

export function planQueueDepth(input: QueueDepthInput): QueueDepthPlan {
  if (!(input.latencyMs > 0))
    throw new QueueDepthError('latencyMs must be a positive number of milliseconds', 'Give the device latency per request, e.g. 1 for 1 ms, 0.1 for 100 µs.');
  let iops: number;
  let bytesPerSecond: number | null = null;
  let requestBytes: number | null = null;
  const notes: string[] = [];
  if (input.requestSize !== undefined) {
    requestBytes = parseBytes(input.requestSize);
    if (requestBytes === null)
      throw new QueueDepthError(`cannot read request size "${input.requestSize}"`, 'Use a size such as 4 KiB, 128k or 131072 (bytes).');
  }
  if (input.bandwidth !== undefined) {
    bytesPerSecond = parseBandwidth(input.bandwidth);
    if (bytesPerSecond === null)
      throw new QueueDepthError(`cannot read bandwidth "${input.bandwidth}"`, 'Use a rate such as 14.5 GB/s (SI, 10^9) or 3200 MiB/s (IEC, 2^20).');
    if (requestBytes === null)
      throw new QueueDepthError(
        'bandwidth needs a request size',
        'Give requestSize too (e.g. 128 KiB for compaction-sized reads, 4 KiB for small random reads).',
      );
    iops = bytesPerSecond / requestBytes;
    if (input.iops !== undefined && Math.abs(input.iops - iops) / iops > 0.05)
      notes.push(`given iops ${input.iops} differs from bandwidth ÷ request size (${iops.toFixed(0)}); using the bandwidth`);
  } else if (input.iops !== undefined && input.iops > 0) {
    iops = input.iops;
    if (requestBytes !== null) bytesPerSecond = iops * requestBytes;
  } else {
    throw new QueueDepthError(
      'give either bandwidth (with requestSize) or iops',
      'e.g. bandwidth "14.5 GB/s", requestSize "128 kB", latencyMs 1; or iops 500000, latencyMs 0.1.',
    );
  }
  const outstanding = iops * (input.latencyMs / 1000);
  const inFlight = Math.ceil(outstanding - 1e-9);
  notes.push(
    `Keep about ${inFlight} request${inFlight === 1 ? '' : 's'} in flight to sustain this rate; with fewer the device waits between requests and delivers only in-flight × size ÷ latency.`,
    'Cassandra: the read and write stages (concurrent_reads/concurrent_writes) and compaction threads bound what is in flight; ScyllaDB: Seastar derives its I/O queue from io_properties.yaml (IOPS and bandwidth measured by iotune).',
    'Use sustained (not peak) device numbers, and the latency measured at that load: latency rises as the queue fills.',
  );
  const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
  const formula =
    bytesPerSecond !== null && requestBytes !== null && input.bandwidth !== undefined
      ? `${fmt(bytesPerSecond)} B/s ÷ ${requestBytes} B = ${fmt(iops)} IOPS; × ${input.latencyMs} ms = ${outstanding.toFixed(1)} outstanding`
      : `${fmt(iops)} IOPS × ${input.latencyMs} ms = ${outstanding.toFixed(1)} outstanding`;
  return { iops, bytesPerSecond, requestBytes, latencyMs: input.latencyMs, outstanding, inFlight, formula, notes };
}
