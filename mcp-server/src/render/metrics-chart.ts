/**
 * A chart per signal of a metrics window: one line per node, the change point marked, time in minutes from the
 * window start (UTC clock labels on the ticks). SVG for reports; the text report stays the summary.
 */
import { formatValue } from '../core/metrics/analyse.js';
import type { ChangeEvent } from '../core/metrics/analyse.js';
import type { SignalSpec } from '../core/metrics/signals.js';
import type { MetricsWindow } from '../core/metrics/window.js';
import { lineChartSvg, type Series } from './stress-chart.js';
import { singlePanelPng } from './stress-chart-png.js';

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
const clock = (s: number) => new Date(s * 1000).toISOString().slice(11, 19);
/** Values shown in the unit people read: ms for latencies, % for ratios. */
const SCALE: Partial<Record<SignalSpec['unit'], [number, string]>> = {
  s: [1000, 'ms'],
  ratio: [100, '%'],
  'B/s': [1 / 1048576, 'MiB/s'],
  's/s': [1000, 'ms/s'],
};

export interface ChartInput {
  title: string;
  unit: SignalSpec['unit'];
  window: MetricsWindow;
  series: { node: string; points: [number, number][] }[];
  changes: ChangeEvent[];
}

/** The same chart as a PNG: change points are named in the panel's note (the bitmap font has no arrows). */
export function metricsChartPng(c: ChartInput): Buffer {
  const [k, unit] = SCALE[c.unit] ?? [1, c.unit];
  const series: Series[] = c.series.map((s, i) => ({ name: s.node, color: COLORS[i % COLORS.length]!, points: s.points.map(([t, v]) => [t, v * k]) }));
  const span = c.window.end - c.window.start;
  const xTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => ({ at: c.window.start + f * span, label: clock(c.window.start + f * span) }));
  const note = c.changes
    .slice(0, 3)
    .map(
      (e) =>
        `${e.node} ${e.change.direction} from ${clock(e.change.start)}${e.change.end !== null ? ` to ${clock(e.change.end)}` : ''}: ${formatValue(e.change.during, e.unit)}`,
    )
    .join('; ');
  return singlePanelPng(`${c.title} (${c.window.label})`, {
    title: c.title,
    unit,
    xLabel: 'UTC',
    series,
    xTicks,
    xRange: [c.window.start, c.window.end],
    note: note || null,
  });
}

export function metricsChartSvg(c: ChartInput): string {
  const [k, unit] = SCALE[c.unit] ?? [1, c.unit];
  const series: Series[] = c.series.map((s, i) => ({ name: s.node, color: COLORS[i % COLORS.length]!, points: s.points.map(([t, v]) => [t, v * k]) }));
  const span = c.window.end - c.window.start;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const at = c.window.start + f * span;
    return { at, label: clock(at) };
  });
  const marks = c.changes.flatMap((e) => [
    { at: e.change.start, label: `${e.node} ${e.change.direction === 'up' ? '↑' : '↓'} ${formatValue(e.change.during, e.unit)}` },
    ...(e.change.end !== null ? [{ at: e.change.end, label: 'back' }] : []),
  ]);
  return lineChartSvg(`${c.title} (${c.window.label})`, unit, 'UTC', series, {
    xTicks: ticks,
    xRange: [c.window.start, c.window.end],
    marks: marks.slice(0, 6),
  });
}
