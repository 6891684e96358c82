import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProcSample } from '../../mcp-server/src/core/parse/proc/sample.js';
import { parseDiskstats, type DiskCounters } from '../../mcp-server/src/core/parse/proc/diskstats.js';
import { parseProcStat } from '../../mcp-server/src/core/parse/proc/stat.js';
import { parseLoadavg, parseUptime } from '../../mcp-server/src/core/parse/proc/loadavg.js';
import { parseVmstat } from '../../mcp-server/src/core/parse/proc/vmstat.js';
import { cpuWindow, diskWindow, hostWindow } from '../../mcp-server/src/core/diagnosis/host-window.js';

const dir = join(__dirname, '..', 'fixtures', 'proc', 'iostat-pair');
const before = parseProcSample(readFileSync(join(dir, 'before.txt'), 'utf8'));
const after = parseProcSample(readFileSync(join(dir, 'after.txt'), 'utf8'));

/** iostat -x text → its two reports: avg-cpu numbers and device rows by column name. */
function iostatReports(text: string) {
  const reports: { cpu: Record<string, number>; devices: Record<string, Record<string, number>> }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith('avg-cpu:')) {
      const names = lines[i]!.split(/\s+/).slice(1);
      const vals = lines[i + 1]!.trim().split(/\s+/).map(Number);
      reports.push({ cpu: Object.fromEntries(names.map((n, k) => [n, vals[k]!])), devices: {} });
    } else if (lines[i]!.startsWith('Device')) {
      const cols = lines[i]!.split(/\s+/).slice(1);
      for (let j = i + 1; j < lines.length && lines[j]!.trim() !== ''; j++) {
        const [dev, ...v] = lines[j]!.trim().split(/\s+/);
        reports.at(-1)!.devices[dev!] = Object.fromEntries(cols.map((c, k) => [c, Number(v[k])]));
      }
    }
  }
  return reports;
}
const [sinceBoot, interval] = iostatReports(readFileSync(join(dir, 'iostat-x.txt'), 'utf8'));

const ZERO: DiskCounters = {
  major: 0,
  minor: 0,
  name: '',
  readIos: 0,
  readMerges: 0,
  readSectors: 0,
  readTicksMs: 0,
  writeIos: 0,
  writeMerges: 0,
  writeSectors: 0,
  writeTicksMs: 0,
  inFlight: 0,
  ioTicksMs: 0,
  timeInQueueMs: 0,
  discardIos: 0,
  discardMerges: 0,
  discardSectors: 0,
  discardTicksMs: 0,
  flushIos: 0,
  flushTicksMs: 0,
};
const COLUMNS: [string, keyof ReturnType<typeof diskWindow>][] = [
  ['r/s', 'rPerS'],
  ['rkB/s', 'rkBPerS'],
  ['rrqm/s', 'rrqmPerS'],
  ['%rrqm', 'rrqmPct'],
  ['r_await', 'rAwaitMs'],
  ['rareq-sz', 'rareqSzKB'],
  ['w/s', 'wPerS'],
  ['wkB/s', 'wkBPerS'],
  ['wrqm/s', 'wrqmPerS'],
  ['%wrqm', 'wrqmPct'],
  ['w_await', 'wAwaitMs'],
  ['wareq-sz', 'wareqSzKB'],
  ['d/s', 'dPerS'],
  ['dkB/s', 'dkBPerS'],
  ['d_await', 'dAwaitMs'],
  ['f/s', 'fPerS'],
  ['f_await', 'fAwaitMs'],
  ['aqu-sz', 'aquSz'],
  ['%util', 'utilPct'],
];

describe('/proc parsers', () => {
  it('read every file of a real sample', () => {
    expect(before.unread).toEqual([]);
    expect(before.uptimeSeconds).toBeCloseTo(15605.58, 2);
    expect(before.disks!.map((d) => d.name)).toContain('vda');
    expect(before.stat!.cpus).toBe(2);
    expect(before.vm!.pgmajfault).toBeGreaterThan(0);
    expect(before.load!.threads).toBeGreaterThan(0);
  });
  it('are total: garbage, empty and truncated input give a reason, never a throw', () => {
    for (const p of [parseDiskstats, parseProcStat, parseVmstat, parseLoadavg, parseUptime]) {
      for (const t of ['', 'garbage', '\u0000\u0001', '   8 0 sda 1 2']) expect(p(t).ok).toBe(false);
    }
    expect(parseProcSample('nonsense').unread.map((u) => u.file)).toHaveLength(5);
  });
  it('reads diskstats of old kernels (11 counters: no discard, no flush) and marks those fields unknown', () => {
    const r = parseDiskstats('   8       0 sda 100 0 800 50 10 0 80 5 0 40 55\n');
    expect(r.ok && r.value[0]).toMatchObject({ name: 'sda', readIos: 100, discardIos: null, flushIos: null, timeInQueueMs: 55 });
  });
});

describe('diskstats → iostat -x, against iostat on the same machine', () => {
  it("since boot: the formulas on one sample against zero give iostat's first report", () => {
    for (const dev of ['vda', 'loop0']) {
      const d = before.disks!.find((x) => x.name === dev)!;
      const w = diskWindow({ ...ZERO, name: dev }, d, before.uptimeSeconds!);
      const want = sinceBoot!.devices[dev]!;
      // iostat prints two decimals; the sample was read a few ms before iostat's own.
      for (const [col, key] of COLUMNS) expect(w[key], `${dev} ${col}`).toBeCloseTo(want[col]!, 1);
    }
  });
  it("over the window: rates within 3 % of iostat's interval report (the pair brackets it by a few ms)", () => {
    const h = hostWindow(before, after);
    expect(h.seconds).toBeCloseTo(2.01, 2);
    const vda = h.disks.find((d) => d.device === 'vda')!;
    const want = interval!.devices['vda']!;
    for (const [col, key] of [
      ['r/s', 'rPerS'],
      ['rkB/s', 'rkBPerS'],
      ['w/s', 'wPerS'],
      ['wkB/s', 'wkBPerS'],
      ['rareq-sz', 'rareqSzKB'],
      ['wareq-sz', 'wareqSzKB'],
    ] as const) {
      expect(Math.abs(vda[key] - want[col]!) / want[col]!, `${col}: ${vda[key]} vs ${want[col]}`).toBeLessThan(0.03);
    }
    expect(vda.utilPct).toBeGreaterThan(want['%util']! - 5);
    expect(vda.utilPct).toBeLessThan(want['%util']! + 5);
    expect(vda.rAwaitMs).toBeCloseTo(want['r_await']!, 1);
    expect(vda.aquSz).toBeCloseTo(want['aqu-sz']!, 1);
    // Little's law: what was in flight matches completions × their latency.
    expect(vda.littlesLawQueue).toBeCloseTo(vda.aquSz, 0);
    expect(vda.iops).toBeCloseTo(vda.rPerS + vda.wPerS + vda.dPerS, 6);
  });
  it("CPU: the since-boot and window shares match iostat's avg-cpu lines", () => {
    const boot = cpuWindow({ user: 0, nice: 0, system: 0, idle: 0, iowait: 0, irq: 0, softirq: 0, steal: 0, guest: 0, guestNice: 0 }, before.stat!.cpu, 2)!;
    expect(boot.userPct).toBeCloseTo(sinceBoot!.cpu['%user']!, 1);
    expect(boot.systemPct).toBeCloseTo(sinceBoot!.cpu['%system']!, 1);
    expect(boot.iowaitPct).toBeCloseTo(sinceBoot!.cpu['%iowait']!, 1);
    expect(boot.stealPct).toBeCloseTo(sinceBoot!.cpu['%steal']!, 1);
    expect(boot.idlePct).toBeCloseTo(sinceBoot!.cpu['%idle']!, 1);
    const w = hostWindow(before, after).cpu!;
    for (const [k, col] of [
      ['userPct', '%user'],
      ['systemPct', '%system'],
      ['iowaitPct', '%iowait'],
      ['idlePct', '%idle'],
    ] as const) {
      expect(Math.abs(w[k] - interval!.cpu[col]!), `${col}: ${w[k]} vs ${interval!.cpu[col]}`).toBeLessThan(4);
    }
  });
  it('a counter that went backwards (device re-created) gives 0, not a negative rate', () => {
    const d = before.disks!.find((x) => x.name === 'vda')!;
    const w = diskWindow(d, { ...d, readIos: 0 }, 1);
    expect(w.rPerS).toBe(0);
    const h = hostWindow(after, before);
    expect(h.disks).toEqual([]);
    expect(h.notes.join()).toMatch(/not increasing/);
  });
});
