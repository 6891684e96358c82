/**
 * Effective ownership from tokens: what `nodetool status <keyspace>` prints as "Owns (effective)", computed
 * here from the ring (nodetool ring, or system.local/system.peers tokens) and a keyspace's replication, so it
 * is known per keyspace, per node and per rack even where status printed "?" (keyspaces with different
 * replication). Pure: no I/O.
 *
 * Replica placement follows Cassandra's strategies (src/java/org/apache/cassandra/locator):
 * SimpleStrategy takes the next RF distinct nodes clockwise from a range's end token; NetworkTopologyStrategy
 * does so per datacenter, taking a node on an already used rack only while rf exceeds the DC's rack count
 * ("acceptableRackRepeats" in NetworkTopologyStrategy.DatacenterEndpoints, 4.0+).
 */

export interface RingMember {
  address: string;
  datacenter: string;
  rack: string;
  /** Tokens as printed (signed 64-bit for Murmur3; non-negative big integers for RandomPartitioner). */
  tokens: readonly string[];
}

export type Replication =
  | { strategy: 'simple'; rf: number }
  | { strategy: 'network'; perDc: Readonly<Record<string, number>> }
  /** LocalStrategy, EverywhereStrategy, or a class this planner does not model: no ownership is computed. */
  | { strategy: 'other'; className: string };

export interface NodeOwnership {
  address: string;
  datacenter: string;
  rack: string;
  tokens: number;
  /** Percent of the token space this node holds a replica of (0–100 per replica). */
  ownsPercent: number;
}

export interface RackOwnership {
  datacenter: string;
  rack: string;
  nodes: number;
  ownsPercent: number;
}

export interface OwnershipResult {
  nodes: NodeOwnership[];
  racks: RackOwnership[];
  /** Per DC: the replicas each range gets there (min of rf and the DC's node count) and the sum of ownership. */
  datacenters: { datacenter: string; replicas: number; ownsPercentSum: number }[];
  partitioner: 'murmur3' | 'random';
  warnings: string[];
}

/** Largest ring the planner walks (tokens); 1,000 nodes × 256 vnodes is 256k. */
export const MAX_RING_TOKENS = 1_000_000;

const M3_SPAN = 1n << 64n;
const RANDOM_SPAN = 1n << 127n;
const TOKEN = /^-?\d{1,40}$/;

interface Point {
  token: bigint;
  member: number;
}

/** Parses a replication map as system_schema.keyspaces stores it ({"class": "…NetworkTopologyStrategy", "dc1": "3"}). */
export function replicationFromMap(map: Readonly<Record<string, string>>): Replication {
  const cls = (map['class'] ?? '').split('.').pop() ?? '';
  if (cls === 'SimpleStrategy') {
    const rf = Number(map['replication_factor']);
    return Number.isInteger(rf) && rf >= 0 ? { strategy: 'simple', rf } : { strategy: 'other', className: cls };
  }
  if (cls === 'NetworkTopologyStrategy') {
    const perDc: Record<string, number> = {};
    for (const [k, v] of Object.entries(map)) {
      if (k === 'class') continue;
      // "3", or "3/1" with transient replicas (4.0+): full + transient replicas are placed alike.
      const rf = Number(String(v).split('/')[0]);
      if (Number.isInteger(rf) && rf >= 0) perDc[k] = rf;
    }
    return { strategy: 'network', perDc };
  }
  return { strategy: 'other', className: cls || '?' };
}

export function effectiveOwnership(members: readonly RingMember[], replication: Replication): OwnershipResult | { error: string } {
  if (replication.strategy === 'other') return { error: `replication ${replication.className} has no token-based placement to compute` };
  const points: Point[] = [];
  const warnings: string[] = [];
  let total = 0;
  for (const [i, m] of members.entries()) {
    total += m.tokens.length;
    if (total > MAX_RING_TOKENS) return { error: `the ring has more than ${MAX_RING_TOKENS} tokens` };
    for (const t of m.tokens) {
      if (!TOKEN.test(t)) {
        warnings.push(`${m.address}: token ${JSON.stringify(t.slice(0, 60))} is not an integer token: left out`);
        continue;
      }
      points.push({ token: BigInt(t), member: i });
    }
  }
  if (points.length === 0) return { error: 'no tokens' };
  const random = points.every((p) => p.token >= 0n) && points.some((p) => p.token >= 1n << 63n);
  const span = random ? RANDOM_SPAN : M3_SPAN;
  points.sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));

  const nodesPerDc = new Map<string, number>();
  const racksPerDc = new Map<string, Set<string>>();
  for (const m of members) {
    nodesPerDc.set(m.datacenter, (nodesPerDc.get(m.datacenter) ?? 0) + 1);
    const set = racksPerDc.get(m.datacenter) ?? new Set<string>();
    set.add(m.rack);
    racksPerDc.set(m.datacenter, set);
  }
  const wanted = new Map<string, number>();
  if (replication.strategy === 'simple') wanted.set('*', Math.min(replication.rf, members.length));
  else {
    for (const [dc, rf] of Object.entries(replication.perDc)) {
      const n = nodesPerDc.get(dc);
      if (!n) {
        if (rf > 0) warnings.push(`replication names datacenter ${dc} (rf ${rf}) that has no node in the ring`);
        continue;
      }
      if (rf > n) warnings.push(`datacenter ${dc} has rf ${rf} but ${n} node(s): every range has only ${n} replica(s) there`);
      wanted.set(dc, Math.min(rf, n));
    }
  }

  const owned = new Float64Array(members.length);
  const spanNum = Number(span);
  for (let i = 0; i < points.length; i++) {
    const prev = points[(i - 1 + points.length) % points.length]!.token;
    const cur = points[i]!.token;
    // The range (prev, cur]; a single-token ring owns everything.
    let size = (((cur - prev) % span) + span) % span;
    if (size === 0n) size = points.length === 1 || points.every((p) => p.token === cur) ? span : 0n;
    if (size === 0n) continue;
    const share = Number(size) / spanNum;
    for (const r of replicasFor(i, points, members, replication.strategy, wanted, racksPerDc)) owned[r]! += share;
  }

  const nodes = members.map((m, i): NodeOwnership => ({
    address: m.address,
    datacenter: m.datacenter,
    rack: m.rack,
    tokens: m.tokens.length,
    ownsPercent: owned[i]! * 100,
  }));
  const rackKey = (n: { datacenter: string; rack: string }) => `${n.datacenter}\u0000${n.rack}`;
  const racks = new Map<string, RackOwnership>();
  for (const n of nodes) {
    const r = racks.get(rackKey(n)) ?? { datacenter: n.datacenter, rack: n.rack, nodes: 0, ownsPercent: 0 };
    r.nodes++;
    r.ownsPercent += n.ownsPercent;
    racks.set(rackKey(n), r);
  }
  const datacenters = [...nodesPerDc.keys()].map((dc) => ({
    datacenter: dc,
    replicas: replication.strategy === 'simple' ? (wanted.get('*') ?? 0) : (wanted.get(dc) ?? 0),
    ownsPercentSum: nodes.filter((n) => n.datacenter === dc).reduce((s, n) => s + n.ownsPercent, 0),
  }));
  return { nodes, racks: [...racks.values()], datacenters, partitioner: random ? 'random' : 'murmur3', warnings };
}

/** The members holding a replica of the range that ends at points[i]. */
function replicasFor(
  i: number,
  points: readonly Point[],
  members: readonly RingMember[],
  strategy: 'simple' | 'network',
  wanted: ReadonlyMap<string, number>,
  racksPerDc: ReadonlyMap<string, Set<string>>,
): number[] {
  const chosen: number[] = [];
  const taken = new Set<number>();
  if (strategy === 'simple') {
    const rf = wanted.get('*') ?? 0;
    for (let k = 0; k < points.length && chosen.length < rf; k++) {
      const m = points[(i + k) % points.length]!.member;
      if (!taken.has(m)) {
        taken.add(m);
        chosen.push(m);
      }
    }
    return chosen;
  }
  const left = new Map<string, number>(wanted);
  const repeats = new Map<string, number>([...wanted].map(([dc, rf]) => [dc, rf - (racksPerDc.get(dc)?.size ?? 0)]));
  const seenRacks = new Map<string, Set<string>>();
  let remaining = [...left.values()].reduce((a, b) => a + b, 0);
  // A node on a rack already used is skipped while other racks remain; Cassandra then never returns to it in
  // this walk, so a DC with fewer racks than rf fills through repeats only.
  for (let k = 0; k < points.length && remaining > 0; k++) {
    const m = points[(i + k) % points.length]!.member;
    if (taken.has(m)) continue;
    const dc = members[m]!.datacenter;
    const need = left.get(dc) ?? 0;
    if (need <= 0) continue;
    const racks = seenRacks.get(dc) ?? new Set<string>();
    seenRacks.set(dc, racks);
    if (!racks.has(members[m]!.rack)) racks.add(members[m]!.rack);
    else {
      const rep = repeats.get(dc) ?? 0;
      if (rep <= 0) continue;
      repeats.set(dc, rep - 1);
    }
    taken.add(m);
    chosen.push(m);
    left.set(dc, need - 1);
    remaining--;
  }
  return chosen;
}

export interface LoadResidual {
  address: string;
  loadBytes: number;
  ownsPercent: number;
  /** Load divided by what this node's ownership share of the DC's load predicts: 1 = as ownership explains. */
  residual: number;
}

/**
 * Load vs ownership within one DC: expected load = DC load × node ownership / DC ownership. A residual far
 * from 1 is data skew (hot or large partitions, missed cleanup, snapshots) that token placement does not
 * explain; residuals near 1 with uneven load mean the token ranges themselves are uneven.
 */
export function loadResiduals(nodes: readonly { address: string; loadBytes: number | null; ownsPercent: number | null }[]): LoadResidual[] {
  const known = nodes.filter(
    (n): n is { address: string; loadBytes: number; ownsPercent: number } =>
      n.loadBytes !== null && n.loadBytes > 0 && n.ownsPercent !== null && n.ownsPercent > 0,
  );
  const load = known.reduce((s, n) => s + n.loadBytes, 0);
  const owns = known.reduce((s, n) => s + n.ownsPercent, 0);
  if (known.length < 2 || load <= 0 || owns <= 0) return [];
  return known.map((n) => ({
    address: n.address,
    loadBytes: n.loadBytes,
    ownsPercent: n.ownsPercent,
    residual: n.loadBytes / ((load * n.ownsPercent) / owns),
  }));
}

/**
 * Where the next node of a DC should go: with rf equal to the rack count, each rack holds one replica of
 * every range, so a rack with fewer nodes gives each of its nodes more data; the next node belongs in the
 * rack with the fewest nodes (ties: the one whose nodes own most).
 */
export function nextNodeRack(racks: readonly RackOwnership[], datacenter: string): { rack: string; nodes: number; perNodeOwns: number } | null {
  const inDc = racks.filter((r) => r.datacenter === datacenter && r.nodes > 0);
  if (inDc.length < 2) return null;
  const best = [...inDc].sort((a, b) => a.nodes - b.nodes || b.ownsPercent / b.nodes - a.ownsPercent / a.nodes)[0]!;
  return { rack: best.rack, nodes: best.nodes, perNodeOwns: best.ownsPercent / best.nodes };
}
