import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import {
  compareStressRuns,
  processesInGroup,
  startStress,
  stressCancel,
  stressStatus,
  waitForRun,
  type RunStressInput,
} from '../../mcp-server/src/ops/stress.js';
import { tempLabHome } from '../helpers/lab-home.js';
import { latteOrSkipNote } from '../helpers/stress-tool.js';

// Real latte 0.29 against a real 1-node Cassandra 5.0 lab: launch, status, parsed result, charts,
// compare of two runs, and a cancel mid-run that must leave no process behind.
const lab = tempLabHome('cql-tuner-stress-');
const skipLab = process.env.CQL_TUNER_SKIP_LAB === '1';
const lattePath = await latteOrSkipNote('stress-latte integration test');
const skip = skipLab || lattePath === null;

const base: RunStressInput = {
  tool: 'latte',
  workload: 'write',
  nodes: ['127.0.0.1'],
  durationS: 8,
  threads: 1,
  concurrency: 16,
  population: { distribution: 'uniform', size: 5000 },
  snapshots: 'lab',
};

beforeAll(async () => {
  if (skip) return;
  await lab.start({ nodes: 1, version: '5.0' });
}, 400_000);

afterAll(async () => {
  if (skip) return;
  await lab.stop({ keep: process.env.CQL_TUNER_KEEP_TEST_HOME === '1' });
}, 180_000);

describe.skipIf(skip)('latte stress runs on a real 1-node lab', () => {
  const ids: string[] = [];

  it('launches in the background, reports status while running, and ends with a parsed, interpreted result', async () => {
    const progress: string[] = [];
    const started = await startStress(base, { onProgress: (e) => progress.push(e.message) });
    ids.push(started.id);
    expect(started.binary).toBe(lattePath);
    expect(started.steps.map((s) => s.name)).toEqual(['schema', 'run']);
    // Returned at once: the run is still going.
    const early = await stressStatus(started.id);
    expect(['starting', 'running']).toContain(early.state);
    // A second run against the same target is refused while this one holds it.
    await expect(startStress(base)).rejects.toMatchObject({ code: 'STRESS_TARGET_BUSY' });
    // Status during the run shows live intervals.
    let live = early;
    for (let i = 0; i < 60 && !(live.step === 'run' && live.intervals >= 2) && ['starting', 'running'].includes(live.state); i++) {
      await new Promise((r) => setTimeout(r, 500));
      live = await stressStatus(started.id);
    }
    const result = await waitForRun(started.id);
    expect({ state: result.state, error: (await stressStatus(started.id)).error }).toEqual({ state: 'finished', error: null });
    expect(result.kind).toBe('stress.latte-json');
    const f = result.facts!;
    expect(f.intervals.length).toBeGreaterThanOrEqual(6);
    expect(f.opRate).toBeGreaterThan(50);
    expect(f.errors).toBe(0);
    expect(f.durationS).toBeGreaterThan(7);
    // Closed loop and an 8 s run: both methodology findings.
    expect(result.findings.map((x) => x.id)).toEqual(expect.arrayContaining(['stress.closed-loop', 'stress.too-short']));
    // Charts saved in the run folder.
    const timeline = readFileSync(join(started.dir, 'timeline.svg'), 'utf8');
    expect(timeline).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(timeline.match(/<path /g)!.length).toBe(3);
    expect(existsSync(join(started.dir, 'latency-distribution.svg'))).toBe(true);
    // Server snapshots before and after, with the difference explained.
    expect(result.snapshotErrors).toEqual([]);
    expect(result.serverDiff?.nodes).toHaveLength(1);
    expect(result.serverDiff!.explanation.length).toBeGreaterThan(0);
    const st = await stressStatus(started.id);
    expect(st.state).toBe('finished');
    expect(st.latest?.opRate).toBeGreaterThan(0);
    expect(progress.some((m) => /op\/s, p50 .* p99/.test(m)) || live.intervals >= 2).toBe(true);
  }, 120_000);

  it('a second identical run compares as no significant difference or a bounded ratio, with an interval', async () => {
    const s = await startStress({ ...base, snapshots: 'none' });
    ids.push(s.id);
    const r = await waitForRun(s.id);
    expect(r.state).toBe('finished');
    const c = await compareStressRuns(ids[0]!, ids[1]!);
    const t = c.comparison.metrics.find((m) => m.metric === 'throughput')!;
    expect(t.samplesA).toBeGreaterThanOrEqual(5);
    expect(t.low).toBeLessThanOrEqual(t.ratio);
    expect(t.high).toBeGreaterThanOrEqual(t.ratio);
    expect(c.comparison.summary[0]).toMatch(/^throughput: median .* B\/A = \d\.\d\d \(95 % CI/);
  }, 120_000);

  it('cancel mid-run ends the whole process group: nothing left in /proc', async () => {
    const s = await startStress({ ...base, durationS: 60, snapshots: 'none' });
    let st = await stressStatus(s.id);
    for (let i = 0; i < 60 && !(st.step === 'run' && st.intervals >= 1); i++) {
      await new Promise((r) => setTimeout(r, 500));
      st = await stressStatus(s.id);
    }
    const { pid } = JSON.parse(readFileSync(join(s.dir, 'status.json'), 'utf8')) as { pid: number };
    expect(pid).toBeGreaterThan(0);
    expect((await processesInGroup(pid)).length).toBeGreaterThan(0);
    const c = await stressCancel(s.id);
    expect(c.wasRunning).toBe(true);
    expect(c.leftover).toEqual([]);
    expect(await processesInGroup(pid)).toEqual([]);
    expect((await stressStatus(s.id)).state).toBe('cancelled');
  }, 120_000);

  it('through MCP: run_stress (wait, with a progress token) sends progress and returns chart links; compare_runs and a refused target', async () => {
    const server = createServer();
    const [ct, st] = InMemoryTransport.createLinkedPair();
    await server.connect(st);
    const client = new Client({ name: 'stress-test', version: '1' });
    await client.connect(ct);
    try {
      const progress: string[] = [];
      const r = await client.callTool(
        {
          name: 'run_stress',
          arguments: {
            tool: 'latte',
            workload: 'write',
            nodes: ['127.0.0.1'],
            durationS: 6,
            concurrency: 16,
            population: { distribution: 'uniform', size: 5000 },
            snapshots: 'none',
            wait: true,
          },
        },
        undefined,
        { onprogress: (p) => progress.push(String(p.message)), timeout: 90_000 },
      );
      expect(r.isError).toBeFalsy();
      const sc = r.structuredContent as { id: string; status: { state: string; latest: { opRate: number } } };
      expect(sc.status.state).toBe('finished');
      expect(sc.status.latest.opRate).toBeGreaterThan(0);
      expect(progress.some((m) => /latte \d+(\.\d)?s\/6s: \d+ op\/s, p50/.test(m))).toBe(true);
      const links = (r.content as { type: string; mimeType?: string; uri?: string }[]).filter((c) => c.type === 'resource_link');
      expect(links.map((l) => l.mimeType)).toEqual(['image/svg+xml', 'image/svg+xml']);
      expect(existsSync(new URL(links[0]!.uri!))).toBe(true);
      const cmp = await client.callTool({ name: 'compare_runs', arguments: { a: ids[0]!, b: sc.id } });
      expect((cmp.content as { text: string }[])[0]!.text).toMatch(/throughput: median/);
      const refused = await client.callTool({ name: 'run_stress', arguments: { tool: 'latte', workload: 'write', nodes: ['192.0.2.7'], durationS: 5 } });
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0]!.text).toMatch(/STRESS_TARGET_NOT_ALLOWED/);
    } finally {
      await client.close();
    }
  }, 120_000);
});
