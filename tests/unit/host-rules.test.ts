import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { kindRulesFor } from '../../mcp-server/src/core/rules/per-kind.js';
import { deviceClass } from '../../mcp-server/src/core/rules/host.js';

const fx = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'host', name), 'utf8');

/** detect → the registered per-kind rules, as `interpret` runs them. */
function run(text: string) {
  const d = detect(text);
  if (!d.ok) throw new Error(`not detected: ${d.reason}`);
  const rules = kindRulesFor(d.kind);
  if (!rules) throw new Error(`no rules registered for ${d.kind}`);
  const outcomes = rules.run(d.kind, d.parsed.value);
  const findings: Finding[] = outcomes.flatMap((o) => o.findings);
  return { kind: d.kind, outcomes, findings, ids: findings.map((f) => f.id) };
}
const alarming = (fs: Finding[]) => fs.filter((f) => f.severity !== 'info');

// sperf's own iostat test data (datastax-labs/sperf tests/testdata/iostat and busy-iostat @b3f66da, Apache-2.0), and the
// figures `sperf sysbottle` printed for them in this project's bench (same files, sperf at that commit).
describe("sperf's bottleneck time, figure for figure", () => {
  it('busy-iostat: 60.00 % bottleneck (CPU 30.00 %, iowait 30.00 %), nvme0n1 20.00 % at queue depth ≥ 1, as sperf counts it', () => {
    const f = run(fx('iostat_sysstat11-iowait90-busy_sperf.txt')).findings.find((x) => x.id === 'host.bottleneck-time')!;
    expect(f.severity).toBe('info');
    // the current intervals only (the since-boot first report is not current)...
    expect(f.title).toBe('Bottleneck time 55.56 % of 9 interval(s): CPU-bound 33.33 %, iowait over 5 % 22.22 %');
    // ...and sperf's own count, since-boot report included
    expect(f.evidence).toContain(
      'as sperf sysbottle counts it (the since-boot report too, 10 records): bottleneck 60.00 %, CPU 30.00 %, iowait 30.00 %; ' +
        'queue depth ≥ 1: nvme0n1 20.00 % (2 of 10)',
    );
    expect(f.knowledgeIds).toEqual(['host.cpu.bottleneck-busy', 'host.cpu.iowait', 'host.disk.queue-min']);
  });

  it('iostat (healthy): 0.00 % everywhere, and the recommendation says the node is not short of CPU or disk', () => {
    const f = run(fx('iostat_sysstat11-nvme-10reports-healthy_sperf.txt')).findings.find((x) => x.id === 'host.bottleneck-time')!;
    expect(f.title).toBe('Bottleneck time 0.00 % of 9 interval(s): CPU-bound 0.00 %, iowait over 5 % 0.00 %');
    expect(f.evidence.join('\n')).toContain('10 records): bottleneck 0.00 %, CPU 0.00 %, iowait 0.00 %; queue depth ≥ 1: nvme0n1 0.00 % (0 of 10)');
    expect(f.recommendation).toMatch(/not short of CPU or waiting on its disks/);
  });
});

describe('host disk rules on real iostat output', () => {
  it('scylladb#1751: 100 %util at 0.41 ms on an SSD doing 56k reads/s is not saturation', () => {
    const r = run(fx('iostat_sysstat10-ssd-util100-await041_scylla1751.txt'));
    expect(r.kind).toBe('host.iostat');
    expect(alarming(r.findings)).toEqual([]);
    const f = r.findings.find((x) => x.id === 'host.disk.util-not-saturation')!;
    expect(f.severity).toBe('info');
    expect(f.evidence[0]).toMatch(/^sdb iostat report 1, line 5: 56791.50 r\/s .*r_await 0.41 ms.*aqu-sz 23.31.*%util 100.05/);
    // a single report without the banner may be since boot: said, and confidence lowered
    expect(f.evidence.join('\n')).toMatch(/single report without the banner/);
    expect(f.confidence).toBe('medium');
  });

  it('scylladb#3078: a queue of 128 with nothing completing is a stuck device, iowait only information', () => {
    const r = run(fx('iostat_sysstat10-virtio-stuck-queue_scylla3078.txt'));
    const stuck = r.findings.find((x) => x.id === 'host.disk.stuck-queue')!;
    expect(stuck.severity).toBe('critical');
    expect(stuck.title).toMatch(/^vda: I\/O is not completing — 128 requests queued, %util 100/);
    const io = r.findings.find((x) => x.id === 'host.cpu.iowait')!;
    expect(io.severity).toBe('info');
    expect(r.ids).not.toContain('host.disk.saturated');
  });

  it('seastar#593: sdb–sdf at 100 %util, queues of 43–132 and 21–62 ms are saturated; sda and dm-* are not', () => {
    const r = run(fx('iostat_sysstat10-iotune-overload-hdd_seastar593.txt'));
    const sat = r.findings.filter((x) => x.id === 'host.disk.saturated');
    expect(sat).toHaveLength(1);
    expect(sat[0]!.title).toMatch(/^sde is saturated: r_await up to 61.53 ms with aqu-sz 132.35 and %util 100/);
    expect(sat[0]!.title).toMatch(/and 4 more devices: sdb, sdf, sdc, sdd/);
    expect(sat[0]!.evidence.join('\n')).not.toMatch(/\bsda\b|dm-/);
  });

  it('scylladb#7341: NVMe writes at 5.1–5.4 ms at ~170 IO/s are slow at low load; 4.7 ms and md0 are not flagged', () => {
    const r = run(fx('iostat_sysstat11-gce-local-nvme-w_await_scylla7341.txt'));
    const slow = r.findings.find((x) => x.id === 'host.disk.slow-at-low-load')!;
    expect(slow.severity).toBe('warning');
    expect(slow.title).toMatch(/^nvme0n4: w_await 5.44 ms at only 175 IO\/s/);
    expect(slow.title).toMatch(/nvme0n3, nvme0n6, nvme0n5/);
    expect(slow.title).not.toMatch(/nvme0n1|nvme0n2|md0/);
    expect(r.ids).not.toContain('host.disk.util-not-saturation'); // md0 at 8.65 ms is not "fast"
  });

  it('sperf iostat: the since-boot report is left out; an idle NVMe writing 1/s at 8–9 ms is not a finding', () => {
    const r = run(fx('iostat_sysstat11-nvme-10reports-healthy_sperf.txt'));
    // only sperf's bottleneck-time summary, as information
    expect(r.findings.map((f) => `${f.id} ${f.severity}`)).toEqual(['host.bottleneck-time info']);
    const latency = r.outcomes.find((o) => o.rule === 'host.disk.latency')!;
    expect(latency.checked).toBe(true);
  });

  it('iostat -x without an interval (banner + one report) is since boot: nothing graded, one information finding', () => {
    // The head of sperf's busy-iostat: its first report under the banner.
    const head = fx('iostat_sysstat11-iowait90-busy_sperf.txt').split('\n').slice(0, 8).join('\n');
    const r = run(head);
    expect(r.ids).toEqual(['host.since-boot-only']);
    expect(r.findings[0]!.evidence).toEqual([
      'iostat report 1 (06/06/2019 11:44:01 AM), since boot, line 3',
      expect.stringMatching(/follows the "Linux … \(kovacs\)" banner/),
    ]);
    const latency = r.outcomes.find((o) => o.rule === 'host.disk.latency');
    expect(latency).toMatchObject({ checked: false, skippedBecause: 'only since-boot device numbers in the paste' });
  });

  it('sperf busy-iostat: 90 % iowait next to a 1.2 s write, and a CPU-bound report', () => {
    const r = run(fx('iostat_sysstat11-iowait90-busy_sperf.txt'));
    const slow = r.findings.find((x) => x.id === 'host.disk.slow-at-low-load')!;
    expect(slow.severity).toBe('critical');
    expect(slow.title).toMatch(/w_await 1200 ms/);
    const io = r.findings.find((x) => x.id === 'host.cpu.iowait')!;
    expect(io.severity).toBe('info');
    expect(io.evidence.join('\n')).toMatch(/slow device\(s\) in the same paste: nvme0n1/);
    expect(r.findings.find((x) => x.id === 'host.cpu.busy')!.title).toMatch(/idle \+ iowait ≤ 10 % in 4 of 9 interval\(s\) \(lowest 7.36 %\)/);
  });

  it('sysstat#187: NVMe at 100 %util and 0.10 ms is information, never a warning', () => {
    const r = run(fx('iostat_sysstat12-nvme-util100-low-await_sysstat187.txt'));
    expect(alarming(r.findings)).toEqual([]);
    expect(r.ids).toEqual(['host.disk.util-not-saturation']);
  });

  it('stress-ng#148: 1 MiB writes at 178 MB/s, 40 ms and a queue of 6 saturate sdb', () => {
    const r = run(fx('iostat_sysstat12-large-writes-util100_stressng148.txt'));
    const sat = r.findings.find((x) => x.id === 'host.disk.saturated')!;
    expect(sat.title).toMatch(/^sdb is saturated: w_await up to 40.08 ms with aqu-sz 6.25 and %util 100 at 156 IO\/s, 178.50 MB\/s/);
    expect(sat.evidence.join('\n')).toMatch(/Little's law on sdb: 156 IO\/s × 0.04 s ≈ 6.25 requests in flight/);
  });

  it('names device classes from iostat names', () => {
    const names = ['nvme0n1', 'nvme0c0n1', 'md0', 'dm-3', 'xvdb', 'vda', 'sdb', 'rbd0'];
    expect(names.map(deviceClass)).toEqual(['nvme', 'nvme', 'stacked', 'stacked', 'virtual', 'virtual', 'scsi', 'other']);
  });
});

describe('host CPU and memory rules', () => {
  it('sar -u on a Cassandra node: iowait 6–8 % is reported as information only', () => {
    const r = run(fx('sar-u_cassandra-iowait-steal_cassandra-exporter131.txt'));
    expect(r.ids).toEqual(['host.cpu.iowait']);
    expect(r.findings[0]!.title).toMatch(/^iowait up to 7.77 % \(4 of 12 interval\(s\)\)/);
    expect(r.findings[0]!.evidence.join('\n')).toMatch(/no device rows in this paste/);
  });

  it('GCE Ubuntu node at 8.57 % idle is CPU-bound, with the ScyllaDB polling caveat', () => {
    const r = run(fx('iostat_sysstat12-gce-ubuntu-md1_scylla7341.txt'));
    const busy = r.findings.find((x) => x.id === 'host.cpu.busy')!;
    expect(busy.recommendation).toMatch(/ScyllaDB, reactor threads poll/);
    expect(busy.knowledgeIds).toContain('host.cpu.scylla-polling');
  });

  it('vmstat: only the since-boot row → one information finding and nothing graded', () => {
    const r = run(fx('vmstat_since-boot-only-wa70_tong-hao51.txt'));
    expect(r.ids).toEqual(['host.since-boot-only']);
    expect(r.findings[0]!.recommendation).toMatch(/vmstat -w -t 1 30/);
  });

  it('vmstat without a CPU count does not judge the run queue', () => {
    const r = run(fx('vmstat-t-collector_run-queue-51_exawatcher34.txt'));
    expect(r.findings).toEqual([]);
    const rq = r.outcomes.find((o) => o.rule === 'host.cpu.run-queue')!;
    expect(rq).toMatchObject({ checked: false, skippedBecause: expect.stringMatching(/number of CPUs is unknown/) });
  });

  it('vmstat swapping after the since-boot row is a warning citing the rows', () => {
    const text = [
      'procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----',
      ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st',
      ' 1  0  40000 100000  2000 300000  900  900     1     2   10   20  1  1 98  0  0',
      ' 2  1  41000  90000  2000 300000    0  512     1     2   10   20  5  1 90  4  0',
      ' 2  1  41000  90000  2000 300000   64    0     1     2   10   20  5  1 90  4  0',
    ].join('\n');
    const r = run(text);
    const sw = r.findings.find((x) => x.id === 'host.memory.swapping')!;
    expect(sw.title).toMatch(/64 KiB\/s in and 512 KiB\/s out summed over 2 sample/);
    expect(sw.evidence.join('\n')).not.toMatch(/row 1\b/);
  });

  it('vmstat: writes that fall to nothing while a task stays blocked are an I/O stall (scylladb/scylladb#632)', () => {
    const text = readFileSync(join(__dirname, '..', 'fixtures', 'real-world', 'vmstat_nvme-discard-writes-drop-to-zero-cut_scylla632.txt'), 'utf8');
    const f = run(text).findings.find((x) => x.id === 'host.io-stall')!;
    expect(f.severity).toBe('critical');
    expect(f.title).toBe(
      'Block I/O stalled: writes fell from 327306 KiB/s (320 MiB/s) to 0 while 1 task(s) stayed blocked, for 3 samples (still stalled at the end of the paste)',
    );
    expect(f.evidence[0]).toBe('vmstat row 8, line 8: 0 KiB/s in, 327306 KiB/s out, b 0');
    expect(f.recommendation).toMatch(/discard/);
    expect(f.knowledgeIds).toEqual(['host.vmstat.io-stall']);
  });

  it('vmstat: I/O that stops with nothing blocked, for one sample only, or from a low rate is not a stall', () => {
    const head = [' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st', ' 1  0  0 100000 2000 300000 0 0 1 2 10 20 1 1 98 0 0'];
    const row = (b: number, bo: number) => ` 1  ${b}  0 100000 2000 300000 0 0 0 ${bo} 10 20 1 1 98 0 0`;
    const ids = (rows: string[]) => run([...head, ...rows].join('\n')).ids;
    expect(ids([row(0, 300000), row(1, 0), row(1, 0)])).toContain('host.io-stall'); // the positive control
    expect(ids([row(0, 300000), row(0, 0), row(0, 0)])).not.toContain('host.io-stall'); // the host went quiet
    expect(ids([row(0, 300000), row(1, 0), row(0, 280000)])).not.toContain('host.io-stall'); // one sample
    expect(ids([row(0, 9000), row(1, 0), row(1, 0)])).not.toContain('host.io-stall'); // under 10 MiB/s before
    expect(ids([row(0, 300000), row(1, 20000), row(1, 20000)])).not.toContain('host.io-stall'); // slower, not stopped
  });

  it('mpstat -P ALL: one CPU saturated by softirqs while the host idles', () => {
    const text = [
      'Linux 5.15.0 (node1) \t01/02/2024 \t_x86_64_\t(4 CPU)',
      '',
      '10:00:01 AM  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle',
      '10:00:02 AM  all    3.00    0.00    2.00    0.00    0.00   24.00    0.00    0.00    0.00   71.00',
      '10:00:02 AM    0    2.00    0.00    2.00    0.00    0.00   95.00    0.00    0.00    0.00    1.00',
      '10:00:02 AM    1    4.00    0.00    2.00    0.00    0.00    0.00    0.00    0.00    0.00   94.00',
      '10:00:02 AM    2    3.00    0.00    2.00    0.00    0.00    0.00    0.00    0.00    0.00   95.00',
      '10:00:02 AM    3    3.00    0.00    2.00    0.00    0.00    1.00    0.00    0.00    0.00   94.00',
      '',
      'Average:     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle',
      'Average:     all    3.00    0.00    2.00    0.00    0.00   24.00    0.00    0.00    0.00   71.00',
    ].join('\n');
    const r = run(text);
    expect(r.kind).toBe('host.mpstat');
    const hot = r.findings.find((x) => x.id === 'host.cpu.single-core-hot')!;
    expect(hot.title).toMatch(/^CPU 0 is 99 % busy while the host is mostly idle — 95 % of it interrupts\/softirqs/);
  });

  it('sar -q with the banner: run queue against the CPU count', () => {
    const text = [
      'Linux 5.15.0 (node1) \t01/02/2024 \t_x86_64_\t(4 CPU)',
      '',
      '10:00:01 AM   runq-sz  plist-sz   ldavg-1   ldavg-5  ldavg-15   blocked',
      '10:10:01 AM        14       900     12.10      9.80      7.00         0',
      '10:20:01 AM         3       900      4.10      6.80      7.00         0',
    ].join('\n');
    const r = run(text);
    expect(r.kind).toBe('host.sar');
    const rq = r.findings.find((x) => x.id === 'host.cpu.run-queue')!;
    expect(rq).toMatchObject({ severity: 'critical', title: expect.stringMatching(/^Run queue 14 on 4 CPUs \(3.50 per CPU\) in 1 of 2 sample/) });
  });

  it('sar -W swap pages and sar -B major faults with the %vmeff artefact', () => {
    const text = [
      '10:00:01 AM  pswpin/s pswpout/s',
      '10:10:01 AM     25.00      0.00',
      '',
      '10:00:01 AM  pgpgin/s pgpgout/s   fault/s  majflt/s  pgfree/s pgscank/s pgscand/s pgsteal/s    %vmeff',
      '10:10:01 AM   8000.00     95.00   6422.00    450.00   9790.00      0.00    141.00    274.00    194.33',
    ].join('\n');
    const r = run(text);
    expect(r.findings.find((x) => x.id === 'host.memory.swapping')!.title).toMatch(/100 KiB\/s in/);
    const mj = r.findings.find((x) => x.id === 'host.memory.major-faults')!;
    expect(mj.severity).toBe('info');
    expect(mj.evidence.join('\n')).toMatch(/%vmeff above 100 \(194.33\) is a counting artefact/);
  });
});
