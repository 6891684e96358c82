import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertDryRun, planMkfs } from '../../mcp-server/src/core/planners/mkfs.js';
import { planMkfsOnHost } from '../../mcp-server/src/ops/plan-mkfs.js';
import { renderPlanMkfs } from '../../mcp-server/src/render/plan-mkfs.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const dev = (name: string, phys: number | null, logical: number | null = 512) => ({
  name,
  physicalSectorSize: phys,
  logicalSectorSize: logical,
  sizeBytes: null,
});

describe('planMkfs (pure)', () => {
  it('RAID0 of two 512e SSDs for Cassandra: 4 KiB blocks and sectors, su=1024k,sw=2, mdadm argv, noatime', () => {
    const p = planMkfs({ product: 'cassandra', devices: [dev('sdb', 4096), dev('sdc', 4096)] });
    expect(p.mdadmArgv).toEqual(['mdadm', '--create', '/dev/md0', '--level=0', '--raid-devices=2', '--chunk=1024', '/dev/sdb', '/dev/sdc']);
    expect(p.mkfsArgv).toEqual(['mkfs.xfs', '-b', 'size=4096', '-s', 'size=4096', '-d', 'su=1024k,sw=2', '/dev/md0']);
    expect(p.dryRunArgv).toEqual(['mkfs.xfs', '-N', '-b', 'size=4096', '-s', 'size=4096', '-d', 'su=1024k,sw=2', '/dev/md0']);
    expect(p.flags.every((f) => f.knowledgeIds.length > 0)).toBe(true);
    expect(p.mountOptions.map((m) => m.flag)[0]).toBe('noatime');
  });

  // Was 1 KiB blocks: scylla_raid_setup keeps the 4 KiB default on kernels >= 5.12 since 2025.4 (kb:storage.xfs.block-size).
  it('ScyllaDB on one 512-byte NVMe: 4 KiB blocks like scylla_raid_setup on current kernels, warns about the LBA format', () => {
    const p = planMkfs({ product: 'scylla', devices: [dev('nvme0n1', 512)] });
    expect(p.mkfsArgv).toEqual(['mkfs.xfs', '-b', 'size=4096', '-s', 'size=512', '/dev/nvme0n1']);
    expect(p.mdadmArgv).toBeNull();
    expect(p.warnings.join()).toMatch(/nvme id-ns/);
  });

  it('RAID10 of 4 halves the stripe width; RAID6 of 6 has 4 data disks; unknown sectors assume 4096 with a warning', () => {
    expect(
      planMkfs({ product: 'cassandra', devices: ['a', 'b', 'c', 'd'].map((n) => dev(`sd${n}`, 4096)), raidLevel: 'raid10', chunkKiB: 512 }).stripe,
    ).toEqual({ suKiB: 512, sw: 2 });
    expect(planMkfs({ product: 'cassandra', devices: ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => dev(`sd${n}`, 512)), raidLevel: 'raid6' }).stripe).toEqual({
      suKiB: 1024,
      sw: 4,
    });
    const u = planMkfs({ product: 'cassandra', devices: [dev('sdx', null, null)] });
    expect(u.sectorSize).toBe(4096);
    expect(u.warnings[0]).toMatch(/assumed 4096/);
    expect(planMkfs({ product: 'scylla', devices: [dev('sda', 512), dev('sdb', 512)], raidLevel: 'raid5' }).warnings.join()).toMatch(/RAID0/);
    expect(() => planMkfs({ product: 'cassandra', devices: [dev('sda', 512), dev('sdb', 512)], chunkKiB: 100 })).toThrow(/power of two/);
  });

  it('assertDryRun refuses any mkfs argv without -N', () => {
    expect(() => assertDryRun(['mkfs.xfs', '/dev/sdb'])).toThrow(/only runs mkfs.xfs with -N/);
    expect(() => assertDryRun(['mkfs.ext4', '-N', '/dev/sdb'])).toThrow();
    expect(() => assertDryRun(['mkfs.xfs', '-N', '/dev/sdb'])).not.toThrow();
  });
});

describe('planMkfsOnHost on recorded trees', () => {
  const tree = join(FIXTURES_DIR, 'storage', 'raid0-1m');
  it('reads an existing md0 (members, level, chunk) and refuses the dry run because it is mounted', async () => {
    await expect(planMkfsOnHost({ root: tree, product: 'scylla', devices: ['md0'] })).rejects.toMatchObject({
      code: 'DEVICE_MOUNTED',
      message: expect.stringMatching(/md0 on \/var\/lib\/scylla/),
    });
    const r = await planMkfsOnHost({ root: tree, product: 'scylla', devices: ['md0'], dryRun: false });
    expect(r.plan.stripe).toEqual({ suKiB: 1024, sw: 2 });
    expect(r.plan.device).toBe('/dev/md0');
    expect(r.devices.map((d) => [d.name, d.physicalSectorSize, d.source]).sort()).toEqual([
      ['nvme0n1', 512, 'sysfs'],
      ['nvme1n1', 512, 'sysfs'],
    ]);
  });

  it('refuses an md member', async () => {
    await expect(planMkfsOnHost({ root: tree, product: 'scylla', devices: ['nvme0n1'] })).rejects.toMatchObject({ code: 'DEVICE_IN_USE' });
  });

  it('a new array that does not exist yet: plan without a dry run, and says why', async () => {
    const r = await planMkfsOnHost({ root: tree, product: 'scylla', devices: ['nvme0n1', 'nvme1n1'], mdDevice: '/dev/md5' });
    expect(r.dryRun).toEqual({ ran: false, why: expect.stringMatching(/does not exist yet/) });
    expect(renderPlanMkfs(r)).toMatch(/1\. create the array: mdadm --create \/dev\/md5/);
  });
});

const IS_ROOT = process.getuid?.() === 0;
const HAVE_TOOLS = ['/usr/sbin/mkfs.xfs', '/sbin/mkfs.xfs'].some(existsSync) && ['/usr/sbin/losetup', '/sbin/losetup'].some(existsSync);

describe('planMkfsOnHost on this machine', () => {
  it.skipIf(!existsSync('/proc/self/mountinfo'))('refuses the device that holds / (mounted), for real', async () => {
    const mi = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .find((l) => l.split(' ')[4] === '/')!;
    const src = mi.split(' - ')[1]!.split(' ')[1]!;
    if (!src.startsWith('/dev/')) return; // overlay root (container): nothing to refuse
    await expect(planMkfsOnHost({ product: 'cassandra', devices: [src] })).rejects.toMatchObject({ code: 'DEVICE_MOUNTED' });
  });

  // A loop device over a sparse temporary image: mkfs.xfs -N runs for real and the image stays byte-identical.
  it.skipIf(!IS_ROOT || !HAVE_TOOLS)('dry-runs mkfs.xfs -N on an unused loop device and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cqlt-mkfs-'));
    const img = join(dir, 'disk.img');
    writeFileSync(img, '');
    execFileSync('truncate', ['-s', '1G', img]);
    let loop: string | null = null;
    try {
      try {
        loop = execFileSync('losetup', ['--find', '--show', '--sector-size', '4096', img], { encoding: 'utf8' }).trim();
      } catch {
        return; // no loop support in this environment
      }
      const before = createHash('sha256').update(readFileSync(img)).digest('hex');
      const r = await planMkfsOnHost({ product: 'cassandra', devices: [loop] });
      expect(r.devices[0]).toMatchObject({ physicalSectorSize: 4096, source: 'sysfs' });
      expect(r.dryRun.ran).toBe(true);
      if (r.dryRun.ran) {
        expect(r.dryRun.argv).toContain('-N');
        expect(r.dryRun.geometry?.data.bsize).toBe(4096);
        expect(r.dryRun.geometry?.metaData.sectsz).toBe(4096);
        expect(r.dryRun.mismatches).toEqual([]);
      }
      expect(createHash('sha256').update(readFileSync(img)).digest('hex')).toBe(before);
    } finally {
      if (loop) execFileSync('losetup', ['-d', loop]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('plan_mkfs never formats', () => {
  it('every mkfs.xfs it executes carries -N, including the -f retry over an existing file system', async () => {
    const { RecordingTarget } = await import('../helpers/recording-target.js');
    const t = new RecordingTarget((argv) => {
      if (argv[0] === 'grep')
        return {
          stdout: argv
            .filter((a) => a.startsWith('/sys/'))
            .map((a) => `${a}:${/dev$/.test(a) ? '8:16' : /size$/.test(a) && !/block_size/.test(a) ? '2097152' : '4096'}`)
            .join('\n'),
        };
      if (argv[0] === 'find') return { stdout: '/sys/block/sdb\n' };
      if (argv[0] === 'cat') return { stdout: '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n' };
      if (argv[0] === 'mkfs.xfs' && !argv.includes('-f')) return { exitCode: 1, stderr: 'mkfs.xfs: /dev/sdb appears to contain an existing filesystem (xfs).' };
      if (argv[0] === 'mkfs.xfs')
        return {
          stdout: 'meta-data=/dev/sdb isize=512 agcount=4, agsize=1 blks\n         =   sectsz=4096 attr=2\ndata     =   bsize=4096 blocks=262144, imaxpct=25\n',
        };
      return { exitCode: 1 };
    });
    const r = await planMkfsOnHost({ product: 'cassandra', devices: ['sdb'] }, { target: t });
    const mkfs = t.calls.filter((c) => c.argv[0]?.startsWith('mkfs'));
    expect(mkfs.length).toBe(2);
    for (const c of mkfs) expect(c.argv).toContain('-N');
    expect(r.dryRun).toMatchObject({ ran: true, existingFilesystem: true });
    expect(renderPlanMkfs(r)).toMatch(/already holds a file system/);
  });
});
