import { parsedOk, total, unrecognized } from '../../parsed.js';
import { splitLines } from '../../text.js';

export const YCSB_KIND = 'stress.ycsb';

/** One operation type of a status line ("[READ: Count=125, Max=…, 99=…]"); latencies converted to ms. */
export interface YcsbOpStats {
  count: number | null;
  avgMs: number | null;
  maxMs: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  p999Ms: number | null;
}

/** One 10-second (-s) status line: "… 20 sec: 1054 operations; 68 current ops/sec; … [READ: …] [INSERT: …]". */
export interface YcsbInterval {
  timeS: number;
  operations: number;
  opRate: number | null;
  ops: Record<string, YcsbOpStats>;
}

/** The summary of one operation type ("[READ], 99thPercentileLatency(us), 15983"), in ms. */
export interface YcsbSummaryOp {
  operations: number | null;
  avgMs: number | null;
  minMs: number | null;
  maxMs: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  /** "Return=OK" → count, "Return=NOT_FOUND" → count … */
  returns: Record<string, number>;
}

export interface Ycsb {
  version: string | null;
  /** From the "Command line:" echo: -threads, -target, -p properties. */
  threads: number | null;
  /** -target (op/s); null when absent (closed loop). */
  target: number | null;
  commandLineSeen: boolean;
  properties: Record<string, string>;
  intervals: YcsbInterval[];
  runTimeMs: number | null;
  throughput: number | null;
  /** Client-JVM GC ([TOTAL_GCs], [TOTAL_GC_TIME]). */
  clientGcCount: number | null;
  clientGcTimeMs: number | null;
  ops: Record<string, YcsbSummaryOp>;
}

const n = (s: string | undefined) => {
  if (s === undefined) return null;
  const v = Number(s.trim());
  return Number.isFinite(v) ? v : null;
};
const usToMs = (v: number | null) => (v === null ? null : v / 1000);

function statusOps(text: string): Record<string, YcsbOpStats> {
  const out: Record<string, YcsbOpStats> = {};
  // "[READ: Count=125, Max=…, Avg=…]"; YCSB 0.1–0.5 printed "[READ AverageLatency(us)=10945.5]" (the mean only)
  for (const m of text.matchAll(/\[([A-Z][A-Z0-9_-]*)(?:: | (?=AverageLatency))([^\]]*)\]/g)) {
    const kv: Record<string, string> = {};
    for (const p of m[2]!.split(',')) {
      const [k, v] = p.split('=');
      if (k && v !== undefined) kv[k.trim() === 'AverageLatency(us)' ? 'Avg' : k.trim()] = v.trim();
    }
    const count = n(kv['Count']);
    // An empty interval prints Min=Long.MAX_VALUE and Avg=NaN: no latencies then.
    const empty = count === 0;
    out[m[1]!] = {
      count,
      avgMs: empty ? null : usToMs(n(kv['Avg'])),
      maxMs: empty ? null : usToMs(n(kv['Max'])),
      p90Ms: empty ? null : usToMs(n(kv['90'])),
      p99Ms: empty ? null : usToMs(n(kv['99'])),
      p999Ms: empty ? null : usToMs(n(kv['99.9'])),
    };
  }
  return out;
}

export const parseYcsb = total<Ycsb>(YCSB_KIND, (text) => {
  const lines = splitLines(text);
  const warnings: string[] = [];
  const intervals: YcsbInterval[] = [];
  const ops: Record<string, YcsbSummaryOp> = {};
  const properties: Record<string, string> = {};
  let version: string | null = null;
  let threads: number | null = null;
  let target: number | null = null;
  let commandLineSeen = false;
  let runTimeMs: number | null = null;
  let throughput: number | null = null;
  let clientGcCount: number | null = null;
  let clientGcTimeMs: number | null = null;
  let repeated = 0;
  for (const raw of lines) {
    const line = raw.trim();
    const ver = /^YCSB Client (\S+)/.exec(line);
    if (ver) version = ver[1]!;
    if (/^Command line:/.test(line)) {
      commandLineSeen = true;
      const args = line.replace(/^Command line:\s*/, '').split(/\s+/);
      for (let i = 0; i < args.length; i++) {
        if (args[i] === '-threads') threads = n(args[i + 1]);
        if (args[i] === '-target') target = n(args[i + 1]);
        if (args[i] === '-p' && args[i + 1]?.includes('=')) {
          const [k, ...v] = args[i + 1]!.split('=');
          properties[k!] = v.join('=');
        }
      }
      continue;
    }
    // (?<!\d): start at the first digit of a run, not at each of them (quadratic on a long run of digits).
    const st = /(?<!\d)(\d+) sec: (\d+) operations;(?: ([\d.]+) current ops\/sec;)?(.*)$/.exec(line);
    if (st) {
      const timeS = Number(st[1]);
      const operations = Number(st[2]);
      // the same status line twice (stdout and stderr pasted together): one interval
      const prev = intervals.at(-1);
      if (prev && prev.timeS === timeS && prev.operations === operations) {
        repeated++;
        continue;
      }
      intervals.push({ timeS, operations, opRate: n(st[3]), ops: statusOps(st[4] ?? '') });
      continue;
    }
    const sum = /^\[([A-Z][A-Za-z0-9_%-]*)\],\s*([^,]+),\s*(.+)$/.exec(line);
    if (sum) {
      const [, op, key, val] = sum as unknown as [string, string, string, string];
      const v = n(val);
      if (op === 'OVERALL') {
        if (/^RunTime/.test(key)) runTimeMs = v;
        else if (/^Throughput/.test(key)) throughput = v;
      } else if (op === 'TOTAL_GCs') clientGcCount = v;
      else if (op === 'TOTAL_GC_TIME' && /ms/.test(key)) clientGcTimeMs = v;
      else if (!op.startsWith('TOTAL_GC')) {
        const o = (ops[op] ??= { operations: null, avgMs: null, minMs: null, maxMs: null, p95Ms: null, p99Ms: null, returns: {} });
        const unit = /\(us\)/.test(key) ? 0.001 : 1; // YCSB ≥ 0.2 prints µs; the oldest printed ms
        if (key === 'Operations') o.operations = v;
        else if (/^AverageLatency/.test(key)) o.avgMs = v === null ? null : v * unit;
        else if (/^MinLatency/.test(key)) o.minMs = v === null ? null : v * unit;
        else if (/^MaxLatency/.test(key)) o.maxMs = v === null ? null : v * unit;
        else if (/^95thPercentileLatency/.test(key)) o.p95Ms = v === null ? null : v * unit;
        else if (/^99thPercentileLatency/.test(key)) o.p99Ms = v === null ? null : v * unit;
        else if (/^Return=/.test(key) && v !== null) o.returns[key.slice(7)] = v;
      }
    }
  }
  if (intervals.length === 0 && runTimeMs === null && Object.keys(ops).length === 0)
    return unrecognized(YCSB_KIND, 'no YCSB "[OVERALL], RunTime(ms)" summary or "N sec: M operations" status lines');
  if (repeated) warnings.push(`${repeated} status line(s) repeated the one before (the same time and count): read once`);
  if (runTimeMs === null)
    warnings.push(
      throughput === null
        ? 'no [OVERALL] summary: run still going or output truncated'
        : 'the [OVERALL] summary has no RunTime(ms) line (cut?): the run length is unknown',
    );
  if (!commandLineSeen) warnings.push('no "Command line:" echo: threads and -target (rate) unknown');
  return parsedOk(
    YCSB_KIND,
    { version, threads, target, commandLineSeen, properties, intervals, runTimeMs, throughput, clientGcCount, clientGcTimeMs, ops },
    warnings,
  );
});
