import { describe, expect, it } from 'vitest';
import { analyseMetrics, type SignalData } from '../../mcp-server/src/core/metrics/analyse.js';
import { SIGNALS } from '../../mcp-server/src/core/metrics/signals.js';

// The shape of clean-clone CI's failed run (2026-11-29): on a loaded 2-core host 127.0.0.1 missed three scrapes
// (21:00:36–42) half a minute before 127.0.0.2 was SIGSTOPped for 20 s (failed scrapes 21:01:06–40).
const start = Date.UTC(2026, 10, 29, 20, 59, 10) / 1000;
const step = 2;
const spec = SIGNALS.find((s) => s.id === 'scrape_up')!;

function upSeries(node: string, down: [number, number][]): SignalData['series'][number] {
  const points: [number, number][] = [];
  for (let t = start; t <= start + 150; t += step) points.push([t, down.some(([a, b]) => t >= a && t < b) ? 0 : 1]);
  return { labels: { instance: `${node}:7070` }, points };
}

function run(down: Record<string, [number, number][]>) {
  const series = ['127.0.0.1', '127.0.0.2', '127.0.0.3'].map((n) => upSeries(n, down[n] ?? []));
  return analyseMetrics({ start, end: start + 150, step, label: '150 s' }, [{ spec, query: spec.query, series }], ['jmx']);
}

describe('missed scrapes judged against the silence peers convict', () => {
  it('a 6 s miss on one node and a 34 s outage on another half a minute later are two findings; only the outage is critical', () => {
    const a = run({ '127.0.0.1': [[start + 86, start + 92]], '127.0.0.2': [[start + 116, start + 150]] });
    const f = a.findings.filter((x) => x.id === 'metrics.change.scrape_up');
    expect(f.map((x) => [x.node, x.severity])).toEqual([
      ['127.0.0.1', 'warning'],
      ['127.0.0.2', 'critical'],
    ]);
    expect(f[0]!.evidence.join('\n')).toMatch(/kb:gossip\.conviction-silence/);
    expect(f[0]!.knowledgeIds).toEqual(['gossip.conviction-silence']);
    expect(f[1]!.title).not.toMatch(/2 nodes/);
  });

  it('a stretch of 18 s of failed samples may have been 20 s of silence: critical', () => {
    const a = run({ '127.0.0.2': [[start + 60, start + 78]] });
    expect(a.findings.find((x) => x.id === 'metrics.change.scrape_up')).toMatchObject({ node: '127.0.0.2', severity: 'critical' });
  });

  it('overlapping outages on two nodes stay one incident led by the first', () => {
    const a = run({ '127.0.0.1': [[start + 60, start + 90]], '127.0.0.3': [[start + 70, start + 100]] });
    const f = a.findings.filter((x) => x.id === 'metrics.change.scrape_up');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ node: '127.0.0.1', severity: 'critical', confidence: 'high' });
    expect(f[0]!.title).toContain('on 2 nodes, 127.0.0.1 first');
  });
});
