import { describe, expect, it } from 'vitest';
import { parseRing } from '../../mcp-server/src/core/parse/nodetool/index.js';
import { corpus, corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';

const C50 = 'local-runs/cassandra-5.0.9-cluster3/nodetool/nodetool_node2_ring.txt';
const C41 = 'local-runs/cassandra-4.1.10-single/nodetool_n41_ring.txt';

// Ring.java format "%-{addr}s  %-12s%-7s%-8s%-16s%-20s%-44s": two DCs, one token per node, a Down node,
// a Leaving node, ownership "?" (no keyspace given) and the Note printed at the end.
const fmt = (a: string, rack: string, st: string, state: string, load: string, owns: string, token: string) =>
  `${a.padEnd(9)}  ${rack.padEnd(12)}${st.padEnd(7)}${state.padEnd(8)}${load.padEnd(16)}${owns.padEnd(20)}${token.padEnd(44)}`;
const TWO_DC = [
  '',
  'Datacenter: eu',
  '==========',
  fmt('Address', 'Rack', 'Status', 'State', 'Load', 'Owns', 'Token'),
  fmt('', '', '', '', '', '', '3074457345618258602'),
  fmt('10.0.0.1', 'r1', 'Up', 'Normal', '1.52 TiB', '?', '-9223372036854775808'),
  fmt('10.0.0.2', 'r2', 'Down', 'Normal', '1.49 TiB', '?', '-3074457345618258603'),
  fmt('10.0.0.3', 'r3', 'Up', 'Leaving', '900 bytes', '?', '3074457345618258602'),
  '',
  'Datacenter: us',
  '==========',
  fmt('Address', 'Rack', 'Status', 'State', 'Load', 'Owns', 'Token'),
  '',
  fmt('10.1.0.1', 'r1', '?', 'Joining', '?', '?', '100'),
  '',
  "  Note: Non-system keyspaces don't have the same replication settings, effective ownership information is meaningless",
].join('\n');

function expectTotalOnEveryTruncation(text: string) {
  const lines = text.split('\n');
  for (let i = 0; i <= lines.length; i++) {
    const r = parseRing(lines.slice(0, i).join('\n'));
    if (!r.ok) {
      expect(r.reason).not.toMatch(/^parser error/);
      expect(r.reason.length).toBeGreaterThan(0);
    }
  }
}

describe('nodetool ring', () => {
  it.skipIf(!HAVE_CORPUS)('5.0.9 three nodes with 16 vnodes each', () => {
    const r = parseRing(corpus(C50));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.datacenters).toEqual(['datacenter1']);
    expect(r.value.entries).toHaveLength(48);
    expect(r.value.vnodes).toBe(true);
    expect(r.value.nodes.map((n) => [n.address, n.tokens, n.status, n.state, n.ownsPercent])).toEqual([
      ['127.0.0.1', 16, 'up', 'normal', 100],
      ['127.0.0.3', 16, 'up', 'normal', 100],
      ['127.0.0.2', 16, 'up', 'normal', 100],
    ]);
    expect(r.value.nodes[0]!.loadBytes).toBe(Math.round(118.52 * 1024));
    expect(r.value.entries[0]!.token).toBe('-9105384624523290667');
    expect(r.value.notes[0]).toMatch(/^Warning: "nodetool ring"/);
    expect(r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('4.1.10 single node', () => {
    const r = parseRing(corpus(C41));
    expect(r.ok && r.value.nodes).toEqual([
      {
        datacenter: 'datacenter1',
        address: '127.0.0.1',
        rack: 'rack1',
        status: 'up',
        state: 'normal',
        loadBytes: Math.round(104.36 * 1024),
        ownsPercent: 100,
        tokens: 16,
      },
    ]);
  });

  it('two DCs, Down/Leaving/Joining nodes, "?" load and ownership, the Note', () => {
    const r = parseRing(TWO_DC);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.datacenters).toEqual(['eu', 'us']);
    expect(r.value.vnodes).toBe(false);
    expect(r.value.nodes.map((n) => [n.datacenter, n.address, n.status, n.state, n.loadBytes, n.ownsPercent])).toEqual([
      ['eu', '10.0.0.1', 'up', 'normal', Math.round(1.52 * 1024 ** 4), null],
      ['eu', '10.0.0.2', 'down', 'normal', Math.round(1.49 * 1024 ** 4), null],
      ['eu', '10.0.0.3', 'up', 'leaving', 900, null],
      ['us', '10.1.0.1', 'unknown', 'joining', null, null],
    ]);
    expect(r.value.notes[0]).toMatch(/^Note: Non-system keyspaces/);
  });

  it('prompt, CRLF; ok:false on unrelated, empty, error text and a cut header', () => {
    const r = parseRing(`$ nodetool ring\r\n${TWO_DC.replace(/\n/g, '\r\n')}`);
    expect(r.ok && r.value.entries).toHaveLength(4);
    for (const bad of ['', 'Datacenter: dc1\n==========', 'pending tasks: 0']) {
      const b = parseRing(bad);
      expect(b.ok).toBe(false);
      if (!b.ok) expect(b.reason).toMatch(/empty|header/);
    }
    expect(parseRing('\nError: The keyspace nope, does not exist').ok).toBe(false);
    const cut = parseRing(TWO_DC.split('\n').slice(0, 5).join('\n'));
    expect(cut.ok && cut.warnings.join(' ')).toMatch(/truncated/);
  });

  it('is total on every truncation of the synthetic sample', () => {
    expectTotalOnEveryTruncation(TWO_DC);
  });

  it.skipIf(!HAVE_CORPUS)('is total on every truncation of every real ring sample', () => {
    const files = corpusFiles('local-runs', /_ring\.txt$/);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      expect(parseRing(corpus(f)).ok, f).toBe(true);
      expectTotalOnEveryTruncation(corpus(f));
    }
  });

  it('a rack longer than its 12-character column runs into the status, and anonymised addresses stay apart', () => {
    // as pasted in datastax/cstar#39 (addresses masked, tokens replaced): the rack "aws-us-east-1a" is glued to "Up"
    const text = [
      'Address         Rack        Status State   Load            Owns                Token',
      '10.***.***.***  aws-us-east-1aUp     Normal  244.32 GB       12.53%            foobar',
      '10.***.***.***  aws-us-east-1bUp     Normal  266.45 GB       12.50%            foobar',
      '10.***.***.***  aws-us-east-1bUp     Normal  266.45 GB       12.50%            foobaz',
    ].join('\n');
    const r = parseRing(text);
    if (!r.ok) throw new Error(r.reason);
    expect(r.value.nodes.map((n) => [n.address, n.rack, n.status, n.state, n.tokens])).toEqual([
      ['10.***.***.*** (1 of 2)', 'aws-us-east-1a', 'up', 'normal', 1],
      // the same rack, load and ownership on two rows: one node with two tokens
      ['10.***.***.*** (2 of 2)', 'aws-us-east-1b', 'up', 'normal', 2],
    ]);
    expect(r.value.entries.map((e) => e.address)).toEqual(['10.***.***.*** (1 of 2)', '10.***.***.*** (2 of 2)', '10.***.***.*** (2 of 2)']);
    expect(r.value.nodes.every((n) => n.addressProblem !== undefined)).toBe(true);
    expect(r.warnings.join(' ')).toMatch(/told apart by rack, load and ownership/);
    // a real address keeps grouping by address alone, and a rack that ends in "Up" before its column still reads
    const real = parseRing(
      ['Address Rack Status State Load Owns Token', '10.0.0.1  BackUp Up     Normal  1 GB  50%  1', '10.0.0.1  BackUp Up     Normal  1 GB  50%  2'].join('\n'),
    );
    if (!real.ok) throw new Error(real.reason);
    expect(real.value.nodes.map((n) => [n.address, n.rack, n.tokens, n.addressProblem])).toEqual([['10.0.0.1', 'BackUp', 2, undefined]]);
    // markdown bold around a whole value is dropped; the stars of a masked address are not bold
    const bold = parseRing(['Address Rack Status State Load Owns Token', '10.***.***.***  r1  Up  Normal  1 GB  **50.00%**  1'].join('\n'));
    if (!bold.ok) throw new Error(bold.reason);
    expect(bold.value.entries.map((e) => [e.address, e.ownsPercent])).toEqual([['10.***.***.***', 50]]);
  });
});
