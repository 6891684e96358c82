import { parsedOk, total, unrecognized } from '../../parsed.js';
import { finiteNumber, stringOrNull } from '../../json-values.js';
import { cleanLines } from '../../text.js';

export const LATTE_TEXT_KIND = 'stress.latte';
export const LATTE_JSON_KIND = 'stress.latte-json';

/**
 * One statistic of a latte report: "133849 ± 6084   137884 ± 2342   -2.9%  (   ) 0.0540".
 * The baseline ("Other") columns, change and p-value are null when the run was not compared (-x / --baseline).
 */
export interface LatteStat {
  value: number | null;
  /** The "±" error (latte prints a confidence half-width / standard error). */
  err: number | null;
  baseline: number | null;
  baselineErr: number | null;
  /** "Change" column, percent (this vs baseline). */
  changePercent: number | null;
  /** Significance marks between the parentheses: "" (not significant), "*", "**", "***". */
  significance: string | null;
  /** Welch t-test p-value printed by latte; < 0.05 means a statistically significant difference. */
  pValue: number | null;
}

/** One row of the LOG table (one sampling interval). Latencies in ms. */
export interface LatteLogRow {
  timeS: number | null;
  /** req/s (latte 0.x) or op/s (latte 0.2x+ "Thrpt." column). */
  throughput: number | null;
  cycles: number | null;
  errors: number | null;
  /** Percentile label as printed ("Min", "25", "50", "99", "99.9", "Max") → ms. */
  latencyMs: Record<string, number | null>;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export interface LatteSeries {
  timeS: (number | null)[];
  throughput: (number | null)[];
  p50Ms: (number | null)[];
  p99Ms: (number | null)[];
  maxMs: (number | null)[];
}

export interface LatteText {
  /** 'legacy': latte 0.x "Label  [unit]: value" report (README 2020); 'modern': latte 0.2x+ "═══" boxed report. */
  format: 'legacy' | 'modern';
  /** true when any statistic carries baseline ("Other") values. */
  hasBaseline: boolean;
  /** CONFIG section, label (with unit) → the run's value as printed. */
  config: Record<string, string>;
  workload: string | null;
  cluster: string | null;
  cassandraVersion: string | null;
  threads: number | null;
  connections: number | null;
  /** "Max parallelism [req]" (legacy) or "Concurrency [req]" (modern) from CONFIG. */
  concurrency: number | null;
  log: LatteLogRow[];
  series: LatteSeries;
  /** SUMMARY STATS, keyed by lower-case label with unit ("throughput [req/s]", "errors [op]"). */
  summary: Record<string, LatteStat>;
  /** Mean throughput (req/s legacy, op/s modern). */
  throughput: LatteStat | null;
  throughputUnit: string | null;
  /** "Mean resp. time [ms]" (legacy) or "Cycle latency [ms]" (modern). */
  meanLatency: LatteStat | null;
  elapsedS: number | null;
  errors: number | null;
  /** Completed requests (legacy) or cycles (modern). */
  completed: number | null;
  /** "MEAN RESPONSE TIMES [ms]" (legacy) or the first "CYCLE LATENCY … [ms]" section: label → stat, ms. */
  latencyPercentiles: Record<string, LatteStat>;
  /** Modern per-function sections "CYCLE LATENCY for read [ms]" keyed by function name. */
  latencyByFunction: Record<string, Record<string, LatteStat>>;
  /** "THROUGHPUT DISTRIBUTION [req/s]" (legacy) label → stat. */
  throughputDistribution: Record<string, LatteStat>;
  p50Ms: number | null;
  p99Ms: number | null;
  p999Ms: number | null;
  maxMs: number | null;
  /** Every statistic that printed a p-value, "section: key" → p-value. */
  pValues: Record<string, number>;
  /** Lines of an ERRORS section, when printed. */
  errorMessages: string[];
  sections: string[];
}

const NUM = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
const PCT = String.raw`(?:\s*\(\s*[-+]?\d+(?:\.\d+)?\s*%\s*\))?`;
const STAT = new RegExp(
  String.raw`^(${NUM})(?:\s*±\s*(${NUM}))?${PCT}` +
    String.raw`(?:\s+(${NUM})(?:\s*±\s*(${NUM}))?${PCT})?` +
    String.raw`(?:\s+([-+]\d+(?:\.\d+)?)\s*%)?` +
    String.raw`(?:\s*\(\s*(\**)\s*\))?` +
    String.raw`(?:\s+(${NUM}))?\s*$`,
);

function n(text: string | undefined): number | null {
  if (text === undefined) return null;
  const v = Number(text);
  return Number.isFinite(v) ? v : null;
}

export function parseLatteStat(text: string): LatteStat | null {
  const m = STAT.exec(text.trim());
  if (!m) return null;
  return {
    value: n(m[1]),
    err: n(m[2]),
    baseline: n(m[3]),
    baselineErr: n(m[4]),
    changePercent: n(m[5]),
    significance: m[6] !== undefined ? m[6] : null,
    pValue: n(m[7]),
  };
}

const SECTION = /^([A-Z][A-Z0-9]*(?: [A-Za-z0-9.()[\]/_:-]+)*?)\s*[=═]{4,}\s*$/;
const TREE = /^[├└│]─*\s*(.*)$/;

function norm(label: string, unit: string | null): string {
  const l = label.trim().toLowerCase().replace(/\s+/g, ' ');
  return unit ? `${l} [${unit.trim()}]` : l;
}

interface Row {
  key: string;
  label: string;
  values: string;
}

/** Splits one report row into a key ("throughput [req/s]") and its value text, for both report styles. */
function splitRow(line: string, parent: string, percentileSection: boolean, legacyStyle: boolean): Row | null {
  const t = line.trim();
  const tree = TREE.exec(t);
  if (tree) {
    const m = /^(.*?)\s*\[([^\]]*)\]\s*(.*)$/.exec(tree[1]!);
    if (!m) return null;
    const label = m[1]!.trim() || parent;
    return { key: norm(label, m[2]!), label, values: m[3]! };
  }
  // legacy: "Throughput [req/s]:    133849 ± 6084 …", "Min        :   1.29 ± 0.51 …", "Date : Tue, 13 Oct 2020"
  const legacy = /^([^:[]+?)\s*(?:\[([^\]]*)\])?\s*:\s*(.*)$/.exec(t);
  if (legacyStyle && legacy) return { key: norm(legacy[1]!, legacy[2] ?? null), label: legacy[1]!.trim(), values: legacy[3]! };
  if (percentileSection) {
    const p = /^(Min|Max|Mean|\d+(?:\.\d+)?)\s+(.*)$/.exec(t);
    if (p) return { key: norm(p[1]!, null), label: p[1]!, values: p[2]! };
  }
  const withUnit = /^(.+?)\s+\[([^\]]*)\]\s*(.*)$/.exec(t);
  if (withUnit) return { key: norm(withUnit[1]!, withUnit[2]!), label: withUnit[1]!.trim(), values: withUnit[3]! };
  const plain = /^(\S.*?)(?:\s{2,}(\S.*))?$/.exec(t);
  if (plain) return { key: norm(plain[1]!, null), label: plain[1]!.trim(), values: plain[2] ?? '' };
  return null;
}

function pick(rec: Record<string, LatteStat>, keys: string[]): LatteStat | null {
  for (const k of keys) if (rec[k]) return rec[k];
  return null;
}

function emptySeries(): LatteSeries {
  return { timeS: [], throughput: [], p50Ms: [], p99Ms: [], maxMs: [] };
}

export const parseLatteText = total<LatteText>(LATTE_TEXT_KIND, (text) => {
  const lines = cleanLines(text);
  const warnings: string[] = [];
  const sections: string[] = [];
  const config: Record<string, string> = {};
  const summary: Record<string, LatteStat> = {};
  const latencyByFunction: Record<string, Record<string, LatteStat>> = {};
  let latencyPercentiles: Record<string, LatteStat> | null = null;
  const throughputDistribution: Record<string, LatteStat> = {};
  const pValues: Record<string, number> = {};
  const errorMessages: string[] = [];
  const log: LatteLogRow[] = [];
  let format: LatteText['format'] | null = null;
  let section = '';
  let parent = '';
  let logNames: string[] | null = null;
  let logCols: string[] | null = null;
  let pendingNames: string[] | null = null;

  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    const sec = SECTION.exec(line);
    if (sec) {
      section = sec[1]!.trim();
      sections.push(section);
      if (format === null) format = /═/.test(line) ? 'modern' : 'legacy';
      parent = '';
      logNames = logCols = pendingNames = null;
      continue;
    }
    if (section === '' || /^[─-]{10,}$/.test(line)) continue;
    const upper = section.toUpperCase();

    if (upper === 'LOG') {
      if (/^Time\b/.test(line) && /(Throughput|Thrpt)/.test(line)) {
        pendingNames = [];
        for (const tok of line.split(/\s+/)) {
          if (/^[-─]/.test(tok)) break;
          pendingNames.push(tok);
        }
        continue;
      }
      if (pendingNames && /^\[s\]/.test(line)) {
        logNames = pendingNames;
        logCols = line.split(/\s+/);
        pendingNames = null;
        continue;
      }
      if (logNames && logCols) {
        const toks = line.split(/\s+/);
        if (toks.length === logCols.length && toks.every((t) => /^-?\d+(?:\.\d+)?$/.test(t))) {
          const units = logCols.filter((c) => /^\[.*\]$/.test(c)).length;
          const row: LatteLogRow = { timeS: null, throughput: null, cycles: null, errors: null, latencyMs: {}, p50Ms: null, p99Ms: null, maxMs: null };
          for (let i = 0; i < toks.length; i++) {
            const v = n(toks[i]);
            if (i < units) {
              const name = (logNames[i] ?? '').toLowerCase();
              if (name === 'time') row.timeS = v;
              else if (name === 'throughput' || name === 'thrpt.' || name === 'thrpt') row.throughput = v;
              else if (name === 'cycles') row.cycles = v;
              else if (name === 'errors') row.errors = v;
            } else {
              row.latencyMs[logCols[i]!] = v;
            }
          }
          row.p50Ms = row.latencyMs['50'] ?? null;
          row.p99Ms = row.latencyMs['99'] ?? null;
          row.maxMs = row.latencyMs['Max'] ?? null;
          log.push(row);
        }
      }
      continue; // info:/Running… progress lines
    }

    if (/ERROR/.test(upper)) {
      if (errorMessages.length < 50) errorMessages.push(line.slice(0, 300));
      continue;
    }
    if (upper === 'RESPONSE TIME DISTRIBUTION') continue; // histogram bars

    // The "---- This ---- ---- Other ----  Change  P-value" column header of comparison reports.
    if (/^[-─]+\s*This\s*[-─]+/.test(line)) continue;

    const pctSection = /LATENCY|RESPONSE TIMES|DISTRIBUTION/.test(upper);
    const row = splitRow(raw, parent, pctSection, format === 'legacy');
    if (!row) continue;
    if (!TREE.test(line)) parent = row.label;

    if (upper === 'CONFIG') {
      // A comparison prints "This" and "Other" values side by side: keep this run's.
      config[row.key] = row.values.trim().split(/\s{2,}/)[0] ?? '';
      continue;
    }
    const stat = parseLatteStat(row.values);
    if (!stat) continue;
    if (stat.pValue !== null) pValues[`${section}: ${row.key}`] = stat.pValue;
    if (upper === 'SUMMARY STATS' || upper === 'SUMMARY') {
      summary[row.key] = stat;
    } else if (/^THROUGHPUT/.test(upper)) {
      throughputDistribution[row.label] = stat;
    } else if (pctSection) {
      const fn = /\bfor\s+(\S+)/.exec(section)?.[1];
      if (fn) (latencyByFunction[fn] ??= {})[row.label] = stat;
      else (latencyPercentiles ??= {})[row.label] = stat;
    }
  }
  if (latencyPercentiles === null) {
    const first = Object.keys(latencyByFunction)[0];
    if (first !== undefined) latencyPercentiles = latencyByFunction[first] ?? null;
  }

  if (format === null || (Object.keys(summary).length === 0 && log.length === 0 && Object.keys(config).length === 0)) {
    return unrecognized(LATTE_TEXT_KIND, 'no latte report sections (CONFIG / LOG / SUMMARY STATS with "═══" or "===" rulers)');
  }
  if (Object.keys(summary).length === 0) warnings.push('no SUMMARY STATS section (report truncated?)');

  // legacy reports requests per second; modern reports cycles (op/s) first, requests and rows as sub-rows.
  const order = format === 'legacy' ? ['throughput [req/s]', 'throughput [op/s]'] : ['throughput [op/s]', 'throughput [req/s]'];
  const throughputKey = order.find((k) => summary[k] !== undefined) ?? null;
  const throughput = throughputKey ? summary[throughputKey]! : null;
  const throughputUnit = throughputKey ? /\[(.*)\]/.exec(throughputKey)![1]! : null;
  const lp: Record<string, LatteStat> = latencyPercentiles ?? {};
  const cfgNum = (...keys: string[]) => {
    for (const k of keys) {
      const v = config[k];
      if (v !== undefined && /^\d+(?:\.\d+)?$/.test(v.trim())) return Number(v.trim());
    }
    return null;
  };
  const cfgStr = (...keys: string[]) => {
    for (const k of keys) {
      const v = config[k];
      if (v !== undefined && v.trim() !== '') return v.trim();
    }
    return null;
  };
  const all = [...Object.values(summary), ...Object.values(lp), ...Object.values(throughputDistribution)];
  const value: LatteText = {
    format,
    hasBaseline: all.some((s) => s.baseline !== null),
    config,
    workload: cfgStr('workload'),
    cluster: cfgStr('cluster'),
    cassandraVersion: cfgStr('cass. version'),
    threads: cfgNum('threads'),
    connections: cfgNum('connections'),
    concurrency: cfgNum('max parallelism [req]', 'concurrency [req]'),
    log,
    series: log.length
      ? {
          timeS: log.map((r) => r.timeS),
          throughput: log.map((r) => r.throughput),
          p50Ms: log.map((r) => r.p50Ms),
          p99Ms: log.map((r) => r.p99Ms),
          maxMs: log.map((r) => r.maxMs),
        }
      : emptySeries(),
    summary,
    throughput,
    throughputUnit,
    meanLatency: pick(summary, ['mean resp. time [ms]', 'cycle latency [ms]', 'request latency [ms]', 'mean latency [ms]']),
    elapsedS: pick(summary, ['elapsed [s]', 'elapsed time [s]'])?.value ?? null,
    errors: pick(summary, ['errors [req]', 'errors [op]'])?.value ?? null,
    completed: pick(summary, ['completed [req]', 'cycles [op]'])?.value ?? null,
    latencyPercentiles: lp,
    latencyByFunction,
    throughputDistribution,
    p50Ms: lp['50']?.value ?? null,
    p99Ms: lp['99']?.value ?? null,
    p999Ms: lp['99.9']?.value ?? null,
    maxMs: lp['Max']?.value ?? null,
    pValues,
    errorMessages,
    sections,
  };
  return parsedOk(LATTE_TEXT_KIND, value, warnings);
});

// ---------------------------------------------------------------------------------------------------------------
// latte JSON report (`latte run … -o report.json`; latte 0.2x+ "conf" / "percentiles" / "result")

export interface LatteJsonLogRow {
  timeS: number | null;
  durationS: number | null;
  throughput: number | null;
  cycles: number | null;
  errors: number | null;
  meanMs: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  meanQueueLen: number | null;
}

export interface LatteJson {
  workload: string | null;
  functions: string[];
  cluster: string | null;
  cassandraVersion: string | null;
  consistency: string | null;
  threads: number | null;
  concurrency: number | null;
  /** Configured rate limit (op/s); null when unthrottled. */
  rate: number | null;
  baseline: string | null;
  startTime: string | null;
  elapsedS: number | null;
  cpuUtilPercent: number | null;
  cycles: number | null;
  requests: number | null;
  rows: number | null;
  retries: number | null;
  errors: number | null;
  errorMessages: string[];
  /** Cycle throughput, op/s, with its standard error. */
  throughput: number | null;
  throughputStdErr: number | null;
  requestThroughput: number | null;
  meanConcurrency: number | null;
  meanLatencyMs: number | null;
  meanLatencyStdErr: number | null;
  /** Cycle latency percentiles: "50", "99", "99.9", "100" … (as in the top-level "percentiles" list) → ms. */
  latencyPercentilesMs: Record<string, number | null>;
  p50Ms: number | null;
  p99Ms: number | null;
  p999Ms: number | null;
  maxMs: number | null;
  log: LatteJsonLogRow[];
  series: LatteSeries;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const numOf = finiteNumber;
const strOf = stringOrNull;
/** latte serialises estimates as {n, value, std_err}; older versions as plain numbers. */
const est = (v: unknown): number | null => (isObj(v) ? numOf(v['value']) : numOf(v));
const estErr = (v: unknown): number | null => (isObj(v) ? numOf(v['std_err']) : null);

function pctLabel(p: number): string {
  return String(p).replace(/\.0+$/, '');
}

function latencies(lat: unknown, pcts: number[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  if (!isObj(lat)) return out;
  const list = lat['percentiles'];
  if (Array.isArray(list)) {
    list.forEach((p, i) => {
      const at = pcts[i];
      if (at !== undefined) out[pctLabel(at)] = est(p);
    });
  } else if (isObj(list)) {
    for (const [k, v] of Object.entries(list)) out[pctLabel(Number(k))] = est(v);
  }
  return out;
}

export const parseLatteJson = total<LatteJson>(LATTE_JSON_KIND, (text) => {
  const t = text.trim();
  if (!t.startsWith('{')) return unrecognized(LATTE_JSON_KIND, 'not a JSON object');
  let doc: unknown;
  try {
    doc = JSON.parse(t);
  } catch (err) {
    return unrecognized(LATTE_JSON_KIND, `invalid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isObj(doc) || !isObj(doc['result'])) return unrecognized(LATTE_JSON_KIND, 'JSON without a latte "result" object');
  const warnings: string[] = [];
  const conf: Obj = isObj(doc['conf']) ? doc['conf'] : {};
  if (!isObj(doc['conf'])) warnings.push('no "conf" object: run settings unknown');
  const r = doc['result'];
  const pcts = Array.isArray(doc['percentiles']) ? doc['percentiles'].map((p) => (typeof p === 'number' ? p : NaN)) : [];
  if (pcts.length === 0) warnings.push('no top-level "percentiles" list: latency percentiles cannot be labelled');
  const lat = latencies(r['cycle_latency'], pcts);
  const logRaw = Array.isArray(r['log']) ? r['log'] : [];
  const log: LatteJsonLogRow[] = logRaw.filter(isObj).map((s) => {
    const l = latencies(s['cycle_latency'], pcts);
    return {
      timeS: numOf(s['time_s']),
      durationS: numOf(s['duration_s']),
      throughput: numOf(s['cycle_throughput']) ?? est(s['cycle_throughput']),
      cycles: numOf(s['cycle_count']),
      errors: numOf(s['cycle_error_count']) ?? numOf(s['req_error_count']),
      meanMs: isObj(s['cycle_latency']) ? est(s['cycle_latency']['mean']) : null,
      p50Ms: l['50'] ?? null,
      p99Ms: l['99'] ?? null,
      maxMs: l['100'] ?? null,
      meanQueueLen: numOf(s['mean_queue_len']),
    };
  });
  const functions = Array.isArray(conf['functions'])
    ? conf['functions'].filter(isObj).map((f) => `${strOf(f['name']) ?? '?'}${numOf(f['weight']) !== null ? `:${numOf(f['weight'])}` : ''}`)
    : [];
  const connection = isObj(conf['connection']) ? conf['connection'] : {};
  const errs = Array.isArray(r['errors']) ? r['errors'].map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).slice(0, 50) : [];
  const baseline = conf['baseline'];
  const value: LatteJson = {
    workload: strOf(conf['workload']),
    functions,
    cluster: strOf(conf['cluster_name']),
    cassandraVersion: strOf(conf['cass_version']),
    consistency: strOf(connection['consistency']),
    threads: numOf(conf['threads']),
    concurrency: numOf(conf['concurrency']),
    rate: numOf(conf['rate']),
    baseline: baseline === null || baseline === undefined ? null : typeof baseline === 'string' ? baseline : JSON.stringify(baseline),
    startTime: strOf(r['start_time']),
    elapsedS: numOf(r['elapsed_time_s']),
    cpuUtilPercent: numOf(r['cpu_util']),
    cycles: numOf(r['cycle_count']),
    requests: numOf(r['request_count']),
    rows: numOf(r['row_count']),
    retries: numOf(r['request_retry_count']),
    errors: numOf(r['error_count']),
    errorMessages: errs,
    throughput: est(r['cycle_throughput']),
    throughputStdErr: estErr(r['cycle_throughput']),
    requestThroughput: est(r['req_throughput']),
    meanConcurrency: est(r['concurrency']),
    meanLatencyMs: isObj(r['cycle_latency']) ? est(r['cycle_latency']['mean']) : null,
    meanLatencyStdErr: isObj(r['cycle_latency']) ? estErr(r['cycle_latency']['mean']) : null,
    latencyPercentilesMs: lat,
    p50Ms: lat['50'] ?? null,
    p99Ms: lat['99'] ?? null,
    p999Ms: lat['99.9'] ?? null,
    maxMs: lat['100'] ?? null,
    log,
    series: {
      timeS: log.map((x) => x.timeS),
      throughput: log.map((x) => x.throughput),
      p50Ms: log.map((x) => x.p50Ms),
      p99Ms: log.map((x) => x.p99Ms),
      maxMs: log.map((x) => x.maxMs),
    },
  };
  if (value.throughput === null && value.cycles === null) warnings.push('result has neither throughput nor cycle count');
  return parsedOk(LATTE_JSON_KIND, value, warnings);
});
