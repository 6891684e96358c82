import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { readHostStorage } from '../../mcp-server/src/collect/storage/read-host.js';
import { storageRules } from '../../mcp-server/src/core/rules/storage.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const tree = (name: string) => join(FIXTURES_DIR, 'storage', name);
const target = new LocalTarget();

async function inspect(name: string, product: 'cassandra' | 'scylla', dirs: { role: 'data' | 'commitlog' | 'hints'; path: string }[]) {
  const { facts } = await readHostStorage(target, { root: tree(name), product, dirs });
  const outcomes = storageRules(facts);
  return { facts, outcomes, findings: outcomes.flatMap((o) => o.findings) };
}

describe('readHostStorage on recorded trees', () => {
  it('1 KiB-block XFS on a 4 KiB-physical SSD: read-modify-write flagged with both numbers; commit log sharing noted', async () => {
    const r = await inspect('xfs-1k-on-4k', 'cassandra', [
      { role: 'data', path: '/var/lib/cassandra/data' },
      { role: 'commitlog', path: '/var/lib/cassandra/commitlog' },
    ]);
    const sdb = r.facts.devices.find((d) => d.name === 'sdb')!;
    expect(sdb.physicalSectorSize).toBe(4096);
    expect(sdb.logicalSectorSize).toBe(512);
    expect(sdb.scheduler).toBe('mq-deadline');
    expect(r.facts.dirs.map((d) => [d.role, d.mountpoint, d.device, d.physical.join()])).toEqual([
      ['data', '/var/lib/cassandra', 'sdb', 'sdb'],
      ['commitlog', '/var/lib/cassandra', 'sdb', 'sdb'],
    ]);
    const rmw = r.findings.find((f) => f.id === 'storage.xfs-block-below-sector')!;
    expect(rmw.severity).toBe('warning');
    expect(rmw.title).toMatch(/1024 B is below the 4096 B physical sector of sdb/);
    expect(r.findings.find((f) => f.id === 'storage.commitlog-shares-data')?.severity).toBe('info');
    // sda is a QEMU disk with rotational=1 but it does not back the database: still flagged (a host-wide fact).
    expect(r.findings.find((f) => f.id === 'storage.rotational-virtual')?.evidence.join()).toMatch(/sda.*QEMU/);
    // Data device read-ahead is 8 KiB: nothing to say.
    expect(r.findings.map((f) => f.id)).not.toContain('storage.read-ahead-high');
    expect(r.findings.map((f) => f.id)).not.toContain('storage.read-ahead-untuned');
  });

  it('ScyllaDB RAID0 of two NVMe with a 1 MiB chunk: md resolved, XFS stripe-aligned, read-ahead skipped, NVMe 512 B noted', async () => {
    const r = await inspect('raid0-1m', 'scylla', [
      { role: 'data', path: '/var/lib/scylla/data' },
      { role: 'commitlog', path: '/var/lib/scylla/commitlog' },
    ]);
    expect(r.facts.md).toEqual([expect.objectContaining({ name: 'md0', level: 'raid0', chunkBytes: 1048576, raidDisks: 2 })]);
    expect(r.facts.md[0]!.members.sort()).toEqual(['nvme0n1', 'nvme1n1']);
    expect(r.facts.md[0]!.degraded).toBe(false);
    // Everything was read (mdadm --detail included) except lsblk, which this tree does not record.
    expect(r.facts.unread.map((u) => u.what)).toEqual(['lsblk (file-system types of unmounted devices, models)']);

    expect(r.facts.dirs[0]).toMatchObject({ device: 'md0', fstype: 'xfs', mountpoint: '/var/lib/scylla' });
    expect(r.facts.dirs[0]!.physical.sort()).toEqual(['nvme0n1', 'nvme1n1']);
    const ids = r.findings.map((f) => f.id);
    expect(ids).toContain('storage.xfs-stripe-aligned');
    expect(r.findings.find((f) => f.id === 'storage.xfs-stripe-aligned')!.title).toMatch(/md0 raid0 chunk 1 MiB × 2 data disks/);
    expect(ids).not.toContain('storage.xfs-stripe-mismatch');
    expect(ids).not.toContain('storage.scylla-not-xfs');
    expect(ids).not.toContain('storage.scylla-raid-level');
    expect(r.outcomes.find((o) => o.rule === 'storage:read-ahead')).toMatchObject({ checked: false });
    expect(r.findings.find((f) => f.id === 'storage.nvme-512-physical')!.title).toMatch(/nvme0n1, nvme1n1/);
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('8192-sector read-ahead on LVM over a partition, online discard: both flagged; dm-0 resolved to sda', async () => {
    const r = await inspect('readahead-8192', 'cassandra', [{ role: 'data', path: '/var/lib/cassandra/data' }]);
    expect(r.facts.dirs[0]).toMatchObject({ device: 'dm-0', physical: ['sda'] });
    const ra = r.findings.find((f) => f.id === 'storage.read-ahead-high')!;
    expect(ra.evidence.join('\n')).toMatch(/dm-0 read_ahead_kb 4096 \(8192 sectors/);
    expect(ra.confidence).toBe('high');
    expect(r.findings.find((f) => f.id === 'storage.discard-online')!.evidence.join()).toMatch(/\/var\/lib\/cassandra on dm-0/);
    expect(r.findings.map((f) => f.id)).not.toContain('storage.partition-misaligned');
  });

  it('healthy host: no warnings, and every check either ran or says why not', async () => {
    const r = await inspect('healthy', 'cassandra', [
      { role: 'data', path: '/var/lib/cassandra/data' },
      { role: 'commitlog', path: '/var/lib/cassandra/commitlog' },
    ]);
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(r.findings).toEqual([]);
    expect(r.facts.xfs).toHaveLength(2);
    expect(r.facts.unread).toEqual([]);
    for (const o of r.outcomes) if (!o.checked) expect(o.skippedBecause).toBeTruthy();
    expect(r.outcomes.find((o) => o.rule === 'storage:read-ahead')!.checked).toBe(true);
  });

  it('a tree without tools or mdstat records what it could not read instead of failing', async () => {
    const { facts } = await readHostStorage(target, { root: tree('xfs-1k-on-4k'), product: 'cassandra', dirs: [{ role: 'data', path: '/nonexistent/data' }] });
    expect(facts.unread.map((u) => u.what)).toEqual(expect.arrayContaining(['data directory /nonexistent/data']));
    expect(facts.devices.length).toBeGreaterThan(0);
  });
});
