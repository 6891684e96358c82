/**
 * Two /proc samples of one host → what the host did over the window, computed as sysstat's `iostat -x` and
 * `iostat -c` do (formulas from the kernel's Documentation/admin-guide/iostats.rst field meanings): per device
 * IOPS, MB/s, request size, await, queue depth (aqu-sz) and utilisation; CPU user/system/iowait/steal/idle;
 * major faults and swap pages per second; load average at the end. PURE.
 */
import type { DiskCounters } from '../parse/proc/diskstats.js';
import type { ProcSample } from '../parse/proc/sample.js';
import type { CpuTicks } from '../parse/proc/stat.js';

/** One device over the window, named as iostat -x names its columns. */
export interface DiskWindow {
  device: string;
  rPerS: number;
  wPerS: number;
  dPerS: number;
  fPerS: number;
  rkBPerS: number;
  wkBPerS: number;
  dkBPerS: number;
  rrqmPerS: number;
  wrqmPerS: number;
  rrqmPct: number;
  wrqmPct: number;
  rAwaitMs: number;
  wAwaitMs: number;
  dAwaitMs: number;
  fAwaitMs: number;
  rareqSzKB: number;
  wareqSzKB: number;
  /** Average number of requests in the device queue (time in queue ÷ elapsed time). */
  aquSz: number;
  /** Share of the window the device had I/O in flight, 0–100 (saturation only for one-queue devices). */
  utilPct: number;
  /** Reads + writes + discards per second. */
  iops: number;
  /** Read + write MB/s (MiB: kB ÷ 1024, as iostat -m). */
  mbPerS: number;
  /** Average read/write request size in kB. */
  avgRequestKB: number;
  /** Average time a read, write or discard took, queue included (iostat's await before 12.x split it). */
  awaitMs: number;
  /**
   * Little's law: requests in flight = completion rate × time each took. A device whose measured queue is far
   * above this (more than about double) queues inside the kernel rather than in the device.
   */
  littlesLawQueue: number;
}

export interface CpuWindow {
  /** Percentages of all CPU time, as iostat's avg-cpu line (user includes guest; system includes irq and softirq). */
  userPct: number;
  nicePct: number;
  systemPct: number;
  iowaitPct: number;
  stealPct: number;
  idlePct: number;
  cpus: number | null;
}

export interface HostWindow {
  /** Seconds between the samples on the host's own clock (/proc/uptime). */
  seconds: number;
  disks: DiskWindow[];
  cpu: CpuWindow | null;
  majorFaultsPerS: number | null;
  swapInPagesPerS: number | null;
  swapOutPagesPerS: number | null;
  load: { one: number; five: number; fifteen: number; runnable: number } | null;
  /** What could not be computed, with why. */
  notes: string[];
}

const per = (d: number, s: number) => (s > 0 ? d / s : 0);
const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
/** A counter that went backwards (device re-created, 32-bit wrap) has no usable delta. */
const delta = (a: number | null, b: number | null) => (a === null || b === null ? 0 : b >= a ? b - a : 0);

/** iostat -x for one device between two readings `seconds` apart. A zero "before" gives the since-boot report. */
export function diskWindow(a: DiskCounters, b: DiskCounters, seconds: number): DiskWindow {
  const rIos = delta(a.readIos, b.readIos);
  const wIos = delta(a.writeIos, b.writeIos);
  const dIos = delta(a.discardIos, b.discardIos);
  const fIos = delta(a.flushIos, b.flushIos);
  const rSect = delta(a.readSectors, b.readSectors);
  const wSect = delta(a.writeSectors, b.writeSectors);
  const dSect = delta(a.discardSectors, b.discardSectors);
  const rMrg = delta(a.readMerges, b.readMerges);
  const wMrg = delta(a.writeMerges, b.writeMerges);
  const rT = delta(a.readTicksMs, b.readTicksMs);
  const wT = delta(a.writeTicksMs, b.writeTicksMs);
  const dT = delta(a.discardTicksMs, b.discardTicksMs);
  const fT = delta(a.flushTicksMs, b.flushTicksMs);
  const rPerS = per(rIos, seconds);
  const wPerS = per(wIos, seconds);
  const dPerS = per(dIos, seconds);
  const awaitMs = ratio(rT + wT + dT, rIos + wIos + dIos);
  const iops = rPerS + wPerS + dPerS;
  return {
    device: b.name,
    rPerS,
    wPerS,
    dPerS,
    fPerS: per(fIos, seconds),
    // Sectors are always 512 bytes in diskstats: two per kB.
    rkBPerS: per(rSect / 2, seconds),
    wkBPerS: per(wSect / 2, seconds),
    dkBPerS: per(dSect / 2, seconds),
    rrqmPerS: per(rMrg, seconds),
    wrqmPerS: per(wMrg, seconds),
    rrqmPct: 100 * ratio(rMrg, rMrg + rIos),
    wrqmPct: 100 * ratio(wMrg, wMrg + wIos),
    rAwaitMs: ratio(rT, rIos),
    wAwaitMs: ratio(wT, wIos),
    dAwaitMs: ratio(dT, dIos),
    fAwaitMs: ratio(fT, fIos),
    rareqSzKB: ratio(rSect / 2, rIos),
    wareqSzKB: ratio(wSect / 2, wIos),
    aquSz: per(delta(a.timeInQueueMs, b.timeInQueueMs), seconds) / 1000,
    utilPct: Math.min(100, per(delta(a.ioTicksMs, b.ioTicksMs), seconds) / 10),
    iops,
    mbPerS: per((rSect + wSect) / 2 / 1024, seconds),
    avgRequestKB: ratio((rSect + wSect) / 2, rIos + wIos),
    awaitMs,
    littlesLawQueue: (iops * awaitMs) / 1000,
  };
}

const busy = (t: CpuTicks) => t.user + t.nice + t.system + t.idle + t.iowait + t.irq + t.softirq + t.steal;

/** iostat's avg-cpu line between two /proc/stat readings (guest time is inside user and nice already). */
export function cpuWindow(a: CpuTicks, b: CpuTicks, cpus: number | null): CpuWindow | null {
  const all = busy(b) - busy(a);
  if (all <= 0) return null;
  const pct = (x: number) => (100 * Math.max(0, x)) / all;
  return {
    userPct: pct(b.user - a.user),
    nicePct: pct(b.nice - a.nice),
    systemPct: pct(b.system + b.irq + b.softirq - (a.system + a.irq + a.softirq)),
    iowaitPct: pct(b.iowait - a.iowait),
    stealPct: pct(b.steal - a.steal),
    idlePct: pct(b.idle - a.idle),
    cpus,
  };
}

/** Devices iostat would list by default: any that ever did I/O. Partitions and dm devices are kept (iostat keeps them too). */
const everUsed = (d: DiskCounters) => d.readIos + d.writeIos + (d.discardIos ?? 0) > 0;

/** Both samples of one host → its window; anything missing in either sample is named in notes. */
export function hostWindow(a: ProcSample, b: ProcSample): HostWindow {
  const notes: string[] = [];
  const seconds = a.uptimeSeconds !== null && b.uptimeSeconds !== null ? b.uptimeSeconds - a.uptimeSeconds : 0;
  if (!(seconds > 0)) notes.push('no elapsed time between the samples (/proc/uptime missing or not increasing): no rates');
  for (const u of [...a.unread, ...b.unread]) notes.push(`${u.file}: ${u.why}`);
  const disks: DiskWindow[] = [];
  if (seconds > 0 && a.disks && b.disks) {
    const before = new Map(a.disks.map((d) => [d.name, d]));
    for (const d of b.disks) {
      const p = before.get(d.name);
      if (p && everUsed(d)) disks.push(diskWindow(p, d, seconds));
    }
  }
  const cpu = seconds > 0 && a.stat && b.stat ? cpuWindow(a.stat.cpu, b.stat.cpu, b.stat.cpus || null) : null;
  const vm = (k: 'pgmajfault' | 'pswpin' | 'pswpout') => {
    const x = a.vm?.[k];
    const y = b.vm?.[k];
    return seconds > 0 && x !== null && x !== undefined && y !== null && y !== undefined ? per(delta(x, y), seconds) : null;
  };
  return {
    seconds,
    disks,
    cpu,
    majorFaultsPerS: vm('pgmajfault'),
    swapInPagesPerS: vm('pswpin'),
    swapOutPagesPerS: vm('pswpout'),
    load: b.load ? { one: b.load.one, five: b.load.five, fifteen: b.load.fifteen, runnable: b.load.runnable } : null,
    notes,
  };
}
