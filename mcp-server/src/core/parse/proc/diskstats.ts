/**
 * /proc/diskstats: one line per block device, counters since boot. Field meanings follow the kernel's
 * Documentation/admin-guide/iostats.rst: reads (1-4), writes (5-8), in flight (9), io_ticks (10), weighted time
 * in queue (11), discards (12-15, kernel 4.18+) and flushes (16-17, kernel 5.5+). Sectors are 512 bytes whatever
 * the device's own sector size. PURE; never throws.
 */
import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';

export interface DiskCounters {
  major: number;
  minor: number;
  name: string;
  readIos: number;
  readMerges: number;
  readSectors: number;
  readTicksMs: number;
  writeIos: number;
  writeMerges: number;
  writeSectors: number;
  writeTicksMs: number;
  inFlight: number;
  ioTicksMs: number;
  timeInQueueMs: number;
  /** null on kernels before 4.18 (no discard fields). */
  discardIos: number | null;
  discardMerges: number | null;
  discardSectors: number | null;
  discardTicksMs: number | null;
  /** null on kernels before 5.5 (no flush fields). */
  flushIos: number | null;
  flushTicksMs: number | null;
}

const LINE = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+([\d\s]+)$/;

function parse(text: string): Parsed<DiskCounters[]> {
  const devices: DiskCounters[] = [];
  const warnings: string[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const m = LINE.exec(raw);
    const f = m ? m[4]!.trim().split(/\s+/).map(Number) : [];
    // Kernels before 2.6.25 printed 4 fields for partitions: too little for any rate, skipped with a note.
    if (!m || f.length < 11 || f.some((x) => !Number.isFinite(x))) {
      warnings.push(`line not read: ${raw.trim().slice(0, 80)}`);
      continue;
    }
    const at = (i: number): number | null => (f.length > i ? f[i]! : null);
    devices.push({
      major: Number(m[1]),
      minor: Number(m[2]),
      name: m[3]!,
      readIos: f[0]!,
      readMerges: f[1]!,
      readSectors: f[2]!,
      readTicksMs: f[3]!,
      writeIos: f[4]!,
      writeMerges: f[5]!,
      writeSectors: f[6]!,
      writeTicksMs: f[7]!,
      inFlight: f[8]!,
      ioTicksMs: f[9]!,
      timeInQueueMs: f[10]!,
      discardIos: at(11),
      discardMerges: at(12),
      discardSectors: at(13),
      discardTicksMs: at(14),
      flushIos: at(15),
      flushTicksMs: at(16),
    });
  }
  if (!devices.length) return unrecognized('proc-diskstats', 'no /proc/diskstats device line (major minor name and at least 11 counters)');
  return parsedOk('proc-diskstats', devices, warnings);
}

export const parseDiskstats = total('proc-diskstats', parse);
