import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';

/**
 * `mdadm --detail /dev/mdX` (mdadm Detail.c): "Key : value" lines, then a member table
 *
 *   /dev/md0:
 *           Raid Level : raid0
 *           Array Size : 7501211648 (6.99 TiB 7.68 TB)
 *         Raid Devices : 2
 *                State : clean
 *           Chunk Size : 512K
 *       Number   Major   Minor   RaidDevice State
 *          0     259        0        0      active sync   /dev/nvme0n1
 *          -       0        0        1      removed
 */
export interface MdadmMember {
  number: number | null;
  raidDevice: number | null;
  state: string;
  device: string | null;
}

export interface MdadmDetail {
  device: string | null;
  level: string | null;
  /** Array size in bytes (the KiB figure × 1024). */
  sizeBytes: number | null;
  raidDevices: number | null;
  totalDevices: number | null;
  activeDevices: number | null;
  failedDevices: number | null;
  spareDevices: number | null;
  state: string | null;
  chunkBytes: number | null;
  layout: string | null;
  members: MdadmMember[];
  /** Every key as printed (lower-case). */
  fields: Record<string, string>;
}

const KIND = 'storage.mdadm-detail';

export const parseMdadmDetail = total<MdadmDetail>(KIND, (text) => {
  const fields: Record<string, string> = {};
  const members: MdadmMember[] = [];
  let device: string | null = null;
  let inTable = false;
  for (const raw of cleanLines(text)) {
    const line = raw.trim();
    if (line === '') continue;
    const dev = /^(\/dev\/\S+):$/.exec(line);
    if (dev && device === null) {
      device = dev[1]!;
      continue;
    }
    if (/^Number\s+Major\s+Minor\s+RaidDevice\s+State/.test(line)) {
      inTable = true;
      continue;
    }
    if (inTable) {
      const m = /^(\d+|-)\s+(\d+)\s+(\d+)\s+(\d+|-)\s+(.*?)(?:\s+(\/dev\/\S+))?$/.exec(line);
      if (m)
        members.push({ number: m[1] === '-' ? null : Number(m[1]), raidDevice: m[4] === '-' ? null : Number(m[4]), state: m[5]!.trim(), device: m[6] ?? null });
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z /-]*?)\s*:\s*(.*)$/.exec(line);
    if (kv) fields[kv[1]!.toLowerCase()] = kv[2]!.trim();
  }
  if (fields['raid level'] === undefined) return unrecognized(KIND, 'no "Raid Level :" line (mdadm --detail output)');
  const int = (k: string) => (fields[k] !== undefined && /^\d+/.test(fields[k]) ? Number(/^\d+/.exec(fields[k])![0]) : null);
  const chunk = /^(\d+)\s*([KMG])?/i.exec(fields['chunk size'] ?? '');
  const unit = chunk?.[2]?.toUpperCase();
  const warnings: string[] = [];
  if (members.length === 0) warnings.push('no member table (truncated output?)');
  return parsedOk(
    KIND,
    {
      device,
      level: fields['raid level'] ?? null,
      sizeBytes: int('array size') === null ? null : int('array size')! * 1024,
      raidDevices: int('raid devices'),
      totalDevices: int('total devices'),
      activeDevices: int('active devices'),
      failedDevices: int('failed devices'),
      spareDevices: int('spare devices'),
      state: fields.state ?? null,
      chunkBytes: chunk ? Number(chunk[1]) * (unit === 'K' ? 1024 : unit === 'M' ? 1024 ** 2 : unit === 'G' ? 1024 ** 3 : 1) : null,
      layout: fields.layout ?? null,
      members,
      fields,
    },
    warnings,
  );
});
