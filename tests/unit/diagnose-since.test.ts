/**
 * diagnose --since / sinceSeconds: the logs of the incident period only (a real Cassandra 3.x system.log from
 * tests/fixtures/real-world, split `tuned`), the metrics of the period when a Prometheus is configured, and the
 * argument checks.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { connectInProcess } from '../helpers/mcp-client.js';
import { SinceLineFilter } from '../../mcp-server/src/core/diagnosis/since-filter.js';
import type { Finding } from '../../mcp-server/src/core/findings.js';
import { sinceCutOf, sinceMetrics, sinceSecondsFrom, withSince } from '../../mcp-server/src/ops/diagnose-since.js';
import { readNodeLogs } from '../../mcp-server/src/ops/node-logs.js';

// Two "Unexpected exception" entries at 20:18:30,020 (with stack lines), then a ParNew pause at 20:18:32,465; no zone.
const LOG = new URL('../fixtures/real-world/log_blank-separated-parnew-reset-by-peer_ansible-cassandra207.txt', import.meta.url);
const TEXT = readFileSync(LOG, 'utf8');
const AT_31 = Date.UTC(2022, 0, 31, 20, 18, 31);

function filterAll(text: string, cut: { sinceMs: number; utcOffsetMinutes: number }, chunk: number): string {
  const f = new SinceLineFilter(cut);
  let out = '';
  for (let i = 0; i < text.length; i += chunk) out += f.push(text.slice(i, i + chunk));
  return out + f.flush();
}

describe('since filter', () => {
  it('keeps the entries from the cut on, their continuation lines with them, whatever the chunking', () => {
    const kept = filterAll(TEXT, { sinceMs: AT_31, utcOffsetMinutes: 0 }, 1 << 20);
    expect(kept).toContain('GCInspector.java:284 - ParNew GC in 237ms');
    expect(kept).not.toContain('Unexpected exception');
    // the stack lines of a dropped entry go with it
    expect(kept).not.toContain('NativeIoException');
    for (const size of [1, 7, 64]) expect(filterAll(TEXT, { sinceMs: AT_31, utcOffsetMinutes: 0 }, size)).toBe(kept);
    // a cut before everything keeps the page as it was
    expect(filterAll(TEXT, { sinceMs: AT_31 - 60_000, utcOffsetMinutes: 0 }, 100)).toBe(TEXT);
  });

  it('reads times without a zone as the local time of the tool: in UTC+1 the same instant is after every line', () => {
    expect(filterAll(TEXT, { sinceMs: AT_31, utcOffsetMinutes: 60 }, 100).trim()).toBe('');
    // in UTC−1 the log's 20:18 is 21:18 UTC: all kept
    expect(filterAll(TEXT, { sinceMs: AT_31, utcOffsetMinutes: -60 }, 100)).toBe(TEXT);
  });

  it('readNodeLogs with a cut: the log facts only hold the period', async () => {
    const all = await readNodeLogs('10.0.0.1', [LOG.pathname]);
    const since = await readNodeLogs('10.0.0.1', [LOG.pathname], undefined, { sinceMs: AT_31, utcOffsetMinutes: 0 });
    expect(all.logs!.levels.info).toBe(3);
    expect(since.logs!.levels.info).toBe(1);
    expect(since.logs!.time.firstT).toBe(Date.UTC(2022, 0, 31, 20, 18, 32, 465));
    expect(since.logs!.events.gcPause?.count).toBe(1);
  });
});

describe('since arguments and metrics', () => {
  const now = Date.UTC(2026, 10, 24, 3, 0, 0) / 1000;

  it('--since takes a duration or a past moment; the period is bounded', () => {
    expect(sinceSecondsFrom('2h', now, 0)).toBe(7200);
    expect(sinceSecondsFrom('2026-11-24T02:13:00Z', now, 0)).toBe(47 * 60);
    expect(sinceSecondsFrom('02:13', now, 0)).toBe(47 * 60);
    expect(sinceSecondsFrom('yesterday-ish', now, 0)).toBeNull();
    expect(sinceCutOf(7200, now * 1000, 0)).toEqual({ sinceMs: (now - 7200) * 1000, utcOffsetMinutes: 0 });
    expect(() => sinceCutOf(10, now * 1000)).toThrow(expect.objectContaining({ code: 'BAD_SINCE' }));
    expect(() => sinceCutOf(40 * 86400, now * 1000)).toThrow(expect.objectContaining({ code: 'BAD_SINCE' }));
  });

  it('metrics of the period: none without a Prometheus, and an unreachable one is said, not fatal', async () => {
    expect(await sinceMetrics(3600, { prometheus: null })).toEqual({ findings: [], note: expect.stringContaining('no Prometheus configured') });
    const r = await sinceMetrics(3600, { prometheus: { url: 'http://127.0.0.1:1', timeoutMs: 2000 } });
    expect(r.findings).toEqual([]);
    expect(r.note).toMatch(/^metrics not read: \[PROMETHEUS_UNREACHABLE\]/);
  });

  it("the period's metrics findings join the report, worst first, counted again", () => {
    const f = (id: string, severity: Finding['severity']): Finding => ({
      id,
      severity,
      title: id,
      evidence: [],
      recommendation: '',
      knowledgeIds: [],
      confidence: 'high',
    });
    const report = { findings: [f('a', 'warning')], counts: { critical: 0, warning: 1, info: 0 } };
    const period = { from: '2026-11-24T01:00:00.000Z', seconds: 7200, logs: 'restricted to the period', metrics: 'x' } as const;
    const r = withSince(report, period, [f('metrics.change.read_p99', 'critical')]);
    expect(r.findings.map((x) => x.id)).toEqual(['metrics.change.read_p99', 'a']);
    expect(r.counts).toEqual({ critical: 1, warning: 1, info: 0 });
    expect(r.since).toBe(period);
  });

  it('MCP diagnose: sinceSeconds is bounded and refused with a bundle', async () => {
    const client = await connectInProcess('since');
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'diagnose')!;
      expect(Object.keys((tool.inputSchema as { properties: Record<string, unknown> }).properties)).toContain('sinceSeconds');
      const short = await client.callTool({ name: 'diagnose', arguments: { bundle: '/nonexistent', sinceSeconds: 10 } });
      expect(short.isError).toBe(true);
      const withBundle = await client.callTool({ name: 'diagnose', arguments: { bundle: '/nonexistent', sinceSeconds: 3600 } });
      expect(JSON.stringify(withBundle.content)).toMatch(/BAD_ARGUMENT.*sinceSeconds/);
    } finally {
      await client.close();
    }
  });
});
