import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';

/**
 * `blockdev --report` (util-linux disk-utils/blockdev.c `report_header`/`report_device`):
 *
 *   RO    RA   SSZ   BSZ   StartSec            Size   Device
 *   rw  8192   512  4096          0    343597383680   /dev/sda
 *
 * RA is in 512-byte sectors whatever the logical sector size (BLKRAGET); Size is in bytes.
 * Newer util-linux prints "StartSec" and may print "-" for an unknown start; both are handled.
 */
export interface BlockdevReportRow {
  readOnly: boolean;
  /** Read-ahead in 512-byte sectors, as printed. */
  readAheadSectors: number;
  /** readAheadSectors × 512 / 1024. */
  readAheadKiB: number;
  /** Logical sector size in bytes (SSZ). */
  sectorSize: number;
  /** Block size the kernel uses for the device's buffer cache (BSZ), bytes. */
  blockSize: number;
  /** First sector of a partition; 0 for whole disks; null when printed as "-". */
  startSector: number | null;
  sizeBytes: number;
  device: string;
}

export interface BlockdevReport {
  rows: BlockdevReportRow[];
}

const HEADER = /^RO\s+RA\s+SSZ\s+BSZ\s+StartSec\s+Size\s+Device\s*$/i;
const ROW = /^(rw|ro)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+|-)\s+(\d+)\s+(\S.*)$/;

export const parseBlockdevReport = total<BlockdevReport>('storage.blockdev-report', (text) => {
  const rows: BlockdevReportRow[] = [];
  const warnings: string[] = [];
  let sawHeader = false;
  for (const raw of cleanLines(text)) {
    const line = raw.trim();
    if (line === '') continue;
    if (HEADER.test(line)) {
      sawHeader = true;
      continue;
    }
    const m = ROW.exec(line);
    if (!m) {
      if (sawHeader && !/^blockdev:/.test(line)) warnings.push(`unrecognised line: ${line.slice(0, 120)}`);
      else if (/^blockdev:/.test(line)) warnings.push(line.slice(0, 200));
      continue;
    }
    const ra = Number(m[2]);
    rows.push({
      readOnly: m[1] === 'ro',
      readAheadSectors: ra,
      readAheadKiB: (ra * 512) / 1024,
      sectorSize: Number(m[3]),
      blockSize: Number(m[4]),
      startSector: m[5] === '-' ? null : Number(m[5]),
      sizeBytes: Number(m[6]),
      device: m[7]!.trim(),
    });
  }
  if (rows.length === 0) {
    return unrecognized(
      'storage.blockdev-report',
      sawHeader ? 'blockdev --report header without device rows' : 'no blockdev --report header or rows (RO RA SSZ BSZ StartSec Size Device)',
    );
  }
  if (!sawHeader) warnings.push('header line missing; columns assumed in blockdev --report order');
  return parsedOk('storage.blockdev-report', { rows }, warnings);
});
