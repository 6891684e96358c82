/**
 * The Prometheus text exposition format (version 0.0.4, also what OpenMetrics text mostly is) → samples.
 * Spec: github.com/prometheus/docs content/docs/instrumenting/exposition_formats.md. Written here rather than
 * taken from npm: the one parser there (parse-prometheus-text-format 1.1.1) throws on a bad line and has not
 * changed since 2019; this one never throws, counts what it skipped, and keeps only the names asked for, so a
 * multi-megabyte ScyllaDB page costs no more memory than the few families a signal reads.
 *
 * Accepted: `# HELP` / `# TYPE` / other comments, blank lines, `name{label="v",…} value [timestamp_ms]`,
 * escapes \\ \" \n in label values, NaN / +Inf / -Inf, a trailing comma in the label set, `# EOF`.
 */
export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface ExpositionSample {
  name: string;
  labels: Record<string, string>;
  value: number;
  /** Milliseconds since the epoch, when the exporter gave one. */
  timestampMs?: number;
}

export interface Exposition {
  samples: ExpositionSample[];
  /** Family name → declared type (from `# TYPE`). */
  types: Map<string, MetricType>;
  /** Every sample name seen, kept or not (to say which exporter naming a page has). */
  names: Set<string>;
  /** Lines that were neither a comment nor a well-formed sample. */
  skipped: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string): number | null {
  switch (text) {
    case 'NaN':
      return NaN;
    case '+Inf':
    case 'Inf':
      return Infinity;
    case '-Inf':
      return -Infinity;
  }
  // `\d+(?:\.\d*)?`, not `\d+\.?\d*`: the latter splits a long digit run every way before failing (quadratic).
  if (!/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(text)) return null;
  return Number(text);
}

/** `{a="1",b="x\"y"}` starting at `i` → labels and the index after `}`, or null when malformed. */
function parseLabels(line: string, i: number): { labels: Record<string, string>; end: number } | null {
  const labels: Record<string, string> = {};
  let p = i + 1;
  for (;;) {
    while (line[p] === ' ') p++;
    if (line[p] === '}') return { labels, end: p + 1 };
    const m = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(p, p + 200));
    if (!m) return null;
    const key = m[0];
    p += key.length;
    while (line[p] === ' ') p++;
    if (line[p] !== '=') return null;
    p++;
    while (line[p] === ' ') p++;
    if (line[p] !== '"') return null;
    p++;
    let value = '';
    for (;;) {
      const c = line[p];
      if (c === undefined) return null;
      if (c === '"') break;
      if (c === '\\') {
        const n = line[p + 1];
        value += n === 'n' ? '\n' : n === '"' ? '"' : n === '\\' ? '\\' : `\\${n ?? ''}`;
        p += 2;
        continue;
      }
      value += c;
      p++;
    }
    labels[key] = value;
    p++;
    while (line[p] === ' ') p++;
    if (line[p] === ',') p++;
    else if (line[p] !== '}') return null;
  }
}

/**
 * Parse a page. `keep(name)` decides which samples are kept (default: all); names are recorded either way.
 * Never throws: a malformed line is counted in `skipped` and the rest is read.
 */
export function parseExposition(text: string, keep: (name: string) => boolean = () => true): Exposition {
  const out: Exposition = { samples: [], types: new Map(), names: new Set(), skipped: 0 };
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trimStart();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      const t = /^#\s*TYPE\s+([a-zA-Z_:][a-zA-Z0-9_:]*)\s+(\w+)/.exec(trimmed);
      if (t && TYPES.has(t[2] as MetricType)) out.types.set(t[1]!, t[2] as MetricType);
      continue;
    }
    const nm = NAME.exec(trimmed);
    if (!nm) {
      out.skipped++;
      continue;
    }
    const name = nm[0];
    out.names.add(name);
    if (!keep(name)) continue;
    let p = name.length;
    while (trimmed[p] === ' ' || trimmed[p] === '\t') p++;
    let labels: Record<string, string> = {};
    if (trimmed[p] === '{') {
      const l = parseLabels(trimmed, p);
      if (!l) {
        out.skipped++;
        continue;
      }
      labels = l.labels;
      p = l.end;
    }
    const rest = trimmed.slice(p).trim().split(/\s+/);
    const value = rest[0] === undefined ? null : parseValue(rest[0]);
    if (value === null || rest.length > 2) {
      out.skipped++;
      continue;
    }
    const ts = rest[1] === undefined ? undefined : Number(rest[1]);
    out.samples.push({ name, labels, value, ...(ts !== undefined && Number.isFinite(ts) ? { timestampMs: ts } : {}) });
  }
  return out;
}
