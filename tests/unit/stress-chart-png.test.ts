import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import pngjs from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLatteJson } from '../../mcp-server/src/core/parse/stress/index.js';
import { stressFacts, type StressFacts } from '../../mcp-server/src/core/stress/facts.js';
import { registerStressTools } from '../../mcp-server/src/mcp/tools/stress.js';
import { writeRunCharts } from '../../mcp-server/src/ops/stress.js';
import { distributionPng, PNG_LAYOUT, plotArea, textWidth, timelinePng } from '../../mcp-server/src/render/stress-chart-png.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

const { PNG } = pngjs;
const decode = (b: Buffer) => PNG.sync.read(b);
type Img = ReturnType<typeof decode>;
const at = (img: Img, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)];
const is = (img: Img, x: number, y: number, c: number[]) => at(img, x, y).every((v, i) => v === c[i]);
const BLUE = [0x1f, 0x77, 0xb4];
const PURPLE = [0x94, 0x67, 0xbd];
const WHITE = [255, 255, 255];

const facts = (rates: number[]): StressFacts =>
  ({
    tool: 'latte',
    intervals: rates.map((r, i) => ({
      timeS: i + 1,
      opRate: r,
      p50Ms: 1,
      p95Ms: null,
      p99Ms: 4,
      maxMs: null,
      errors: 0,
      gcCount: null,
      gcMaxMs: null,
      gcSumMs: null,
    })),
  }) as unknown as StressFacts;

/** Mean row of the pixels of colour c in column x between rows y0 and y1, or null when there are none. */
function meanRow(img: Img, x: number, y0: number, y1: number, c: number[]): number | null {
  const rows: number[] = [];
  for (let y = y0; y < y1; y++) if (is(img, x, y, c)) rows.push(y);
  return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : null;
}

describe('PNG stress charts', () => {
  // 20 one-second intervals: 1000 op/s for ten, then 3000 op/s. The axis maximum is 5000 (niceMax).
  const step = facts([...Array(10).fill(1000), ...Array(10).fill(3000)]);

  it('has the documented size, and a step from 1000 to 3000 op/s lifts the line by 40 % of the plot height', () => {
    const img = decode(timelinePng(step, 'latte run 1000'));
    expect([img.width, img.height]).toEqual([PNG_LAYOUT.width, PNG_LAYOUT.headerH + 2 * PNG_LAYOUT.panelH]);
    const a = plotArea(PNG_LAYOUT.headerH);
    const xOf = (t: number) => Math.round(a.x + ((t - 1) / 19) * a.w);
    // Between markers, well inside each level.
    const low = meanRow(img, xOf(4.5), a.y, a.y + a.h + 1, BLUE);
    const high = meanRow(img, xOf(15.5), a.y, a.y + a.h + 1, BLUE);
    expect(low).not.toBeNull();
    expect(high).not.toBeNull();
    expect(Math.abs(low! - (a.y + a.h - 0.2 * a.h))).toBeLessThanOrEqual(1.5);
    expect(Math.abs(high! - (a.y + a.h - 0.6 * a.h))).toBeLessThanOrEqual(1.5);
    expect((low! - high!) / a.h).toBeCloseTo(0.4, 1);
    // The line is drawn 2 px wide and only once per column at a flat level.
    const rows = [...Array(a.h + 1).keys()].filter((d) => is(img, xOf(4.5), a.y + d, BLUE));
    expect(rows).toHaveLength(2);
  });

  it('draws the title glyphs in the header band, as wide as the text, and a legend swatch in the series colour', () => {
    const title = 'LATTE RUN 1000';
    const img = decode(timelinePng(step, title));
    const inked = (x: number) => [...Array(PNG_LAYOUT.headerH).keys()].some((y) => !is(img, x, y, WHITE));
    const cols = [...Array(img.width).keys()].filter(inked);
    expect(cols[0]).toBe(8);
    // '0' has ink in its fifth column: the last inked column is where the text ends (scale 2).
    expect(cols.at(-1)).toBe(8 + textWidth(title, 2) - 1);
    // Letters leave gaps between glyphs: ink is not one solid block.
    expect(cols.length).toBeLessThan(textWidth(title, 2));
    const blank = decode(timelinePng(step, ''));
    expect([...Array(img.width).keys()].filter((x) => [...Array(PNG_LAYOUT.headerH).keys()].some((y) => !is(blank, x, y, WHITE)))).toEqual([]);
    // Legend: the 8×8 swatch sits in the panel title band, right-aligned, in the throughput blue.
    const a = plotArea(PNG_LAYOUT.headerH);
    const swatchX = a.x + a.w - 8 - textWidth('op/s') - 12;
    expect(is(img, swatchX + 4, PNG_LAYOUT.headerH + 15, BLUE)).toBe(true);
  });

  it('is deterministic: the same data gives the same bytes, other data different bytes', () => {
    expect(timelinePng(step, 't').equals(timelinePng(step, 't'))).toBe(true);
    expect(timelinePng(step, 't').equals(timelinePng(facts([...Array(20).fill(1000)]), 't'))).toBe(false);
  });

  it('latency distribution: one filled bar per percentile, its height proportional to the latency', () => {
    const img = decode(distributionPng(step, { '50': 2, '99': 8, '99.9': null }));
    expect([img.width, img.height]).toEqual([PNG_LAYOUT.width, PNG_LAYOUT.headerH + PNG_LAYOUT.panelH]);
    const a = plotArea(PNG_LAYOUT.headerH);
    // Two categories in [0.5, 2.5]: centres at a quarter and three quarters of the width; axis max 10 ms.
    const height = (x: number) => [...Array(a.h + 1).keys()].filter((d) => is(img, x, a.y + d, PURPLE)).length;
    expect(Math.abs(height(Math.round(a.x + 0.25 * a.w)) - 0.2 * a.h)).toBeLessThanOrEqual(1);
    expect(Math.abs(height(Math.round(a.x + 0.75 * a.w)) - 0.8 * a.h)).toBeLessThanOrEqual(1);
    // Between the bars there is no bar colour.
    expect(height(Math.round(a.x + 0.5 * a.w))).toBe(0);
  });
});

describe.skipIf(!HAVE_CORPUS)('PNG charts of a recorded latte run, through stress_status', () => {
  const home = mkdtempSync(join(tmpdir(), 'cql-tuner-png-'));
  const saved = process.env.CQL_TUNER_HOME;
  afterAll(() => {
    if (saved === undefined) delete process.env.CQL_TUNER_HOME;
    else process.env.CQL_TUNER_HOME = saved;
    rmSync(home, { recursive: true, force: true });
  });

  /** A run folder as a finished run leaves it (status.json, result.json, charts), from a recorded latte JSON. */
  async function fakeRun(id: string, state: 'finished' | 'running'): Promise<void> {
    const dir = join(home, 'runs', id);
    mkdirSync(dir, { recursive: true });
    const now = new Date().toISOString();
    const status = {
      id,
      tool: 'latte',
      binary: '/x/latte',
      target: '127.0.0.1:9042',
      state,
      step: state === 'running' ? 'run' : null,
      pid: null,
      ownerPid: process.pid,
      startedAt: now,
      runStartedAt: now,
      endedAt: state === 'running' ? null : now,
      plannedS: 12,
      capS: 600,
      exitCode: 0,
      error: null,
    };
    writeFileSync(join(dir, 'status.json'), JSON.stringify(status));
    if (state === 'running') return;
    const p = parseLatteJson(corpus('local-runs/cassandra-5.0.9-cluster3/latte/latte_read.json'));
    if (!p.ok) throw new Error(p.reason);
    const f = stressFacts(p.kind, p.value)!;
    const charts = await writeRunCharts(dir, f, p.value.latencyPercentilesMs, `latte read run ${id}`);
    const result = { id, state, kind: p.kind, facts: f, findings: [], checked: [], charts, serverDiff: null, snapshotErrors: [], warnings: [] };
    writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
  }

  it('a finished run yields decodable image/png content items plus the SVG links; a running one no image', async () => {
    process.env.CQL_TUNER_HOME = home;
    await fakeRun('20261122-010000-latte-aaaaaa', 'finished');
    await fakeRun('20261122-020000-latte-bbbbbb', 'running');
    const server = new McpServer({ name: 'png-test', version: '0' });
    registerStressTools(server);
    const [st, ct] = InMemoryTransport.createLinkedPair();
    await server.connect(st);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(ct);
    try {
      const r = await client.callTool({ name: 'stress_status', arguments: { id: '20261122-010000-latte-aaaaaa' } });
      expect(r.isError).toBeFalsy();
      const content = r.content as { type: string; data?: string; mimeType?: string; uri?: string }[];
      const images = content.filter((c) => c.type === 'image');
      expect(images.map((c) => c.mimeType)).toEqual(['image/png', 'image/png']);
      const [timeline, dist] = images.map((c) => Buffer.from(c.data!, 'base64'));
      expect(timeline!.length).toBeLessThanOrEqual(200 * 1024);
      const t = decode(timeline!);
      expect([t.width, t.height]).toEqual([800, PNG_LAYOUT.headerH + 2 * PNG_LAYOUT.panelH]);
      const d = decode(dist!);
      expect(d.height).toBe(PNG_LAYOUT.headerH + PNG_LAYOUT.panelH);
      // One bar per percentile strictly between 0 and 100 the recorded run reports (min and max are not bars): count runs of bar colour along the base.
      const a = plotArea(PNG_LAYOUT.headerH);
      const barColumns = [...Array(a.w).keys()].filter((x) => is(d, a.x + x, a.y + a.h - 1, PURPLE));
      const bars = barColumns.filter((x, i) => i === 0 || barColumns[i - 1] !== x - 1).length;
      const p = parseLatteJson(corpus('local-runs/cassandra-5.0.9-cluster3/latte/latte_read.json'));
      const reported = p.ok ? Object.entries(p.value.latencyPercentilesMs).filter(([k, v]) => v !== null && Number(k) > 0 && Number(k) < 100).length : -1;
      expect(reported).toBeGreaterThan(5);
      expect(bars).toBe(reported);
      expect(content.filter((c) => c.type === 'resource_link').map((c) => c.mimeType)).toEqual(['image/svg+xml', 'image/svg+xml']);

      const live = await client.callTool({ name: 'stress_status', arguments: { id: '20261122-020000-latte-bbbbbb' } });
      expect((live.content as { type: string }[]).filter((c) => c.type === 'image')).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
