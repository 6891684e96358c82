import { describe, expect, it } from 'vitest';
import { parseLsblk, parseMkfsXfs, STORAGE_PARSERS, storageSignature, type StorageKind } from '../../mcp-server/src/core/parse/storage/index.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

const SAMPLES: Record<StorageKind, string> = {
  'storage.mkfs-xfs': 'disk/mkfs_xfs_md0_raid0_i3_4xlarge_scylla_ami.txt',
  'storage.blockdev-report': 'disk/blockdev_report_readahead_8192_montecristo.txt',
  'storage.lsblk': 'disk/lsblk_custom_ra_rota_dse68_collector.txt',
  'storage.sys-block-queue': 'disk/sys_block_vda_queue_rotational1_dse68_collector.txt',
  'storage.mdstat': '',
  'storage.mdadm-detail': '',
  'storage.io-properties': '',
  'storage.findmnt': '',
};

// Inline samples for kinds with no corpus file (shapes from mdadm Detail.c, io_properties.yaml, findmnt --json).
const INLINE: Partial<Record<StorageKind, string>> = {
  'storage.mdadm-detail':
    '/dev/md0:\n        Raid Level : raid0\n        Array Size : 2000000 (1.91 GiB 2.05 GB)\n      Raid Devices : 2\n        Chunk Size : 512K\n\n    Number   Major   Minor   RaidDevice State\n       0       8       16        0      active sync   /dev/sdb\n       1       8       32        1      active sync   /dev/sdc\n',
  'storage.io-properties':
    'disks:\n  - mountpoint: /var/lib/scylla\n    read_iops: 1108217\n    read_bandwidth: 8138108928\n    write_iops: 733072\n    write_bandwidth: 4151361536\n',
  'storage.findmnt': '{"filesystems": [{"target": "/var/lib/cassandra", "source": "/dev/sdb", "fstype": "xfs", "options": "rw,noatime"}]}',
};

const MDSTAT = 'Personalities : [raid0]\nmd0 : active raid0 sdc[1] sdb[0]\n      2000000 blocks super 1.2 512k chunks\n\nunused devices: <none>\n';

function text(kind: StorageKind): string {
  return kind === 'storage.mdstat' ? MDSTAT : (INLINE[kind] ?? corpus(SAMPLES[kind]));
}

const KINDS = Object.keys(STORAGE_PARSERS) as StorageKind[];

describe('storage parser registry and signatures', () => {
  it('registers eight kinds, each parser reporting its own kind', () => {
    expect(KINDS.sort()).toEqual([
      'storage.blockdev-report',
      'storage.findmnt',
      'storage.io-properties',
      'storage.lsblk',
      'storage.mdadm-detail',
      'storage.mdstat',
      'storage.mkfs-xfs',
      'storage.sys-block-queue',
    ]);
    for (const k of KINDS) expect(STORAGE_PARSERS[k]('').kind).toBe(k);
  });

  it.skipIf(!HAVE_CORPUS)('each sample matches its own signature only, and only its own parser accepts it', () => {
    for (const k of KINDS) {
      const t = text(k);
      for (const other of KINDS) {
        expect(storageSignature[other].test(t), `${other} signature on ${k}`).toBe(other === k);
        expect(STORAGE_PARSERS[other](t).ok, `${other} parser on ${k}`).toBe(other === k);
      }
    }
  });

  it.skipIf(!HAVE_CORPUS)('never throws on any character-level truncation of any sample', () => {
    for (const k of KINDS) {
      const t = text(k);
      for (let i = 0; i <= t.length; i += 7) {
        for (const p of KINDS) {
          const r = STORAGE_PARSERS[p](t.slice(0, i));
          if (!r.ok) expect(r.reason).not.toMatch(/^parser error/);
        }
      }
    }
  });

  it('reads lsblk -P pairs (PKNAME gives the parent) and tables with columns newer than the known list', () => {
    const pairs =
      'NAME="nvme0n1" KNAME="nvme0n1" PKNAME="" RA="128" ROTA="0" MOUNTPOINT=""\nNAME="nvme0n1p1" KNAME="nvme0n1p1" PKNAME="nvme0n1" RA="128" ROTA="0" MOUNTPOINT="/var/lib\\x20data"\n';
    expect(parseLsblk(pairs)).toMatchObject({
      ok: true,
      value: {
        format: 'pairs',
        devices: [
          { name: 'nvme0n1', parent: null, depth: 0, rotational: false, mountpoints: [] },
          { name: 'nvme0n1p1', parent: 'nvme0n1', depth: 1, readAheadKiB: 128, mountpoints: ['/var/lib data'] },
        ],
      },
    });
    expect(parseLsblk('NAME    RA ROTA NEWCOL\nsda    128    0 x\n')).toMatchObject({
      ok: true,
      value: { devices: [{ name: 'sda', readAheadKiB: 128, rotational: false }] },
    });
  });

  it('keeps xfsprogs 6.x extra keys and the realtime continuation line in raw', () => {
    const r = parseMkfsXfs(`meta-data=/dev/sdb               isize=512    agcount=4, agsize=655360 blks
         =                       sectsz=512   attr=2, projid32bit=1
         =                       crc=1        finobt=1, sparse=1, rmapbt=1
         =                       reflink=1    bigtime=1 inobtcount=1 nrext64=1
         =                       exchange=0   metadir=0
data     =                       bsize=4096   blocks=2621440, imaxpct=25
         =                       sunit=0      swidth=0 blks
naming   =version 2              bsize=4096   ascii-ci=0, ftype=1, parent=0
log      =internal log           bsize=4096   blocks=16384, version=2
         =                       sectsz=512   sunit=0 blks, lazy-count=1
realtime =none                   extsz=4096   blocks=0, rtextents=0
         =                       rgcount=0    rgsize=0 extents
Discarding blocks...Done.`);
    expect(r).toMatchObject({
      ok: true,
      warnings: [],
      value: { device: '/dev/sdb', metaData: { rmapbt: 1 }, raw: { 'meta-data': { exchange: '0', metadir: '0' }, realtime: { rgcount: '0' } } },
    });
  });
});
