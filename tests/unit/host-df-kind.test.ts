/**
 * A pasted df (tests/fixtures/host-df, SOURCES.tsv): the lab's disk-near-full incident output and a real diag's
 * healthy df. Memory and pseudo filesystems are never judged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
