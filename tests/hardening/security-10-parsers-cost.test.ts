/**
 * Issue #13, class 10 (parser cost): a huge but well-formed output stays linear and never overflows the stack,
 * and a result with NaN/Infinity comes back as a tool result, not a protocol error.
 *  - a 100k-row `nodetool status` went quadratic in the topology rule (77 s: `map.set(dc, [...old, row])`);
 *  - 200k rows overflowed the stack (`Math.min(...indents)` in cleanLines, `Math.max(...loads)` in topology);
 *  - estimate_scaling with a tiny stream throughput computed Infinity minutes: the SDK's output-schema check
 *    turned that into "MCP error -32602: Output validation error".
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxOf, minOf, pushAll } from '../../mcp-server/src/core/arrays.js';
import { createServer } from '../../mcp-server/src/mcp/server.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { record } from './stats.js';

/** A `nodetool status` of n rows in one DC, uneven loads, every 7th node down. */
function status(n: number): string {
  const rows = ['Datacenter: dc1', '===============', 'Status=Up/Down', '|/ State=Normal/Leaving/Joining/Moving'];
  rows.push('--  Address  Load  Tokens  Owns (effective)  Host ID  Rack');
  for (let i = 0; i < n; i++) {
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const hostId = `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
    rows.push(`${i % 7 === 0 ? 'DN' : 'UN'}  ${ip}  ${(i % 13) + 1}.5 GiB  ${i % 3 ? 16 : 256}  ${(100 / n).toFixed(4)}%  ${hostId}  rack1`);
  }
  return rows.join('\n');
}

describe('class 10: parser cost on huge well-formed outputs', () => {
  it('a 100k-row nodetool status is interpreted in linear time, findings and evidence bounded', () => {
    // Judged by how the time grows with the rows, measured side by side, not by a wall-clock figure that a busy
    // 2-core machine can miss (CI beside a build: 3.25 s for the 2 s once allowed): 10× the rows must cost about 10×
    // the time (the quadratic topology rule took 77 s, ~100×). Best of three each, after a warm-up.
    interpretText(status(10_000));
    const time = (text: string) => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        interpretText(text);
        best = Math.min(best, performance.now() - t0);
      }
      return best;
    };
    const small = time(status(10_000));
    const text = status(100_000);
    const big = time(text);
    const r = interpretText(text);
    expect(r.ok).toBe(true);
    expect(r.kind).toBe('nodetool.status');
    const imbalance = r.findings.find((f) => f.id === 'topology.load-imbalance');
    expect(imbalance?.evidence.length).toBeLessThanOrEqual(201);
    expect(imbalance?.evidence.at(-1)).toMatch(/… and 99800 more nodes/);
    expect(big / small, `10k rows ${small.toFixed(0)} ms, 100k rows ${big.toFixed(0)} ms`).toBeLessThan(25);
    expect(big).toBeLessThan(10_000);
    record({ section: 'attack', cls: '10 parser cost', tried: 1, unsafe: big / small < 25 ? 0 : 1 });
  }, 180_000);

  it('a 200k-row nodetool status does not overflow the stack', () => {
    const r = interpretText(status(200_000));
    expect(r.ok).toBe(true);
    expect(r.summary).not.toMatch(/Maximum call stack|parser error/);
    expect(r.findings.some((f) => f.id === 'topology.token-count-mismatch')).toBe(true);
    record({ section: 'attack', cls: '10 parser cost', tried: 1, unsafe: 0 });
  }, 120_000);

  it('the array helpers take any number of elements (where spreads threw RangeError)', () => {
    const xs = Array.from({ length: 500_000 }, (_, i) => (i * 7919) % 500_000);
    expect(() => Math.max(...xs)).toThrow(RangeError);
    expect(maxOf(xs)).toBe(499_999);
    expect(minOf(xs)).toBe(0);
    expect(pushAll([1], xs).length).toBe(500_001);
    expect(maxOf([])).toBe(-Infinity);
    expect(Number.isNaN(maxOf([1, NaN, 3]))).toBe(true);
  });
});

describe('class 10: NaN/Infinity in a result is a tool result, not a protocol error', () => {
  let client: Client;
  beforeAll(async () => {
    const server = createServer();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: 'security-10', version: '0.0.0' });
    await client.connect(b);
  });
  afterAll(() => client.close());

  it('estimate_scaling with a stream throughput of 1e-300 MiB/s answers with its text and names the infinite numbers', async () => {
    const inputs = [
      { dataGiB: 1e9, nodes: 1, targetNodes: 10_000, streamMiBs: 1e-300 },
      { dataGiB: 1e9, nodes: 1, targetNodes: 2, lastBootstrap: { minutes: 1e9, dataPerNodeGiB: 1e-300 } },
    ];
    let unsafe = 0;
    for (const args of inputs) {
      const r = (await client.callTool({ name: 'estimate_scaling', arguments: args })) as { isError?: boolean; content: { text?: string }[] };
      const text = r.content.map((c) => c.text ?? '').join('\n');
      if (/MCP error|Output validation/.test(text)) unsafe++;
      expect(text).not.toMatch(/MCP error|Output validation/);
      expect(r.isError).toBe(true);
      expect(text).toMatch(/## Scale-out/);
      expect(text).toMatch(/\[NON_FINITE_RESULT\] .*minutes = Infinity/);
    }
    record({ section: 'attack', cls: '10 parser cost', tried: inputs.length, unsafe });
  });
});
