import type { Parsed } from '../../parsed.js';
import { parseBlockdevReport } from './blockdev-report.js';
import { parseLsblk } from './lsblk.js';
import { parseMdstat } from './mdstat.js';
import { parseMkfsXfs } from './mkfs-xfs.js';
import { parseSysBlockQueue } from './sys-block-queue.js';
import { parseMdadmDetail } from './mdadm-detail.js';
import { parseIoProperties } from './io-properties.js';
import { parseFindmnt } from './findmnt.js';

export type StorageKind =
  | 'storage.mkfs-xfs'
  | 'storage.blockdev-report'
  | 'storage.lsblk'
  | 'storage.sys-block-queue'
  | 'storage.mdstat'
  | 'storage.mdadm-detail'
  | 'storage.io-properties'
  | 'storage.findmnt';

export type StorageParser = (text: string) => Parsed<unknown>;

export const STORAGE_PARSERS: Record<StorageKind, StorageParser> = {
  'storage.mkfs-xfs': parseMkfsXfs,
  'storage.blockdev-report': parseBlockdevReport,
  'storage.lsblk': parseLsblk,
  'storage.sys-block-queue': parseSysBlockQueue,
  'storage.mdstat': parseMdstat,
  'storage.mdadm-detail': parseMdadmDetail,
  'storage.io-properties': parseIoProperties,
  'storage.findmnt': parseFindmnt,
};

/**
 * A cheap test per kind for detection (multiline, unanchored to the text start; log prefixes allowed).
 * A hit means "worth parsing", not "parses": the parser remains the judge.
 */
export const storageSignature: Record<StorageKind, RegExp> = {
  'storage.mkfs-xfs': /meta-data=[^\s=]*\s+isize=\d+\s+agcount=\d+/m,
  'storage.blockdev-report': /^[ \t]*RO[ \t]+RA[ \t]+SSZ[ \t]+BSZ[ \t]+StartSec[ \t]+Size[ \t]+Device[ \t]*$/im,
  'storage.lsblk': /"blockdevices"\s*:\s*\[|^[ \t]*NAME[ \t]+(?:[A-Z][A-Z:%-]*[ \t]+)*(?:MAJ:MIN|SIZE|RA|ROTA|TYPE|MOUNTPOINTS?|FSTYPE|KNAME)\b/m,
  'storage.sys-block-queue':
    /(?:^|\/)block\/[^/\s:]+\/queue\/[\w-]+(?:\/[\w-]+){0,3}[ \t]*:|^[ \t]*(?:rotational|read_ahead_kb|logical_block_size|nr_requests|max_sectors_kb)[ \t]*:[ \t]*\d+[ \t]*$/m,
  'storage.mdadm-detail': /^[ \t]*Raid Level[ \t]*:[ \t]*\S+/m,
  // "disks:" then a "- mountpoint:" entry: scylla_io_setup can write a file with the mount point and no values
  'storage.io-properties':
    /^[ \t]*(?:-[ \t]*)?read_iops[ \t]*:[ \t]*\d+|^disks:[ \t]*\r?\n[ \t]*-[ \t]*mountpoints?[ \t]*:|Measuring (?:sequential|random) (?:read|write) (?:bandwidth|IOPS)/m,
  'storage.findmnt': /"filesystems"\s*:\s*\[/,
  'storage.mdstat': /^[ \t]*Personalities[ \t]*:[ \t]*(?:\[[\w-]+\][ \t]*)*$|^md[\w/-]*\s*:\s*(?:active|inactive)\b/m,
};

export { parseBlockdevReport, parseFindmnt, parseIoProperties, parseLsblk, parseMdadmDetail, parseMdstat, parseMkfsXfs, parseSysBlockQueue };
export type { MdadmDetail, MdadmMember } from './mdadm-detail.js';
export type { IoDisk, IoProperties } from './io-properties.js';
export type { FindmntMount } from './findmnt.js';
export type { BlockdevReport, BlockdevReportRow } from './blockdev-report.js';
export type { Lsblk, LsblkDevice } from './lsblk.js';
export type { MdArray, MdMember, Mdstat, MdSync } from './mdstat.js';
export type { XfsGeometry, XfsSection } from './mkfs-xfs.js';
export type { BlockQueue, SysBlockQueue } from './sys-block-queue.js';
