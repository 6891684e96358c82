/**
 * The charts of a diagnosis window, drawn with the metrics chart (one line per node or host on a UTC axis).
 * A diagnosis window is two readings, so each rate is one mean over the window: it is drawn as a flat line from
 * the window's start to its end, and said so in the caption. p99 latency is the nodes' own recent figure at the
 * end of the window, drawn as one point there. Nothing here is invented between the two readings.
 */
import type { SignalSpec } from '../../core/metrics/signals.js';
import type { DiagnosisWindow } from '../../core/reports/diagnosis.js';
import { metricsChartSvg } from '../metrics-chart.js';

export interface WindowChart {
  title: string;
  /** What the lines are and where they come from, shown under the chart. */
  caption: string;
  svg: string;
}

type Line = { node: string; value: number | null };

const MEAN = 'Each line is the mean over the window (two readings; nothing is measured between them).';

/** Start and end of the window in unix seconds, from its own clock or else from the last sweep's start. */
export function windowSpan(w: DiagnosisWindow, collectedAt: string): { start: number; end: number } | null {
  const end = Date.parse(w.endedAt ?? collectedAt) / 1000;
  const start = w.startedAt ? Date.parse(w.startedAt) / 1000 : end - w.seconds;
  return Number.isFinite(start) && Number.isFinite(end) && end > start ? { start, end } : null;
}

export function windowCharts(w: DiagnosisWindow, collectedAt: string): WindowChart[] {
  const span = windowSpan(w, collectedAt);
  if (!span) return [];
  const mw = { ...span, step: span.end - span.start, label: `${(span.end - span.start).toFixed(1)} s window` };
  const charts: WindowChart[] = [];
  const flat = (title: string, unit: SignalSpec['unit'], lines: Line[], caption: string) => {
    const series = lines.flatMap((l) => {
      if (l.value === null || !Number.isFinite(l.value)) return [];
      return [
        {
          node: l.node,
          points: [
            [span.start, l.value],
            [span.end, l.value],
          ] as [number, number][],
        },
      ];
    });
    if (series.length) charts.push({ title, caption, svg: metricsChartSvg({ title, unit, window: mw, series, changes: [] }) });
  };
  const sum = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

  const local = w.nodes.map((n) => ({ node: n.node, value: sum(n.localReadsPerS, n.localWritesPerS) }));
  flat('Local reads + writes per node', 'ops/s', local, `${MEAN} Replica reads and writes over user tables.`);
  flat(
    'Coordinator requests per node',
    'ops/s',
    w.nodes.map((n) => ({ node: n.node, value: sum(n.coordinatorReadsPerS, n.coordinatorWritesPerS) })),
    `${MEAN} Client requests each node coordinated (Cassandra 4.1+ virtual tables).`,
  );
  const lat = (w.nodeLatency ?? []).flatMap((l) => [
    ...(l.readP99Ms !== null ? [{ node: `${l.node} read`, points: [[span.end, l.readP99Ms / 1000]] as [number, number][] }] : []),
    ...(l.writeP99Ms !== null ? [{ node: `${l.node} write`, points: [[span.end, l.writeP99Ms / 1000]] as [number, number][] }] : []),
  ]);
  if (lat.length) {
    const title = 'p99 latency per node (worst user table)';
    const svg = metricsChartSvg({ title, unit: 's', window: mw, series: lat, changes: [] });
    charts.push({ title, caption: `One point per node at the end of the window: ${w.latency}.`, svg });
  }
  const gc = w.nodes.map((n) => ({ node: n.node, value: n.gcMsPerS === null ? null : n.gcMsPerS / 1000 }));
  flat('GC pause time per node', 's/s', gc, `${MEAN} Milliseconds paused per second (nodetool gcstats).`);

  const sampled = w.hosts.flatMap((h) => (h.window ? [{ name: h.target, win: h.window }] : []));
  const disks = sampled.flatMap((h) => h.win.disks.filter((d) => d.iops > 0).map((d) => ({ name: `${h.name} ${d.device}`, d })));
  const awaitS = disks.map((x) => ({ node: x.name, value: x.d.awaitMs / 1000 }));
  flat('Disk await', 's', awaitS, `${MEAN} Average time per I/O request, per busy device (/proc/diskstats).`);
  const util = disks.map((x) => ({ node: x.name, value: x.d.utilPct / 100 }));
  flat('Disk utilisation', 'ratio', util, `${MEAN} Share of the window the device had I/O in flight.`);
  flat(
    'CPU busy and iowait per host',
    'ratio',
    sampled.flatMap((h) => {
      const c = h.win.cpu;
      return c
        ? [
            { node: `${h.name} busy`, value: (100 - c.idlePct - c.iowaitPct) / 100 },
            { node: `${h.name} iowait`, value: c.iowaitPct / 100 },
          ]
        : [];
    }),
    `${MEAN} From /proc/stat of each sampled host.`,
  );
  return charts;
}
