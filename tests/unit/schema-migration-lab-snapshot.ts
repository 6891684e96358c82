/** The lab capture's per-node CQL outputs (tests/fixtures/lab/<scenario>) as a snapshot, the path a bundle takes. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { NodeRaw } from '../../mcp-server/src/ops/sweep.js';
import { snapshotFromRaw, type ClusterSnapshot } from '../../mcp-server/src/ops/snapshot.js';

export function labSnapshot(scenario: string): ClusterSnapshot {
  const dir = resolve(import.meta.dirname, '../fixtures/lab', scenario);
  const nodes = readdirSync(dir).filter((d) => d.startsWith('node'));
  const raw: NodeRaw[] = nodes.map((d, i) => ({
    node: {
      address: `127.0.0.${i + 1}`,
      cqlPort: 9042,
      jmxHost: '127.0.0.1',
      jmxPort: 7199,
      datacenter: 'datacenter1',
      rack: 'rack1',
      hostId: null,
      upPerDriver: true,
    },
    ms: 1,
    cqlReachable: true,
    virtualTables: [],
    sources: readdirSync(join(dir, d))
      .filter((f) => f.endsWith('.tsv'))
      .map((f) => ({
        name: `cql:${f.replace(/^(?:vt|table)-/, '').replace(/\.tsv$/, '')}`,
        via: 'cql' as const,
        ok: true,
        ms: 1,
        text: readFileSync(join(dir, d, f), 'utf8'),
        rows: 1,
      })),
  }));
  return snapshotFromRaw(raw, { collectedAt: '2026-11-21T00:00:00.000Z', durationMs: 1, contactPoints: ['127.0.0.1'] });
}
