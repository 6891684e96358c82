import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';

export const SCYLLA_BENCH_KIND = 'stress.scylla-bench';

export interface ScyllaBenchLatency {
  maxMs: number | null;
  p999Ms: number | null;
  p99Ms: number | null;
  p95Ms: number | null;
  p90Ms: number | null;
  medianMs: number | null;
  meanMs: number | null;
}

/** One interval row ("time ops/s rows/s errors max 99.9th 99th 95th 90th median mean"). Times in s, latencies in ms. */
export interface ScyllaBenchInterval extends ScyllaBenchLatency {
  timeS: number | null;
  opRate: number | null;
  rowRate: number | null;
  errors: number | null;
}

export interface ScyllaBench {
  /** "Configuration" block, key → value as printed ("Mode" → "read", "Maximum rate" → "32000 op/s"). */
  config: Record<string, string>;
  mode: string | null;
  workload: string | null;
  concurrency: number | null;
  /** "Maximum rate: N op/s"; null when "unlimited" or not printed (see rateKnown). */
  maxRate: number | null;
  rateKnown: boolean;
  intervals: ScyllaBenchInterval[];
  /** "Results" block. */
  timeS: number | null;
  totalOps: number | null;
  totalRows: number | null;
  totalErrors: number | null;
  opRate: number | null;
  rowRate: number | null;
  /** Latency as measured from the actual send ("raw latency") … */
  raw: ScyllaBenchLatency | null;
  /** … and from the intended send time under -max-rate ("c-o fixed latency", coordinated-omission corrected). */
  coFixed: ScyllaBenchLatency | null;
  criticalErrors: string[];
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, μs: 0.001, ns: 0.000001 };

/** Go time.Duration text ("1.6s", "803ms", "1m2.5s", "850µs", "0s") → milliseconds; null when not a duration. */
export function goDurationMs(text: string): number | null {
  const t = text.trim();
  if (t === '0') return 0;
  if (!/^(?:\d+(?:\.\d+)?(?:h|ms|m|s|us|µs|μs|ns))+$/.test(t)) return null;
  let ms = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|μs|ns)/g)) ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms;
}

const HEADER = /^time\s+(?:ops|operations)\/s\s+rows\/s\s+errors\s+max\s+99\.9th\s+99th\s+95th\s+90th\s+median\s+mean\b/;

/** The first keys of the Results block, which a paste may start at without its "Results" title. */
const RESULT_KEY = /^(?:Time \(avg\)|Total ops|Total rows|Total errors|Operations\/s|Rows\/s)\s*:\s*\S/;

const GO_LOG_DATE = /^\d{4}\/\d\d\/\d\d$/;

function latencyBlock(lines: string[], start: number): ScyllaBenchLatency {
  const out: ScyllaBenchLatency = { maxMs: null, p999Ms: null, p99Ms: null, p95Ms: null, p90Ms: null, medianMs: null, meanMs: null };
  const key: Record<string, keyof ScyllaBenchLatency> = {
    max: 'maxMs',
    '99.9th': 'p999Ms',
    '99th': 'p99Ms',
    '95th': 'p95Ms',
    '90th': 'p90Ms',
    median: 'medianMs',
    mean: 'meanMs',
  };
  for (let i = start; i < Math.min(lines.length, start + 8); i++) {
    const m = /^\s*(max|99\.9th|99th|95th|90th|median|mean):\s*(\S+)\s*$/.exec(lines[i]!);
    if (m) out[key[m[1]!]!] = goDurationMs(m[2]!);
  }
  return out;
}

const num = (s: string | undefined) => {
  if (s === undefined) return null;
  const v = Number(s.replace(/,/g, ''));
  return Number.isFinite(v) ? v : null;
};

export const parseScyllaBench = total<ScyllaBench>(SCYLLA_BENCH_KIND, (text) => {
  const lines = cleanLines(text);
  const warnings: string[] = [];
  const config: Record<string, string> = {};
  const intervals: ScyllaBenchInterval[] = [];
  const criticalErrors: string[] = [];
  let inConfig = false;
  let header = false;
  let inResults = false;
  let headerless = 0;
  const infinite: string[] = [];
  const res: Pick<ScyllaBench, 'timeS' | 'totalOps' | 'totalRows' | 'totalErrors' | 'opRate' | 'rowRate' | 'raw' | 'coFixed'> = {
    timeS: null,
    totalOps: null,
    totalRows: null,
    totalErrors: null,
    opRate: null,
    rowRate: null,
    raw: null,
    coFixed: null,
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === 'Configuration') {
      inConfig = true;
      continue;
    }
    if (HEADER.test(line)) {
      header = true;
      inConfig = false;
      continue;
    }
    if (line === 'Results' || (!inConfig && RESULT_KEY.test(line))) {
      // a Results block pasted without its "Results" title starts at its first key
      inResults = true;
      header = false;
      if (line === 'Results') continue;
    }
    if (inConfig) {
      const kv = /^([A-Za-z][A-Za-z ()]*?):\s*(.*)$/.exec(line);
      if (kv) {
        config[kv[1]!.trim()] = kv[2]!.trim();
        continue;
      }
      if (line === '') inConfig = false;
    }
    if (!inResults) {
      // rows are read with or without their header (a paste can start below it); a row may carry a Go log line
      // ("2023/03/01 19:59:48 [query …] || retry: …") that the retry logger wrote before the newline
      const cells = line.split(/\s+/);
      if (cells.length === 11 || (cells.length > 11 && (header || GO_LOG_DATE.test(cells[11]!)))) {
        const t = goDurationMs(cells[0]!);
        const lat = cells.slice(4, 11).map(goDurationMs);
        if (t !== null && lat.every((x) => x !== null) && num(cells[1]) !== null) {
          if (!header) headerless++;
          intervals.push({
            timeS: t / 1000,
            opRate: num(cells[1]),
            rowRate: num(cells[2]),
            errors: num(cells[3]),
            maxMs: lat[0]!,
            p999Ms: lat[1]!,
            p99Ms: lat[2]!,
            p95Ms: lat[3]!,
            p90Ms: lat[4]!,
            medianMs: lat[5]!,
            meanMs: lat[6]!,
          });
          continue;
        }
      }
    }
    if (inResults) {
      const kv = /^([A-Za-z/ ()-]+?)\s*:\s*(.*)$/.exec(line);
      if (kv) {
        const k = kv[1]!.trim();
        const v = kv[2]!.trim();
        if (k === 'Time (avg)') res.timeS = (goDurationMs(v) ?? NaN) / 1000 || null;
        else if (k === 'Total ops') res.totalOps = num(v);
        else if (k === 'Total rows') res.totalRows = num(v);
        else if (k === 'Total errors') res.totalErrors = num(v);
        else if (k === 'Operations/s') res.opRate = num(v);
        else if (k === 'Rows/s') res.rowRate = num(v);
        if ((k === 'Operations/s' || k === 'Rows/s') && /^[+-]?Inf$/i.test(v)) infinite.push(k);
        else if (k === 'raw latency') res.raw = latencyBlock(lines, i + 1);
        else if (k === 'c-o fixed latency') res.coFixed = latencyBlock(lines, i + 1);
        continue;
      }
    }
    if (/^Following critical errors were caught/.test(line)) {
      for (let j = i + 1; j < lines.length && criticalErrors.length < 20 && lines[j]!.trim(); j++) criticalErrors.push(lines[j]!.trim().slice(0, 300));
    }
  }
  if (intervals.length === 0 && res.opRate === null && res.totalOps === null)
    return unrecognized(SCYLLA_BENCH_KIND, 'no scylla-bench interval table ("time ops/s rows/s errors max …") or Results block');
  if (headerless > 0) warnings.push(`${headerless} interval row(s) without the "time ops/s rows/s errors max …" header line: columns read in its order`);
  if (infinite.length) {
    warnings.push(`${infinite.join(' and ')} printed as +Inf: the summary divided by a zero duration, so the rate is unknown (scylla-bench#95)`);
  } else if (res.opRate === null) warnings.push('no Results block: run still going or output truncated; figures come from the intervals');
  const rate = config['Maximum rate'];
  const value: ScyllaBench = {
    config,
    mode: config['Mode'] ?? null,
    workload: config['Workload'] ?? null,
    concurrency: num(config['Concurrency']),
    maxRate: rate && /op\/s/.test(rate) ? num(rate.replace(/op\/s/, '').trim()) : null,
    rateKnown: rate !== undefined,
    intervals,
    ...res,
    criticalErrors,
  };
  return parsedOk(SCYLLA_BENCH_KIND, value, warnings);
});
