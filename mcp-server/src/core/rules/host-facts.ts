/**
 * The host-tool outputs (iostat, vmstat, sar, mpstat) as one set of samples the host rules read: CPU shares,
 * device rows, swap and paging rates, run queue. Since-boot reports are kept apart: they are not current. PURE.
 */
import type { CpuShares } from '../parse/host/common.js';
import type { Iostat } from '../parse/host/iostat.js';
import type { Mpstat } from '../parse/host/mpstat.js';
import type { Sar } from '../parse/host/sar.js';
import type { TableRow, TableSection } from '../parse/host/sysstat-table.js';
import type { Vmstat } from '../parse/host/vmstat.js';

export type HostTool = 'iostat' | 'vmstat' | 'sar' | 'mpstat';

/** Where a sample came from, for evidence: "iostat report 3 (06/06/2019 11:44:03 AM), line 21". */
export interface SampleAt {
  label: string;
  line: number;
}

export interface CpuSample extends SampleAt {
  /** "all" or a CPU number. */
  cpu: string;
  shares: CpuShares;
  /** vmstat's b column (tasks in uninterruptible sleep) when the sample came from vmstat. */
  blocked?: number | null;
}

export interface DiskSample extends SampleAt {
  device: string;
  readsPerS: number | null;
  writesPerS: number | null;
  readKBps: number | null;
  writeKBps: number | null;
  readAwaitMs: number | null;
  writeAwaitMs: number | null;
  awaitMs: number | null;
  queueSize: number | null;
  utilPct: number | null;
  reqKB: number | null;
}

export interface RateSample extends SampleAt {
  value: number;
}

/** One vmstat row's block I/O (bi, bo in KiB/s: procps counts 1 KiB blocks) and its tasks in uninterruptible sleep. */
export interface BlockIoSample extends SampleAt {
  inKBps: number;
  outKBps: number;
  blocked: number;
}

export interface HostFacts {
  tool: HostTool;
  /** Logical CPUs from the sysstat banner ("(8 CPU)"), or the CPU rows of mpstat/sar -P; null when unknown. */
  cpus: number | null;
  cpu: CpuSample[];
  perCore: CpuSample[];
  disks: DiskSample[];
  swapInPerS: RateSample[];
  swapOutPerS: RateSample[];
  majorFaultsPerS: RateSample[];
  vmeffPct: RateSample[];
  runQueue: RateSample[];
  /** vmstat rows with bi, bo and b, in order (a stall shows as I/O falling to nothing while b stays up). */
  blockIo: BlockIoSample[];
  /** Samples left out because they are averages since boot. */
  sinceBoot: SampleAt[];
  /** iostat's since-boot reports themselves: never graded, only counted where a tool that counts them is matched (sperf). */
  sinceBootCpu: CpuSample[];
  sinceBootDisks: DiskSample[];
  /** Said with every finding: how current the numbers are. */
  caveats: string[];
  /** Whether the numbers are sar's Average: block because the paste had no interval rows. */
  averagesOnly: boolean;
}

const empty = (tool: HostTool): HostFacts => ({
  tool,
  cpus: null,
  cpu: [],
  perCore: [],
  disks: [],
  swapInPerS: [],
  swapOutPerS: [],
  majorFaultsPerS: [],
  vmeffPct: [],
  runQueue: [],
  blockIo: [],
  sinceBoot: [],
  sinceBootCpu: [],
  sinceBootDisks: [],
  caveats: [],
  averagesOnly: false,
});

function fromIostat(v: Iostat): HostFacts {
  const f = empty('iostat');
  f.cpus = v.banner?.cpus ?? null;
  for (const r of v.reports) {
    const label = `iostat report ${r.index}${r.timestamp ? ` (${r.timestamp})` : ''}`;
    const boot = r.sinceBoot === true;
    if (boot) f.sinceBoot.push({ label: `${label}, since boot`, line: r.line });
    if (r.cpu) (boot ? f.sinceBootCpu : f.cpu).push({ label, line: r.cpuLine ?? r.line, cpu: 'all', shares: r.cpu });
    for (const d of r.devices) {
      (boot ? f.sinceBootDisks : f.disks).push({
        label,
        line: d.line,
        device: d.device,
        readsPerS: d.readsPerS ?? d.tps,
        writesPerS: d.writesPerS,
        readKBps: d.readKBps,
        writeKBps: d.writeKBps,
        readAwaitMs: d.readAwaitMs,
        writeAwaitMs: d.writeAwaitMs,
        awaitMs: d.awaitMs,
        queueSize: d.queueSize,
        utilPct: d.utilPct,
        reqKB: d.reqKB,
      });
    }
  }
  if (v.sinceBootNote && v.reports[0]?.sinceBoot !== false) f.caveats.push(v.sinceBootNote);
  return f;
}

function fromVmstat(v: Vmstat): HostFacts {
  const f = empty('vmstat');
  v.rows.forEach((r, k) => {
    const label = `vmstat row ${k + 1}${r.time ? ` (${r.time})` : ''}`;
    if (r.sinceBoot) {
      f.sinceBoot.push({ label: `${label}, since boot`, line: r.line });
      return;
    }
    f.cpu.push({ label, line: r.line, cpu: 'all', shares: r.cpu, blocked: r.blocked });
    if (r.swapInPerS !== null) f.swapInPerS.push({ label, line: r.line, value: r.swapInPerS });
    if (r.swapOutPerS !== null) f.swapOutPerS.push({ label, line: r.line, value: r.swapOutPerS });
    if (r.running !== null) f.runQueue.push({ label, line: r.line, value: r.running });
    if (r.blocksInPerS !== null && r.blocksOutPerS !== null && r.blocked !== null)
      f.blockIo.push({ label, line: r.line, inKBps: r.blocksInPerS, outKBps: r.blocksOutPerS, blocked: r.blocked });
  });
  if (v.rows.some((r) => r.sinceBoot)) f.caveats.push('the first vmstat row is the average since boot and is left out');
  return f;
}

/** sar/mpstat rows: interval rows when there are any, else the Average: block. */
function current(rows: TableRow[], f: HostFacts): TableRow[] {
  const intervals = rows.filter((r) => r.time !== 'Average');
  if (intervals.length > 0 || rows.length === 0) return intervals;
  f.averagesOnly = true;
  return rows;
}

const label = (tool: string, r: TableRow) => (r.time === 'Average' ? `${tool} Average` : `${tool} ${r.time}`);
const val = (r: TableRow, ...names: string[]) => {
  for (const n of names) if (r.values[n] !== undefined) return r.values[n];
  return null;
};

function cpuFromSection(tool: string, s: TableSection, f: HostFacts, cols: (r: TableRow) => CpuShares): void {
  for (const r of current(s.rows, f)) {
    const sample: CpuSample = { label: label(tool, r), line: r.line, cpu: r.key ?? 'all', shares: cols(r) };
    if (sample.cpu === 'all' || sample.cpu === '-1') f.cpu.push({ ...sample, cpu: 'all' });
    else f.perCore.push(sample);
  }
  const cores = new Set(s.rows.map((r) => r.key).filter((k): k is string => k !== null && /^\d+$/.test(k)));
  if (cores.size > 0) f.cpus ??= cores.size;
}

const sharesOf = (r: TableRow): CpuShares => ({
  user: val(r, '%user', '%usr'),
  nice: val(r, '%nice'),
  system: val(r, '%system', '%sys'),
  iowait: val(r, '%iowait'),
  irq: val(r, '%irq'),
  soft: val(r, '%soft'),
  steal: val(r, '%steal'),
  idle: val(r, '%idle'),
});

function fromTables(tool: 'sar' | 'mpstat', v: Sar | Mpstat): HostFacts {
  const f = empty(tool);
  f.cpus = v.banner?.cpus ?? null;
  if (tool === 'mpstat' && 'sinceBoot' in v && v.sinceBoot !== false) {
    const rows = v.sections.flatMap((s) => s.rows);
    if (v.sinceBoot === true) {
      f.sinceBoot.push(...rows.slice(0, 1).map((r) => ({ label: `${label(tool, r)}, since boot`, line: r.line })));
      f.caveats.push('mpstat without an interval prints one report of averages since boot; it is left out');
      return f;
    }
    f.caveats.push('a single mpstat report without its banner or an Average: block: if mpstat ran without an interval, these are averages since boot');
  }
  for (const s of v.sections) {
    if (s.kind === 'cpu') cpuFromSection(tool, s, f, sharesOf);
    if (s.kind === 'disk') {
      for (const r of current(s.rows, f)) {
        const sectors = r.values['rd_sec/s'] !== undefined;
        const rk = sectors ? val(r, 'rd_sec/s') : val(r, 'rkB/s');
        const wk = sectors ? val(r, 'wr_sec/s') : val(r, 'wkB/s');
        f.disks.push({
          label: label(tool, r),
          line: r.line,
          device: r.key ?? '?',
          // sar -d has tps only (reads and writes together), so IOPS is tps and the await is for both.
          readsPerS: val(r, 'tps'),
          writesPerS: null,
          readKBps: rk === null ? null : sectors ? rk / 2 : rk,
          writeKBps: wk === null ? null : sectors ? wk / 2 : wk,
          readAwaitMs: null,
          writeAwaitMs: null,
          awaitMs: val(r, 'await'),
          queueSize: val(r, 'aqu-sz', 'avgqu-sz'),
          utilPct: val(r, '%util'),
          reqKB: r.values['areq-sz'] ?? (r.values['avgrq-sz'] !== undefined ? r.values['avgrq-sz'] / 2 : null),
        });
      }
    }
    if (s.kind === 'paging') {
      for (const r of current(s.rows, f)) {
        const mj = val(r, 'majflt/s');
        if (mj !== null) f.majorFaultsPerS.push({ label: label(tool, r), line: r.line, value: mj });
        const ve = val(r, '%vmeff');
        if (ve !== null) f.vmeffPct.push({ label: label(tool, r), line: r.line, value: ve });
      }
    }
    if (s.kind === 'swap') {
      for (const r of current(s.rows, f)) {
        // pswpin/s counts pages; 4 KiB pages make it comparable to vmstat's si/so in KiB/s.
        const i = val(r, 'pswpin/s');
        const o = val(r, 'pswpout/s');
        if (i !== null) f.swapInPerS.push({ label: label(tool, r), line: r.line, value: i * 4 });
        if (o !== null) f.swapOutPerS.push({ label: label(tool, r), line: r.line, value: o * 4 });
      }
    }
    if (s.kind === 'queue') {
      for (const r of current(s.rows, f)) {
        const q = val(r, 'runq-sz');
        if (q !== null) f.runQueue.push({ label: label(tool, r), line: r.line, value: q });
      }
    }
  }
  if (f.averagesOnly) f.caveats.push("only sar's Average: block was pasted: averages over the whole capture hide short bursts");
  return f;
}

export function hostFacts(kind: string, value: unknown): HostFacts | null {
  if (kind === 'host.iostat') return fromIostat(value as Iostat);
  if (kind === 'host.vmstat') return fromVmstat(value as Vmstat);
  if (kind === 'host.sar') return fromTables('sar', value as Sar);
  if (kind === 'host.mpstat') return fromTables('mpstat', value as Mpstat);
  return null;
}
