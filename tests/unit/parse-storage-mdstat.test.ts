import { describe, expect, it } from 'vitest';
import { parseMdstat, storageSignature } from '../../mcp-server/src/core/parse/storage/index.js';

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseMdstat(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

// Synthetic /proc/mdstat following drivers/md/md.c md_seq_show and the raid0/1/10/5 status() layouts
// (md(4), Documentation/admin-guide/md.rst); device names, sizes and progress are ours.
const MDSTAT = `Personalities : [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]
md0 : active raid0 nvme1n1[1] nvme0n1[0]
      3750606848 blocks super 1.2 1024k chunks

md1 : active raid1 sdb2[1] sda2[0]
      2095104 blocks super 1.2 [2/2] [UU]
      [====>................]  resync = 21.7% (454656/2095104) finish=1.2min speed=22732K/sec
      bitmap: 1/1 pages [4KB], 65536KB chunk

md2 : active raid10 sdf[3] sde[2] sdd[1] sdc[0]
      3906764800 blocks super 1.2 512K chunks 2 near-copies [4/4] [UUUU]

md3 : active raid5 sdj[3](S) sdi[2] sdh[1](F) sdg[0]
      3906764800 blocks super 1.2 level 5, 256k chunk, algorithm 2 [3/2] [U_U]
      [>....................]  recovery =  2.5% (48833536/1953382400) finish=160.3min speed=198011K/sec

md4 : inactive sdk[0](S)
      976630488 blocks super 1.2

unused devices: <none>
`;

describe('/proc/mdstat', () => {
  it('reads raid0/1/10/5 arrays, members, chunks, degraded state and sync progress', () => {
    const r = parseMdstat(MDSTAT);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([]);
    const v = r.value;
    expect(v.personalities).toEqual(['raid0', 'raid1', 'raid10', 'raid6', 'raid5', 'raid4']);
    expect(v.unusedDevices).toEqual([]);
    expect(v.arrays.map((a) => `${a.name}:${a.level}`)).toEqual(['md0:raid0', 'md1:raid1', 'md2:raid10', 'md3:raid5', 'md4:null']);
    const [md0, md1, md2, md3, md4] = v.arrays;
    expect(md0).toMatchObject({
      state: 'active',
      chunkBytes: 1024 * 1024,
      blocks: 3750606848,
      sizeBytes: 3750606848 * 1024,
      superblock: '1.2',
      degraded: false,
      sync: null,
    });
    expect(md0!.members.map((m) => `${m.device}[${m.slot}]`)).toEqual(['nvme1n1[1]', 'nvme0n1[0]']);
    expect(md1).toMatchObject({
      chunkBytes: null,
      raidDisks: 2,
      workingDisks: 2,
      memberStatus: 'UU',
      degraded: false,
      bitmap: '1/1 pages [4KB], 65536KB chunk',
    });
    expect(md1!.sync).toEqual({ action: 'resync', percent: 21.7, doneBlocks: 454656, totalBlocks: 2095104, finishMinutes: 1.2, speedKiBps: 22732 });
    expect(md2).toMatchObject({ chunkBytes: 512 * 1024, layout: '2 near-copies', memberStatus: 'UUUU' });
    expect(md3).toMatchObject({
      chunkBytes: 256 * 1024,
      algorithm: 2,
      raidDisks: 3,
      workingDisks: 2,
      degraded: true,
      sync: { action: 'recovery', percent: 2.5 },
    });
    expect(md3!.members.find((m) => m.device === 'sdj')).toMatchObject({ spare: true, faulty: false });
    expect(md3!.members.find((m) => m.device === 'sdh')).toMatchObject({ faulty: true });
    expect(md4).toMatchObject({ state: 'inactive', level: null, members: [{ device: 'sdk', spare: true }] });
    expect(storageSignature['storage.mdstat'].test(MDSTAT)).toBe(true);
    expectTotalOnEveryTruncation(MDSTAT);
  });

  it('reads no arrays, read-only arrays, delayed resync and unused devices', () => {
    expect(parseMdstat('Personalities : \nunused devices: <none>\n')).toMatchObject({ ok: true, value: { arrays: [], personalities: [] }, warnings: [] });
    const r = parseMdstat(
      'Personalities : [raid1]\nmd9 : active (auto-read-only) raid1 sdb1[1] sda1[0]\n      1046528 blocks super 1.2 [2/2] [UU]\n        resync=DELAYED\n\nunused devices: sdz1 sdy1\n',
    );
    expect(r).toMatchObject({
      ok: true,
      value: { arrays: [{ name: 'md9', readOnly: true, level: 'raid1', sync: { action: 'resync delayed', percent: null } }], unusedDevices: ['sdz1', 'sdy1'] },
    });
  });

  it('says why on empty and unrelated text', () => {
    for (const bad of ['', 'cat: /proc/mdstat: No such file or directory', 'MemTotal: 1000 kB']) {
      const r = parseMdstat(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.reason).not.toMatch(/^parser error/);
    }
  });
});
