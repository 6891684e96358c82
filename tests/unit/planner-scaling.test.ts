import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../mcp-server/src/cli/main.js';
import { planScaling } from '../../mcp-server/src/core/planners/scaling.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { estimateScaling } from '../../mcp-server/src/ops/scaling.js';
import { renderScaling } from '../../mcp-server/src/render/scaling.js';

// ScyllaDB tablets-vs-vNodes benchmark, Cassandra column (kb:scaling.bootstrap.exponent): 3 → 27 nodes in
// batches of 3, 2 TB, first step 24 min.
const PUBLISHED = [24.0, 15.8, 12.4, 10.4, 9.0, 8.1, 7.3, 6.7];
const PUBLISHED_TOTAL = 93.7;
const BENCH = { dataGiB: 2048, nodes: 3, targetNodes: 27, nodesPerStep: 3, firstStepMinutes: 24 };

describe('planScaling — the benchmark reproduction', () => {
  const plan = planScaling(BENCH);

  it('takes eight steps of three nodes, 3 → 27', () => {
    expect(plan.vnodes.steps.map((s) => [s.fromNodes, s.toNodes])).toEqual([3, 6, 9, 12, 15, 18, 21, 24].map((n) => [n, n + 3]));
  });

  it('reads the ratio as data per existing node at the step start over the first step’s: 1/k', () => {
    plan.vnodes.steps.forEach((s, i) => expect(s.ratio).toBeCloseTo(1 / (i + 1), 4));
    expect(plan.ratioReading).toMatch(/data on each existing node when step k starts/);
    expect(plan.formula).toBe('T_k = T0 · (d_k / d0)^0.6');
  });

  it('reproduces every published step within 5 % and the cumulative time within 5 %', () => {
    plan.vnodes.steps.forEach((s, i) => {
      const rel = Math.abs(s.minutes - PUBLISHED[i]!) / PUBLISHED[i]!;
      expect(rel, `step ${i + 1}: ${s.minutes} vs ${PUBLISHED[i]}`).toBeLessThan(0.05);
    });
    expect(Math.abs(plan.vnodes.bootstrapMinutes - PUBLISHED_TOTAL) / PUBLISHED_TOTAL).toBeLessThan(0.05);
    expect(plan.vnodes.bootstrapMinutes).toBeCloseTo(94.4, 1);
  });

  it('the rejected reading (data streamed to each new node, 2/(k+1)) misses step 2 by more than 5 %', () => {
    const t2 = 24 * (2 / 3) ** 0.6;
    expect(Math.abs(t2 - PUBLISHED[1]!) / PUBLISHED[1]!).toBeGreaterThan(0.05);
  });

  it('calibrating with an earlier bootstrap at the same data per node gives the same plan', () => {
    const cal = planScaling({ ...BENCH, firstStepMinutes: undefined, lastBootstrap: { minutes: 24, dataPerNodeGiB: 2048 / 3 } });
    expect(cal.t0.source).toBe('last-bootstrap');
    expect(cal.vnodes.steps.map((s) => s.minutes)).toEqual(plan.vnodes.steps.map((s) => s.minutes));
  });

  it('a bootstrap measured on half the data per node scales T0 up by 2^0.6', () => {
    const cal = planScaling({ ...BENCH, firstStepMinutes: undefined, lastBootstrap: { minutes: 24, dataPerNodeGiB: 2048 / 6 } });
    expect(cal.vnodes.steps[0]!.minutes).toBeCloseTo(24 * 2 ** 0.6, 1);
  });
});

describe('planScaling — targets, T0, cleanup, disk, tablets', () => {
  it('derives the target from throughput', () => {
    const p = planScaling({ dataGiB: 600, nodes: 3, targetThroughput: 100_000, perNodeThroughput: 15_000, firstStepMinutes: 30 });
    expect(p.targetNodes).toBe(7);
    expect(p.targetReason).toContain('ceil(100000 / 15000');
    expect(p.vnodes.steps.map((s) => s.toNodes)).toEqual([6, 7]);
  });

  it('without calibration estimates T0 from the 4.1 stream cap (24 MiB/s per sender) and says so', () => {
    const p = planScaling({ dataGiB: 300, nodes: 3, targetNodes: 4 });
    // One node joins and receives 300/4 = 75 GiB from 3 senders at 24 MiB/s: 75·1024/72/60 = 17.8 min.
    expect(p.t0.source).toBe('stream-throughput');
    expect(p.vnodes.steps[0]!.minutes).toBeCloseTo((75 * 1024) / 72 / 60, 1);
    expect(p.assumptions.join(' ')).toMatch(/Calibrate with lastBootstrap/);
    expect(p.knowledgeIds).toContain('streaming.throughput.default');
  });

  it('ScyllaDB without a stream rate or calibration is refused (it streams unthrottled by default)', () => {
    expect(() => planScaling({ dataGiB: 300, nodes: 3, targetNodes: 6, product: 'scylla' })).toThrow(/unthrottled/);
  });

  it('cleanup reads each original node’s data at the compaction throughput (64 MiB/s default)', () => {
    const p = planScaling(BENCH);
    expect(p.vnodes.cleanupMinutes).toBeCloseTo(((2048 / 3) * 1024) / 64 / 60, 1);
    expect(p.vnodes.totalMinutes).toBeCloseTo(p.vnodes.bootstrapMinutes + p.vnodes.cleanupMinutes!, 0);
  });

  it('disk: old nodes keep their data until cleanup; over the STCS headroom is "tight"', () => {
    const p = planScaling({ ...BENCH, diskGiB: 1000 });
    expect(p.disk.startPct).toBeCloseTo(68.3, 1);
    expect(p.disk.peakPct).toBeCloseTo(68.3, 1);
    expect(p.disk.endPct).toBeCloseTo(7.6, 1);
    expect(p.disk.limitPct).toBe(50);
    expect(p.disk.verdict).toBe('tight');
    const roomy = planScaling({ ...BENCH, diskGiB: 4000 });
    expect(roomy.disk.verdict).toBe('ok');
    const over = planScaling({ ...BENCH, diskGiB: 500 });
    expect(over.disk.verdict).toBe('over');
  });

  it('tablets on ScyllaDB: one parallel step, no cleanup, 90 % disk ceiling', () => {
    const p = planScaling({ ...BENCH, product: 'scylla', tablets: true, diskGiB: 1000 });
    expect(p.tablets?.minutes).toBe(24);
    expect(p.disk.limitPct).toBe(90);
    expect(p.disk.verdict).toBe('ok');
    expect(p.knowledgeIds).toEqual(expect.arrayContaining(['scylla.tablets.scaling', 'scaling.tablets.disk-usable']));
    // ScyllaDB has no MiB/s compaction default to assume: cleanup is not estimated unless a rate is given.
    expect(p.vnodes.cleanupMinutes).toBeNull();
    expect(planScaling({ ...BENCH, product: 'scylla', compactionMiBs: 128 }).vnodes.cleanupMinutes).toBeCloseTo(((2048 / 3) * 1024) / 128 / 60, 1);
    const vn = planScaling({ ...BENCH, product: 'scylla', tablets: false });
    expect(vn.tablets?.minutes).toBeNull();
    expect(vn.disk.limitPct).toBe(50);
  });

  it('refuses a target at or below the current size, and missing targets', () => {
    expect(() => estimateScaling({ dataGiB: 100, nodes: 6, targetNodes: 6 })).toThrow(/must be an integer above/);
    expect(() => estimateScaling({ dataGiB: 100, nodes: 6 })).toThrow(/targetNodes/);
    try {
      estimateScaling({ dataGiB: -1, nodes: 3, targetNodes: 6 });
    } catch (e) {
      expect((e as { code?: string }).code).toBe('BAD_ARGUMENT');
    }
  });

  it('renders the formula, the ratio reading, the step table and the assumptions', () => {
    const text = renderScaling(planScaling(BENCH));
    expect(text).toContain('T_k = T0 · (d_k / d0)^0.6');
    expect(text).toContain('| 8 | 24→27 |');
    expect(text).toMatch(/Assumptions:/);
    expect(text).toContain('kb:scaling.bootstrap.exponent');
  });
});

describe('estimate_scaling over MCP and estimate-scaling on the CLI', () => {
  it('the MCP tool returns the structured plan with the benchmark numbers', async () => {
    const server = createServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 't', version: '0' });
    await client.connect(b);
    const r = await client.callTool({ name: 'estimate_scaling', arguments: BENCH });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent as { vnodes: { steps: { minutes: number }[]; bootstrapMinutes: number } };
    expect(sc.vnodes.steps.map((s) => Math.round(s.minutes * 10) / 10)).toEqual([24, 15.8, 12.4, 10.5, 9.1, 8.2, 7.5, 6.9]);
    const bad = await client.callTool({ name: 'estimate_scaling', arguments: { dataGiB: 10, nodes: 3 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('BAD_ARGUMENT');
    await client.close();
  });

  it('the CLI verb is registered with --json', () => {
    const cmd = buildProgram().commands.find((c) => c.name() === 'estimate-scaling');
    expect(cmd).toBeDefined();
    expect(cmd!.options.map((o) => o.long)).toEqual(expect.arrayContaining(['--json', '--data-gib', '--first-step-min', '--last-bootstrap-min']));
  });
});
