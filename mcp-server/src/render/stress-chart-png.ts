/**
 * PNG versions of the stress-run charts (render/stress-chart.ts draws the SVGs), because MCP clients and the
 * model's image input take PNG/JPEG/GIF/WebP but not SVG. Drawn into an RGBA buffer by hand — axes, grid,
 * 2-px polylines, filled bars and a built-in 5×7 bitmap font — and encoded with pngjs. PURE: data → Buffer.
 */
import pngjs from 'pngjs';
import type { StressFacts } from '../core/stress/facts.js';
import {
  fmt,
  legendOffsets,
  niceMax,
  niceTicks,
  percentilePoints,
  summaryPercentiles,
  timelineSeries,
  type CompareChartName,
  type ComparisonCharts,
  type Series,
} from './stress-chart.js';
import { maxOf, minOf } from '../core/arrays.js';

export { summaryPercentiles };

type Rgb = readonly [number, number, number];

const INK: Rgb = [34, 34, 34];
const GRID: Rgb = [221, 221, 221];
const FRAME: Rgb = [153, 153, 153];
const NOTE: Rgb = [85, 85, 85];

/** Text cut to a pixel width at scale 1, ending in ".." when cut. */
const fitText = (t: string, px: number) => (textWidth(t) <= px ? t : `${t.slice(0, Math.max(0, Math.floor((px + 1) / 6) - 2))}..`);

const rgb = (hex: string): Rgb => [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];

/** Chart geometry, exported so tests can say where a value must be drawn. */
export const PNG_LAYOUT = { width: 800, headerH: 26, panelH: 220, margin: { l: 64, r: 16, t: 30, b: 34 } } as const;

/**
 * 5×7 glyphs: each entry is the character followed by its 7 rows, top to bottom, one base-32 digit per row
 * (bit 16 = leftmost column). Lower case is drawn as upper case; anything missing as '?'.
 */
const FONT_TABLE =
  '0ehjlphe14c4444e2eh168gv3u11e11u426aiv225vgu11he668guhhe7v1248888ehhehhe9ehhf12cAehhvhhhBuhhuhhuCehgggheDuhhhhhu' +
  'EvgguggvFvggugggGehgnhhfHhhhvhhhIe44444eJ11111heKhikokihLggggggvMhrllhhhNhppljjhOehhhhhePuhhugggQehhhlidRuhhukih' +
  'Sfgge11uTv444444UhhhhhheVhhhhaa4WhhhllrhXhha4ahhYhha4444Zv1248gv.00000cc%pp248jj/11248gg:0cc0cc0-000v000_000000v' +
  '[e88888e]e22222e(2488842)8422248+044v440,0000c48=00v0v00?eh12404';

const GLYPHS: ReadonlyMap<string, number[]> = new Map(
  Array.from(
    { length: FONT_TABLE.length / 8 },
    (_, i) => [FONT_TABLE[i * 8]!, [...FONT_TABLE.slice(i * 8 + 1, i * 8 + 8)].map((d) => parseInt(d, 32))] as const,
  ),
);
const BLANK = [0, 0, 0, 0, 0, 0, 0];

/** Advance of one character at scale s (5 px glyph + 1 px gap). */
export const textWidth = (text: string, s = 1) => text.length * 6 * s - (text.length ? s : 0);

class Canvas {
  readonly data: Buffer;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    // RGB, the PNG's own layout: pngjs then writes it as is instead of converting every pixel from RGBA.
    this.data = Buffer.alloc(w * h * 3, 255);
  }

  px(x: number, y: number, c: Rgb): void {
    if (x < 0 || y < 0 || x >= this.w || y >= this.h) return;
    const o = (y * this.w + x) * 3;
    this.data[o] = c[0];
    this.data[o + 1] = c[1];
    this.data[o + 2] = c[2];
  }

  rect(x: number, y: number, w: number, h: number, c: Rgb): void {
    for (let j = Math.max(0, y); j < Math.min(this.h, y + h); j++) for (let i = Math.max(0, x); i < Math.min(this.w, x + w); i++) this.px(i, j, c);
  }

  /** A 2-px wide segment: a 2×2 brush stepped along the longer axis (no anti-aliasing, so output is exact). */
  line(x0: number, y0: number, x1: number, y1: number, c: Rgb): void {
    const n = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    for (let k = 0; k <= n; k++) {
      const x = Math.round(x0 + ((x1 - x0) * k) / n);
      const y = Math.round(y0 + ((y1 - y0) * k) / n);
      this.rect(x - 1, y - 1, 2, 2, c);
    }
  }

  /**
   * Connected segments through the points; with a dash (on, off in px) the brush is lifted along the way,
   * the pattern running on across the corners so short segments still show gaps.
   */
  polyline(points: [number, number][], c: Rgb, dash?: readonly [number, number]): void {
    if (!dash) {
      points.forEach((q, j) => {
        const prev = points[j - 1];
        if (prev) this.line(prev[0], prev[1], q[0], q[1], c);
        else this.rect(Math.round(q[0]) - 1, Math.round(q[1]) - 1, 2, 2, c);
      });
      return;
    }
    let walked = 0;
    for (let j = 1; j < points.length; j++) {
      const [x0, y0] = points[j - 1]!;
      const [x1, y1] = points[j]!;
      const len = Math.hypot(x1 - x0, y1 - y0);
      const n = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
      for (let k = 0; k <= n; k++) {
        if ((walked + (len * k) / n) % (dash[0] + dash[1]) >= dash[0]) continue;
        this.rect(Math.round(x0 + ((x1 - x0) * k) / n) - 1, Math.round(y0 + ((y1 - y0) * k) / n) - 1, 2, 2, c);
      }
      walked += len;
    }
  }

  text(x: number, y: number, text: string, c: Rgb, s = 1): void {
    [...text].forEach((ch, i) => {
      const rows = ch === ' ' ? BLANK : (GLYPHS.get(ch.toUpperCase()) ?? GLYPHS.get('?')!);
      rows.forEach((bits, r) => {
        for (let col = 0; col < 5; col++) if (bits & (16 >> col)) this.rect(x + i * 6 * s + col * s, y + r * s, s, s, c);
      });
    });
  }

  png(): Buffer {
    const png = new pngjs.PNG({ width: this.w, height: this.h });
    png.data = this.data;
    // RGB in and out, fixed deflate settings: byte-identical for the same picture. One filter (Up) instead of
    // pngjs's per-row trial of all five: about half the CPU for about a third more bytes (14 vs 10 KB).
    return pngjs.PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false, deflateLevel: 9, deflateStrategy: 3, filterType: 2 });
  }
}

export interface Panel {
  title: string;
  unit: string;
  xLabel: string;
  series: Series[];
  /** Bars instead of lines: one filled bar per point, labelled by xTicks. */
  bars?: boolean;
  xTicks?: { at: number; label: string }[];
  /** x domain when the data's own min/max would put bars half outside the plot (or runs should start at 0). */
  xRange?: [number, number];
  /** Drawn in the plot's top-left corner: what is missing from the chart. */
  note?: string | null;
}

/** The plot rectangle of the panel starting at y0 (pixels, inclusive left/top). */
export function plotArea(y0: number): { x: number; y: number; w: number; h: number } {
  const { width, panelH, margin: m } = PNG_LAYOUT;
  return { x: m.l, y: y0 + m.t, w: width - m.l - m.r, h: panelH - m.t - m.b };
}

function drawPanel(cv: Canvas, y0: number, p: Panel): void {
  const a = plotArea(y0);
  const pts = p.series.flatMap((s) => s.points);
  const xs = pts.map((q) => q[0]);
  const xMin = p.xRange?.[0] ?? (xs.length ? minOf(xs) : 0);
  const xMax = p.xRange?.[1] ?? (xs.length ? maxOf(xs) : 1);
  const yMax = niceMax(Math.max(0, maxOf(pts.map((q) => q[1]))));
  const X = (x: number) => a.x + (xMax === xMin ? a.w / 2 : ((x - xMin) / (xMax - xMin)) * a.w);
  const Y = (y: number) => a.y + a.h - (y / yMax) * a.h;

  cv.text(a.x, y0 + 8, p.title, INK, 2);
  cv.text(4, a.y - 10, p.unit, INK);
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    const y = Math.round(Y(v));
    cv.rect(a.x, y, a.w, 1, GRID);
    const label = fmt(v);
    cv.text(a.x - 6 - textWidth(label), y - 3, label, INK);
  }
  const ticks = p.xTicks ?? niceTicks(xMin, xMax);
  for (const t of ticks) {
    const x = Math.round(X(t.at));
    cv.rect(x, a.y + a.h, 1, 4, FRAME);
    cv.text(Math.round(x - textWidth(t.label) / 2), a.y + a.h + 7, t.label, INK);
  }
  cv.text(a.x + a.w - textWidth(p.xLabel), y0 + PNG_LAYOUT.panelH - 10, p.xLabel, INK);

  const legendAt = legendOffsets(
    p.series.map((s) => s.name),
    6,
  );
  p.series.forEach((s, i) => {
    const c = rgb(s.color);
    if (p.bars) {
      const bw = Math.max(4, Math.min(60, Math.floor(a.w / Math.max(1, s.points.length) / 2)));
      for (const [x, v] of s.points) {
        const top = Math.round(Y(v));
        cv.rect(Math.round(X(x) - bw / 2), top, bw, a.y + a.h - top, c);
        const label = fmt(v);
        cv.text(Math.round(X(x) - textWidth(label) / 2), top - 10, label, INK);
      }
    } else {
      cv.polyline(
        s.points.map(([x, y]) => [X(x), Y(y)]),
        c,
        s.dash,
      );
      if (s.points.length < 40) for (const q of s.points) cv.rect(Math.round(X(q[0])) - 2, Math.round(Y(q[1])) - 2, 5, 5, c);
    }
    // Legend, right to left in the panel's title band: a swatch and the series name.
    const lx = a.x + a.w - 8 - legendAt[i]! - textWidth(s.name);
    cv.rect(lx - 12, y0 + 11, 8, 8, c);
    cv.text(lx, y0 + 12, s.name, c);
  });
  if (p.note) cv.text(a.x + 6, a.y + 6, fitText(p.note, a.w - 12), NOTE);
  // Frame last so lines at the edges do not hide it.
  cv.rect(a.x, a.y, a.w, 1, FRAME);
  cv.rect(a.x, a.y + a.h, a.w + 1, 1, FRAME);
  cv.rect(a.x, a.y, 1, a.h, FRAME);
  cv.rect(a.x + a.w, a.y, 1, a.h, FRAME);
}

function header(cv: Canvas, title: string): void {
  // Cut a long title to the width rather than drawing off the edge.
  const max = Math.floor((PNG_LAYOUT.width - 16) / 12);
  cv.text(8, 6, title.length > max ? `${title.slice(0, max - 2)}..` : title, INK, 2);
}

/** One titled line panel as a PNG (metrics history charts use it: the assistant reads PNG, not SVG). */
export function singlePanelPng(title: string, panel: Panel): Buffer {
  const { width, headerH, panelH } = PNG_LAYOUT;
  const cv = new Canvas(width, headerH + panelH);
  header(cv, title);
  drawPanel(cv, headerH, panel);
  return cv.png();
}

/** Throughput (top panel) and p99 / p50 latency (bottom panel) per interval; the same data as timelineSvg. */
export function timelinePng(f: StressFacts, title = `${f.tool} run`): Buffer {
  const { width, headerH, panelH } = PNG_LAYOUT;
  const cv = new Canvas(width, headerH + 2 * panelH);
  const s = timelineSeries(f);
  header(cv, title);
  drawPanel(cv, headerH, { title: 'Throughput', unit: 'op/s', xLabel: 'time [s]', series: s.throughput });
  drawPanel(cv, headerH + panelH, { title: 'Latency per interval', unit: 'ms', xLabel: 'time [s]', series: s.latency });
  return cv.png();
}

/** Latency at each percentile of the whole run as filled bars, one per percentile, labelled with its value. */
export function distributionPng(f: StressFacts, percentiles: Record<string, number | null>, title = `${f.tool} latency distribution`): Buffer {
  const { width, headerH, panelH } = PNG_LAYOUT;
  const cv = new Canvas(width, headerH + panelH);
  const pts = percentilePoints(percentiles);
  header(cv, title);
  // Evenly spaced categories (index 1..n) so the tail percentiles get as much room as the median.
  drawPanel(cv, headerH, {
    title: 'Latency by percentile',
    unit: 'ms',
    xLabel: 'percentile',
    bars: true,
    xRange: [0.5, pts.length + 0.5],
    series: [{ name: 'latency', color: '#9467bd', points: pts.map((p, i) => [i + 1, p.ms]) }],
    xTicks: pts.map((p, i) => ({ at: i + 1, label: String(p.percentile) })),
  });
  return cv.png();
}

/** Header height of a comparison chart: the title, then the key row naming run A and run B. */
export const COMPARE_HEADER_H = PNG_LAYOUT.headerH + 16;

/** One comparison chart (render/stress-chart.ts comparisonCharts) as PNG; null when it has nothing to draw. */
export function comparisonPng(c: ComparisonCharts, name: CompareChartName, title: string): Buffer | null {
  const ch = c.charts[name];
  if (!ch) return null;
  const { width, headerH, panelH } = PNG_LAYOUT;
  const cv = new Canvas(width, COMPARE_HEADER_H + panelH);
  header(cv, title);
  // Key row: a swatch and "A = <label>" per run, each given half the width at most.
  const half = Math.floor((width - 16) / c.key.length);
  c.key.forEach((k, i) => {
    const x = 8 + i * half;
    cv.rect(x, headerH + 3, 8, 8, rgb(k.color));
    cv.text(x + 12, headerH + 4, fitText(k.text, half - 24), rgb(k.color));
  });
  drawPanel(cv, COMPARE_HEADER_H, {
    title: ch.title,
    unit: ch.unit,
    xLabel: ch.xLabel,
    series: ch.series,
    note: ch.note,
    ...(ch.xRange ? { xRange: ch.xRange } : {}),
    ...(ch.xTicks ? { xTicks: ch.xTicks } : {}),
  });
  return cv.png();
}
