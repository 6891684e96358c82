/**
 * table.space-total-vs-live: tablestats "Space used (total)" far above "(live)" is obsolete SSTables still on disk
 * (or a miscounted metric, scylladb/scylladb#1252). Graded on the gap over live, only from 1 GiB of gap.
 */
import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const GiB = 1024 ** 3;
const stats = (live: number, total: number) =>
  ['Total number of tables: 1', 'Keyspace : ks', '\tTable: events', `\t\tSpace used (live): ${live}`, `\t\tSpace used (total): ${total}`, ''].join('\n');
const ids = (text: string) => {
  const r = interpretText(text);
  expect(r.kind).toBe('nodetool.tablestats');
  return r.findings.filter((f) => f.id === 'table.space-total-vs-live');
};

describe('table.space-total-vs-live', () => {
  it('warns when the total is 15× the live figure (the shape of scylladb#1252), naming both and the gap', () => {
    const f = ids(stats(2048938195, 31997017045));
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'warning', table: 'ks.events' });
    expect(f[0]!.title).toContain('15.6× live');
    expect(f[0]!.evidence[0]).toContain('(live) 1.91 GiB, (total) 29.8 GiB');
    expect(f[0]!.recommendation).toContain('du -sh');
  });

  it('is quiet when total equals live, below half the live data again, or below 1 GiB of gap', () => {
    expect(ids(stats(10 * GiB, 10 * GiB))).toHaveLength(0);
    expect(ids(stats(10 * GiB, 14 * GiB))).toHaveLength(0); // 0.4 of live
    expect(ids(stats(GiB / 2, GiB))).toHaveLength(0); // ratio 1 but 0.5 GiB
    expect(ids(stats(10 * GiB, 15 * GiB))).toHaveLength(1); // 0.5 of live, 5 GiB
  });
});
