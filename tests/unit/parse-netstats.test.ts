import { describe, expect, it } from 'vitest';
import { parseNetstats } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const C50 = 'local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node2_netstats.txt';

const pool = (n: string, a: string, p: number, c: number, d?: number) =>
  n.padEnd(25) + a.padStart(10) + String(p).padStart(10) + String(c).padStart(15) + (d === undefined ? '' : String(d).padStart(10));
// Streaming, read repair and message pools laid out as NetStats.java (cassandra-4.0) prints them.
const STREAMING = [
  'Mode: NORMAL',
  'Repair 5b5a6c70-0000-11ee-8000-000000000001',
  '    /10.0.0.2',
  '        Receiving 4 files, 1048576 bytes total. Already received 1 files (25.00%), 262144 bytes total (25.00%)',
  '            /var/lib/cassandra/data/ks/t-abc/nb-12-big-Data.db 262144/262144 bytes (100%) received from idx:0/10.0.0.2',
  '        Sending 2 files, 2097152 bytes total. Already sent 0 files (0.00%), 0 bytes total (0.00%) ',
  '    /10.0.0.3 (using /192.168.0.3)',
  '        Receiving 1 files, 10 MiB total. Already received 0 files (0.00%), 0 bytes total (0.00%)',
  'Read Repair Statistics:',
  'Attempted: 120',
  'Mismatch (Blocking): 3',
  'Mismatch (Background): 7',
  'Pool Name'.padEnd(25) + 'Active'.padStart(10) + 'Pending'.padStart(10) + 'Completed'.padStart(15) + 'Dropped'.padStart(10),
  pool('Large messages', 'n/a', 0, 1024, 12),
  pool('Small messages', 'n/a', 17, 9876543, 0),
  pool('Gossip messages', 'n/a', 0, 45678, 0),
].join('\n');
// 2.x pool table: Commands/Responses, no Dropped column.
const OLD = [
  'Mode: NORMAL',
  'Not sending any streams.',
  'Read Repair Statistics:',
  'Attempted: 1',
  'Mismatch (Blocking): 0',
  'Mismatch (Background): 0',
  'Pool Name                    Active   Pending      Completed',
  pool('Commands', 'n/a', 0, 123),
  pool('Responses', 'n/a', 2, 456),
].join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseNetstats(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool netstats', () => {
  it.skipIf(!HAVE_CORPUS)('5.0.9 node: no streams, no read repair, message pools', () => {
    const r = parseNetstats(corpus(C50));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.mode).toBe('NORMAL');
    expect(r.value.streams).toEqual([]);
    expect(r.value.readRepair).toEqual({ attempted: 0, mismatchBlocking: 0, mismatchBackground: 0 });
    expect(r.value.pools).toEqual([
      { name: 'Large messages', active: null, pending: 0, completed: 2, dropped: 0 },
      { name: 'Small messages', active: null, pending: 0, completed: 73624, dropped: 0 },
      { name: 'Gossip messages', active: null, pending: 0, completed: 656, dropped: 0 },
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('streaming sessions with progress, private addresses and -H sizes', () => {
    const r = parseNetstats(STREAMING);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.streams).toHaveLength(1);
    const plan = r.value.streams[0]!;
    expect(plan).toMatchObject({ operation: 'Repair', planId: '5b5a6c70-0000-11ee-8000-000000000001' });
    expect(plan.sessions[0]).toEqual({
      peer: '/10.0.0.2',
      connecting: null,
      receiving: { totalFiles: 4, totalBytes: 1048576, doneFiles: 1, doneBytes: 262144 },
      sending: { totalFiles: 2, totalBytes: 2097152, doneFiles: 0, doneBytes: 0 },
      fileLines: 1,
    });
    expect(plan.sessions[1]).toMatchObject({ peer: '/10.0.0.3', connecting: '/192.168.0.3', receiving: { totalBytes: 10 * 1024 ** 2 } });
    expect(r.value.readRepair).toEqual({ attempted: 120, mismatchBlocking: 3, mismatchBackground: 7 });
    expect(r.value.pools.find((p) => p.name === 'Large messages')!.dropped).toBe(12);
    expect(r.value.pools.find((p) => p.name === 'Small messages')!.pending).toBe(17);
  });

  it('2.x pool table without Dropped; STARTING mode prints neither table and is not "truncated"', () => {
    const r = parseNetstats(OLD);
    expect(r.ok && r.value.pools).toEqual([
      { name: 'Commands', active: null, pending: 0, completed: 123, dropped: null },
      { name: 'Responses', active: null, pending: 2, completed: 456, dropped: null },
    ]);
    const starting = parseNetstats('Mode: STARTING\nNot sending any streams.');
    expect(starting.ok && starting.warnings).toEqual([]);
  });

  it('prompt, CRLF; ok:false on unrelated, empty and error text; warns on a cut tail', () => {
    const r = parseNetstats(`$ nodetool netstats -H\r\n${STREAMING.replace(/\n/g, '\r\n')}`);
    expect(r.ok && r.value.pools).toHaveLength(3);
    for (const bad of ['', 'Cluster Information:', 'running']) expect(parseNetstats(bad).ok).toBe(false);
    expect(parseNetstats('error: JMX connection closed').ok).toBe(false);
    const cut = parseNetstats(STREAMING.split('\n').slice(0, 10).join('\n'));
    expect(cut.ok && cut.warnings.join(' ')).toMatch(/truncated/);
  });

  it('is total on every truncation of the synthetic samples', () => {
    expectTotalOnEveryTruncation(STREAMING);
    expectTotalOnEveryTruncation(OLD);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real netstats sample', () => {
    const files = corpusFiles('local-runs', /_netstats\.txt$/);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      expect(parseNetstats(corpus(f)).ok, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });
});
