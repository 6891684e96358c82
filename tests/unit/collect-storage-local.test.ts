import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { readHostStorage } from '../../mcp-server/src/collect/storage/read-host.js';
import { storageRules } from '../../mcp-server/src/core/rules/storage.js';

const HAVE_SYSFS = process.platform === 'linux' && existsSync('/sys/block');
if (!HAVE_SYSFS) process.stderr.write('note: no /sys/block on this machine; the live storage inspection test is skipped\n');

// Reads this machine's real storage and checks it against values read independently with node:fs.
describe.skipIf(!HAVE_SYSFS)('readHostStorage on this machine', () => {
  it('lists every /sys/block device with its real sector sizes, read-ahead and rotational flag', async () => {
    const { facts } = await readHostStorage(new LocalTarget(), { dirs: [{ role: 'data', path: '/tmp' }] });
    const names = readdirSync('/sys/block').sort();
    expect(
      facts.devices
        .filter((d) => d.type !== 'part')
        .map((d) => d.name)
        .sort(),
    ).toEqual(names);
    for (const n of names) {
      const d = facts.devices.find((x) => x.name === n)!;
      const read = (f: string) => (existsSync(`/sys/block/${n}/queue/${f}`) ? Number(readFileSync(`/sys/block/${n}/queue/${f}`, 'utf8').trim()) : null);
      expect(d.logicalSectorSize, `${n} logical_block_size`).toBe(read('logical_block_size'));
      expect(d.physicalSectorSize, `${n} physical_block_size`).toBe(read('physical_block_size'));
      expect(d.readAheadKiB, `${n} read_ahead_kb`).toBe(read('read_ahead_kb'));
      const rot = read('rotational');
      expect(d.rotational, `${n} rotational`).toBe(rot === null ? null : rot === 1);
    }
  });

  it('resolves /tmp to the mount and device that /proc/self/mountinfo names', async () => {
    const { facts } = await readHostStorage(new LocalTarget(), { dirs: [{ role: 'data', path: '/tmp' }] });
    const mi = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .filter((l) => l.includes(' - '));
    // The longest mount target that prefixes /tmp, independently.
    const targets = mi.map((l) => l.split(' ')[4]!).filter((t) => t === '/' || '/tmp' === t || '/tmp'.startsWith(`${t}/`));
    const expected = targets.sort((a, b) => b.length - a.length)[0];
    expect(facts.dirs[0]!.mountpoint).toBe(expected);
    const line = mi.filter((l) => l.split(' ')[4] === expected).pop()!;
    expect(facts.dirs[0]!.fstype).toBe(line.split(' - ')[1]!.split(' ')[0]);
    // Rules run on the real facts without throwing, each saying whether it ran.
    const outcomes = storageRules(facts);
    expect(outcomes.length).toBeGreaterThan(8);
    for (const o of outcomes) expect(o.checked || (o.skippedBecause ?? '').length > 0).toBe(true);
  });
});
