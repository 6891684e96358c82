import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import pngjs from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCassandraStress, parseLatteJson } from '../../mcp-server/src/core/parse/stress/index.js';
import { stressFacts, type StressFacts } from '../../mcp-server/src/core/stress/facts.js';
import { registerStressTools } from '../../mcp-server/src/mcp/tools/stress.js';
import { compareStressRuns, latestRunId, pngChartOf } from '../../mcp-server/src/ops/stress.js';
import {
  COMPARE_COLORS,
  comparisonCharts,
  comparisonSvg,
  legendOffsets,
  nines,
  niceMax,
  niceTicks,
  summaryPercentiles,
  type CompareRun,
} from '../../mcp-server/src/render/stress-chart.js';
import { COMPARE_HEADER_H, comparisonPng, PNG_LAYOUT, plotArea, textWidth } from '../../mcp-server/src/render/stress-chart-png.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

const { PNG } = pngjs;
const decode = (b: Buffer) => PNG.sync.read(b);
type Img = ReturnType<typeof decode>;
const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const is = (img: Img, x: number, y: number, c: number[]) => [0, 1, 2].every((k) => img.data[(y * img.width + x) * 4 + k] === c[k]);
const A = hex(COMPARE_COLORS.A.strong);
const B = hex(COMPARE_COLORS.B.strong);
const A_LIGHT = hex(COMPARE_COLORS.A.light);
const B_LIGHT = hex(COMPARE_COLORS.B.light);
const NOTE_INK = [85, 85, 85];

/** Pixels of colour c inside the rectangle. */
function count(img: Img, c: number[], r: { x: number; y: number; w: number; h: number }): number {
  let n = 0;
  for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) if (is(img, x, y, c)) n++;
  return n;
}
/** Mean row of colour c in column x of the plot, or null. */
function meanRow(img: Img, x: number, y0: number, y1: number, c: number[]): number | null {
  const rows: number[] = [];
  for (let y = y0; y <= y1; y++) if (is(img, x, y, c)) rows.push(y);
  return rows.length ? rows.reduce((s, v) => s + v, 0) / rows.length : null;
}
/** Point count of each <path> of a series in an SVG, by its data-series name. */
function pathPoints(svg: string): Record<string, number> {
  return Object.fromEntries([...svg.matchAll(/<path d="([^"]*)"[^>]*data-series="([^"]*)"/g)].map((m) => [m[2]!, (m[1]!.match(/[ML]/g) ?? []).length]));
}

const LATTE = 'local-runs/cassandra-5.0.9-cluster3/latte';
function latteRun(key: 'A' | 'B', name: 'read' | 'write'): CompareRun & { json: string } {
  const json = corpus(`${LATTE}/latte_${name}.json`);
  const p = parseLatteJson(json);
  if (!p.ok) throw new Error(p.reason);
  return { key, label: `latte ${name}`, facts: stressFacts(p.kind, p.value)!, percentiles: p.value.latencyPercentilesMs, json };
}
/** The recorded cassandra-stress read with its interval rows removed: what a pasted summary alone gives. */
function summaryOnly(): StressFacts {
  const text = corpus('local-runs/cassandra-4.1.10-single/stress/stress_read.txt')
    .split('\n')
    .filter((l) => !/^total,/.test(l))
    .join('\n');
  const p = parseCassandraStress(text);
  if (!p.ok) throw new Error(p.reason);
  return stressFacts(p.kind, p.value)!;
}

describe.skipIf(!HAVE_CORPUS)('A/B comparison charts of two recorded latte runs (A = read, B = write)', () => {
  const a = HAVE_CORPUS ? latteRun('A', 'read') : (null as never);
  const b = HAVE_CORPUS ? latteRun('B', 'write') : (null as never);
  const c = HAVE_CORPUS ? comparisonCharts(a, b) : (null as never);
  const area = plotArea(COMPARE_HEADER_H);

  it("latency over time: B's p99 line is drawn higher where B's p99 is higher, at the height of its value", () => {
    const img = decode(comparisonPng(c, 'latency-over-time', 'A/B latency')!);
    expect([img.width, img.height]).toEqual([PNG_LAYOUT.width, COMPARE_HEADER_H + PNG_LAYOUT.panelH]);
    // Both runs' p99 (strong) and p50 (light) colours are in the plot.
    for (const col of [A, B, A_LIGHT, B_LIGHT]) expect(count(img, col, area)).toBeGreaterThan(50);
    // The interval where B's p99 most exceeds A's (the write run's 83 ms spike at 10 s against 21 ms).
    const bi = b.facts.intervals;
    const k = bi.reduce(
      (best, _, i) =>
        bi[i]!.p99Ms! - a.facts.intervals[Math.min(i, a.facts.intervals.length - 1)]!.p99Ms! >
        bi[best]!.p99Ms! - a.facts.intervals[Math.min(best, a.facts.intervals.length - 1)]!.p99Ms!
          ? i
          : best,
      0,
    );
    const [tB, pB] = [bi[k]!.timeS!, bi[k]!.p99Ms!];
    const pA = a.facts.intervals[k]!.p99Ms!;
    expect(pB).toBeGreaterThan(3 * pA);
    // x: time since each run's start on [0, last interval end]; y: 0 … niceMax of the largest latency.
    const tMax = Math.max(...[...a.facts.intervals, ...bi].map((i) => i.timeS!));
    const yMax = niceMax(Math.max(...[...a.facts.intervals, ...bi].flatMap((i) => [i.p99Ms!, i.p50Ms!])));
    const x = Math.round(area.x + (tB / tMax) * area.w);
    const Y = (v: number) => area.y + area.h - (v / yMax) * area.h;
    const rowB = meanRow(img, x, area.y, area.y + area.h, B);
    const rowA = meanRow(img, x, area.y, area.y + area.h, A);
    expect(rowB).not.toBeNull();
    expect(rowA).not.toBeNull();
    expect(rowB!).toBeLessThan(rowA! - 0.3 * area.h);
    expect(Math.abs(rowB! - Y(pB))).toBeLessThanOrEqual(3);
    expect(Math.abs(rowA! - Y(pA))).toBeLessThanOrEqual(3);
  });

  it('names the runs: a key row "A = …" / "B = …" in the runs\' colours and a legend swatch per series', () => {
    const img = decode(comparisonPng(c, 'latency-over-time', 'A/B latency')!);
    const half = Math.floor((PNG_LAYOUT.width - 16) / 2);
    const keyBand = (x0: number) => ({ x: x0, y: PNG_LAYOUT.headerH, w: half, h: 14 });
    expect(is(img, 12, PNG_LAYOUT.headerH + 7, A)).toBe(true);
    expect(is(img, 8 + half + 4, PNG_LAYOUT.headerH + 7, B)).toBe(true);
    // The label text is drawn after each swatch, as wide as "A = latte read".
    expect(count(img, A, keyBand(8 + 12))).toBeGreaterThan(30);
    expect(count(img, B, keyBand(8 + half + 12))).toBeGreaterThan(30);
    const names = c.charts['latency-over-time']!.series.map((s) => s.name);
    expect(names).toEqual(['A p50', 'B p50', 'A p99', 'B p99']);
    const at = legendOffsets(names, 6);
    names.forEach((n, i) => {
      const sw = area.x + area.w - 8 - at[i]! - textWidth(n) - 12;
      expect(is(img, sw + 4, COMPARE_HEADER_H + 15, [A_LIGHT, B_LIGHT, A, B][i]!)).toBe(true);
    });
  });

  it("throughput over time and the latency distribution carry both runs; B's tail is higher at 99.9", () => {
    const t = decode(comparisonPng(c, 'throughput-over-time', 'A/B throughput')!);
    expect(count(t, A, area)).toBeGreaterThan(50);
    expect(count(t, B, area)).toBeGreaterThan(50);
    const d = decode(comparisonPng(c, 'latency-distribution', 'A/B distribution')!);
    const xs = c.charts['latency-distribution']!.series.flatMap((s) => s.points.map((p) => p[0]));
    const x = Math.round(area.x + ((nines(99.9) - Math.min(...xs)) / (Math.max(...xs) - Math.min(...xs))) * area.w);
    expect(b.percentiles['99.9']!).toBeGreaterThan(a.percentiles['99.9']!);
    expect(meanRow(d, x, area.y, area.y + area.h, B)!).toBeLessThan(meanRow(d, x, area.y, area.y + area.h, A)!);
  });

  it('SVG: one path per run and metric with one point per interval / percentile', () => {
    const pct = (r: CompareRun) => Object.entries(r.percentiles).filter(([k, v]) => v !== null && Number(k) > 0 && Number(k) < 100).length;
    expect(pathPoints(comparisonSvg(c, 'throughput-over-time', 't')!)).toEqual({ 'A op/s': a.facts.intervals.length, 'B op/s': b.facts.intervals.length });
    const lat = pathPoints(comparisonSvg(c, 'latency-over-time', 't')!);
    expect(lat).toEqual({ 'A p50': 12, 'B p50': 13, 'A p99': 12, 'B p99': 13 });
    expect(comparisonSvg(c, 'latency-over-time', 't')).toMatch(/stroke-dasharray="6 4" data-series="A p50"/);
    expect(pathPoints(comparisonSvg(c, 'latency-distribution', 't')!)).toEqual({ 'A latency': pct(a), 'B latency': pct(b) });
    expect(pct(a)).toBe(13);
    expect(comparisonSvg(c, 'throughput-over-time', 't')).toContain('■ A = latte read');
    expect(c.notes).toEqual([]);
  });

  it('a run without intervals (a cassandra-stress summary) is left out of the time charts, with a note; its percentiles still drawn', () => {
    const cs = summaryOnly();
    expect(cs.intervals).toHaveLength(0);
    expect(cs.p99Ms).toBe(12.4);
    const cc = comparisonCharts(a, { key: 'B', label: 'cassandra-stress summary', facts: cs, percentiles: summaryPercentiles(cs) });
    const lat = cc.charts['latency-over-time']!;
    expect(lat.series.map((s) => s.name)).toEqual(['A p50', 'A p99']);
    expect(lat.note).toBe('B (cassandra-stress summary) has no interval samples: not drawn');
    expect(cc.notes).toHaveLength(1);
    const img = decode(comparisonPng(cc, 'latency-over-time', 't')!);
    expect(count(img, A, area)).toBeGreaterThan(50);
    expect(count(img, B, area)).toBe(0);
    // The note is inked in the plot's top-left corner.
    expect(count(img, NOTE_INK, { x: area.x + 6, y: area.y + 6, w: textWidth(lat.note!), h: 7 })).toBeGreaterThan(100);
    expect(comparisonSvg(cc, 'throughput-over-time', 't')).toContain('has no interval samples: not drawn');
    expect(pathPoints(comparisonSvg(cc, 'latency-distribution', 't')!)).toEqual({ 'A latency': 13, 'B latency': 4 });
    // Neither run with intervals: no time charts at all, the distribution remains.
    const none = comparisonCharts(
      { key: 'A', label: 'x', facts: cs, percentiles: summaryPercentiles(cs) },
      { key: 'B', label: 'y', facts: cs, percentiles: {} },
    );
    expect(Object.keys(none.charts)).toEqual(['latency-distribution']);
    expect(none.notes).toHaveLength(2);
  });
});

describe('A/B chart line styles', () => {
  // 60 flat intervals (no point markers from 40 on): p50 10 ms, p99 40 ms; the axis maximum is 50 ms.
  const flat = {
    tool: 'latte',
    kind: 'x',
    intervals: Array.from({ length: 60 }, (_, i) => ({
      timeS: i + 1,
      opRate: 1000,
      p50Ms: 10,
      p95Ms: null,
      p99Ms: 40,
      maxMs: null,
      errors: 0,
      gcCount: null,
      gcMaxMs: null,
      gcSumMs: null,
    })),
  } as unknown as StressFacts;
  it('p50 is dashed (runs of ink with gaps), p99 solid, both at their values', () => {
    const c = comparisonCharts(
      { key: 'A', label: 'a', facts: flat, percentiles: {} },
      { key: 'B', label: 'b', facts: { ...flat, intervals: [] }, percentiles: {} },
    );
    const img = decode(comparisonPng(c, 'latency-over-time', 't')!);
    const a = plotArea(COMPARE_HEADER_H);
    const row = (v: number) => Math.round(a.y + a.h - (v / 50) * a.h);
    const cols = (y: number, col: number[]) => [...Array(a.w - 40).keys()].map((i) => a.x + 20 + i).filter((x) => is(img, x, y, col) || is(img, x, y - 1, col));
    const solid = cols(row(40), A);
    expect(solid).toHaveLength(a.w - 40);
    const dashed = cols(row(10), A_LIGHT);
    // About 6 of every 10 px inked.
    expect(dashed.length / (a.w - 40)).toBeGreaterThan(0.5);
    expect(dashed.length / (a.w - 40)).toBeLessThan(0.75);
  });
});

describe.skipIf(!HAVE_CORPUS)('compare_runs writes the charts to runs/compare-<a>-<b>/ and returns them as PNG images', () => {
  const home = mkdtempSync(join(tmpdir(), 'cql-tuner-cmp-'));
  const saved = process.env.CQL_TUNER_HOME;
  afterAll(() => {
    if (saved === undefined) delete process.env.CQL_TUNER_HOME;
    else process.env.CQL_TUNER_HOME = saved;
    rmSync(home, { recursive: true, force: true });
  });

  /** A finished run folder as run_stress leaves it: status, argv, parsed facts and (latte) the JSON report. */
  function fakeRun(id: string, tool: 'latte' | 'cassandra-stress', workload: string, facts: StressFacts, latteJson?: string): void {
    const dir = join(home, 'runs', id);
    mkdirSync(dir, { recursive: true });
    const now = new Date().toISOString();
    writeFileSync(
      join(dir, 'status.json'),
      JSON.stringify({
        id,
        tool,
        binary: '/x',
        target: '127.0.0.1_9042',
        state: 'finished',
        step: null,
        pid: null,
        ownerPid: process.pid,
        startedAt: now,
        runStartedAt: now,
        endedAt: now,
        plannedS: 12,
        capS: 600,
        exitCode: 0,
        error: null,
      }),
    );
    writeFileSync(join(dir, 'argv.json'), JSON.stringify({ tool, params: { tool, workload, nodes: ['127.0.0.1'] }, steps: [] }));
    writeFileSync(join(dir, 'parsed.json'), JSON.stringify({ kind: facts.kind, warnings: [], facts }));
    if (latteJson) writeFileSync(join(dir, 'latte.json'), latteJson);
  }

  it('three PNG images plus SVG links through MCP; a summary-only run still compares, with chart notes', async () => {
    process.env.CQL_TUNER_HOME = home;
    const a = latteRun('A', 'read');
    const b = latteRun('B', 'write');
    const [ida, idb, idc] = ['20261122-010000-latte-aaaaaa', '20261122-020000-latte-bbbbbb', '20261122-030000-cassandra-stress-cccccc'];
    fakeRun(ida, 'latte', 'read', a.facts, a.json);
    fakeRun(idb, 'latte', 'write', b.facts, b.json);
    fakeRun(idc, 'cassandra-stress', 'read', summaryOnly());
    const server = new McpServer({ name: 'cmp-test', version: '0' });
    registerStressTools(server);
    const [st, ct] = InMemoryTransport.createLinkedPair();
    await server.connect(st);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(ct);
    try {
      const r = await client.callTool({ name: 'compare_runs', arguments: { a: ida, b: idb } });
      expect(r.isError).toBeFalsy();
      const sc = r.structuredContent as { dir: string; charts: string[]; chartNotes: string[]; metrics: unknown[] };
      expect(sc.dir).toBe(join(home, 'runs', `compare-${ida}-${idb}`));
      expect(sc.charts.map((p) => p.split('/').pop())).toEqual(['latency-over-time.svg', 'throughput-over-time.svg', 'latency-distribution.svg']);
      for (const p of sc.charts) expect(existsSync(p) && existsSync(pngChartOf(p))).toBe(true);
      expect(sc.chartNotes).toEqual([]);
      const content = r.content as { type: string; data?: string; mimeType?: string; text?: string }[];
      const images = content.filter((x) => x.type === 'image').map((x) => decode(Buffer.from(x.data!, 'base64')));
      expect(images).toHaveLength(3);
      for (const img of images) {
        expect(img.height).toBe(COMPARE_HEADER_H + PNG_LAYOUT.panelH);
        expect(count(img, B, plotArea(COMPARE_HEADER_H))).toBeGreaterThan(20);
      }
      expect(content.filter((x) => x.type === 'resource_link')).toHaveLength(3);
      // The full latte percentile list (13 points) was read back from the run's latte.json, not the 4 summary ones.
      const { readFileSync } = await import('node:fs');
      expect(pathPoints(readFileSync(sc.charts[2]!, 'utf8'))['A latency']).toBe(13);
      expect(readFileSync(sc.charts[0]!, 'utf8')).toContain(`A = ${ida} (latte read)`);
      expect(content[0]!.text).toMatch(/Charts \(SVG.*latency-over-time\.svg/);

      const s = await compareStressRuns(ida, idc);
      expect(s.charts).toHaveLength(3);
      expect(s.chartNotes).toEqual([`interval samples: B (${idc} (cassandra-stress read)) has no interval samples: not drawn`]);
      expect(s.comparison.warnings.join(' ')).toMatch(/too few interval samples/);
      // Comparison folders are not runs: "the latest run" skips them.
      expect(await latestRunId()).toBe(idc);
    } finally {
      await client.close();
    }
  });
});

describe('time-axis ticks', () => {
  it('fall on round values inside the span', () => {
    expect(niceTicks(0, 12.8).map((t) => t.at)).toEqual([0, 5, 10]);
    expect(niceTicks(0, 60).map((t) => t.label)).toEqual(['0.0', '20', '40', '60']);
    expect(niceTicks(1.3, 6.1).map((t) => t.at)).toEqual([2, 4, 6]);
    expect(niceTicks(0, 0.9).map((t) => t.label)).toEqual(['0.0', '0.5']);
    expect(niceTicks(5, 5)).toEqual([{ at: 5, label: '5.0' }]);
  });
});
