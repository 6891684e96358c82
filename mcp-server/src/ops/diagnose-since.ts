/**
 * `diagnose --since 2h` (MCP sinceSeconds): the incident window. The nodes' logs are read from that moment on
 * (ops/node-logs.ts with core/diagnosis/since-filter.ts), and when the user has a Prometheus configured its metrics
 * of the same period join the report (ops/metrics.ts): change points and findings that say when and on which node.
 * The snapshot itself is always "now"; the report says which evidence the period restricted.
 */
import { OpError } from '../core/errors.js';
import { withMoreFindings, type Finding } from '../core/findings.js';
import type { SinceCut } from '../core/diagnosis/since-filter.js';
import { prometheusFromEnv, type PrometheusConfig } from '../collect/metrics/prometheus.js';
import { parseDuration, parseInstant } from '../core/metrics/window.js';
import { metricsWindow } from './metrics.js';
import type { ProgressFn } from './progress.js';
import type { DiagnosisSince } from '../core/reports/diagnosis.js';
export type { DiagnosisSince } from '../core/reports/diagnosis.js';

/** At most what the metrics window reads at once (31 days); at least a minute. */
export const MAX_SINCE_SECONDS = 31 * 24 * 3600;

/** `--since`: a duration back from now (2h, 90m) or a moment (ISO, HH:MM, unix seconds) → seconds; null when neither. */
export function sinceSecondsFrom(text: string, nowS: number, utcOffsetMinutes: number): number | null {
  const d = parseDuration(text);
  if (d !== null) return d;
  const at = parseInstant(text, nowS, utcOffsetMinutes);
  return at === null ? null : nowS - at;
}

export function sinceCutOf(sinceSeconds: number, nowMs: number, utcOffsetMinutes = -new Date(nowMs).getTimezoneOffset()): SinceCut {
  if (!Number.isFinite(sinceSeconds) || sinceSeconds < 60 || sinceSeconds > MAX_SINCE_SECONDS) {
    const fix = 'Give --since as a duration (2h, 90m) or a time in the last 31 days (2026-11-24T02:00:00Z).';
    throw new OpError('BAD_SINCE', `since ${sinceSeconds} s is outside 60 s – 31 days.`, fix);
  }
  return { sinceMs: nowMs - Math.round(sinceSeconds * 1000), utcOffsetMinutes };
}

/**
 * The metrics of the period when a Prometheus is configured (never required: a diagnosis without one is complete).
 * Returns the findings to add and what to say about the metrics.
 */
export async function sinceMetrics(
  sinceSeconds: number,
  deps: { prometheus?: PrometheusConfig | null; onProgress?: ProgressFn; signal?: AbortSignal; nowS?: number; charts?: boolean } = {},
): Promise<{ findings: Finding[]; note: string; charts?: NonNullable<DiagnosisSince['charts']> }> {
  const cfg = deps.prometheus === undefined ? prometheusFromEnv() : deps.prometheus;
  if (!cfg) return { findings: [], note: 'no Prometheus configured (CQL_TUNER_PROMETHEUS_URL), so no metrics history' };
  deps.onProgress?.({ message: `reading the metrics of the last ${sinceSeconds} s` });
  try {
    const r = await metricsWindow(
      { last: `${Math.round(sinceSeconds)}s` },
      {
        prometheus: cfg,
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(deps.nowS !== undefined ? { nowS: deps.nowS } : {}),
        ...(deps.charts ? { charts: true } : {}),
      },
    );
    const note = `${r.source}: ${r.changes.length} change(s), ${r.findings.length} finding(s) (${r.exporters.join(', ')} naming)`;
    const charts = r.charts?.map((c) => ({
      title: r.nodes.flatMap((n) => n.signals).find((x) => x.signal === c.signal && x.exporter === c.exporter)?.title ?? c.signal,
      caption: `${c.exporter} exporter through ${r.source}, ${r.window.label}; the change is marked.`,
      svg: c.svg,
    }));
    return { findings: r.findings, note, ...(charts ? { charts } : {}) };
  } catch (e) {
    if (e instanceof OpError && e.code === 'CANCELLED') throw e;
    const d = e as { code?: string; message?: string };
    return { findings: [], note: `metrics not read: [${d.code ?? 'ERROR'}] ${d.message ?? String(e)}` };
  }
}

/** The report with the period's metrics findings merged in (worst first) and the period stated. */
export function withSince<R extends { findings: Finding[]; counts: { critical: number; warning: number; info: number } }>(
  report: R,
  since: DiagnosisSince,
  metricsFindings: Finding[],
): R & { since: DiagnosisSince } {
  return { ...withMoreFindings(report, metricsFindings), since };
}
