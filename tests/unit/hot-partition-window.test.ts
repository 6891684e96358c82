import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseToppartitions } from '../../mcp-server/src/core/parse/nodetool/toppartitions.js';
import { runWindow, type DiagnosisWindow, type WindowProfiler } from '../../mcp-server/src/ops/diagnose-window.js';
import type { ClusterSnapshot } from '../../mcp-server/src/ops/snapshot.js';
import { withHotPartitions } from '../../mcp-server/src/ops/window-profileload.js';

const fx = (name: string) => readFileSync(new URL(`../fixtures/nodetool-toppartitions/${name}`, import.meta.url), 'utf8');
const empty = (): ClusterSnapshot => ({ collectedAt: new Date().toISOString(), durationMs: 1, contactPoints: ['127.0.36.1'], nodes: [] });

describe('diagnose window: the partition sample runs during the wait', () => {
  it('calls the sampler once, between the two sweeps, with min(window, 10 s) less the margin, and keeps its result', async () => {
    const events: string[] = [];
    let sweeps = 0;
    const profile: WindowProfiler = async (_first, durationMs, signal) => {
      events.push(`profile ${durationMs} ${signal ? 'signal' : 'no-signal'}`);
      return { nodes: [{ node: '127.0.36.1', durationMs, error: 'JMX_UNREACHABLE: refused' }] };
    };
    const ac = new AbortController();
    const run = await runWindow(
      4,
      async () => {
        events.push(`sweep ${++sweeps}`);
        return empty();
      },
      () => ({ groups: [] }),
      { profile, signal: ac.signal },
    );
    expect(events).toEqual(['sweep 1', 'profile 1000 signal', 'sweep 2']);
    expect(run.window.profileload).toEqual({ durationMs: 1000, nodes: [{ node: '127.0.36.1', durationMs: 1000, error: 'JMX_UNREACHABLE: refused' }] });
  }, 15_000);

  it('a sampler slower than the window does not stretch it: the second sweep starts on time, the sample joins it', async () => {
    const events: { what: string; at: number }[] = [];
    const t0 = Date.now();
    const run = await runWindow(
      4,
      async () => {
        events.push({ what: 'sweep', at: Date.now() - t0 });
        return empty();
      },
      () => ({ groups: [] }),
      {
        // A nodetool JVM that takes its time to start on a busy host: the answer comes 2.5 s after the window.
        profile: async (_f, durationMs) => {
          await new Promise((r) => setTimeout(r, 6500));
          return { nodes: [{ node: '127.0.36.1', durationMs, error: 'late' }] };
        },
      },
    );
    expect(events.map((e) => e.what)).toEqual(['sweep', 'sweep']);
    // The second sweep at the window's end (4 s), not when the sampler answered (6.5 s).
    expect(events[1]!.at).toBeLessThan(5500);
    expect(run.window.seconds).toBeLessThan(5);
    expect(run.window.profileload?.nodes).toEqual([{ node: '127.0.36.1', durationMs: 1000, error: 'late' }]);
  }, 15_000);

  it('does not sample in a window too short for it, and says so', async () => {
    let called = false;
    const run = await runWindow(
      1,
      async () => empty(),
      () => ({ groups: [] }),
      {
        profile: async () => {
          called = true;
          return { nodes: [] };
        },
      },
    );
    expect(called).toBe(false);
    expect(run.window.profileload).toEqual({ durationMs: null, nodes: [], note: 'the 1 s window is too short to sample partitions (needs at least 4 s)' });
  }, 10_000);

  it('an abort during the wait ends the window with CANCELLED and reaches the sampler', async () => {
    const ac = new AbortController();
    let seen: AbortSignal | undefined;
    const p = runWindow(
      5,
      async () => empty(),
      () => ({ groups: [] }),
      {
        signal: ac.signal,
        profile: async (_f, _ms, signal) => {
          seen = signal;
          await new Promise((r) => setTimeout(r, 50));
          return { nodes: [] };
        },
      },
    );
    setTimeout(() => ac.abort(), 300);
    await expect(p).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(seen?.aborted).toBe(true);
  }, 10_000);
});

describe('withHotPartitions: the window sample joins a live diagnosis', () => {
  const p = parseToppartitions(fx('5.0-profileload-hot-key.txt'));
  if (!p.ok) throw new Error(p.reason);
  const window = {
    nodes: [{ node: '127.0.36.1', tables: [{ table: 'h3hot.kv', readsPerS: 495, writesPerS: 600, source: 'test' }] }],
    profileload: { durationMs: 5000, nodes: [{ node: '127.0.36.1', durationMs: 5000, samplers: p.value.samplers }] },
  } as unknown as DiagnosisWindow;

  it("adds the finding (with the table's window rate) and the checked outcome", () => {
    const r = withHotPartitions({ findings: [], outcomes: [] }, window);
    expect(r.findings.map((f) => [f.id, f.table, f.confidence])).toEqual([['table.hot-partition', 'h3hot.kv', 'high']]);
    expect(r.findings[0]!.evidence[0]).toContain("99 % of the table's local reads on the node (495/s in the window)");
    expect(r.outcomes).toEqual([expect.objectContaining({ rule: 'table.hot-partition', checked: true, findings: 1 })]);
  });

  it('leaves an instant diagnosis alone, and marks a window without a sample "not checked"', () => {
    const base = { findings: [], outcomes: [] };
    expect(withHotPartitions(base, undefined)).toBe(base);
    const none = withHotPartitions(base, { ...window, profileload: undefined });
    expect(none.outcomes).toEqual([expect.objectContaining({ rule: 'table.hot-partition', checked: false })]);
  });
});
