import { describe, expect, it } from 'vitest';
import { parseMkfsXfs, STORAGE_PARSERS, storageSignature } from '../../mcp-server/src/core/parse/storage/index.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseMkfsXfs(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

const SAMPLE = 'disk/mkfs_xfs_md0_raid0_i3_4xlarge_scylla_ami.txt';

// Synthetic xfs_info of a newer xfsprogs (5.15+ layout from libfrog/fsgeom.c xfs_report_geom: reflink/bigtime/
// inobtcount on a fourth meta-data line, nrext64 from 6.x); device, sizes and geometry are made up.
const XFS_INFO = `$ xfs_info /var/lib/cassandra
meta-data=/dev/nvme2n1           isize=512    agcount=16, agsize=4882432 blks
         =                       sectsz=4096  attr=2, projid32bit=1
         =                       crc=1        finobt=1, sparse=1, rmapbt=0
         =                       reflink=1    bigtime=1 inobtcount=1 nrext64=0
data     =                       bsize=4096   blocks=78118912, imaxpct=25
         =                       sunit=32     swidth=128 blks
naming   =version 2              bsize=4096   ascii-ci=0, ftype=1
log      =internal log           bsize=4096   blocks=38143, version=2
         =                       sectsz=4096  sunit=1 blks, lazy-count=1
realtime =none                   extsz=4096   blocks=0, rtextents=0
`;

// Synthetic `mkfs.xfs -N -f /tmp/img` dry run on a file image (no device name after meta-data=).
const MKFS_N = `meta-data=                       isize=512    agcount=4, agsize=65536 blks
         =                       sectsz=512   attr=2, projid32bit=1
         =                       crc=1        finobt=1, sparse=1, rmapbt=1
         =                       reflink=1    bigtime=1 inobtcount=1
data     =                       bsize=4096   blocks=262144, imaxpct=25
         =                       sunit=0      swidth=0 blks
naming   =version 2              bsize=4096   ascii-ci=0, ftype=1
log      =internal log           bsize=4096   blocks=16384, version=2
         =                       sectsz=512   sunit=0 blks, lazy-count=1
realtime =none                   extsz=4096   blocks=0, rtextents=0
`;

describe('mkfs.xfs / xfs_info geometry', () => {
  it.skipIf(!HAVE_CORPUS)('reads the Scylla AMI RAID0 mkfs through its syslog prefixes (stripe-aligned, older xfsprogs)', () => {
    const text = corpus(SAMPLE);
    const r = parseMkfsXfs(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([]);
    const v = r.value;
    expect(v.device).toBe('/dev/md0');
    expect(v.metaData).toMatchObject({ isize: 512, agcount: 32, agsize: 28989696, sectsz: 512, attr: 2, projid32bit: 1, crc: 1, finobt: 0, sparse: 0 });
    expect(v.metaData.rmapbt).toBeNull();
    expect(v.metaData.reflink).toBeNull();
    expect(v.data).toMatchObject({ bsize: 4096, blocks: 927668224, imaxpct: 5, sunit: 256, swidth: 512 });
    expect(v.data.sunitBytes).toBe(1024 * 1024); // 1 MiB md chunk
    expect(v.data.swidthBytes! / v.data.sunitBytes!).toBe(2); // two NVMe disks
    expect(v.naming).toEqual({ version: '2', bsize: 4096, asciiCi: 0, ftype: 1 });
    expect(v.log).toMatchObject({ location: 'internal log', internal: true, bsize: 4096, blocks: 452968, version: 2, sectsz: 512, sunit: 8, lazyCount: 1 });
    expect(v.realtime).toEqual({ location: 'none', extsz: 4096, blocks: 0, rtextents: 0 });
    expect(storageSignature['storage.mkfs-xfs'].test(text)).toBe(true);
    expectTotalOnEveryTruncation(text);
  });

  it('reads a newer xfs_info with reflink/bigtime/inobtcount and a 4K-sector device', () => {
    const r = parseMkfsXfs(XFS_INFO);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.device).toBe('/dev/nvme2n1');
    expect(r.value.metaData).toMatchObject({ sectsz: 4096, finobt: 1, sparse: 1, rmapbt: 0, reflink: 1, bigtime: 1, inobtcount: 1 });
    expect(r.value.raw['meta-data'].nrext64).toBe('0');
    expect(r.value.data).toMatchObject({ sunit: 32, swidth: 128, sunitBytes: 131072, swidthBytes: 524288 });
    expect(r.value.log).toMatchObject({ sectsz: 4096, sunit: 1 });
    expectTotalOnEveryTruncation(XFS_INFO);
  });

  it('reads a mkfs.xfs -N dry run without a device name', () => {
    const r = parseMkfsXfs(MKFS_N);
    expect(r).toMatchObject({
      ok: true,
      warnings: [],
      value: { device: null, metaData: { agcount: 4, rmapbt: 1 }, data: { sunit: 0, swidth: 0, sunitBytes: 0 } },
    });
    expect(STORAGE_PARSERS['storage.mkfs-xfs'](MKFS_N).ok).toBe(true);
    expectTotalOnEveryTruncation(MKFS_N);
  });

  it('warns on missing sections and says why on empty or unrelated text', () => {
    const head = XFS_INFO.split('\n').slice(0, 6).join('\n');
    const r = parseMkfsXfs(head);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.warnings.join(' ')).toMatch(/naming|log|realtime/);
    for (const bad of ['', 'Discarding blocks...Done.', 'mkfs.xfs: /dev/sdb appears to contain an existing filesystem (xfs).', 'key = value\n   = x=1']) {
      const b = parseMkfsXfs(bad);
      expect(b.ok, bad).toBe(false);
      if (!b.ok) expect(b.reason).not.toMatch(/^parser error/);
    }
    expect(parseMkfsXfs(undefined as unknown as string).ok).toBe(false);
  });
});
