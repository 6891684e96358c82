import { describe, expect, it } from 'vitest';
import { parseProxyhistograms } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const DOCS = 'nodetool/proxyhistograms_tail_latency_cassandra_docs.txt';
const C41_IDLE = 'local-runs/cassandra-4.1.10-single/nodetool_n41_proxyhistograms.txt';
const C41_STRESS = 'local-runs/cassandra-4.1.10-single/nodetool_n41_proxyhistograms_after_stress.txt';

// 2.x layout: only Read/Write/Range columns (ProxyHistograms.java, cassandra-2.1, "%-10s%18s%18s%18s").
const OLD = [
  'proxy histograms',
  'Percentile'.padEnd(10) + ['Read Latency', 'Write Latency', 'Range Latency'].map((h) => h.padStart(18)).join(''),
  ''.padEnd(10) + ['(micros)', '(micros)', '(micros)'].map((h) => h.padStart(18)).join(''),
  ...[
    ['50%', '315.85', '182.79', '0.00'],
    ['75%', '379.02', '219.34', '0.00'],
    ['95%', '545.79', '315.85', '0.00'],
    ['98%', '654.95', '379.02', '0.00'],
    ['99%', '785.94', '454.83', '0.00'],
    ['Min', '61.22', '42.51', '0.00'],
    ['Max', '4055.27', '2816.16', '0.00'],
  ].map(([p, ...v]) => p!.padEnd(10) + v.map((x) => x.padStart(18)).join('')),
].join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseProxyhistograms(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool proxyhistograms', () => {
  it.skipIf(!HAVE_CORPUS)('docs sample: healthy median, long read/write tail, no range/CAS/view traffic', () => {
    const r = parseProxyhistograms(corpus(DOCS));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.readLatencyMicros).toEqual({ p50: 454.83, p75: 545.79, p95: 654.95, p98: 785.94, p99: 3379.39, min: 42.51, max: 25109.16 });
    expect(r.value.writeLatencyMicros?.max).toBe(43388.63);
    for (const idle of [r.value.rangeLatencyMicros, r.value.casReadLatencyMicros, r.value.casWriteLatencyMicros, r.value.viewWriteLatencyMicros]) {
      expect(Object.values(idle!).every((v) => v === 0)).toBe(true);
    }
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.1 after stress; the idle 4.1 node printed an InstanceNotFoundException instead', () => {
    const r = parseProxyhistograms(corpus(C41_STRESS));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.readLatencyMicros).toMatchObject({ p99: 5722, max: 51012 });
      expect(r.value.rangeLatencyMicros?.p50).toBe(17084);
    }
    const idle = parseProxyhistograms(corpus(C41_IDLE));
    expect(idle.ok).toBe(false);
    if (!idle.ok) expect(idle.reason).toMatch(/ClientRequest,scope=Read/);
  });

  it('2.x layout with three columns', () => {
    const r = parseProxyhistograms(OLD);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.columns).toEqual(['Read Latency', 'Write Latency', 'Range Latency']);
    expect(r.value.readLatencyMicros?.max).toBe(4055.27);
    expect(r.value.casReadLatencyMicros).toBeNull();
  });

  it('prompt, CRLF, log prefixes; ok:false on unrelated, empty and tablehistograms text', () => {
    const r = parseProxyhistograms(['$ nodetool proxyhistograms', ...OLD.split('\n').map((l) => `2026-03-04 05:06:07,890 ${l}`)].join('\r\n'));
    expect(r.ok && r.value.writeLatencyMicros?.p99).toBe(454.83);
    for (const bad of ['', 'running', 'Percentile  SSTables  Write Latency  Read Latency  Partition Size  Cell Count\n50% 1 2 3 4 5']) {
      expect(parseProxyhistograms(bad).ok).toBe(false);
    }
  });

  it('keeps the rows before a cut with a warning; refuses a header without rows', () => {
    const cut = parseProxyhistograms(OLD.split('\n').slice(0, 6).join('\n'));
    expect(cut.ok).toBe(true);
    if (cut.ok) {
      expect(cut.value.readLatencyMicros).toMatchObject({ p95: 545.79, p99: null, max: null });
      expect(cut.warnings.join(' ')).toMatch(/truncated/);
    }
    expect(parseProxyhistograms(OLD.split('\n').slice(0, 3).join('\n')).ok).toBe(false);
  });

  it('is total on every truncation of the synthetic sample', () => {
    expectTotalOnEveryTruncation(OLD);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real proxyhistograms sample', () => {
    const files = [...corpusFiles('nodetool', /proxyhistograms/), ...corpusFiles('local-runs', /_proxyhistograms.*\.txt$/)];
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) expectTotalOnEveryTruncation(corpus(f));
  });
});
