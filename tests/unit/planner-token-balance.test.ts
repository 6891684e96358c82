import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRing } from '../../mcp-server/src/core/parse/nodetool/ring.js';
import { parseStatus } from '../../mcp-server/src/core/parse/nodetool/status.js';
import {
  effectiveOwnership,
  loadResiduals,
  nextNodeRack,
  replicationFromMap,
  type OwnershipResult,
  type RingMember,
} from '../../mcp-server/src/core/planners/token-balance.js';
import { fixture } from '../helpers/corpus.js';

const ok = (r: OwnershipResult | { error: string }): OwnershipResult => {
  if ('error' in r) throw new Error(r.error);
  return r;
};

function ringMembers(text: string): RingMember[] {
  const r = parseRing(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value.nodes.map((n) => ({
    address: n.address,
    datacenter: n.datacenter,
    rack: n.rack,
    tokens: r.value.entries.filter((e) => e.address === n.address).map((e) => e.token),
  }));
}

describe('effective ownership on a real ring (Cassandra 5.0.9, 3 nodes × 16 tokens, lab capture)', () => {
  const members = ringMembers(fixture('ownership/c509-cluster3-ring.txt'));
  it('reproduces nodetool status "Owns (effective)" for an RF 2 keyspace to the printed 0.1 %', () => {
    const status = parseStatus(fixture('ownership/c509-cluster3-status-effective.txt'));
    if (!status.ok) throw new Error(status.reason);
    const computed = ok(effectiveOwnership(members, { strategy: 'simple', rf: 2 }));
    for (const s of status.value.nodes) {
      const mine = computed.nodes.find((n) => n.address === s.address)!;
      expect(Math.abs(mine.ownsPercent - s.ownsPercent!), s.address).toBeLessThan(0.06);
    }
  });
  it('RF 3 on 3 nodes gives every node 100 % (what the ring printed)', () => {
    for (const n of ok(effectiveOwnership(members, { strategy: 'simple', rf: 3 })).nodes) expect(n.ownsPercent).toBeCloseTo(100, 6);
  });
  it('NetworkTopologyStrategy with one rack places like SimpleStrategy', () => {
    const a = ok(effectiveOwnership(members, { strategy: 'simple', rf: 2 }));
    const b = ok(effectiveOwnership(members, { strategy: 'network', perDc: { datacenter1: 2 } }));
    expect(b.nodes.map((n) => n.ownsPercent.toFixed(6))).toEqual(a.nodes.map((n) => n.ownsPercent.toFixed(6)));
  });
});

describe('rack-aware placement', () => {
  // 4 nodes, 1 token each, evenly spaced; racks a, a, b, b in ring order.
  const q = 1n << 62n;
  const tokens = [-2n * q, -q, 0n, q].map(String);
  const members: RingMember[] = [
    { address: 'n1', datacenter: 'dc1', rack: 'a', tokens: [tokens[0]!] },
    { address: 'n2', datacenter: 'dc1', rack: 'a', tokens: [tokens[1]!] },
    { address: 'n3', datacenter: 'dc1', rack: 'b', tokens: [tokens[2]!] },
    { address: 'n4', datacenter: 'dc1', rack: 'b', tokens: [tokens[3]!] },
  ];
  it('rf 2 over 2 racks puts one replica per rack: each rack owns 100 %', () => {
    const r = ok(effectiveOwnership(members, { strategy: 'network', perDc: { dc1: 2 } }));
    for (const rack of r.racks) expect(rack.ownsPercent).toBeCloseTo(100, 6);
    // Each node's same-rack successor is skipped, so n1 and n3 (the first of their rack clockwise) also take
    // the range of the node before them: 75 % against 25 %.
    expect(r.nodes.map((n) => Math.round(n.ownsPercent))).toEqual([75, 25, 75, 25]);
  });
  it('unequal racks: the lone node of a rack owns every range', () => {
    const three = [members[0]!, members[1]!, { ...members[2]!, tokens: [tokens[2]!, tokens[3]!] }];
    const r = ok(effectiveOwnership(three, { strategy: 'network', perDc: { dc1: 2 } }));
    expect(r.nodes.find((n) => n.address === 'n3')!.ownsPercent).toBeCloseTo(100, 6);
    expect(nextNodeRack(r.racks, 'dc1')).toMatchObject({ rack: 'b', nodes: 1 });
  });
});

describe('replicationFromMap', () => {
  it('reads system_schema.keyspaces replication maps', () => {
    expect(replicationFromMap({ class: 'org.apache.cassandra.locator.SimpleStrategy', replication_factor: '3' })).toEqual({ strategy: 'simple', rf: 3 });
    expect(replicationFromMap({ class: 'org.apache.cassandra.locator.NetworkTopologyStrategy', dc1: '3', dc2: '2/1' })).toEqual({
      strategy: 'network',
      perDc: { dc1: 3, dc2: 2 },
    });
    expect(replicationFromMap({ class: 'org.apache.cassandra.locator.LocalStrategy' })).toEqual({ strategy: 'other', className: 'LocalStrategy' });
  });
});

describe('load residuals', () => {
  it('separates data skew from token skew', () => {
    const r = loadResiduals([
      { address: 'a', loadBytes: 100, ownsPercent: 50 },
      { address: 'b', loadBytes: 100, ownsPercent: 50 },
      { address: 'c', loadBytes: 400, ownsPercent: 50 },
    ]);
    expect(r.map((x) => x.residual.toFixed(2))).toEqual(['0.50', '0.50', '2.00']);
    // Load that follows ownership: residuals 1.
    expect(
      loadResiduals([
        { address: 'a', loadBytes: 300, ownsPercent: 75 },
        { address: 'b', loadBytes: 100, ownsPercent: 25 },
      ]).map((x) => x.residual),
    ).toEqual([1, 1]);
  });
});

describe('properties', () => {
  const member = fc.record({
    dc: fc.constantFrom('dc1', 'dc2'),
    rack: fc.constantFrom('r1', 'r2', 'r3'),
    tokens: fc.uniqueArray(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), { minLength: 1, maxLength: 8 }),
  });
  const ring = fc.array(member, { minLength: 1, maxLength: 9 }).map((ms) => {
    // Tokens are unique across the ring, as the token metadata guarantees.
    const seen = new Set<bigint>();
    return ms
      .map((m, i): RingMember => ({
        address: `n${i}`,
        datacenter: m.dc,
        rack: m.rack,
        tokens: m.tokens.filter((t) => !seen.has(t) && seen.add(t)).map(String),
      }))
      .filter((m) => m.tokens.length > 0);
  });
  it('ownership sums to min(rf, nodes) × 100 % in every DC (NetworkTopologyStrategy)', () => {
    fc.assert(
      fc.property(ring, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }), (members, rf1, rf2) => {
        fc.pre(members.length > 0);
        const r = effectiveOwnership(members, { strategy: 'network', perDc: { dc1: rf1, dc2: rf2 } });
        if ('error' in r) return false;
        for (const dc of r.datacenters) {
          const n = members.filter((m) => m.datacenter === dc.datacenter).length;
          const rf = dc.datacenter === 'dc1' ? rf1 : rf2;
          expect(dc.ownsPercentSum).toBeCloseTo(Math.min(rf, n) * 100, 6);
          for (const node of r.nodes) expect(node.ownsPercent).toBeLessThanOrEqual(100 + 1e-9);
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
  it('SimpleStrategy sums to min(rf, nodes) × 100 % over the cluster', () => {
    fc.assert(
      fc.property(ring, fc.integer({ min: 1, max: 5 }), (members, rf) => {
        fc.pre(members.length > 0);
        const r = ok(effectiveOwnership(members, { strategy: 'simple', rf }));
        expect(r.nodes.reduce((s, n) => s + n.ownsPercent, 0)).toBeCloseTo(Math.min(rf, members.length) * 100, 6);
      }),
      { numRuns: 300 },
    );
  });
});

describe('hostile input', () => {
  it('refuses a ring over the token limit and skips non-integer tokens', () => {
    expect(
      effectiveOwnership([{ address: 'x', datacenter: 'd', rack: 'r', tokens: new Array<string>(1_000_001).fill('1') }], { strategy: 'simple', rf: 1 }),
    ).toHaveProperty('error');
    const r = ok(effectiveOwnership([{ address: 'x', datacenter: 'd', rack: 'r', tokens: ['12', 'abc'] }], { strategy: 'simple', rf: 1 }));
    expect(r.warnings[0]).toMatch(/not an integer token/);
    expect(r.nodes[0]!.ownsPercent).toBeCloseTo(100, 9);
  });
});
