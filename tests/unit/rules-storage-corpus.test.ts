import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

const ids = (r: ReturnType<typeof interpretText>) => r.findings.map((f) => f.id);

describe.skipIf(!HAVE_CORPUS)('storage rules on the corpus disk samples (SOURCES.tsv labels)', () => {
  it('blockdev --report: RA=8192 sectors (4 MiB) on the data disks and LVM volumes is flagged too high; the CD-ROM is ignored', () => {
    const r = interpretText(corpus('disk/blockdev_report_readahead_8192_montecristo.txt'));
    expect(r.kind).toBe('storage.blockdev-report');
    const high = r.findings.find((f) => f.id === 'storage.read-ahead-high')!;
    expect(high.severity).toBe('warning');
    expect(high.title).toMatch(/4 MiB/);
    const ev = high.evidence.join('\n');
    for (const d of ['sda ', 'dm-0', 'dm-1']) expect(ev).toContain(d);
    expect(ev).toContain('read_ahead_kb 4096 (8192 sectors');
    expect(ev).not.toContain('sr0');
    expect(high.recommendation).toMatch(/blockdev --setra 16/);
    expect(high.knowledgeIds).toContain('os.read-ahead-kb.ssd');
    // Partitions start at 1 MiB multiples: no alignment warning.
    expect(ids(r)).not.toContain('storage.partition-misaligned');
  });

  it('sys/block/vda/queue dump: rotational=1 on a virtio disk is flagged; 128 KiB read-ahead only noted; scheduler none is fine', () => {
    const r = interpretText(corpus('disk/sys_block_vda_queue_rotational1_dse68_collector.txt'));
    expect(r.kind).toBe('storage.sys-block-queue');
    const rot = r.findings.find((f) => f.id === 'storage.rotational-virtual')!;
    expect(rot.severity).toBe('warning');
    expect(rot.evidence.join(' ')).toMatch(/max_hw_sectors_kb 2147483647/);
    expect(ids(r)).not.toContain('storage.read-ahead-high');
    const ra = r.findings.find((f) => f.id === 'storage.read-ahead-untuned')!;
    expect(ra.severity).toBe('info');
    expect(ids(r)).not.toContain('storage.scheduler-nvme');
    expect(r.findings.filter((f) => f.severity !== 'info').map((f) => f.id)).toEqual(['storage.rotational-virtual']);
  });

  it('lsblk RA/ROTA: ROTA=1 on the virtio disks, 128 KiB read-ahead and the unused 40G disk vdb are noted; loop devices ignored', () => {
    const r = interpretText(corpus('disk/lsblk_custom_ra_rota_dse68_collector.txt'));
    expect(r.kind).toBe('storage.lsblk');
    const rot = r.findings.find((f) => f.id === 'storage.rotational-virtual')!;
    expect(rot.title).toMatch(/vda, vdb/);
    expect(rot.evidence.join(' ')).not.toMatch(/loop/);
    const ra = r.findings.find((f) => f.id === 'storage.read-ahead-untuned')!;
    expect(ra.title).toMatch(/128 KiB/);
    expect(ra.evidence.join(' ')).not.toMatch(/loop/);
    const unused = r.findings.find((f) => f.id === 'storage.unused-disk')!;
    expect(unused.title).toMatch(/^vdb \(40 GiB\) is not/);
    expect(unused.title).not.toMatch(/vda/);
  });

  it('mkfs.xfs md0 RAID0 2×NVMe, 1 MiB chunk: recognised as stripe-aligned and sane (no warning)', () => {
    const r = interpretText(corpus('disk/mkfs_xfs_md0_raid0_i3_4xlarge_scylla_ami.txt'));
    expect(r.kind).toBe('storage.mkfs-xfs');
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const a = r.findings.find((f) => f.id === 'storage.xfs-stripe-aligned')!;
    expect(a.title).toMatch(/md0.*2-disk stripe with 1 MiB chunk/);
    expect(a.title).toMatch(/ScyllaDB/);
    expect(ids(r)).not.toContain('storage.xfs-block-below-sector');
    expect(r.checked.map((c) => c.rule)).toContain('storage:xfs-stripe');
  });
});
