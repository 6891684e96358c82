/**
 * A pasted df (tests/fixtures/host-df, SOURCES.tsv): the lab's disk-near-full incident output and a real diag's
 * healthy df. Memory and pseudo filesystems are never judged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDf } from '../../mcp-server/src/core/parse/host/df.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const sample = (f: string) => readFileSync(join(FIXTURES_DIR, 'host-df', f), 'utf8');

describe('df pasted', () => {
  it('the lab data filesystem at 95 % is critical, named with its free space; / at 17 % and tmpfs are not', () => {
    const r = interpretText(sample('df-p-k_lab-disk-near-full.txt'));
    expect(r.kind).toBe('host.df');
    expect(r.findings.map((f) => [f.id, f.severity, f.title])).toEqual([
      ['host.disk.space-low', 'critical', '/tmp/h3-home/lab/node1/data is 95 % full (48.0 MiB free on /dev/loop0)'],
    ]);
    expect(r.findings[0]!.evidence[0]).toMatch(/^\/dev\/loop0 on \/tmp\/h3-home\/lab\/node1\/data: 912 MiB used of 960 MiB, 48\.0 MiB available/);
  });

  it('a healthy node (sperf diag, df -k with 1K-blocks and Use%): nothing, and it says what it judged', () => {
    const r = interpretText(sample('df-k_apache-2.1.17-diag_sperf.txt'));
    expect(r.kind).toBe('host.df');
    expect(r.findings).toEqual([]);
    expect(r.checked.find((c) => c.rule === 'host.disk.space-low')?.skippedBecause ?? '').toMatch(/1 disk filesystem\(s\), none at the warning level/);
  });

  it('80 % is a warning; only memory filesystems: says so', () => {
    const head = 'Filesystem     1K-blocks    Used Available Use% Mounted on';
    const warn = interpretText(`${head}\n/dev/nvme0n1p1 1000000000 800000000 200000000  80% /var/lib/cassandra\n`);
    expect(warn.findings.map((f) => f.severity)).toEqual(['warning']);
    const mem = interpretText(`${head}\ntmpfs 1000 990 10 99% /run\n`);
    expect(mem.findings).toEqual([]);
    expect(mem.checked[0]?.skippedBecause).toMatch(/no disk filesystem/);
  });

  it('df -h as pasted after a prompt (cassandra-reaper#408): the 94 % data disk is critical, figures read as approximate', () => {
    const text = readFileSync(join(FIXTURES_DIR, 'real-world', 'df_prompt-h-data-disk-94pct-during-repair_reaper408.txt'), 'utf8');
    const r = interpretText(text);
    expect(r.kind).toBe('host.df');
    expect(r.findings.map((f) => [f.id, f.severity, f.title])).toEqual([
      ['host.disk.space-low', 'critical', '/data1 is 94 % full (103 GiB free on /dev/sdb1)'],
    ]);
    expect(r.warnings.join(' ')).toMatch(/rounded .* approximate/);
  });

  it('df -h: a long device name printed alone has its figures on the next line; bytes below 1 KiB have no unit', () => {
    const r = parseDf(
      [
        'Filesystem                         Size  Used Avail Use% Mounted on',
        '/dev/mapper/vg_cassandra-lv_data',
        '                                   2.0T  1.7T  300G  86% /var/lib/cassandra',
        'tmpfs                               512     0   512   0% /run/x',
      ].join('\n'),
    );
    expect(r.ok && r.value).toEqual([
      {
        filesystem: '/dev/mapper/vg_cassandra-lv_data',
        sizeKiB: 2 * 1024 ** 3,
        usedKiB: Math.round(1.7 * 1024 ** 3),
        availKiB: 300 * 1024 ** 2,
        usedPct: 86,
        mount: '/var/lib/cassandra',
      },
      { filesystem: 'tmpfs', sizeKiB: 0.5, usedKiB: 0, availKiB: 0.5, usedPct: 0, mount: '/run/x' },
    ]);
  });
});
