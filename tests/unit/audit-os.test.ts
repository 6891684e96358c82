import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalTarget } from '../../mcp-server/src/collect/local-target.js';
import { readOs } from '../../mcp-server/src/collect/storage/read-os.js';
import { heapFromCmdline, parseProcLimits } from '../../mcp-server/src/core/rules/os.js';
import { auditOs, renderAuditOs } from '../../mcp-server/src/ops/audit-os.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const tree = (n: string) => join(FIXTURES_DIR, 'storage', n);

describe('audit_os on recorded trees', () => {
  it('an untuned Cassandra host: every known problem found with the numbers', async () => {
    const r = await auditOs({ root: tree('os-cassandra-untuned'), product: 'cassandra' });
    const by = Object.fromEntries(r.findings.map((f) => [f.id, f]));
    expect(Object.keys(by).sort()).toEqual([
      'os.clock-unsynced', 'os.clocksource-slow', 'os.cpu-governor', 'os.heap-vs-ram', 'os.max-map-count-low', 'os.numa-multi-node', 'os.process-limits', 'os.swap-enabled',
      'os.tcp-keepalive', 'os.thp-defrag', 'os.zone-reclaim',
    ]);
    expect(by['os.swap-enabled']!.title).toMatch(/4096 MiB/);
    expect(by['os.max-map-count-low']!.title).toMatch(/65530 is below 1048575/);
    expect(by['os.process-limits']!.title).toMatch(/java \(pid 4242\).*nofile 4096 < 100000, nproc 4096 < 32768, memlock 65536/);
    expect(by['os.clocksource-slow']!.title).toMatch(/xen although tsc is available/);
    expect(by['os.heap-vs-ram']!.severity).toBe('critical'); // 24 GiB of 31.3 GiB = 77 %
    expect(r.facts.governors).toEqual({ powersave: 8 });
    expect(renderAuditOs(r)).toMatch(/Not covered yet: TCP buffer/);
  });

  it('a ScyllaDB host as scylla_setup leaves it: no findings; Cassandra-only checks skipped with the reason', async () => {
    const r = await auditOs({ root: tree('os-scylla-tuned'), product: 'scylla' });
    expect(r.findings).toEqual([]);
    expect(r.checked.find((c) => c.rule === 'os:max-map-count')).toMatchObject({ checked: false, skippedBecause: expect.stringMatching(/ScyllaDB/) });
    expect(r.checked.find((c) => c.rule === 'os:aio-max-nr')!.checked).toBe(true);
    expect(r.facts.process).toMatchObject({ pid: 1717, command: 'scylla', heapBytes: null });
    // timedatectl is not recorded for this host: chronyc's Leap status answers instead.
    expect(r.facts.timeSynced).toEqual({ synced: true, source: 'chronyc tracking Leap status: Normal' });
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
    expect(f.timeSynced !== null || f.unread.some((u) => u.what === 'clock synchronisation')).toBe(true);
    expect(f.memTotalKiB).toBe(Number(/MemTotal:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))![1]));
    if (existsSync('/sys/devices/system/clocksource/clocksource0/current_clocksource')) {
      expect(f.clocksource).toBe(readFileSync('/sys/devices/system/clocksource/clocksource0/current_clocksource', 'utf8').trim());
    }
    // No Cassandra runs here (unless a lab is up): either a process or the reason it is missing.
    expect(f.process !== null || f.unread.some((u) => /process/.test(u.what))).toBe(true);
  });
});
