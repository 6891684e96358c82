import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { splitLines } from '../../text.js';

export const TTOP_KIND = 'host.ttop';

/** One thread row of `sjk ttop`: "[000424] user= 2.43% sys= 0.47% alloc= 1170kb/s - RMI TCP Connection(2)-127.0.0.1". */
export interface TtopThread {
  id: number;
  name: string;
  /** The thread's pool: numbering, ":n" suffixes and peer addresses cut ("CoreThread-4" → "CoreThread"). */
  group: string;
  userPct: number;
  sysPct: number;
  allocBytesPerS: number | null;
  line: number;
}

/** One "Process summary" block and the threads listed under it. CPU shares are % of one core, as sjk prints them. */
export interface TtopSample {
  time: string;
  line: number;
  processCpuPct: number | null;
  applicationCpuPct: number | null;
  /** Process CPU outside Java threads: GC, JIT compiler and other native threads. */
  otherCpuPct: number | null;
  /** Newer sjk prints the GC threads' share itself ("GC cpu=…"). */
  gcCpuPct: number | null;
  threadCount: number | null;
  heapAllocBytesPerS: number | null;
  threads: TtopThread[];
}

export interface Ttop {
  samples: TtopSample[];
}

const SUMMARY = /^\s*(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d{4}|Z)?)\s+Process summary\b/;
const THREAD = /^\s*\[(\d+)\]\s+user=\s*(-?[\d.]+)%\s+sys=\s*(-?[\d.]+)%(?:\s+alloc=\s*([\d.]+)(b|kb|mb|gb)\/s)?\s+-\s+(.*)$/;
const UNIT: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
const pct = (re: RegExp, l: string) => {
  const m = re.exec(l);
  return m ? Number(m[1]) : null;
};

/** Pool name of a thread: what is left before a ":", a "-<digit>", a "- <digit>" or a "-/" (sperf groups the same way). */
export function threadGroup(name: string): string {
  let end = name.length;
  for (const re of [/:/, /-\d/, /- \d/, /-\//]) {
    const m = re.exec(name);
    if (m && m.index < end) end = m.index;
  }
  return name.slice(0, end).trimEnd() || name;
}

function parse(text: string): Parsed<Ttop> {
  const lines = splitLines(text);
  const samples: TtopSample[] = [];
  let cur: TtopSample | null = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const s = SUMMARY.exec(l);
    if (s) {
      cur = {
        time: s[1]!,
        line: i + 1,
        processCpuPct: null,
        applicationCpuPct: null,
        otherCpuPct: null,
        gcCpuPct: null,
        threadCount: null,
        heapAllocBytesPerS: null,
        threads: [],
      };
      samples.push(cur);
      continue;
    }
    if (!cur) continue;
    const t = THREAD.exec(l);
    if (t) {
      const name = t[6]!.trim();
      cur.threads.push({
        id: Number(t[1]),
        name,
        group: threadGroup(name),
        userPct: Number(t[2]),
        sysPct: Number(t[3]),
        allocBytesPerS: t[4] ? Number(t[4]) * UNIT[t[5]!]! : null,
        line: i + 1,
      });
      continue;
    }
    cur.processCpuPct ??= pct(/^\s*process cpu=\s*([\d.]+)%/, l);
    cur.applicationCpuPct ??= pct(/^\s*application cpu=\s*([\d.]+)%/, l);
    cur.otherCpuPct ??= pct(/^\s*other:\s*cpu=\s*([\d.]+)%/, l);
    cur.gcCpuPct ??= pct(/^\s*GC cpu=\s*([\d.]+)%/, l);
    cur.threadCount ??= pct(/^\s*thread count:\s*(\d+)/, l);
    const h = /^\s*heap allocation rate\s+([\d.]+)(b|kb|mb|gb)\/s/.exec(l);
    if (h) cur.heapAllocBytesPerS ??= Number(h[1]) * UNIT[h[2]!]!;
  }
  const withData = samples.filter((s) => s.threads.length > 0 || s.processCpuPct !== null);
  if (withData.length === 0) return unrecognized(TTOP_KIND, 'no "… Process summary" block with thread rows (expected `nodetool sjk ttop` output)');
  return parsedOk(TTOP_KIND, { samples: withData });
}

/** `nodetool sjk ttop` / `sjk ttop -p <pid>`: per-thread CPU and allocation, sample after sample. */
export const parseTtop = total(TTOP_KIND, parse);
