import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseFindmnt, parseIoProperties, parseMdadmDetail } from '../../mcp-server/src/core/parse/storage/index.js';
import { dataDisks, storageFactsFromParsed } from '../../mcp-server/src/core/parse/storage/facts.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

// Shapes from mdadm Detail.c, seastar iotune and util-linux findmnt; device names and numbers are ours.
const MDADM = `/dev/md0:
           Version : 1.2
     Creation Time : Tue Apr  2 11:24:13 2019
        Raid Level : raid10
        Array Size : 3750483968 (3.49 TiB 3.84 TB)
      Raid Devices : 4
     Total Devices : 4
       Persistence : Superblock is persistent
             State : clean, degraded
    Active Devices : 3
   Working Devices : 3
    Failed Devices : 1
     Spare Devices : 0
            Layout : near=2
        Chunk Size : 512K

    Number   Major   Minor   RaidDevice State
       0     259        0        0      active sync set-A   /dev/nvme0n1
       1     259        1        1      active sync set-B   /dev/nvme1n1
       -       0        0        2      removed
       3     259        3        3      active sync set-B   /dev/nvme3n1
       2     259        2        -      faulty   /dev/nvme2n1
`;

const IO_YAML = `disks:
  - mountpoint: /var/lib/scylla
    read_iops: 1108217
    read_bandwidth: 8138108928
    write_iops: 733072
    write_bandwidth: 4151361536
`;

const IOTUNE = `INFO  2024-01-10 10:00:01,123 [shard 0] iotune - Starting Evaluation. This may take a while...
Measuring sequential write bandwidth: 4008 MB/s
Measuring sequential read bandwidth: 7772 MB/s
Measuring random write IOPS: 733072 IOPS
Measuring random read IOPS: 1108217 IOPS
Writing result to /etc/scylla.d/io_properties.yaml
`;

const FINDMNT = `{
   "filesystems": [
      {"target": "/", "source": "/dev/nvme2n1p1", "fstype": "xfs", "options": "rw,relatime,attr2",
         "children": [
            {"target": "/var/lib/scylla", "source": "/dev/md0", "fstype": "xfs", "options": "rw,noatime,discard,sunit=1024,swidth=2048"}
         ]
      }
   ]
}`;

describe('mdadm --detail', () => {
  it('parses level, chunk, layout, members (removed and faulty kept apart) and is detected', () => {
    const r = parseMdadmDetail(MDADM);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      device: '/dev/md0',
      level: 'raid10',
      chunkBytes: 512 * 1024,
      raidDevices: 4,
      failedDevices: 1,
      layout: 'near=2',
      sizeBytes: 3750483968 * 1024,
    });
    expect(r.value.members.map((m) => [m.device, m.state])).toEqual([
      ['/dev/nvme0n1', 'active sync set-A'],
      ['/dev/nvme1n1', 'active sync set-B'],
      [null, 'removed'],
      ['/dev/nvme3n1', 'active sync set-B'],
      ['/dev/nvme2n1', 'faulty'],
    ]);
    const f = storageFactsFromParsed('storage.mdadm-detail', r.value)!;
    expect(f.md[0]!.members).toEqual(['nvme0n1', 'nvme1n1', 'nvme3n1']);
    expect(dataDisks(f.md[0]!)).toBe(2);
    const d = detect(MDADM);
    expect(d.ok && d.kind).toBe('storage.mdadm-detail');
  });

  it('is total on truncations', () => {
    const lines = MDADM.split('\n');
    for (let i = 0; i <= lines.length; i++) {
      const r = parseMdadmDetail(lines.slice(0, i).join('\n'));
      if (!r.ok) expect(r.reason).not.toMatch(/parser error/);
    }
  });
});

describe('ScyllaDB io_properties.yaml and iotune output', () => {
  it('reads both shapes with bandwidth in bytes/s (iotune prints bytes / 2^20 as "MB/s")', () => {
    const y = parseIoProperties(IO_YAML);
    expect(y.ok && y.value).toEqual({
      format: 'yaml',
      disks: [
        {
          mountpoint: '/var/lib/scylla',
          mountpoints: ['/var/lib/scylla'],
          readIops: 1108217,
          readBandwidth: 8138108928,
          writeIops: 733072,
          writeBandwidth: 4151361536,
        },
      ],
    });
    const t = parseIoProperties(IOTUNE);
    expect(t.ok && t.value.disks[0]).toMatchObject({ readBandwidth: 7772 * 1024 ** 2, writeBandwidth: 4008 * 1024 ** 2, readIops: 1108217, writeIops: 733072 });
    for (const text of [IO_YAML, IOTUNE]) {
      const d = detect(text);
      expect(d.ok && d.kind).toBe('storage.io-properties');
    }
    expect(parseIoProperties('disks: []').ok).toBe(false);
    expect(parseIoProperties('disks:\n  - mountpoint: [').ok).toBe(false);
  });
});

describe('findmnt --json', () => {
  it('flattens the tree; interpret flags the online discard on the data mount', () => {
    const r = parseFindmnt(FINDMNT);
    expect(r.ok && r.value.mounts.map((m) => m.target)).toEqual(['/', '/var/lib/scylla']);
    const i = interpretText(FINDMNT);
    expect(i.kind).toBe('storage.findmnt');
    const f = i.findings.find((x) => x.id === 'storage.discard-online')!;
    expect(f.title).toMatch(/^\/var\/lib\/scylla mounted with online discard/);
    expect(parseFindmnt('{"filesystems": [').ok).toBe(false);
  });
});
