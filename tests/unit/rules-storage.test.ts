import { describe, expect, it } from 'vitest';
import { emptyDevice, emptyFacts, type StorageFacts } from '../../mcp-server/src/core/parse/storage/facts.js';
import { storageRules } from '../../mcp-server/src/core/rules/storage.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const findings = (f: StorageFacts) => storageRules(f).flatMap((o) => o.findings);
const dev = (name: string, over: Partial<ReturnType<typeof emptyDevice>> = {}) => ({ ...emptyDevice(name), type: 'disk', ...over });

describe('storage rules on facts the recorded trees do not cover', () => {
  it('ScyllaDB data on ext4 over RAID1: both flagged; read-ahead skipped for ScyllaDB', () => {
    const f = emptyFacts('test', 'scylla');
    f.devices.push(dev('sda', { readAheadKiB: 4096 }), dev('sdb'), dev('md1', { type: 'raid1' }));
    f.md.push({ name: 'md1', level: 'raid1', chunkBytes: null, members: ['sda', 'sdb'], layout: null, raidDisks: 2 });
    f.dirs.push({ role: 'data', path: '/var/lib/scylla/data', mountpoint: '/var/lib/scylla', device: 'md1', fstype: 'ext4', physical: ['sda', 'sdb'] });
    const ids = findings(f).map((x) => x.id);
    expect(ids).toEqual(expect.arrayContaining(['storage.scylla-not-xfs', 'storage.scylla-raid-level']));
    expect(ids).not.toContain('storage.read-ahead-high');
  });

  it('XFS stripe that does not match md (512 KiB chunk × 4 but su 64 KiB) is a warning with the mount fix', () => {
    const f = emptyFacts('test', 'cassandra');
    f.md.push({ name: 'md0', level: 'raid0', chunkBytes: 512 * 1024, members: ['a', 'b', 'c', 'd'], layout: null, raidDisks: 4 });
    f.xfs.push({
      device: 'md0',
      mountpoint: '/data',
      bsize: 4096,
      sectsz: 512,
      sunitBytes: 65536,
      swidthBytes: 262144,
      agcount: 32,
      crc: 1,
      reflink: 1,
      rmapbt: 0,
      logInternal: true,
      logSectsz: 512,
    });
    const m = findings(f).find((x) => x.id === 'storage.xfs-stripe-mismatch')!;
    expect(m.severity).toBe('warning');
    expect(m.recommendation).toMatch(/sunit=1024,swidth=4096/);
    expect(m.recommendation).toMatch(/su=512k,sw=4/);
  });

  it('NVMe with bfq is a warning, with mq-deadline an info; none is fine', () => {
    const f = emptyFacts('test', 'cassandra');
    f.devices.push(dev('nvme0n1', { scheduler: 'bfq' }), dev('nvme1n1', { scheduler: 'none' }));
    expect(findings(f).find((x) => x.id === 'storage.scheduler-nvme')).toMatchObject({
      severity: 'warning',
      title: expect.stringMatching(/nvme0n1 use the bfq/),
    });
    f.devices[0]!.scheduler = 'mq-deadline';
    expect(findings(f).find((x) => x.id === 'storage.scheduler-nvme')!.severity).toBe('info');
  });

  it('a partition at sector 63 is misaligned (assumed 4 KiB physical when unknown); a degraded mirror is critical', () => {
    const r = interpretText(
      'RO    RA   SSZ   BSZ   StartSec            Size   Device\nrw   256   512  4096          0    500107862016   /dev/sda\nrw   256   512  4096         63    500107829760   /dev/sda1\n',
    );
    const m = r.findings.find((x) => x.id === 'storage.partition-misaligned')!;
    expect(m.evidence[0]).toMatch(/sda1 starts at sector 63 \(32256 B\), not a multiple of 4096 B \(physical sector assumed 4096/);
    expect(m.confidence).toBe('medium');
    const md = interpretText(
      'Personalities : [raid1]\nmd1 : active raid1 sdb1[1] sda1[0](F)\n      1047552 blocks super 1.2 [2/1] [U_]\n\nunused devices: <none>\n',
    );
    expect(md.findings.find((x) => x.id === 'storage.md-degraded')).toMatchObject({
      severity: 'critical',
      title: expect.stringMatching(/^md1 \(raid1\) is degraded/),
    });
    const ok = interpretText(
      'Personalities : [raid0]\nmd0 : active raid0 nvme1n1[1] nvme0n1[0]\n      7501211648 blocks super 1.2 512k chunks\n\nunused devices: <none>\n',
    );
    expect(ok.findings).toEqual([]);
  });

  it('rotational=1 on a real SAS disk is not flagged; on an NVMe it is', () => {
    const f = emptyFacts('test', 'cassandra');
    f.devices.push(dev('sdc', { rotational: true, model: 'ST4000NM0035' }), dev('nvme0n1', { rotational: true }));
    const r = findings(f).find((x) => x.id === 'storage.rotational-virtual')!;
    expect(r.title).toMatch(/^nvme0n1 reports/);
  });
});
