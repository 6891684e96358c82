/**
 * scylla-doctor's vitals (tests/fixtures/scylla-doctor-vitals, SOURCES.tsv): a real `--save-vitals` run of
 * scylla-doctor 1.14 on a host without ScyllaDB, read to its figures; each rule's edges on copies of it with one
 * collector's entry changed, as scylla-doctor would have written it on a ScyllaDB node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseScyllaDoctorVitals, type ScyllaDoctorVitals } from '../../mcp-server/src/core/kinds/scylla-doctor-vitals/parse.js';
import { numberOf } from '../../mcp-server/src/core/knowledge/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

const REAL = readFileSync(join(FIXTURES_DIR, 'scylla-doctor-vitals', 'vitals_sd-1.14_debian12-docker-no-scylla_local.json'), 'utf8');

type Entry = { status: number; data: unknown; message: string; mask: unknown[] };
const passed = (data: unknown, message = 'Data collected'): Entry => ({ status: 0, data, message, mask: [] });

/** The real file with some collectors' entries replaced (or added), re-serialised as scylla-doctor does: one line. */
function vitals(changes: Record<string, Entry> = {}, edit?: (v: Record<string, Entry>) => void): string {
  const v = JSON.parse(REAL) as Record<string, Entry>;
  Object.assign(v, changes);
  edit?.(v);
  return JSON.stringify(v);
}

function value(text: string): ScyllaDoctorVitals {
  const p = parseScyllaDoctorVitals(text);
  if (!p.ok) throw new Error(p.reason);
  return p.value;
}

const judged = (text: string) => {
  const r = interpretText(text);
  expect(r.kind).toBe('scylla-doctor.vitals');
  return r;
};
const ids = (text: string) => judged(text).findings.map((f) => [f.id, f.severity]);
const skipOf = (text: string, rule: string) => judged(text).checked.find((c) => c.rule === rule)?.skippedBecause;

const storage = (filesystem: string, sizeKiB: number, disks: string[] = []) =>
  passed({
    data_file_directories: {
      '/var/lib/scylla/data': {
        devices: { nvme: disks, non_nvme: [] },
        filesystem,
        mountpoint: '/var/lib/scylla',
        mount_options: ['rw', 'noatime'],
        storage_size_kb: sizeKiB,
        free_storage_size_kb: sizeKiB / 2,
      },
    },
    commitlog_directories: {},
  });

describe('the real vitals (scylla-doctor 1.14, Debian 12 container, no ScyllaDB)', () => {
  it('reads its figures', () => {
    const v = value(REAL);
    expect(v.sdVersion).toBe('1.14');
    expect(v.collectors).toHaveLength(74);
    expect(['passed', 'failed', 'skipped'].map((s) => v.collectors.filter((c) => c.status === s).length)).toEqual([22, 47, 5]);
    expect(v.collectors[0]).toEqual({ name: 'CPUScalingCollector', status: 'passed', message: 'Data collected' });
    expect(v).toMatchObject({
      clocksource: 'tsc',
      logicalCores: 2,
      scalingGovernor: null,
      memTotalKiB: 24684092,
      swapTotalKiB: 0,
      aioMaxNr: 65536,
      fileMax: 2466186,
      nrOpen: 1048576,
      ntp: null,
      chrony: null,
      limitNofile: null,
      hypervisor: 'docker',
      platform: null,
      os: { name: 'debian', version: '12' },
      kernel: '6.18.44-fc-v657',
      architecture: 'x86_64',
      scyllaVersion: null,
      scyllaD: null,
      sysconfig: null,
      storage: null,
      raid: null,
    });
  });

  it('is detected as vitals, and judged: AIO short for 2 shards (warning), the collection gaps (info)', () => {
    expect(detect(REAL)).toMatchObject({ ok: true, kind: 'scylla-doctor.vitals' });
    const r = judged(REAL);
    expect(r.findings.map((f) => [f.id, f.severity, f.title])).toEqual([
      ['scylla-host.aio-max-nr-below-need', 'warning', 'fs.aio-max-nr 65536 is below the 103076 AIO blocks 2 shards ask for: networking blocks get cut'],
      ['scylla-doctor.collection-gaps', 'info', '12 scylla-doctor collector(s) failed by themselves, 37 more through a collector they need (47 failed of 74)'],
    ]);
    const aio = r.findings[0]!;
    expect(aio.evidence).toEqual([
      'scylla-doctor vitals: fs.aio-max-nr 65536, fs.aio-nr not collected (free 65536)',
      '2 shards (CPUSpecificationsCollector logical_cores 2) × (1024 storage + 2 preempt + 50000 networking) + 1024 reserve = 103076; minimum 3078',
    ]);
    const gaps = r.findings[1]!;
    expect(gaps.evidence[0]).toBe('scylla-doctor vitals (scylla-doctor 1.14): 22 passed, 47 failed, 5 skipped');
    expect(gaps.evidence).toContain("scylla-doctor vitals: NICsCollector failed: 'ethtool' utility is required, please install it");
    expect(gaps.evidence).toContain("scylla-doctor vitals: ScyllaConfigurationFileCollector failed: '/etc/scylla/scylla.yaml' does not exist");
    expect(gaps.evidence).toHaveLength(13);
    expect(gaps.recommendation).toMatch(/no ScyllaDB installation where it looks/);
    expect(gaps.recommendation).not.toMatch(/sudo/);
  });

  it('says why each check it could not make was not made, in scylla-doctor words', () => {
    const r = judged(REAL);
    expect(r.checked.map((c) => [c.rule, c.checked])).toEqual([
      ['scylla-doctor.collection', true],
      ['scylla-doctor.clocksource', true],
      ['scylla-doctor.cpu-governor', false],
      ['scylla-doctor.time-sync', false],
      ['scylla-doctor.aio', true],
      ['scylla-doctor.limit-nofile', false],
      ['scylla-doctor.disk-ram', false],
      ['scylla-doctor.storage-layout', false],
      ['scylla-doctor.scylla-setup', false],
    ]);
    expect(skipOf(REAL, 'scylla-doctor.cpu-governor')).toMatch(/found no cpufreq scaling_governor/);
    expect(skipOf(REAL, 'scylla-doctor.time-sync')).toMatch(
      /^ChronyStatusCollector skipped: chronyc is not installed.*; NTPStatusCollector failed: .*timedatectl/,
    );
    expect(skipOf(REAL, 'scylla-doctor.limit-nofile')).toBe(
      'ScyllaLimitNOFILECollector failed: Required NodePlatformCollector Collector has not run successfully',
    );
    expect(skipOf(REAL, 'scylla-doctor.scylla-setup')).toMatch(
      /ScyllaExtraConfigurationFilesCollector failed: Scylla config directory \/etc\/scylla.d is not found/,
    );
  });
});

describe('rule edges', () => {
  it('aio: 2 shards need 103076 (full) and 3078 (minimum); cpuset.conf --smp sets the shards', () => {
    const aio = (n: number, more: Record<string, Entry> = {}) =>
      vitals({ ...more }, (v) => {
        (v['SysctlCollector']!.data as Record<string, number>)['fs.aio-max-nr'] = n;
      });
    expect(ids(aio(103076)).filter(([id]) => id !== 'scylla-doctor.collection-gaps')).toEqual([]);
    expect(ids(aio(103075))).toContainEqual(['scylla-host.aio-max-nr-below-need', 'warning']);
    expect(ids(aio(3078))).toContainEqual(['scylla-host.aio-max-nr-below-need', 'warning']);
    expect(ids(aio(3077))).toContainEqual(['scylla-host.aio-max-nr-below-need', 'critical']);
    const oneShard = { ScyllaExtraConfigurationFilesCollector: passed({ files: { 'cpuset.conf': { CPUSET: '--cpuset 1 --smp 1' } } }) };
    const r = judged(aio(52050, oneShard));
    expect(r.findings.map((f) => f.id)).not.toContain('scylla-host.aio-max-nr-below-need');
    expect(ids(aio(52049, oneShard))).toContainEqual(['scylla-host.aio-max-nr-below-need', 'warning']);
    const failed = vitals({ SysctlCollector: { status: 1, data: {}, message: 'sysctl call failed', mask: [] } });
    expect(skipOf(failed, 'scylla-doctor.aio')).toBe('SysctlCollector failed: sysctl call failed');
  });

  it('clocksource: xen is slow (warning), kvm-clock and tsc are not', () => {
    const cs = (c: string) => vitals({ ClockSourceCollector: passed({ clocksource: c }) });
    const r = judged(cs('xen'));
    const f = r.findings.find((x) => x.id === 'os.clocksource-slow');
    expect([f?.severity, f?.title, f?.evidence]).toEqual([
      'warning',
      'Clocksource is xen',
      ['scylla-doctor vitals: ClockSourceCollector clocksource xen (scylla-doctor does not collect the available clocksources)'],
    ]);
    expect(ids(cs('kvm-clock')).map(([id]) => id)).not.toContain('os.clocksource-slow');
    const failed = vitals({ ClockSourceCollector: { status: 1, data: {}, message: 'Clock source cannot be determined, check /sys/…', mask: [] } });
    expect(skipOf(failed, 'scylla-doctor.clocksource')).toMatch(/^ClockSourceCollector failed: Clock source cannot be determined/);
  });

  it('governor: powersave on policy0 is info; performance is fine', () => {
    const gov = (g: string) => vitals({ CPUScalingCollector: passed({ scaling_governor: g, services: {} }) });
    const f = judged(gov('powersave')).findings.find((x) => x.id === 'os.cpu-governor');
    expect([f?.severity, f?.title]).toEqual(['info', 'CPU governor powersave on cpufreq policy0 (not performance)']);
    expect(ids(gov('performance')).map(([id]) => id)).not.toContain('os.cpu-governor');
  });

  it('time sync: timedatectl or chrony unsynchronised is a warning; chrony wins over timedatectl', () => {
    const ntp = (synced: boolean) => ({ NTPStatusCollector: passed({ ntp_enabled: true, ntp_synchronized: synced }) });
    const chrony = (leap: string) => ({ ChronyStatusCollector: passed({ chrony_synchronized: leap !== 'Not synchronised', leap_status: leap }) });
    const off = judged(vitals(ntp(false))).findings.find((x) => x.id === 'os.clock-unsynced');
    expect([off?.severity, off?.evidence]).toEqual(['warning', ['scylla-doctor vitals: NTPStatusCollector (timedatectl) NTPSynchronized=no, NTP=yes']]);
    expect(ids(vitals(ntp(true))).map(([id]) => id)).not.toContain('os.clock-unsynced');
    expect(ids(vitals({ ...ntp(true), ...chrony('Not synchronised') }))).toContainEqual(['os.clock-unsynced', 'warning']);
    expect(ids(vitals({ ...ntp(false), ...chrony('Normal') })).map(([id]) => id)).not.toContain('os.clock-unsynced');
  });

  it("LimitNOFILE: below the unit's value, above fs.nr_open or over fs.file-max is a warning; infinity is fine", () => {
    const want = numberOf('scylla-host.nofile');
    const lim = (l: string, sysctl?: Record<string, number>) =>
      vitals({ ScyllaLimitNOFILECollector: passed({ limitnofile: l }) }, (v) => {
        if (sysctl) Object.assign(v['SysctlCollector']!.data as object, sysctl);
      });
    const nofile = (t: string) => judged(t).findings.filter((f) => f.id === 'scylla-host.nofile-low');
    expect(nofile(lim(String(want)))).toEqual([]);
    expect(nofile(lim('infinity'))).toEqual([]);
    expect(nofile(lim(String(want - 1))).map((f) => [f.severity, f.title])).toEqual([
      ['warning', `scylla-server.service open files: LimitNOFILE ${want - 1} < ${want}`],
    ]);
    expect(nofile(lim('1048577'))[0]?.title).toMatch(/LimitNOFILE 1048577 above fs\.nr_open 1048576/);
    expect(nofile(lim(String(want), { 'fs.file-max': want - 1 }))[0]?.title).toMatch(/fs\.file-max \d+ below LimitNOFILE/);
  });

  it('disk/RAM: 100:1 of data filesystem to RAM is a warning, just below is not', () => {
    const ram = 24684092;
    const dr = (kib: number) =>
      judged(vitals({ StorageConfigurationCollector: storage('xfs', kib) })).findings.filter((f) => f.id === 'scylla-host.disk-ram-ratio');
    expect(dr(ram * 100).map((f) => [f.severity, f.evidence])).toEqual([
      [
        'warning',
        [`scylla-doctor vitals: StorageConfigurationCollector /var/lib/scylla/data on /var/lib/scylla: ${ram * 100} KiB; RAMCollector total ${ram} KiB`],
      ],
    ]);
    expect(dr(ram * 100 - 1024)).toEqual([]);
  });

  it('storage layout: data on ext4 or on a RAID1 of its disks is a warning; XFS on RAID0 is not', () => {
    const raid = (level: string) => ({
      RAIDSetupCollector: passed({ personalities: [level], arrays: { md0: { state: 'active', level, members: ['nvme0n1', 'nvme1n1'] } }, unused_devices: [] }),
    });
    const layout = (t: string) =>
      judged(t)
        .findings.filter((f) => /^storage\./.test(f.id))
        .map((f) => [f.id, f.severity]);
    expect(layout(vitals({ StorageConfigurationCollector: storage('ext4', 1e9) }))).toEqual([['storage.scylla-not-xfs', 'warning']]);
    expect(layout(vitals({ StorageConfigurationCollector: storage('xfs', 1e9, ['nvme0n1', 'nvme1n1']), ...raid('raid1') }))).toEqual([
      ['storage.scylla-raid-level', 'warning'],
    ]);
    expect(layout(vitals({ StorageConfigurationCollector: storage('xfs', 1e9, ['nvme0n1', 'nvme1n1']), ...raid('raid0') }))).toEqual([]);
  });

  it('set-up files: --smp above the --cpuset CPUs (critical), dev-mode.conf (warning); a YAML-integer cpu_mask stays hex', () => {
    const files = {
      'cpuset.conf': { CPUSET: '--cpuset 0-3 --smp 8' },
      'dev-mode.conf': { DEV_MODE: '--developer-mode=1' },
      'perftune.yaml': { cpu_mask: 15, irq_cpu_mask: '0x00000001', nic: ['eth0'], tune: ['net'] },
    };
    const t = vitals({ ScyllaExtraConfigurationFilesCollector: passed({ files }) });
    expect(value(t).scyllaD).toMatchObject({
      files: ['cpuset.conf', 'dev-mode.conf', 'perftune.yaml'],
      env: { CPUSET: '--cpuset 0-3 --smp 8', DEV_MODE: '--developer-mode=1' },
      perftune: { cpuMask: [0, 1, 2, 3], cpuMaskText: '0xf', irqCpuMask: [0], nics: ['eth0'], tune: ['net'] },
    });
    const got = ids(t);
    expect(got).toContainEqual(['scylla-host.smp-exceeds-cpus', 'critical']);
    expect(got).toContainEqual(['scylla-host.developer-mode', 'warning']);
  });

  it('collection: nothing failed → nothing to report; skipped for lack of root → says sudo', () => {
    const clean = vitals({}, (v) => {
      for (const k of Object.keys(v)) if (v[k]!.status !== 0) delete v[k];
    });
    expect(ids(clean).map(([id]) => id)).not.toContain('scylla-doctor.collection-gaps');
    const root = vitals({ FirewallRulesCollector: { status: 2, data: {}, message: 'Insufficient privileges, please run as root', mask: [] } });
    const f = judged(root).findings.find((x) => x.id === 'scylla-doctor.collection-gaps');
    expect(f?.evidence).toContain('scylla-doctor vitals: FirewallRulesCollector skipped: Insufficient privileges, please run as root');
    expect(f?.recommendation).toMatch(/run it with sudo/);
  });
});

describe('the parser', () => {
  it('reads key order and indentation other than scylla-doctor writes (jq -S, json.dumps indent=4), and files over 64 KiB on one line', () => {
    const v = JSON.parse(REAL) as Record<string, Record<string, unknown>>;
    const sorted = Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, Object.fromEntries(Object.entries(v[k]!).sort(([a], [b]) => a.localeCompare(b)))]),
    );
    for (const text of [JSON.stringify(sorted), JSON.stringify(v, null, 4)]) {
      expect(detect(text)).toMatchObject({ ok: true, kind: 'scylla-doctor.vitals' });
      expect(value(text).aioMaxNr).toBe(65536);
    }
    const big = vitals({
      ScyllaSSTablesCollector: passed({ files: Array.from({ length: 4000 }, (_, i) => `/var/lib/scylla/data/ks/t-${i}/me-${i}-big-Data.db`) }),
    });
    expect(big.length).toBeGreaterThan(128 * 1024);
    expect(big).not.toMatch(/\n/);
    expect(value(big).collectors).toHaveLength(74);
  });

  it('refuses what is not vitals, and leaves out an entry that is not a collector result', () => {
    expect(parseScyllaDoctorVitals('{"a": 1}')).toMatchObject({ ok: false, reason: expect.stringMatching(/no "…Collector"/) });
    expect(parseScyllaDoctorVitals('{"XCollector": {"status": 0, "data": {}')).toMatchObject({ ok: false, reason: expect.stringMatching(/does not parse/) });
    const p = parseScyllaDoctorVitals(vitals({ OddCollector: { status: 7, data: {}, message: '', mask: [] } }));
    expect(p.ok && p.value.collectors).toHaveLength(74);
    expect(p.ok && p.warnings).toEqual(['OddCollector: not a collector result ({status 0|1|2, data, message}); left out']);
  });
});
