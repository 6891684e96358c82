import { describe, expect, it } from 'vitest';
import { parseLsblk, storageSignature } from '../../mcp-server/src/core/parse/storage/index.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseLsblk(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

const SAMPLE = 'disk/lsblk_custom_ra_rota_dse68_collector.txt';

// Synthetic `lsblk --json -o NAME,KNAME,TYPE,SIZE,ROTA,RA,LOG-SEC,PHY-SEC,MIN-IO,OPT-IO,SCHED,FSTYPE,MOUNTPOINTS`
// in util-linux 2.37+ style (numbers, booleans, "mountpoints" arrays, nested "children"); devices and sizes ours.
const JSON_NEW = `{
   "blockdevices": [
      {"name":"nvme0n1", "kname":"nvme0n1", "type":"disk", "size":"1.7T", "rota":false, "ra":128, "log-sec":512, "phy-sec":512, "min-io":512, "opt-io":0, "sched":"none", "fstype":"linux_raid_member", "mountpoints":[null],
         "children": [
            {"name":"md0", "kname":"md0", "type":"raid0", "size":"3.5T", "rota":false, "ra":1024, "log-sec":512, "phy-sec":512, "min-io":524288, "opt-io":1048576, "sched":null, "fstype":"xfs", "mountpoints":["/var/lib/scylla"]}
         ]
      },
      {"name":"nvme1n1", "kname":"nvme1n1", "type":"disk", "size":"1.7T", "rota":false, "ra":128, "log-sec":512, "phy-sec":512, "min-io":512, "opt-io":0, "sched":"none", "fstype":"linux_raid_member", "mountpoints":[null],
         "children": [
            {"name":"md0", "kname":"md0", "type":"raid0", "size":"3.5T", "rota":false, "ra":1024, "log-sec":512, "phy-sec":512, "min-io":524288, "opt-io":1048576, "sched":null, "fstype":"xfs", "mountpoints":["/var/lib/scylla"]}
         ]
      }
   ]
}`;

// Synthetic `lsblk -J -b -o NAME,SIZE,ROTA,RA,MOUNTPOINT` in util-linux < 2.33 style: every value a string.
const JSON_OLD = `{
   "blockdevices": [
      {"name": "sda", "size": "107374182400", "rota": "1", "ra": "4096", "mountpoint": null,
         "children": [
            {"name": "sda1", "size": "107373133824", "rota": "1", "ra": "4096", "mountpoint": "/data"}
         ]
      }
   ]
}`;

// Synthetic plain table, different column subset and order, two-level tree (disk → part → md).
const TABLE = `NAME        MAJ:MIN RM  SIZE RO TYPE  MOUNTPOINT
sdb           8:16   0  3.7T  0 disk
└─sdb1        8:17   0  3.7T  0 part
  └─md127     9:127  0  7.3T  0 raid0 /var/lib/cassandra
sdc           8:32   0  3.7T  0 disk
└─sdc1        8:33   0  3.7T  0 part
  └─md127     9:127  0  7.3T  0 raid0 /var/lib/cassandra
`;

describe('lsblk', () => {
  it.skipIf(!HAVE_CORPUS)('reads the DSE collector table: RA 128 KiB, ROTA 1 everywhere, vdb unmounted', () => {
    const text = corpus(SAMPLE);
    const r = parseLsblk(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([]);
    expect(r.value.format).toBe('table');
    expect(r.value.columnNames).toEqual(['name', 'kname', 'fstype', 'mountpoint', 'label', 'ra', 'model', 'size', 'rota']);
    const devs = r.value.devices;
    expect(devs.map((d) => d.name)).toEqual(['loop0', 'loop1', 'loop2', 'loop3', 'loop4', 'loop5', 'vda', 'vda1', 'vda2', 'vdb']);
    for (const d of devs) {
      expect(d.readAheadKiB, d.name).toBe(128);
      expect(d.rotational, d.name).toBe(true);
      expect(d.fstype, d.name).toBeNull();
    }
    expect(devs.find((d) => d.name === 'vda2')).toMatchObject({
      kname: 'vda2',
      parent: 'vda',
      depth: 1,
      mountpoints: ['/var/lib/dsefs'],
      sizeBytes: 40 * 1024 ** 3,
    });
    expect(devs.find((d) => d.name === 'vda1')).toMatchObject({ parent: 'vda', sizeText: '8M', mountpoints: [] });
    expect(devs.find((d) => d.name === 'vdb')).toMatchObject({ parent: null, depth: 0, mountpoints: [], sizeText: '40G' });
    expect(devs.find((d) => d.name === 'loop1')!.sizeBytes).toBe(Math.round(96.5 * 1024 ** 2));
    expect(storageSignature['storage.lsblk'].test(text)).toBe(true);
    expectTotalOnEveryTruncation(text);
  });

  it('reads lsblk --json (new style) with children nesting and mountpoints arrays', () => {
    const r = parseLsblk(JSON_NEW);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.format).toBe('json');
    expect(r.value.columnNames).toContain('log-sec');
    expect(r.value.devices.map((d) => `${d.parent ?? '-'}>${d.name}`)).toEqual(['->nvme0n1', 'nvme0n1>md0', '->nvme1n1', 'nvme1n1>md0']);
    expect(r.value.devices[0]).toMatchObject({
      type: 'disk',
      rotational: false,
      readAheadKiB: 128,
      logicalSectorSize: 512,
      physicalSectorSize: 512,
      scheduler: 'none',
      mountpoints: [],
      fstype: 'linux_raid_member',
    });
    expect(r.value.devices[1]).toMatchObject({
      type: 'raid0',
      depth: 1,
      minIo: 524288,
      optIo: 1048576,
      scheduler: null,
      mountpoints: ['/var/lib/scylla'],
      readAheadKiB: 1024,
    });
    expect(storageSignature['storage.lsblk'].test(JSON_NEW)).toBe(true);
    expectTotalOnEveryTruncation(JSON_NEW);
  });

  it('reads lsblk --json (old all-strings style, -b sizes)', () => {
    const r = parseLsblk(JSON_OLD);
    expect(r).toMatchObject({
      ok: true,
      value: {
        devices: [
          { name: 'sda', sizeBytes: 107374182400, rotational: true, readAheadKiB: 4096, mountpoints: [] },
          { name: 'sda1', parent: 'sda', mountpoints: ['/data'] },
        ],
      },
    });
  });

  it('reads a plain table with nested tree glyphs and a different column subset', () => {
    const r = parseLsblk(TABLE);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.devices.map((d) => `${d.depth}:${d.parent ?? '-'}>${d.name}`)).toEqual([
      '0:->sdb',
      '1:sdb>sdb1',
      '2:sdb1>md127',
      '0:->sdc',
      '1:sdc>sdc1',
      '2:sdc1>md127',
    ]);
    expect(r.value.devices[2]).toMatchObject({ type: 'raid0', mountpoints: ['/var/lib/cassandra'], sizeText: '7.3T', rotational: null });
    expect(r.value.devices[2]!.columns['maj:min']).toBe('9:127');
    expectTotalOnEveryTruncation(TABLE);
    // ASCII tree (lsblk -i)
    const ascii = parseLsblk('NAME   RA ROTA\nsda   128    1\n`-sda1 128    1\n');
    expect(ascii).toMatchObject({ ok: true, value: { devices: [{ name: 'sda' }, { name: 'sda1', parent: 'sda', readAheadKiB: 128, rotational: true }] } });
  });

  it('says why on empty, unrelated and broken JSON', () => {
    for (const bad of ['', 'hello world', '{"blockdevices": [ {"name": "sda"', '{"other": 1}', 'NAME\n', 'NAME SIZE\n']) {
      const r = parseLsblk(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.reason).not.toMatch(/^parser error/);
    }
  });
});
