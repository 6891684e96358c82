import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';
import { pushAll } from '../../arrays.js';

/**
 * /proc/mdstat (kernel drivers/md/md.c `md_seq_show` + each personality's `status`; layout in md(4) and
 * Documentation/admin-guide/md.rst):
 *
 *   Personalities : [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]
 *   md0 : active raid0 nvme1n1[1] nvme0n1[0]
 *         7501211648 blocks super 1.2 512k chunks
 *   md1 : active raid1 sdb1[1] sda1[0]
 *         1047552 blocks super 1.2 [2/2] [UU]
 *         [==>..................]  resync = 12.5% (131072/1047552) finish=0.5min speed=32768K/sec
 *         bitmap: 1/1 pages [4KB], 65536KB chunk
 *   md2 : active raid5 sdd[3](S) sdc[2] sdb[1](F) sda[0]
 *         … blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/2] [U_U]
 *   md3 : active raid10 … 512K chunks 2 near-copies [4/4] [UUUU]
 *   md4 : inactive sde[0](S)
 *   unused devices: <none>
 *
 * Member flags: (F) faulty, (S) spare, (W) write-mostly, (R) replacement, (J) journal.
 */
export interface MdMember {
  device: string;
  /** Role number in brackets. */
  slot: number;
  faulty: boolean;
  spare: boolean;
  writeMostly: boolean;
  replacement: boolean;
  journal: boolean;
}

export interface MdSync {
  /** resync | recovery | reshape | check | repair; "pending"/"delayed" when queued. */
  action: string;
  percent: number | null;
  doneBlocks: number | null;
  totalBlocks: number | null;
  finishMinutes: number | null;
  speedKiBps: number | null;
}

export interface MdArray {
  name: string;
  /** "active" | "inactive"; readOnly when "(read-only)"/"(auto-read-only)" follows. */
  state: string;
  readOnly: boolean;
  /** raid0 | raid1 | raid10 | raid4/5/6 | linear …; null for inactive arrays. */
  level: string | null;
  members: MdMember[];
  /** Array size in 1 KiB blocks as printed. */
  blocks: number | null;
  sizeBytes: number | null;
  superblock: string | null;
  /** Chunk size in bytes ("512k chunks" / "512k chunk"); null for raid1/linear. */
  chunkBytes: number | null;
  /** raid10 layout, e.g. "2 near-copies". */
  layout: string | null;
  /** raid5/6 algorithm number. */
  algorithm: number | null;
  /** [n/m]: devices expected / working. */
  raidDisks: number | null;
  workingDisks: number | null;
  /** [UU_] as printed. */
  memberStatus: string | null;
  degraded: boolean;
  sync: MdSync | null;
  bitmap: string | null;
}

export interface Mdstat {
  personalities: string[];
  arrays: MdArray[];
  unusedDevices: string[];
}

const KIND = 'storage.mdstat';
const ARRAY = /^(md[\w/-]*)\s*:\s*(active|inactive)(?:\s+\((auto-read-only|read-only)\))?\s*(.*)$/;
const LEVEL = /^(raid\d+|linear|multipath|faulty|container)$/;
const MEMBER = /^([^\s[]+)\[(\d+)\]((?:\([A-Z]\))*)$/;
const SYNC = /(resync|recovery|reshape|check|repair)\s*=\s*([\d.]+)%\s*(?:\((\d+)\/(\d+)\))?(?:\s+finish=([\d.]+)min)?(?:\s+speed=(\d+)K\/sec)?/;

function sizeK(n: string, unit: string): number {
  const f = /^[kK]$/.test(unit) ? 1024 : /^[mM]$/.test(unit) ? 1024 ** 2 : 1;
  return Number(n) * f;
}

export const parseMdstat = total<Mdstat>(KIND, (text) => {
  const personalities: string[] = [];
  const arrays: MdArray[] = [];
  const unusedDevices: string[] = [];
  const warnings: string[] = [];
  let sawPersonalities = false;
  let sawUnused = false;
  let cur: MdArray | null = null;
  for (const raw of cleanLines(text)) {
    const line = raw.trim();
    if (line === '') continue;
    const pers = /^Personalities\s*:\s*(.*)$/.exec(line);
    if (pers) {
      sawPersonalities = true;
      for (const m of pers[1]!.matchAll(/\[([^\]]+)\]/g)) personalities.push(m[1]!);
      continue;
    }
    const unused = /^unused devices\s*:\s*(.*)$/.exec(line);
    if (unused) {
      sawUnused = true;
      const v = unused[1]!.trim();
      if (v !== '<none>' && v !== '') pushAll(unusedDevices, v.split(/\s+/));
      cur = null;
      continue;
    }
    const a = ARRAY.exec(line);
    if (a) {
      const tokens = a[4]!.split(/\s+/).filter((t) => t !== '');
      let level: string | null = null;
      const members: MdMember[] = [];
      for (const t of tokens) {
        if (level === null && members.length === 0 && LEVEL.test(t)) {
          level = t;
          continue;
        }
        const m = MEMBER.exec(t);
        if (m) {
          const flags = m[3] ?? '';
          members.push({
            device: m[1]!,
            slot: Number(m[2]),
            faulty: flags.includes('(F)'),
            spare: flags.includes('(S)'),
            writeMostly: flags.includes('(W)'),
            replacement: flags.includes('(R)'),
            journal: flags.includes('(J)'),
          });
        } else warnings.push(`${a[1]}: unrecognised token ${t}`);
      }
      cur = {
        name: a[1]!,
        state: a[2]!,
        readOnly: a[3] !== undefined,
        level,
        members,
        blocks: null,
        sizeBytes: null,
        superblock: null,
        chunkBytes: null,
        layout: null,
        algorithm: null,
        raidDisks: null,
        workingDisks: null,
        memberStatus: null,
        degraded: false,
        sync: null,
        bitmap: null,
      };
      arrays.push(cur);
      continue;
    }
    if (!cur) continue;
    const blocks = /^(\d+)\s+blocks\b(.*)$/.exec(line);
    if (blocks) {
      cur.blocks = Number(blocks[1]);
      cur.sizeBytes = cur.blocks * 1024;
      const rest = blocks[2]!;
      const sb = /super\s+(\S+)/.exec(rest);
      if (sb) cur.superblock = sb[1]!;
      const chunk = /(\d+)([kKmM]?)\s+chunks?\b/.exec(rest);
      if (chunk) cur.chunkBytes = sizeK(chunk[1]!, chunk[2]!);
      const layout = /(\d+\s+(?:near|far|offset)-copies)/.exec(rest);
      if (layout) cur.layout = layout[1]!;
      const alg = /algorithm\s+(\d+)/.exec(rest);
      if (alg) cur.algorithm = Number(alg[1]);
      const disks = /\[(\d+)\/(\d+)\]\s*\[([U_]+)\]/.exec(rest);
      if (disks) {
        cur.raidDisks = Number(disks[1]);
        cur.workingDisks = Number(disks[2]);
        cur.memberStatus = disks[3]!;
        cur.degraded = cur.workingDisks < cur.raidDisks || disks[3]!.includes('_');
      }
      continue;
    }
    const s = SYNC.exec(line);
    if (s) {
      cur.sync = {
        action: s[1]!,
        percent: Number(s[2]),
        doneBlocks: s[3] === undefined ? null : Number(s[3]),
        totalBlocks: s[4] === undefined ? null : Number(s[4]),
        finishMinutes: s[5] === undefined ? null : Number(s[5]),
        speedKiBps: s[6] === undefined ? null : Number(s[6]),
      };
      continue;
    }
    const pending = /^(resync|recovery|reshape|check|repair)\s*=\s*(PENDING|DELAYED)/i.exec(line);
    if (pending) {
      cur.sync = {
        action: `${pending[1]!} ${pending[2]!.toLowerCase()}`,
        percent: null,
        doneBlocks: null,
        totalBlocks: null,
        finishMinutes: null,
        speedKiBps: null,
      };
      continue;
    }
    const bm = /^bitmap\s*:\s*(.*)$/.exec(line);
    if (bm) {
      cur.bitmap = bm[1]!;
      continue;
    }
  }
  if (arrays.length === 0 && !sawPersonalities) {
    return unrecognized(KIND, 'no /proc/mdstat content (Personalities line or mdN : active … lines)');
  }
  if (!sawUnused) warnings.push('no "unused devices" line (truncated output?)');
  return parsedOk(KIND, { personalities, arrays, unusedDevices }, warnings);
});
