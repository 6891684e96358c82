import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { readOs } from '../../mcp-server/src/collect/storage/read-os.js';
import { heapFromCmdline, parseProcLimits } from '../../mcp-server/src/core/rules/os.js';
import { auditOs } from '../../mcp-server/src/ops/audit-os.js';
import { renderAuditOs } from '../../mcp-server/src/render/audit-os.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const tree = (n: string) => join(FIXTURES_DIR, 'storage', n);

describe('audit_os on recorded trees', () => {
  it('an untuned Cassandra host: every known problem found with the numbers', async () => {
    const r = await auditOs({ root: tree('os-cassandra-untuned'), product: 'cassandra' });
    const by = Object.fromEntries(r.findings.map((f) => [f.id, f]));
    expect(Object.keys(by).sort()).toEqual([
      'os.clock-unsynced',
      'os.clocksource-slow',
      'os.cpu-governor',
      'os.heap-vs-ram',
      'os.max-map-count-low',
      'os.numa-multi-node',
      'os.process-limits',
      'os.swap-enabled',
      'os.tcp-buffers-small',
      'os.tcp-keepalive',
      'os.thp-defrag',
      'os.zone-reclaim',
    ]);
    expect(by['os.swap-enabled']!.title).toMatch(/4096 MiB/);
    expect(by['os.max-map-count-low']!.title).toMatch(/65530 is below 1048575/);
    expect(by['os.process-limits']!.title).toMatch(/java \(pid 4242\).*nofile 4096 < 100000, nproc 4096 < 32768, memlock 65536/);
    expect(by['os.clocksource-slow']!.title).toMatch(/xen although tsc is available/);
    expect(by['os.heap-vs-ram']!.severity).toBe('critical'); // 24 GiB of 31.3 GiB = 77 %
    expect(r.facts.governors).toEqual({ powersave: 8 });
    // Kernel defaults for keepalive (7200/75/9) and buffers (208 KiB, 6 MiB / 4 MiB autotuning ceilings).
    expect(by['os.tcp-keepalive']!.title).toMatch(
      /tcp_keepalive_time 7200 s > 60 s, tcp_keepalive_intvl 75 s > 10 s, tcp_keepalive_probes 9 > 3 \(a dead peer is noticed after 7875 s instead of 90 s\)/,
    );
    expect(by['os.tcp-keepalive']!.knowledgeIds).toEqual(['os.tcp-keepalive', 'os.tcp-keepalive-intvl', 'os.tcp-keepalive-probes']);
    expect(by['os.tcp-buffers-small']!.title).toMatch(
      /net.core.rmem_max 212992 \(208 KiB\) < 16777216, net.core.wmem_max 212992 .*tcp_rmem max 6291456 \(6 MiB\) < 16777216, net.ipv4.tcp_wmem max 4194304 \(4 MiB\) < 16777216/,
    );
    expect(r.facts.tcpRmem).toEqual([4096, 131072, 6291456]);
    // somaxconn/tcp_max_syn_backlog have a ScyllaDB source only: skipped for Cassandra, with the reason.
    expect(r.checked.find((c) => c.rule === 'os:listen-backlog')).toMatchObject({ checked: false, skippedBecause: expect.stringMatching(/only ScyllaDB/) });
    expect(renderAuditOs(r)).not.toMatch(/Not covered yet/);
  });

  it('a ScyllaDB host as scylla_setup leaves it: no findings; Cassandra-only checks skipped with the reason', async () => {
    // The fixture's fs.aio-max-nr was 1048576 until issue #17; the packages set 30000000 since 2021
    // (dist/common/sysctl.d/99-scylla-aio.conf), so a host "as scylla_setup leaves it" has 30000000.
    const r = await auditOs({ root: tree('os-scylla-tuned'), product: 'scylla' });
    expect(r.findings).toEqual([]);
    expect(r.checked.find((c) => c.rule === 'os:max-map-count')).toMatchObject({ checked: false, skippedBecause: expect.stringMatching(/ScyllaDB/) });
    expect(r.checked.find((c) => c.rule === 'os:aio-max-nr')!.checked).toBe(true);
    expect(r.facts.process).toMatchObject({ pid: 1717, command: 'scylla', heapBytes: null });
    // timedatectl is not recorded for this host: chronyc's Leap status answers instead.
    expect(r.facts.timeSynced).toEqual({ synced: true, source: 'chronyc tracking Leap status: Normal' });
  });

  it('a ScyllaDB host whose SYN backlog was never raised (perftune not run): listen backlog flagged, buffers not judged', async () => {
    const root = mkdtempSync(join(tmpdir(), 'os-scylla-backlog-'));
    try {
      cpSync(tree('os-scylla-tuned'), root, { recursive: true });
      writeFileSync(join(root, 'proc/sys/net/ipv4/tcp_max_syn_backlog'), '1024\n');
      const r = await auditOs({ root, product: 'scylla' });
      expect(r.findings.map((f) => f.id)).toEqual(['os.listen-backlog-low']);
      expect(r.findings[0]!.title).toBe("net.ipv4.tcp_max_syn_backlog 1024 below the 4096 that ScyllaDB's perftune.py sets");
      expect(r.checked.find((c) => c.rule === 'os:tcp-buffers')).toMatchObject({ checked: false, skippedBecause: expect.stringMatching(/DataStax/) });
      expect(r.facts.tcpKeepaliveIntvl).toBe(10);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('the same ScyllaDB host audited as Cassandra would flag swap and map count: the product matters', async () => {
    const r = await auditOs({ root: tree('os-scylla-tuned'), product: 'cassandra', pid: 1717 });
    expect(r.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['os.swap-enabled']));
  });

  it('parsers: /proc/PID/limits and -Xmx', () => {
    const l = parseProcLimits(readFileSync(join(tree('os-cassandra-untuned'), 'proc/4242/limits'), 'utf8'));
    expect(l.nofile).toEqual({ soft: 4096, hard: 4096 });
    expect(l.as).toEqual({ soft: 'unlimited', hard: 'unlimited' });
    expect(heapFromCmdline(['java', '-Xmx8g', '-Xmx16G'])).toBe(16 * 1024 ** 3);
  });
});

describe.skipIf(!existsSync('/proc/meminfo'))('audit_os on this machine', () => {
  it('reads the real values (checked against node:fs) and says what it could not read', async () => {
    const f = await readOs(new LocalTarget(), { product: 'cassandra' });
    const read = (p: string) => Number(readFileSync(p, 'utf8').trim());
    expect(f.maxMapCount).toBe(read('/proc/sys/vm/max_map_count'));
    expect(f.swappiness).toBe(read('/proc/sys/vm/swappiness'));
    expect(f.tcpKeepaliveTime).toBe(read('/proc/sys/net/ipv4/tcp_keepalive_time'));
    expect(f.tcpKeepaliveIntvl).toBe(read('/proc/sys/net/ipv4/tcp_keepalive_intvl'));
    expect(f.tcpKeepaliveProbes).toBe(read('/proc/sys/net/ipv4/tcp_keepalive_probes'));
    expect(f.rmemMax).toBe(read('/proc/sys/net/core/rmem_max'));
    expect(f.wmemMax).toBe(read('/proc/sys/net/core/wmem_max'));
    expect(f.somaxconn).toBe(read('/proc/sys/net/core/somaxconn'));
    expect(f.tcpMaxSynBacklog).toBe(read('/proc/sys/net/ipv4/tcp_max_syn_backlog'));
    expect(f.tcpWmem).toEqual(readFileSync('/proc/sys/net/ipv4/tcp_wmem', 'utf8').trim().split(/\s+/).map(Number));
    expect(f.tcpRmem).toEqual(readFileSync('/proc/sys/net/ipv4/tcp_rmem', 'utf8').trim().split(/\s+/).map(Number));
    expect(f.timeSynced !== null || f.unread.some((u) => u.what === 'clock synchronisation')).toBe(true);
    expect(f.memTotalKiB).toBe(Number(/MemTotal:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))![1]));
    if (existsSync('/sys/devices/system/clocksource/clocksource0/current_clocksource')) {
      expect(f.clocksource).toBe(readFileSync('/sys/devices/system/clocksource/clocksource0/current_clocksource', 'utf8').trim());
    }
    // No Cassandra runs here (unless a lab is up): either a process or the reason it is missing.
    expect(f.process !== null || f.unread.some((u) => /process/.test(u.what))).toBe(true);
  });
});
