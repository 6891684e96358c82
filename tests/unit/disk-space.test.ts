import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { filesystemOf, parseDf } from '../../mcp-server/src/core/parse/host/df.js';
import { diskSpaceOutcome, nodeDirsFromSettings } from '../../mcp-server/src/core/rules/disk-space.js';
import { withDiskSpace } from '../../mcp-server/src/ops/disk-space.js';

// `df -P -k` on the lab host during the disk-near-full incident (node 1's data on a 1 GiB loop XFS filled to 95 %).
const NEAR_FULL = readFileSync('tests/fixtures/lab-incident-outputs/df-p-k-loop-near-full.txt', 'utf8');
const LAB_SETTINGS = { data_file_directories: '[/tmp/h3-home/lab/node1/data]', commitlog_directory: '/tmp/h3-home/lab/node1/commitlog' };

describe('df -P -k parser', () => {
  it('reads every filesystem row with its sizes, Use% and mount point', () => {
    const r = parseDf(NEAR_FULL);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toHaveLength(5);
    const mount = '/tmp/h3-home/lab/node1/data';
    expect(r.value[4]).toEqual({ filesystem: '/dev/loop0', sizeKiB: 983040, usedKiB: 933888, availKiB: 49152, usedPct: 95, mount });
  });

  it('matches a directory to the longest mount point above it, not to a sibling with the same prefix', () => {
    const r = parseDf(NEAR_FULL);
    if (!r.ok) throw new Error(r.reason);
    expect(filesystemOf(r.value, '/tmp/h3-home/lab/node1/data')?.filesystem).toBe('/dev/loop0');
    expect(filesystemOf(r.value, '/tmp/h3-home/lab/node1/data/ks/t-1')?.filesystem).toBe('/dev/loop0');
    expect(filesystemOf(r.value, '/tmp/h3-home/lab/node1/data2')?.filesystem).toBe('/dev/vda');
    expect(filesystemOf(r.value, '/tmp/h3-home/lab/node1/commitlog')?.mount).toBe('/');
  });

  it('is total: other text is refused with a reason, a stray line becomes a warning', () => {
    // df -i counts inodes, not space: refused. df -h is read, its rounded figures flagged as approximate.
    expect(parseDf('Filesystem Inodes IUsed IFree IUse% Mounted on\n/dev/sda 655360 1000 654360 1% /').ok).toBe(false);
    const h = parseDf('Filesystem Size Used Avail Use% Mounted on\n/dev/sda 10G 1G 9G 10% /');
    expect(h.ok && h.value[0]).toMatchObject({ sizeKiB: 10 * 1024 ** 2, usedPct: 10 });
    expect(h.ok && h.warnings.join(' ')).toMatch(/approximate/);
    expect(parseDf('').ok).toBe(false);
    const r = parseDf(`${NEAR_FULL}garbage line\n`);
    expect(r.ok && r.warnings.length).toBe(1);
  });
});

describe('disk-space rule', () => {
  const host = (text: string) => [{ target: 'local', nodes: ['127.0.7.1'], dfText: text }];
  const dirs = { '127.0.7.1': nodeDirsFromSettings(LAB_SETTINGS) };

  it('reads data_file_directories as the list Cassandra prints, and the commit log directory', () => {
    expect(nodeDirsFromSettings({ data_file_directories: '[/d1, /d2/]', commitlog_directory: '/cl' })).toEqual([
      { setting: 'data_file_directories', path: '/d1' },
      { setting: 'data_file_directories', path: '/d2' },
      { setting: 'commitlog_directory', path: '/cl' },
    ]);
    expect(nodeDirsFromSettings({ data_file_directories: 'relative/x', commitlog_directory: null })).toEqual([]);
    expect(nodeDirsFromSettings(undefined)).toEqual([]);
  });

  it('a data directory on a 95 % full filesystem is critical, named with its node and free MiB', () => {
    const o = diskSpaceOutcome(host(NEAR_FULL), dirs);
    expect(o.checked).toBe(true);
    expect(o.findings).toHaveLength(1);
    const f = o.findings[0]!;
    expect(f).toMatchObject({ id: 'host.disk.space-low', severity: 'critical', node: '127.0.7.1' });
    expect(f.title).toContain('95 % full (48 MiB free)');
    expect(f.evidence[0]).toContain('/dev/loop0 mounted on /tmp/h3-home/lab/node1/data');
    expect(f.knowledgeIds).toContain('host.disk.space-used');
  });

  it('85 % is a warning, 17 % (the commit log on the root filesystem) is nothing', () => {
    const at85 = NEAR_FULL.replace('933888     49152      95%', '835584    147456      85%');
    expect(diskSpaceOutcome(host(at85), dirs).findings.map((f) => f.severity)).toEqual(['warning']);
    const healthy = NEAR_FULL.split('\n')
      .filter((l) => !l.includes('loop0'))
      .join('\n');
    const o = diskSpaceOutcome(host(healthy), dirs);
    expect(o.checked).toBe(true);
    expect(o.findings).toEqual([]);
  });

  it('says why it could not check: no host, df failed, or no settings for the node', () => {
    expect(diskSpaceOutcome([], dirs).skippedBecause).toMatch(/no host/);
    const failed = diskSpaceOutcome([{ target: 'ssh db1', nodes: ['127.0.7.1'], error: 'ssh db1: df timed out' }], dirs);
    expect(failed).toMatchObject({ checked: false, skippedBecause: 'ssh db1: df timed out' });
    expect(diskSpaceOutcome(host(NEAR_FULL), {}).skippedBecause).toMatch(/data directories are unknown/);
  });

  it('joins the rules result: its finding sorted in, its outcome listed as checked', () => {
    const r = withDiskSpace({ findings: [], outcomes: [] }, { hosts: host(NEAR_FULL), dirs });
    expect(r.findings.map((f) => f.id)).toEqual(['host.disk.space-low']);
    expect(r.outcomes).toEqual([expect.objectContaining({ rule: 'disk-space', checked: true, findings: 1 })]);
    const none = withDiskSpace({ findings: [], outcomes: [] }, { hosts: [], dirs, note: 'give nodetoolVia' });
    expect(none.outcomes[0]).toMatchObject({ checked: false, skippedBecause: 'give nodetoolVia' });
  });
});
