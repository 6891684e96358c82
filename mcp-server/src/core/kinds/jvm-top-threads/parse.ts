/**
 * `top -H -b -n N -p PID` (procps / procps-ng): per-thread CPU of one process, usually the Cassandra JVM.
 * Reads the summary lines when present ("top - … load average", "Threads:"/"Tasks:", "%Cpu(s)"/"Cpu(s)") and
 * the task table under its "PID USER … %CPU … COMMAND" header, in any column order top was configured with.
 * Several iterations (-n 3) give several samples. Thread names are the kernel's, cut to 15 characters
 * (TASK_COMM_LEN 16 with the NUL), so "CompactionExecutor:3" shows as "CompactionExecu". PURE and total.
 */
import { total, unrecognized, type Parsed } from '../../parsed.js';
import { splitLines } from '../../text.js';

export const TOP_THREADS_KIND = 'jvm.top-threads';

export interface TopThread {
  /** The thread id (top -H shows it in the PID column): jstack prints it in hex as nid=0x…. */
  tid: number;
  name: string;
  /** The name with its pool numbering cut ("CompactionExecu" of "CompactionExecutor:3", "GC Thread#" → "GC Thread"). */
  group: string;
  state: string | null;
  /** % of one core over top's interval (Irix mode, top's default): 100 = one core busy. */
  cpuPct: number;
  memPct: number | null;
  /** TIME+ (or TIME) in seconds: CPU the thread used since it started. */
  cpuTimeS: number | null;
  line: number;
  /**
   * The thread-group leader's row (named like the process, "java") when it carries the whole process's CPU and
   * TIME+ rather than its own: procps-ng top -H -p does this (the leader's own task stat reads 0 on an idle main
   * thread). Rules leave it out; its %CPU is the process's, capped at one core.
   */
  processTotal: boolean;
}

export interface TopSample {
  /** "top - 12:16:34 up …" clock, when the summary was pasted. */
  time: string | null;
  line: number;
  loadAverage: [number, number, number] | null;
  threadsTotal: number | null;
  /** Host-wide CPU split from the %Cpu(s) line: us, sy, id, wa, st (%). */
  hostCpu: { user: number; system: number; idle: number; iowait: number; steal: number } | null;
  threads: TopThread[];
}

export interface TopThreads {
  samples: TopSample[];
  /** True when every row is named like the process ("java"): the JVM did not name its native threads. */
  unnamed: boolean;
}

const SUMMARY = /^\s*top - (\d\d?:\d\d:\d\d)\b.*?load average:\s*(\d+[.,]\d+),?\s+(\d+[.,]\d+),?\s+(\d+[.,]\d+)/;
const TASKS = /^\s*(?:Threads|Tasks):\s*(\d+)\s+total/;
const CPU_NEW = /^\s*%?Cpu\(s\):\s*(.*)$/;
// Three separate checks, not one `.*%CPU.*COMMAND$` regex: two greedy runs over one line backtrack once per %CPU
// they pass, quadratic on a long hostile header line.
const HEADER_START = /^\s*PID\s+USER\b/;
const HEADER_END = /\bCOMMAND\s*$/;
const isHeader = (l: string) => HEADER_START.test(l) && l.includes('%CPU') && HEADER_END.test(l);

/** "28.3 us, 16.0 sy" (procps-ng) or "23.4%us, 10.6%sy" (procps 3.2). */
function hostCpu(rest: string): TopSample['hostCpu'] {
  const v: Record<string, number> = {};
  for (const m of rest.matchAll(/([\d.]+)\s*%?\s*(us|sy|ni|id|wa|hi|si|st)\b/g)) v[m[2]!] = Number(m[1]);
  if (v.us === undefined || v.id === undefined) return null;
  return { user: v.us, system: v.sy ?? 0, idle: v.id, iowait: v.wa ?? 0, steal: v.st ?? 0 };
}

/** "128:42.34" (TIME+: minutes:seconds.hundredths), "657:12" (TIME: minutes:seconds), "1234,56" (hours over 99 h). */
function cpuTime(s: string): number | null {
  let m = /^(\d+):(\d\d)(?:\.(\d\d))?$/.exec(s);
  if (m) return Number(m[1]) * 60 + Number(m[2]) + (m[3] ? Number(m[3]) / 100 : 0);
  m = /^(\d+),(\d\d)$/.exec(s);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 : null;
}

/** Pool name of a 15-character thread name: trailing numbering cut ("ReadStage-12", "GC Thread#3", "MutationStage:1"); top's "+" too. */
export function topThreadGroup(name: string): string {
  const base = name.endsWith('+') ? name.slice(0, -1) : name;
  // Walk back over the trailing digits and separators by hand: an end-anchored regex with a nested quantifier
  // rescans from every start position (quadratic on a long hostile COMMAND).
  if (!/\d$/.test(base)) return base;
  let k = base.length;
  while (k > 0 && /[-:#\s\d]/.test(base[k - 1]!)) k--;
  return base.slice(0, k) || base;
}

function parse(text: string): Parsed<TopThreads> {
  const lines = splitLines(text);
  const samples: TopSample[] = [];
  let cur: TopSample | null = null;
  let cols: string[] | null = null;
  const fresh = (line: number): TopSample => ({ time: null, line, loadAverage: null, threadsTotal: null, hostCpu: null, threads: [] });
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const s = SUMMARY.exec(l);
    if (s) {
      cur = fresh(i + 1);
      samples.push(cur);
      cur.time = s[1]!;
      const n = (x: string) => Number(x.replace(',', '.'));
      cur.loadAverage = [n(s[2]!), n(s[3]!), n(s[4]!)];
      cols = null;
      continue;
    }
    const t = TASKS.exec(l);
    if (t) {
      if (!cur || cur.threads.length > 0 || cur.threadsTotal !== null) samples.push((cur = fresh(i + 1)));
      cur.threadsTotal = Number(t[1]);
      continue;
    }
    const c = CPU_NEW.exec(l);
    if (c && cur) {
      cur.hostCpu = hostCpu(c[1]!);
      continue;
    }
    if (isHeader(l)) {
      cols = l.trim().split(/\s+/);
      if (!cur || cur.threads.length > 0) samples.push((cur = fresh(i + 1)));
      continue;
    }
    if (!cols || !cur) continue;
    if (l.trim() === '') continue;
    const f = l.trim().split(/\s+/);
    // COMMAND is last and may hold spaces ("C2 CompilerThre"): everything after the other columns.
    if (f.length < cols.length) continue;
    const at = (name: string) => {
      const k = cols!.indexOf(name);
      return k >= 0 && k < cols!.length - 1 ? f[k]! : null;
    };
    const pid = at('PID');
    const cpu = at('%CPU');
    if (!pid || !/^\d+$/.test(pid) || !cpu || !/^[\d.,]+$/.test(cpu)) continue;
    const name = f.slice(cols.length - 1).join(' ');
    const mem = at('%MEM');
    const time = at('TIME+') ?? at('TIME');
    cur.threads.push({
      tid: Number(pid),
      name,
      group: topThreadGroup(name),
      state: at('S'),
      cpuPct: Number(cpu.replace(',', '.')),
      memPct: mem && /^[\d.,]+$/.test(mem) ? Number(mem.replace(',', '.')) : null,
      cpuTimeS: time ? cpuTime(time) : null,
      line: i + 1,
      processTotal: false,
    });
  }
  const withRows = samples.filter((s) => s.threads.length > 0);
  for (const s of withRows) markProcessTotal(s);
  if (withRows.length === 0) return unrecognized(TOP_THREADS_KIND, 'no task rows under a "PID USER … %CPU … COMMAND" header');
  const names = new Set(withRows.flatMap((s) => s.threads.map((t) => t.name)));
  const unnamed = names.size === 1 && PROCESS_NAME.test([...names][0]!);
  const warnings: string[] = [];
  if (withRows.some((s) => s.hostCpu === null && s.time === null)) warnings.push('no top summary lines: host CPU and load average unknown');
  if (withRows.some((s) => s.threads.some((t) => t.processTotal))) {
    warnings.push("the process leader row carries the whole process's CPU and TIME+ (procps top -H -p): left out of the per-thread figures");
  }
  return { ok: true, kind: TOP_THREADS_KIND, value: { samples: withRows, unnamed }, warnings };
}

const PROCESS_NAME = /^(?:java|scylla|dse|cassandra)$/;

/**
 * The process-named row with the most TIME+ is the process, not a thread, when it has at least what all other rows
 * have together (a JVM also runs other threads named "java", e.g. the launcher's main thread).
 */
function markProcessTotal(s: TopSample): void {
  const named = s.threads.filter((t) => PROCESS_NAME.test(t.name) && t.cpuTimeS !== null);
  if (named.length === 0 || s.threads.length < 3) return;
  const lead = named.reduce((a, b) => (b.cpuTimeS! > a.cpuTimeS! ? b : a));
  const rest = s.threads.reduce((a, t) => a + (t === lead ? 0 : (t.cpuTimeS ?? 0)), 0);
  if (rest > 0 && lead.cpuTimeS! >= rest * 0.95) lead.processTotal = true;
}

export const parseTopThreads = total(TOP_THREADS_KIND, parse);

/** Detection signature: top's task-table header (a batch "top -H" or a plain top of the JVM). */
export const topThreadsSignature = /^[ \t]*PID[ \t]+USER[ \t]+[^\n%]*(?:%(?!CPU)[^\n%]*)*%CPU[^\n]*COMMAND[ \t]*$/m;
