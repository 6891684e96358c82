import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseIostat, parseMpstat, parseSar, parseVmstat } from '../../mcp-server/src/core/parse/host/index.js';
import type { Iostat, Mpstat, Sar, Vmstat } from '../../mcp-server/src/core/parse/host/index.js';

// Real outputs (tests/fixtures/host/SOURCES.tsv): sperf's test data and pastes from public issues.
const fx = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'host', name), 'utf8');
function ok<T>(r: { ok: boolean; value?: unknown; reason?: string }): T {
  if (!r.ok) throw new Error(`not parsed: ${r.reason}`);
  return r.value as T;
}

describe('iostat parser', () => {
  it('reads sysstat 11.x reports with -t stamps and labels the first one (under the banner) as since boot', () => {
    const v = ok<Iostat>(parseIostat(fx('iostat_sysstat11-nvme-10reports-healthy_sperf.txt')));
    expect(v.layout).toBe('sysstat-11');
    expect(v.banner).toMatchObject({ kernel: '4.19.0-4-amd64', host: 'kovacs', cpus: 8, line: 1 });
    expect(v.reports).toHaveLength(10);
    expect(v.reports.map((r) => r.sinceBoot)).toEqual([true, ...Array(9).fill(false)]);
    expect(v.reports[0]!.timestamp).toBe('06/06/2019 11:44:01 AM');
    const first = v.reports[0]!.devices[0]!;
    expect(first).toMatchObject({ device: 'nvme0n1', readsPerS: 9.57, writesPerS: 21.87, readKBps: 493.98 });
    expect(first).toMatchObject({ readAwaitMs: 0.7, writeAwaitMs: 0.87, queueSize: 0.24, utilPct: 22.45 });
    expect(v.reports[2]!.devices[0]).toMatchObject({ writesPerS: 1, writeAwaitMs: 9 });
    expect(v.reports[0]!.cpu).toMatchObject({ user: 4.39, iowait: 0.12, steal: 0, idle: 93.55 });
  });

  it('reads the 10.x layout: sizes in sectors become KiB, rMB/s becomes kB/s, await kept as printed', () => {
    const v = ok<Iostat>(parseIostat(fx('iostat_sysstat10-iotune-overload-hdd_seastar593.txt')));
    expect(v.layout).toBe('sysstat-10');
    const sdb = v.reports[0]!.devices.find((d) => d.device === 'sdb')!;
    expect(sdb).toMatchObject({ readsPerS: 2147.5, readKBps: 1073.75 * 1024, reqKB: 1021.1 / 2 });
    expect(sdb).toMatchObject({ queueSize: 130.61, awaitMs: 60.62, readAwaitMs: 60.81, utilPct: 100 });
    expect(v.reports[0]!.devices.map((d) => d.device)).toEqual(['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'dm-0', 'dm-1', 'dm-2']);
    // One report, no banner: cannot tell whether it is since boot.
    expect(v.reports[0]!.sinceBoot).toBeNull();
    expect(v.sinceBootNote).toMatch(/single report without the banner/);
  });

  it('reads the 12.x layout with discard/flush columns and derives await from r/w', () => {
    const v = ok<Iostat>(parseIostat(fx('iostat_sysstat12-gce-ubuntu-md1_scylla7341.txt')));
    expect(v.layout).toBe('sysstat-12');
    const n1 = v.reports[0]!.devices.find((d) => d.device === 'nvme0n1')!;
    expect(n1).toMatchObject({ readsPerS: 174, writesPerS: 367, discardsPerS: 0, writeAwaitMs: 1.87, queueSize: 0.56, utilPct: 84 });
    expect(n1.awaitMs).toBeCloseTo((174 * 0.3 + 367 * 1.87) / (174 + 367), 6);
    expect(v.reports[0]!.cpu).toMatchObject({ user: 60.83, system: 30.6, idle: 8.57 });
  });

  it('does not call the first report since boot when the paste starts inside a report', () => {
    // stress-ng#148: a device row without its header comes first, then three full reports.
    const v = ok<Iostat>(parseIostat(fx('iostat_sysstat12-large-writes-util100_stressng148.txt')));
    expect(v.reports).toHaveLength(3);
    expect(v.reports.map((r) => r.sinceBoot)).toEqual([false, false, false]);
    expect(v.reports[0]!.devices[0]).toMatchObject({ device: 'sdb', writesPerS: 156, writeKBps: 182784, writeAwaitMs: 40.08, queueSize: 6.25 });
  });

  it('labels report 1 of several as since boot when the paste starts where reports start (no banner)', () => {
    const text = fx('iostat_sysstat12-large-writes-util100_stressng148.txt').split('\n').slice(4).join('\n');
    const v = ok<Iostat>(parseIostat(text));
    expect(v.reports.map((r) => r.sinceBoot)).toEqual([true, false, false]);
  });

  it('refuses text without avg-cpu or device rows', () => {
    expect(parseIostat('Device  r/s  w/s\n').ok).toBe(false);
    expect(parseIostat('hello').ok).toBe(false);
  });
});

describe('vmstat parser', () => {
  it('labels the first row since boot and reads a collector time column', () => {
    const v = ok<Vmstat>(parseVmstat(fx('vmstat-t-collector_run-queue-51_exawatcher34.txt')));
    expect(v.rows).toHaveLength(10);
    expect(v.rows[0]).toMatchObject({ sinceBoot: true, time: '19:17:37', running: 51, blocked: 0, swpd: 4528 });
    expect(v.rows[2]).toMatchObject({ sinceBoot: false, time: '19:17:47', running: 47, blocked: 7, blocksOutPerS: 138342 });
    expect(v.rows[2]!.cpu).toMatchObject({ user: 51, system: 6, idle: 42, iowait: 1, steal: 0 });
  });

  it('treats a header repeated after one row as a second vmstat run (-a, then plain)', () => {
    const v = ok<Vmstat>(parseVmstat(fx('vmstat-a_since-boot_sensu22.txt')));
    expect(v.rows.map((r) => r.sinceBoot)).toEqual([true, true]);
    expect(v.rows[0]!.values).toMatchObject({ inact: 1187024, active: 257972 });
    expect(v.rows[1]!.values).toMatchObject({ buff: 11092, cache: 1087072 });
  });

  it('reads -t time stamps at the end of the row', () => {
    const text = [
      'procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----',
      ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC',
      ' 1  0      0 1000 2000 3000    0    0     1     2   10   20  1  1 98  0  0 2024-01-01 10:00:00',
      ' 3  1      0 1000 2000 3000   12    0     1     2   10   20  5  1 90  4  0 2024-01-01 10:00:01',
    ].join('\n');
    const v = ok<Vmstat>(parseVmstat(text));
    expect(v.timestamped).toBe(true);
    expect(v.rows[1]).toMatchObject({ time: '2024-01-01 10:00:01', swapInPerS: 12, sinceBoot: false });
  });

  it('reads rows pasted above a cut header with the default columns (scylladb/scylladb#632), and says so', () => {
    const v = ok<Vmstat>(parseVmstat(fx('../real-world/vmstat_nvme-discard-writes-drop-to-zero-cut_scylla632.txt')));
    expect(v.columns).toEqual(['r', 'b', 'swpd', 'free', 'buff', 'cache', 'si', 'so', 'bi', 'bo', 'in', 'cs', 'us', 'sy', 'id', 'wa', 'st']);
    expect(v.rows).toHaveLength(14);
    expect(v.rows.every((r) => !r.sinceBoot)).toBe(true);
    expect(v.rows[0]).toMatchObject({ line: 1, running: 4, blocked: 0, blocksOutPerS: 323494 });
    expect(v.rows[13]).toMatchObject({ line: 14, running: 3, blocked: 1, blocksOutPerS: 0 });
    const r = parseVmstat(fx('../real-world/vmstat_nvme-discard-writes-drop-to-zero-cut_scylla632.txt'));
    expect(r.ok && r.warnings.join()).toMatch(/no complete column header: the 14 rows were read with vmstat's default columns/);
  });

  it('rows above a full header take that header; numbers alone without any vmstat line are not vmstat', () => {
    const rows = [
      ' 1  0      0 1000 2000 3000    0    0     1     2   10   20  1  1 98  0  0',
      ' 2  1      0 1000 2000 3000    0    0     5     0   10   20  1  1 90  8  0',
    ];
    const full = ' r  b   swpd   free  inact active   si   so    bi    bo   in   cs us sy id wa st';
    const v = ok<Vmstat>(parseVmstat([...rows, full, rows[0]!].join('\n')));
    expect(ok<Vmstat>(parseVmstat([...rows, full].join('\n'))).rows).toHaveLength(2); // the header last
    expect(v.rows.map((r) => [r.line, r.sinceBoot, r.values.inact ?? null])).toEqual([
      [1, false, 2000],
      [2, false, 2000],
      [4, true, 2000],
    ]);
    expect(parseVmstat(rows.join('\n')).ok).toBe(false);
    // a screenful of rows above the header: the header is vmstat's repeat, the row under it a live sample
    const screen = Array.from({ length: 10 }, (_, k) => rows[k % 2]!);
    const s = ok<Vmstat>(parseVmstat([...screen, full, rows[0]!].join('\n')));
    expect(s.rows.map((r) => [r.line, r.sinceBoot])).toEqual([...screen.map((_, k) => [k + 1, false]), [12, false]]);
    // nine rows are not a screenful: ambiguous, kept as a new run whose first row is since boot
    const nine = ok<Vmstat>(parseVmstat([...screen.slice(0, 9), full, rows[0]!].join('\n')));
    expect(nine.rows.at(-1)).toMatchObject({ line: 11, sinceBoot: true });
    // a cut header in -a layout names inact/active
    const cut = ok<Vmstat>(parseVmstat([...rows, 'procs -----------memory---------- ---swap--', ' r  b   swpd   free  inact ac'].join('\n')));
    expect(cut.columns.slice(4, 6)).toEqual(['inact', 'active']);
  });
});

describe('sar and mpstat parsers', () => {
  it('reads sar -u rows and skips the "..." elision', () => {
    const v = ok<Sar>(parseSar(fx('sar-u_cassandra-iowait-steal_cassandra-exporter131.txt')));
    expect(v.sections).toHaveLength(1);
    expect(v.sections[0]).toMatchObject({ kind: 'cpu', keyColumn: 'CPU' });
    expect(v.sections[0]!.rows).toHaveLength(12);
    expect(v.sections[0]!.rows[0]).toMatchObject({ time: '06:05:03 AM', key: 'all', values: { '%iowait': 7.63, '%steal': 0.88, '%idle': 49.93 } });
  });

  it('reads sar -B paging rows', () => {
    const v = ok<Sar>(parseSar(fx('sar-B_vmeff-over-100_sysstat343.txt')));
    expect(v.sections[0]).toMatchObject({ kind: 'paging', keyColumn: null });
    expect(v.sections[0]!.rows[1]!.values).toMatchObject({ 'majflt/s': 0, '%vmeff': 200 });
  });

  it('reads sar -d with an Average: block in the old (sectors) layout', () => {
    const text = [
      'Linux 3.10.0 (db1) \t01/02/2020 \t_x86_64_\t(16 CPU)',
      '',
      '10:00:01 AM       DEV       tps  rd_sec/s  wr_sec/s  avgrq-sz  avgqu-sz     await     svctm     %util',
      '10:10:01 AM  dev8-16    812.00  12000.00   4000.00     19.70      9.10     11.20      1.20     97.40',
      'Average:     dev8-16    812.00  12000.00   4000.00     19.70      9.10     11.20      1.20     97.40',
    ].join('\n');
    const v = ok<Sar>(parseSar(text));
    expect(v.banner?.cpus).toBe(16);
    expect(v.sections[0]).toMatchObject({ kind: 'disk', keyColumn: 'DEV' });
    expect(v.sections[0]!.rows.map((r) => r.time)).toEqual(['10:10:01 AM', 'Average']);
  });

  it('reads mpstat -P ALL and tells an interval run from a since-boot report', () => {
    const p = ok<Mpstat>(parseMpstat(fx('mpstat-P-ALL_one-core-hot_naarad188.txt')));
    expect(p.sections[0]!.rows).toHaveLength(11);
    expect(p.sections[0]!.rows.find((r) => r.key === '7')!.values).toMatchObject({ '%usr': 58, '%idle': 37.5 });
    expect(p.sinceBoot).toBeNull();
    const b = ok<Mpstat>(parseMpstat(fx('mpstat_since-boot-single-report_insights-core2144.txt')));
    expect(b.banner).toMatchObject({ host: 'ahost.redhat.com', cpus: 24 });
    expect(b.sinceBoot).toBe(true);
  });

  it('leaves sar -u (named %user/%system) to the sar kind', () => {
    expect(parseMpstat(fx('sar-u_cassandra-iowait-steal_cassandra-exporter131.txt')).ok).toBe(false);
  });
});

describe('detection', () => {
  const cases: [string, string][] = [
    ['iostat_sysstat10-ssd-util100-await041_scylla1751.txt', 'host.iostat'],
    ['iostat_sysstat11-rMB-loops-dse68_sperf.txt', 'host.iostat'],
    ['iostat_sysstat12-gce-ubuntu-md1_scylla7341.txt', 'host.iostat'],
    ['vmstat_since-boot-only-wa70_tong-hao51.txt', 'host.vmstat'],
    ['vmstat-t-collector_run-queue-51_exawatcher34.txt', 'host.vmstat'],
    // sar -u ALL prints %steal before %irq, mpstat after %soft: the column order tells them apart.
    ['sar-u-all_idle-host_sysusage6.txt', 'host.sar'],
    ['sar-u_cassandra-iowait-steal_cassandra-exporter131.txt', 'host.sar'],
    ['sar-B_vmeff-over-100_sysstat343.txt', 'host.sar'],
    ['mpstat-P-ALL_one-core-hot_naarad188.txt', 'host.mpstat'],
  ];
  it.each(cases)('%s is %s', (file, kind) => {
    expect(detect(fx(file))).toMatchObject({ ok: true, kind });
  });
});

describe('host fixtures provenance', () => {
  it('every fixture has one SOURCES.tsv row with an https URL and a conclusion', async () => {
    const { readdirSync } = await import('node:fs');
    const dir = join(__dirname, '..', 'fixtures', 'host');
    const lines = readFileSync(join(dir, 'SOURCES.tsv'), 'utf8').trim().split('\n');
    expect(lines[0]).toBe('file\turl\tconclusion');
    const rows = lines.slice(1).map((l) => l.split('\t'));
    for (const r of rows) {
      expect(r, r[0]).toHaveLength(3);
      expect(new URL(r[1]!).protocol).toBe('https:');
      expect(r[2]!.length).toBeGreaterThan(20);
    }
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.txt'))
      .sort();
    expect(rows.map((r) => r[0]).sort()).toEqual(files);
  });
});
