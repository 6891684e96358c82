import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateStressTool, stressToolCandidates } from '../../mcp-server/src/collect/stress-runner.js';
import { parseLatteJson, parseLatteText } from '../../mcp-server/src/core/parse/stress/index.js';
import { bootstrapRatio, compareRuns } from '../../mcp-server/src/core/stress/compare.js';
import { stressFacts, type StressFacts } from '../../mcp-server/src/core/stress/facts.js';
import { diffSnapshots } from '../../mcp-server/src/core/stress/server-diff.js';
import { capSeconds, checkTarget, startStress } from '../../mcp-server/src/ops/stress.js';
import { distributionSvg, timelineSvg } from '../../mcp-server/src/render/stress-chart.js';
import { corpus, HAVE_CORPUS } from '../helpers/corpus.js';

const tmp = mkdtempSync(join(tmpdir(), 'cql-tuner-stress-unit-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('stress target safety', () => {
  it('loopback is always allowed; anything else is refused unless allow-listed, and then needs confirm', () => {
    expect(() => checkTarget(['127.0.0.1', '127.0.0.2', 'localhost', '::1'], undefined, {})).not.toThrow();
    expect(() => checkTarget(['10.0.0.5'], true, {})).toThrow(/only loopback addresses or hosts in CQL_TUNER_STRESS_ALLOW/);
    expect(() => checkTarget(['10.0.0.5'], undefined, { CQL_TUNER_STRESS_ALLOW: '10.0.0.5, 10.0.0.6' })).toThrow(/not loopback/);
    expect(() => checkTarget(['10.0.0.5', '127.0.0.1'], true, { CQL_TUNER_STRESS_ALLOW: '10.0.0.5' })).not.toThrow();
    // 127.x inside a host name is not loopback.
    expect(() => checkTarget(['127.0.0.1.evil.example'], true, {})).toThrow(/refusing/);
  });

  it('the duration cap defaults to 600 s, follows the environment, and a run can only lower it', () => {
    expect(capSeconds({}, {})).toBe(600);
    expect(capSeconds({}, { CQL_TUNER_STRESS_MAX_SECONDS: '120' })).toBe(120);
    expect(capSeconds({ maxDurationS: 30 }, {})).toBe(30);
    expect(capSeconds({ maxDurationS: 9999 }, { CQL_TUNER_STRESS_MAX_SECONDS: '120' })).toBe(120);
  });

  it('refuses before touching anything: bad params, foreign target, a run longer than the cap', async () => {
    const env = { CQL_TUNER_HOME: tmp, PATH: '' };
    await expect(startStress({ tool: 'latte', workload: 'write', nodes: ['127.0.0.1'], durationS: 5, keyspace: 'bad name' }, { env })).rejects.toMatchObject({
      code: 'STRESS_BAD_PARAMS',
    });
    await expect(startStress({ tool: 'latte', workload: 'write', nodes: ['192.0.2.10'], durationS: 5 }, { env })).rejects.toMatchObject({
      code: 'STRESS_TARGET_NOT_ALLOWED',
    });
    await expect(startStress({ tool: 'latte', workload: 'write', nodes: ['127.0.0.1'], durationS: 700 }, { env })).rejects.toMatchObject({
      code: 'STRESS_TOO_LONG',
    });
  });
});

describe('stress tool look-up order', () => {
  it('explicit path, then $CQL_TUNER_LATTE, then PATH, then the cql-tuner cache', async () => {
    const c = stressToolCandidates('latte', '/x/latte', { CQL_TUNER_LATTE: '/env/latte', PATH: '/a:/b' }, '/home/u');
    expect(c.map((x) => x.from)).toEqual(['explicit path', '$CQL_TUNER_LATTE', 'PATH', 'PATH', 'cql-tuner cache']);
    expect(c.at(-1)!.path).toBe('/home/u/.cache/cql-tuner/latte-0.29.0/bin/latte');
    expect(stressToolCandidates('cassandra-stress', undefined, { CASSANDRA_HOME: '/opt/c', PATH: '' }).at(-1)!.path).toBe('/opt/c/tools/bin/cassandra-stress');
  });

  it('finds an executable from the environment variable before PATH, and explains a miss', async () => {
    const bin = join(tmp, 'bin');
    mkdirSync(bin, { recursive: true });
    const fake = join(bin, 'latte');
    writeFileSync(fake, '#!/bin/sh\nexit 0\n');
    chmodSync(fake, 0o755);
    expect(await locateStressTool('latte', undefined, { CQL_TUNER_LATTE: fake, PATH: '' }, tmp)).toEqual({ path: fake, from: '$CQL_TUNER_LATTE' });
    expect(await locateStressTool('latte', undefined, { PATH: bin }, tmp)).toEqual({ path: fake, from: 'PATH' });
    await expect(locateStressTool('scylla-bench', undefined, { PATH: '' }, tmp)).rejects.toThrow(/scylla-bench was not found/);
    await expect(locateStressTool('latte', join(tmp, 'nope'), { PATH: bin }, tmp)).rejects.toMatchObject({ code: 'STRESS_TOOL_NOT_FOUND' });
  });
});

const facts = (rates: number[], p99: number[]): StressFacts =>
  ({
    tool: 'latte',
    intervals: rates.map((r, i) => ({
      timeS: i + 1,
      opRate: r,
      p50Ms: 1,
      p95Ms: null,
      p99Ms: p99[i] ?? 5,
      maxMs: null,
      errors: 0,
      gcCount: null,
      gcMaxMs: null,
      gcSumMs: null,
    })),
  }) as unknown as StressFacts;

describe('compare_runs bootstrap', () => {
  it('same distribution → interval contains 1 → no significant difference', () => {
    const a = facts([100, 103, 98, 101, 99, 102, 100, 97, 104, 100], []);
    const b = facts([101, 99, 100, 102, 98, 103, 100, 99, 101, 100], []);
    const c = compareRuns(a, b);
    const t = c.metrics.find((m) => m.metric === 'throughput')!;
    expect(t.verdict).toBe('no significant difference');
    expect(t.low).toBeLessThanOrEqual(1);
    expect(t.high).toBeGreaterThanOrEqual(1);
    expect(c.summary[0]).toMatch(/no significant difference \(within noise\)/);
  });

  it('a 20 % drop with small noise is significant (lower), and p99 doubling is higher', () => {
    const a = facts([100, 102, 98, 101, 99, 100, 103, 97], [5, 5, 6, 5, 5, 6, 5, 5]);
    const b = facts([80, 81, 79, 80, 82, 78, 80, 81], [10, 11, 10, 12, 10, 11, 10, 10]);
    const c = compareRuns(a, b);
    expect(c.metrics.map((m) => [m.metric, m.verdict])).toEqual([
      ['throughput', 'lower'],
      ['p99', 'higher'],
    ]);
    expect(c.metrics[0]!.ratio).toBeCloseTo(0.8, 1);
  });

  it('is deterministic and says when there are too few samples', () => {
    expect(bootstrapRatio([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])).toEqual(bootstrapRatio([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]));
    expect(compareRuns(facts([1, 2, 3], []), facts([1, 2, 3], [])).warnings[0]).toMatch(/too few interval samples/);
  });
});

describe.skipIf(!HAVE_CORPUS)('charts from real latte output', () => {
  it('timeline has throughput, p50 and p99 paths; distribution uses the JSON percentiles', () => {
    const p = parseLatteJson(corpus('local-runs/cassandra-5.0.9-cluster3/latte/latte_read.json'));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    const f = stressFacts(p.kind, p.value)!;
    const svg = timelineSvg(f);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.match(/<path /g)).toHaveLength(3);
    expect(svg.match(/<circle /g)!.length).toBe(3 * f.intervals.length);
    const d = distributionSvg(f, p.value.latencyPercentilesMs);
    expect(d).toMatch(/>99\.9</);
    // Text and JSON of the same run give the same number of intervals.
    const t = parseLatteText(corpus('local-runs/cassandra-5.0.9-cluster3/latte/latte_read.txt'));
    expect(t.ok && stressFacts(t.kind, t.value)!.intervals.length).toBe(f.intervals.length);
  });
});

describe('server difference before/after a run', () => {
  it('explains dropped messages, a compaction backlog and GC during the run', () => {
    const before = [
      {
        address: '127.0.0.1',
        facts: {
          droppedMessages: { MUTATION: 3 },
          threadPools: [{ name: 'CompactionExecutor', active: 0, activeLimit: 2, pending: 0, blocked: 0, blockedAllTime: 0, completed: 10 }],
        },
      },
    ];
    const after = [
      {
        address: '127.0.0.1',
        facts: {
          droppedMessages: { MUTATION: 40 },
          gc: { intervalMs: 9000, maxPauseMs: 250, totalPauseMs: 600, collections: 7, reclaimedBytes: null },
          threadPools: [{ name: 'CompactionExecutor', active: 2, activeLimit: 2, pending: 14, blocked: 0, blockedAllTime: 0, completed: 12 }],
        },
      },
    ];
    const d = diffSnapshots(before, after);
    expect(d.nodes[0]).toMatchObject({ droppedDelta: { MUTATION: 37 }, pendingCompactionsBefore: 0, pendingCompactionsAfter: 16, gcMaxPauseMs: 250 });
    expect(d.explanation.join('\n')).toMatch(/37 MUTATION dropped/);
    expect(d.explanation.join('\n')).toMatch(/compactions pending went 0 → 16/);
    expect(d.explanation.join('\n')).toMatch(/longest pause 250 ms/);
    expect(diffSnapshots(before, before).explanation[0]).toMatch(/absorbed the run/);
  });
});
