import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { splitLines } from '../../text.js';
import { cpuShares, dateOrderOf, num, parseBanner, stampIso, TIMESTAMP_LINE, tokens, type CpuShares, type SysstatBanner } from './common.js';

export const IOSTAT_KIND = 'host.iostat';

/**
 * Which sysstat column set the Device header is: 10.x ("rrqm/s wrqm/s r/s w/s … avgrq-sz avgqu-sz await r_await
 * w_await svctm %util", sizes in sectors), 11.x (11.5.7+: "r/s w/s rkB/s … r_await w_await aqu-sz rareq-sz
 * wareq-sz svctm %util", sizes in kB), 12.x (svctm gone, discard/flush columns), or plain iostat without -x.
 */
export type IostatLayout = 'sysstat-10' | 'sysstat-11' | 'sysstat-12' | 'basic';

/** One device row, normalised to kB and ms whatever the layout printed (sectors, MB, kB). */
export interface IostatDevice {
  device: string;
  line: number;
  readsPerS: number | null;
  writesPerS: number | null;
  discardsPerS: number | null;
  /** Plain iostat (no -x) prints only transfers per second. */
  tps: number | null;
  readKBps: number | null;
  writeKBps: number | null;
  rrqmPerS: number | null;
  wrqmPerS: number | null;
  readAwaitMs: number | null;
  writeAwaitMs: number | null;
  /** All requests (printed by 10.x/11.x as await; derived from r_await/w_await weighted by r/s and w/s otherwise). */
  awaitMs: number | null;
  queueSize: number | null;
  readReqKB: number | null;
  writeReqKB: number | null;
  /** avgrq-sz (10.x, converted from sectors) or the r/w-weighted request size. */
  reqKB: number | null;
  svctmMs: number | null;
  utilPct: number | null;
}

export interface IostatReport {
  /** 1-based position in the paste. */
  index: number;
  /** The line the report starts on (its time stamp, avg-cpu or Device header). */
  line: number;
  /**
   * true: statistics since boot (iostat's first report, unless -y) — not current. null: cannot tell (a single
   * report with no banner above it).
   */
  sinceBoot: boolean | null;
  timestamp: string | null;
  /** The time stamp as an ISO local date-time (day/month order told from the file's dates), null without a date. */
  date: string | null;
  cpu: CpuShares | null;
  cpuLine: number | null;
  devices: IostatDevice[];
}

export interface Iostat {
  banner: SysstatBanner | null;
  layout: IostatLayout;
  columns: string[];
  reports: IostatReport[];
  /** Why the first report is, or may be, since boot (shown with findings). */
  sinceBootNote: string | null;
}

type Field = Exclude<keyof IostatDevice, 'device' | 'line'>;
/** Device-header column → field and the factor to kB or ms. */
const COLUMN: Record<string, [Field, number]> = {
  'r/s': ['readsPerS', 1],
  'w/s': ['writesPerS', 1],
  'd/s': ['discardsPerS', 1],
  tps: ['tps', 1],
  'rkB/s': ['readKBps', 1],
  'wkB/s': ['writeKBps', 1],
  'rMB/s': ['readKBps', 1024],
  'wMB/s': ['writeKBps', 1024],
  'rsec/s': ['readKBps', 0.5],
  'wsec/s': ['writeKBps', 0.5],
  'kB_read/s': ['readKBps', 1],
  'kB_wrtn/s': ['writeKBps', 1],
  'MB_read/s': ['readKBps', 1024],
  'MB_wrtn/s': ['writeKBps', 1024],
  'Blk_read/s': ['readKBps', 0.5],
  'Blk_wrtn/s': ['writeKBps', 0.5],
  'rrqm/s': ['rrqmPerS', 1],
  'wrqm/s': ['wrqmPerS', 1],
  r_await: ['readAwaitMs', 1],
  w_await: ['writeAwaitMs', 1],
  await: ['awaitMs', 1],
  'avgqu-sz': ['queueSize', 1],
  'aqu-sz': ['queueSize', 1],
  'avgrq-sz': ['reqKB', 0.5],
  'areq-sz': ['reqKB', 1],
  'rareq-sz': ['readReqKB', 1],
  'wareq-sz': ['writeReqKB', 1],
  svctm: ['svctmMs', 1],
  '%util': ['utilPct', 1],
};

const DEVICE_HEADER = /^\s*Device:?(?=\s)/;
const CPU_HEADER = /^\s*avg-cpu:\s/;

function layoutOf(cols: readonly string[]): IostatLayout {
  if (!cols.some((c) => c === 'await' || c === 'r_await' || c === 'w_await')) return 'basic';
  if (cols.includes('avgqu-sz')) return 'sysstat-10';
  return cols.includes('svctm') ? 'sysstat-11' : 'sysstat-12';
}

function emptyDevice(device: string, line: number): IostatDevice {
  return {
    device,
    line,
    readsPerS: null,
    writesPerS: null,
    discardsPerS: null,
    tps: null,
    readKBps: null,
    writeKBps: null,
    rrqmPerS: null,
    wrqmPerS: null,
    readAwaitMs: null,
    writeAwaitMs: null,
    awaitMs: null,
    queueSize: null,
    readReqKB: null,
    writeReqKB: null,
    reqKB: null,
    svctmMs: null,
    utilPct: null,
  };
}

/** r/w-weighted mean of two per-direction values (await, request size); null when nothing moved. */
function weighted(r: number | null, w: number | null, rv: number | null, wv: number | null): number | null {
  const rr = r ?? 0;
  const ww = w ?? 0;
  if (rr + ww <= 0 || (rv === null && wv === null)) return rr + ww <= 0 && (rv !== null || wv !== null) ? 0 : null;
  return (rr * (rv ?? 0) + ww * (wv ?? 0)) / (rr + ww);
}

function deviceRow(name: string, values: string[], cols: readonly string[], line: number): IostatDevice | null {
  if (values.length !== cols.length) return null;
  const d = emptyDevice(name, line);
  for (let i = 0; i < cols.length; i++) {
    const v = num(values[i]);
    if (v === null) return null;
    const map = COLUMN[cols[i]!];
    if (map) d[map[0]] = v * map[1];
  }
  d.awaitMs ??= weighted(d.readsPerS, d.writesPerS, d.readAwaitMs, d.writeAwaitMs);
  d.reqKB ??= weighted(d.readsPerS, d.writesPerS, d.readReqKB, d.writeReqKB);
  return d;
}

function parse(text: string): Parsed<Iostat> {
  const lines = splitLines(text);
  let banner: SysstatBanner | null = null;
  const reports: IostatReport[] = [];
  let cur: IostatReport | null = null;
  let columns: string[] = [];
  let pendingStamp: { text: string; line: number } | null = null;
  let bannerBeforeFirst = false;
  const openedWith: ('cpu' | 'device')[] = [];
  let skipped = 0;
  // Device-like rows before the first header: the paste starts inside a report, so its first full one is not
  // iostat's first.
  let orphanRows = 0;
  const open = (line: number, how: 'cpu' | 'device'): IostatReport => {
    const r: IostatReport = {
      index: reports.length + 1,
      line: pendingStamp?.line ?? line,
      sinceBoot: null,
      timestamp: pendingStamp?.text ?? null,
      date: null,
      cpu: null,
      cpuLine: null,
      devices: [],
    };
    pendingStamp = null;
    reports.push(r);
    openedWith.push(how);
    return r;
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const lineNo = i + 1;
    if (raw.trim() === '') continue;
    const b: SysstatBanner | null = banner === null ? parseBanner(raw, lineNo) : null;
    if (b) {
      banner = b;
      if (reports.length === 0) bannerBeforeFirst = true;
      continue;
    }
    const stamp = TIMESTAMP_LINE.exec(raw);
    if (stamp) {
      pendingStamp = { text: stamp[1]!, line: lineNo };
      continue;
    }
    if (CPU_HEADER.test(raw)) {
      const cols = tokens(raw).slice(1);
      cur = open(lineNo, 'cpu');
      // The values are on the next non-empty line.
      let j = i + 1;
      while (j < lines.length && lines[j]!.trim() === '') j++;
      const vals = j < lines.length ? tokens(lines[j]!).map(num) : [];
      if (vals.length === cols.length && vals.every((v) => v !== null)) {
        cur.cpu = cpuShares(cols, vals);
        cur.cpuLine = j + 1;
        i = j;
      }
      continue;
    }
    if (reports.length === 0 && /^\s*\S+(?:\s+-?\d+(?:[.,]\d+)?){3,}\s*$/.test(raw)) {
      orphanRows++;
      continue;
    }
    if (DEVICE_HEADER.test(raw)) {
      const cols = tokens(raw).slice(1);
      if (columns.length === 0) columns = cols;
      // iostat -d prints a Device header per report; with avg-cpu the header belongs to the open report.
      if (cur === null || cur.devices.length > 0 || pendingStamp !== null) cur = open(lineNo, 'device');
      let j = i + 1;
      for (; j < lines.length; j++) {
        const l = lines[j]!;
        if (l.trim() === '' || DEVICE_HEADER.test(l) || CPU_HEADER.test(l) || TIMESTAMP_LINE.test(l)) break;
        let t = tokens(l);
        // 10.x puts a long device name (dm/mapper names) on its own line and the numbers on the next.
        if (t.length === 1 && j + 1 < lines.length && tokens(lines[j + 1]!).length === cols.length) {
          t = [t[0]!, ...tokens(lines[j + 1]!)];
          j++;
        }
        const d = deviceRow(t[0]!, t.slice(1), cols, j + 1);
        if (d) cur.devices.push(d);
        else skipped++;
      }
      i = j - 1;
      continue;
    }
  }
  const withData = reports.filter((r) => r.cpu !== null || r.devices.length > 0);
  if (withData.length === 0) return unrecognized(IOSTAT_KIND, 'no avg-cpu values or Device rows found (expected `iostat -x` output)');
  const order = dateOrderOf([banner?.date, ...withData.map((r) => r.timestamp)]);
  const ordered = withData.map((r, k) => ({ ...r, index: k + 1, date: r.timestamp === null ? null : stampIso(r.timestamp, order) }));
  const firstHow = openedWith[reports.indexOf(withData[0]!)];
  let sinceBootNote: string | null = null;
  // iostat's first report covers the time since boot (unless -y). It is the first one in the paste when the
  // banner sits above it, or when several reports follow and the paste starts where a report starts (the same
  // way the others do); a paste that starts mid-report (Device rows before the first avg-cpu) is a later excerpt.
  const sameStart = ordered.length >= 2 && orphanRows === 0 && openedWith.filter((_h, k) => withData.includes(reports[k]!)).every((h) => h === firstHow);
  if (bannerBeforeFirst) {
    ordered[0]!.sinceBoot = true;
    sinceBootNote = `report 1 follows the "Linux … (${banner?.host ?? '?'})" banner: iostat's first report is the average since boot (unless -y was given)`;
  } else if (sameStart) {
    ordered[0]!.sinceBoot = true;
    sinceBootNote = "report 1 of several starts the paste: iostat's first report is the average since boot (unless -y was given)";
  } else if (ordered.length === 1) {
    sinceBootNote = "a single report without the banner: if it was iostat's first report it is the average since boot, not current";
  }
  for (const r of ordered.slice(1)) r.sinceBoot = false;
  if (ordered.length > 1 && ordered[0]!.sinceBoot === null) ordered[0]!.sinceBoot = false;
  const warnings = skipped ? [`${skipped} device row(s) did not match the Device header's ${columns.length} columns and were skipped`] : [];
  return parsedOk(IOSTAT_KIND, { banner, layout: layoutOf(columns), columns, reports: ordered, sinceBootNote }, warnings);
}

/** `iostat [-x] [-t] [-d|-c] [interval [count]]` in any sysstat layout, several reports, since-boot report labelled. */
export const parseIostat = total(IOSTAT_KIND, parse);
