import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeBundle } from '../../mcp-server/src/collect/bundle-store.js';
import type { NodeRaw, SweepNode } from '../../mcp-server/src/ops/sweep.js';
import { analyzeBundle, RAW_MAX_BYTES_PER_OUTPUT, RAW_MAX_BYTES_TOTAL, selectRaw, snapshotFromRaw } from '../../mcp-server/src/ops/snapshot.js';
import { renderRawOutputs } from '../../mcp-server/src/render/snapshot.js';
import { fixture } from '../helpers/corpus.js';

const node = (address: string): SweepNode => ({
  address,
  cqlPort: 9042,
  jmxHost: address,
  jmxPort: 7199,
  datacenter: 'dc1',
  rack: 'r1',
  hostId: null,
  upPerDriver: true,
});
const LAB = 'lab/cassandra-5.0-3node';
// Real lab captures of two nodes: nodetool outputs as a sweep keeps them.
const raw = (): NodeRaw[] =>
  ['node1', 'node2'].map((n, i) => ({
    node: node(`127.0.0.${i + 1}`),
    ms: 10,
    cqlReachable: false,
    virtualTables: [],
    sources: ['tpstats', 'gcstats', 'info'].map((sub) => ({
      name: `nodetool:${sub}`,
      via: 'nodetool',
      ok: true,
      ms: 5,
      text: fixture(`${LAB}/${n}/nodetool-${sub}.txt`),
    })),
  }));

describe('raw outputs on request', () => {
  it('stay out of a snapshot unless asked for', () => {
    const s = snapshotFromRaw(raw(), { collectedAt: 'now', durationMs: 1, contactPoints: ['127.0.0.1'] });
    expect(s.raw).toBeUndefined();
    expect(JSON.stringify(s.nodes)).not.toContain('Pool Name');
  });

  it('come back byte for byte for one node and one source, matched with or without the "nodetool:" prefix', () => {
    const r = raw();
    for (const source of ['tpstats', 'nodetool:tpstats']) {
      const sel = selectRaw(r, { node: '127.0.0.2', source });
      expect(sel.outputs.map((o) => [o.node, o.source])).toEqual([['127.0.0.2', 'nodetool:tpstats']]);
      expect(sel.outputs[0]!.text).toBe(r[1]!.sources[0]!.text);
      expect(sel.outputs[0]!.truncated).toBe(false);
    }
    expect(selectRaw(r, { source: 'gcstats' }).outputs.map((o) => o.node)).toEqual(['127.0.0.1', '127.0.0.2']);
    expect(selectRaw(r, { node: '10.9.9.9' }).outputs).toEqual([]);
    expect(renderRawOutputs(selectRaw(r, { node: '10.9.9.9' }))).toMatch(/none matched/);
  });

  it('are cut per output and in total, and say so', () => {
    const big = 'x'.repeat(RAW_MAX_BYTES_PER_OUTPUT + 5000);
    const many: NodeRaw[] = Array.from({ length: 6 }, (_, i) => ({
      node: node(`10.0.0.${i + 1}`),
      ms: 1,
      cqlReachable: true,
      virtualTables: [],
      sources: [{ name: 'nodetool:tablestats', via: 'nodetool', ok: true, ms: 1, text: big }],
    }));
    const sel = selectRaw(many, {});
    expect(sel.outputs[0]!.truncated).toBe(true);
    expect(sel.outputs[0]!.bytes).toBe(big.length);
    expect(sel.outputs[0]!.text.length).toBe(RAW_MAX_BYTES_PER_OUTPUT);
    const total = sel.outputs.reduce((n, o) => n + o.text.length, 0);
    expect(total).toBeLessThanOrEqual(RAW_MAX_BYTES_TOTAL);
    expect(sel.outputs.length + sel.omitted).toBe(6);
    expect(sel.omitted).toBeGreaterThan(0);
    const text = renderRawOutputs(sel);
    expect(text).toMatch(/first 32\.0 KiB of 36\.9 KiB/);
    expect(text).toMatch(/more matched but were left out/);
  });

  it('are read back from a bundle by analyze, the summary unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-raw-'));
    try {
      const meta = {
        tool: { name: 'cql-tuner' as const, version: 'test' },
        collectedAt: '2026-11-22T00:00:00.000Z',
        durationMs: 1,
        contactPoints: ['127.0.0.1'],
      };
      await writeBundle(join(dir, 'b'), meta, raw());
      const plain = await analyzeBundle(join(dir, 'b'));
      const withRaw = await analyzeBundle(join(dir, 'b'), { raw: { node: '127.0.0.1', source: 'info' } });
      expect(withRaw.nodes).toEqual(plain.nodes);
      expect(withRaw.raw?.outputs).toHaveLength(1);
      expect(withRaw.raw?.outputs[0]!.text).toBe(raw()[0]!.sources[2]!.text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
