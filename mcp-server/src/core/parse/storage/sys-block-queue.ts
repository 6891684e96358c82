import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';

/**
 * Dumps of /sys/block/<dev>/queue/* (Documentation/ABI/stable/sysfs-block, Documentation/block/queue-sysfs.rst):
 *
 * - `grep . /sys/block/*\/queue/*` → "/sys/block/sda/queue/rotational:1" (device taken from the path;
 *   also /sys/class/block/…, /sys/devices/…/block/<dev>/queue/…, and iosched/ sub-files);
 * - a per-device collector file (DSE diag collector "os-metrics/disks/vda") → "rotational: 1" lines with no
 *   path: the device is unknown (null) unless the caller knows it.
 *
 * scheduler prints every available scheduler with the active one in brackets: "mq-deadline [none] kyber" or
 * "[none] "; "none" alone (no brackets) is printed by devices without an elevator.
 */
export interface BlockQueue {
  /** "sda" from the path; null for path-less "file: value" dumps. */
  device: string | null;
  rotational: boolean | null;
  readAheadKiB: number | null;
  /** The selected ([bracketed]) scheduler, or the only one printed. */
  scheduler: string | null;
  schedulersAvailable: string[];
  logicalBlockSize: number | null;
  physicalBlockSize: number | null;
  minimumIoSize: number | null;
  optimalIoSize: number | null;
  nrRequests: number | null;
  nomerges: number | null;
  maxSectorsKiB: number | null;
  maxHwSectorsKiB: number | null;
  /** "write back" | "write through" as printed. */
  writeCache: string | null;
  /** true for "write back" (volatile cache; flushes matter). */
  writeBack: boolean | null;
  discardGranularity: number | null;
  discardMaxBytes: number | null;
  /** Every file as printed (key = file name relative to queue/, e.g. "iosched/fifo_batch"). */
  raw: Record<string, string>;
}

export interface SysBlockQueue {
  devices: BlockQueue[];
}

const KIND = 'storage.sys-block-queue';

// Files that exist in every kernel's queue/ directory; a path-less dump must name at least two of them.
const CORE_FILES = new Set([
  'rotational',
  'read_ahead_kb',
  'scheduler',
  'logical_block_size',
  'physical_block_size',
  'minimum_io_size',
  'optimal_io_size',
  'nr_requests',
  'nomerges',
  'max_sectors_kb',
  'max_hw_sectors_kb',
  'hw_sector_size',
  'write_cache',
  'discard_granularity',
  'discard_max_bytes',
  'add_random',
  'rq_affinity',
  'iostats',
  'max_segments',
  'max_segment_size',
  'discard_zeroes_data',
  'write_same_max_bytes',
  'write_zeroes_max_bytes',
  'zoned',
  'wbt_lat_usec',
  'io_poll',
  'io_poll_delay',
  'dax',
  'chunk_sectors',
  'max_discard_segments',
  'max_integrity_segments',
  'discard_max_hw_bytes',
  'nr_zones',
  'io_timeout',
  'fua',
  'stable_writes',
  'virt_boundary_mask',
  'max_active_zones',
  'max_open_zones',
  'zone_append_max_bytes',
  'zone_write_granularity',
  'independent_access_ranges',
  'dma_alignment',
  'atomic_write_max_bytes',
]);

const PATHED = /(?:^|\/)block\/([^/\s:]+)\/queue\/([\w/-]+?)\s*:\s?(.*)$/;
const BARE = /^([a-z][\w]*(?:\/[\w-]+)?)\s*:\s?(.*)$/;

function int(v: string | undefined): number | null {
  if (v === undefined) return null;
  const t = v.trim();
  if (!/^-?\d+$/.test(t)) return null;
  return Number(t);
}

function build(device: string | null, raw: Record<string, string>): BlockQueue {
  const sched = raw.scheduler?.trim();
  let scheduler: string | null = null;
  let available: string[] = [];
  if (sched !== undefined && sched !== '') {
    available = sched.split(/\s+/).map((s) => s.replace(/^\[|\]$/g, ''));
    const sel = /\[([^\]]+)\]/.exec(sched);
    scheduler = sel ? sel[1]! : available.length === 1 ? available[0]! : null;
  }
  const wc = raw.write_cache?.trim() ?? null;
  const rot = int(raw.rotational);
  return {
    device,
    rotational: rot === null ? null : rot !== 0,
    readAheadKiB: int(raw.read_ahead_kb),
    scheduler,
    schedulersAvailable: available,
    logicalBlockSize: int(raw.logical_block_size),
    physicalBlockSize: int(raw.physical_block_size),
    minimumIoSize: int(raw.minimum_io_size),
    optimalIoSize: int(raw.optimal_io_size),
    nrRequests: int(raw.nr_requests),
    nomerges: int(raw.nomerges),
    maxSectorsKiB: int(raw.max_sectors_kb),
    maxHwSectorsKiB: int(raw.max_hw_sectors_kb),
    writeCache: wc === '' ? null : wc,
    writeBack: wc === null || wc === '' ? null : /write back/i.test(wc),
    discardGranularity: int(raw.discard_granularity),
    discardMaxBytes: int(raw.discard_max_bytes),
    raw,
  };
}

export const parseSysBlockQueue = total<SysBlockQueue>(KIND, (text) => {
  const byDevice = new Map<string, Record<string, string>>();
  const bare: Record<string, string> = {};
  let bareCore = 0;
  const warnings: string[] = [];
  for (const raw of cleanLines(text)) {
    const line = raw.trim();
    if (line === '') continue;
    const p = PATHED.exec(line);
    if (p) {
      const dev = p[1]!;
      let rec = byDevice.get(dev);
      if (!rec) byDevice.set(dev, (rec = {}));
      rec[p[2]!] = p[3]!.trim();
      continue;
    }
    const b = BARE.exec(line);
    if (b && (CORE_FILES.has(b[1]!) || b[1]!.startsWith('iosched/'))) {
      if (CORE_FILES.has(b[1]!)) bareCore++;
      bare[b[1]!] = b[2]!.trim();
      continue;
    }
    if (/^grep: |Permission denied|No such file/.test(line)) warnings.push(line.slice(0, 200));
  }
  const devices: BlockQueue[] = [...byDevice.entries()].map(([d, r]) => build(d, r));
  if (bareCore >= 2) devices.push(build(null, bare));
  else if (bareCore === 1 && devices.length > 0) warnings.push('ignored a lone path-less queue line');
  if (devices.length === 0) {
    return unrecognized(KIND, 'no /sys/block/<dev>/queue/<file>:value lines and no queue "file: value" dump');
  }
  if (byDevice.size > 0 && bareCore >= 2) warnings.push('mixed path and path-less lines; path-less values reported as device null');
  return parsedOk(KIND, { devices }, warnings);
});
