import { maxOf, minOf, pushTo } from '../arrays.js';
import type { NodeEvidence } from '../diagnosis/evidence.js';
import { isSystemKeyspace, type ClusterFacts, type RingTokensFact } from '../facts/from-cluster.js';
import type { Finding } from '../findings.js';
import type { KnowledgeId } from '../knowledge/index.js';
import type { NodetoolStatus } from '../parse/nodetool/status.js';
import {
  effectiveOwnership,
  loadResiduals,
  nextNodeRack,
  replicationFromMap,
  type OwnershipResult,
  type RackOwnership,
  type Replication,
  type RingMember,
} from '../planners/token-balance.js';
import { allocatorSpread, allocatorSpreadText, tokensForSpread, type AllocatorSpread } from '../planners/allocator-spread.js';
import { formatBytes } from '../units.js';
import { fmtNum, grade, outcome, skipped, type Rule, type RuleContext } from './rule.js';

const EVIDENCE_NODES = 60;
const GiB = 1024 ** 3;

/** The ring with tokens: nodetool ring (any node), else system.local + system.peers as one node sees them. */
function ringMembers(input: { nodes: NodeEvidence[] }): { members: RingMember[]; source: string } | null {
  for (const n of input.nodes) {
    const ring = n.nodetool.ring;
    if (!ring?.entries.length) continue;
    const byAddr = new Map<string, RingMember & { tokens: string[] }>();
    for (const e of ring.entries) {
      const m = byAddr.get(e.address) ?? { address: e.address, datacenter: e.datacenter, rack: e.rack, tokens: [] };
      m.tokens.push(e.token);
      byAddr.set(e.address, m);
    }
    return { members: [...byAddr.values()], source: `nodetool ring from ${n.node}` };
  }
  for (const n of input.nodes) {
    const ring: RingTokensFact[] | undefined = n.facts.cluster?.ring;
    if (ring?.some((r) => r.tokens.length)) {
      return {
        members: ring.filter((r) => r.tokens.length).map((r) => ({ address: r.address, datacenter: r.datacenter, rack: r.rack, tokens: r.tokens })),
        source: `system.local + system.peers on ${n.node}`,
      };
    }
  }
  return null;
}

const keyOf = (r: Replication) => JSON.stringify(r.strategy === 'network' ? { n: Object.entries(r.perDc).sort() } : r);

/**
 * Token and ownership balance: effective ownership per node and per rack for each keyspace's replication,
 * computed from the tokens (core/planners/token-balance.ts) where the ring was read, or as `nodetool status
 * <keyspace>` printed it; racks of unequal size; the load-vs-ownership residual that tells data skew from
 * token skew; and ScyllaDB tablets per shard.
 */
export const ownershipRule: Rule = {
  id: 'ownership',
  checks:
    'effective ownership per node and rack per keyspace (from tokens + replication, or nodetool status <ks>), unequal racks, load vs ownership, tablets per ' +
    'shard',
  run(input, ctx) {
    const findings: Finding[] = [];
    const ring = ringMembers(input);
    const cluster = input.nodes.map((n) => n.facts.cluster).find((c): c is ClusterFacts => !!c?.keyspaces) ?? null;
    const status = input.nodes.find((n) => n.nodetool.status?.nodes.length);
    const tablets = input.nodes.map((n) => n.facts.cluster?.tabletLoad).find((t) => t?.length);
    if (!ring && !status && !tablets) return skipped('ownership', 'no ring with tokens (nodetool ring, system.peers), no nodetool status and no tablet load');

    // Planning is for a settled cluster: with a node down or moving, the incident comes first.
    const settled = !status || status.nodetool.status!.nodes.every((n) => n.up && n.state === 'normal');
    if (ring) findings.push(...ringFindings(ctx, ring, cluster, settled));
    if (status && !ring) findings.push(...statusFindings(ctx, status.node, status.nodetool.status!));
    if (status) findings.push(...residualFindings(ctx, status.node, status.nodetool.status!, ring ? ownershipForStatus(ring, cluster) : null));
    if (tablets) findings.push(...tabletFindings(ctx, tablets));
    return outcome('ownership', findings);
  },
};

function ringFindings(ctx: RuleContext, ring: { members: RingMember[]; source: string }, cluster: ClusterFacts | null, settled: boolean): Finding[] {
  const findings: Finding[] = [];
  // Keyspaces grouped by identical replication: the ownership is the same for all of them.
  const groups = new Map<string, { replication: Replication; keyspaces: string[] }>();
  for (const k of cluster?.keyspaces ?? []) {
    if (isSystemKeyspace(k.name)) continue;
    const r = replicationFromMap(k.replication);
    if (r.strategy === 'other') continue;
    const g = groups.get(keyOf(r)) ?? { replication: r, keyspaces: [] };
    g.keyspaces.push(k.name);
    groups.set(keyOf(r), g);
  }
  // Without keyspaces: the ring's own balance (each node's primary ranges, RF 1).
  if (!groups.size) groups.set('raw', { replication: { strategy: 'simple', rf: 1 }, keyspaces: [] });
  for (const g of groups.values()) {
    const r = effectiveOwnership(ring.members, g.replication);
    if ('error' in r) continue;
    const label = g.keyspaces.length
      ? `keyspace${g.keyspaces.length > 1 ? 's' : ''} ${g.keyspaces.slice(0, 4).join(', ')}` +
        (g.keyspaces.length > 4 ? ` and ${g.keyspaces.length - 4} more` : '')
      : 'primary token ranges (no keyspace replication read)';
    findings.push(...skewFindings(ctx, r, label, ring.source, g.replication, g.keyspaces.length === 0));
    findings.push(...rackFindings(r, label, g.replication));
  }
  // The planner's answer for the replication most keyspaces use: where the next node goes, what the allocator gives.
  const main = [...groups.values()].filter((g) => g.keyspaces.length).sort((a, b) => b.keyspaces.length - a.keyspaces.length)[0];
  if (main && settled) {
    const r = effectiveOwnership(ring.members, main.replication);
    if (!('error' in r)) findings.push(...nextNodeFindings(r, main.replication, main.keyspaces));
  }
  return findings;
}

/**
 * Where the next node of each DC should go and what allocate_tokens_for_local_replication_factor would leave once
 * it (or one node per rack, with as many racks as replicas) has joined: the spread the real allocator left in
 * GenerateTokens runs at that size (core/planners/allocator-spread.ts). Information for planning, not a problem.
 */
function nextNodeFindings(r: OwnershipResult, replication: Replication, keyspaces: string[]): Finding[] {
  const findings: Finding[] = [];
  const byDc = new Map<string, OwnershipResult['nodes']>();
  for (const n of r.nodes) pushTo(byDc, n.datacenter, n);
  const names = `${keyspaces.slice(0, 4).join(', ')}${keyspaces.length > 4 ? ` and ${keyspaces.length - 4} more` : ''}: ${replicationText(replication)}`;
  for (const [dc, nodes] of byDc) {
    const racks = r.racks.filter((x) => x.datacenter === dc);
    if (replication.strategy !== 'network' && racks.length > 1) continue; // see skewFindings: measured rack-aware only
    const f = nextNodeFinding({ dc, rf: replicasIn(replication, dc), nodes, racks, about: names });
    if (f) findings.push(f);
  }
  return findings;
}

/** One DC's planner note; null when the layout or size was not measured (unequal racks, racks ≠ rf, > 24 nodes). */
function nextNodeFinding(p: {
  dc: string;
  rf: number | null;
  nodes: readonly { ownsPercent: number | null; tokens: number | null }[];
  racks: RackOwnership[];
  about: string;
}): Finding | null {
  const { dc, rf, nodes, racks } = p;
  const tokenCounts = new Set(nodes.map((n) => n.tokens));
  const tokens = nodes[0]?.tokens;
  if (!rf || nodes.length < rf || tokenCounts.size !== 1 || !tokens) return null;
  const equal = new Set(racks.map((x) => x.nodes)).size === 1;
  const step = racks.length > 1 && racks.length === rf && equal ? racks.length : 1;
  const next = allocatorSpread(rf, racks.length, tokens, nodes.length + step);
  const now = allocatorSpread(rf, racks.length, tokens, nodes.length);
  if (!next) return null;
  const owns = nodes.map((n) => n.ownsPercent).filter((x): x is number => x !== null && x > 0);
  const spread = owns.length === nodes.length ? maxOf(owns) / minOf(owns) : null;
  const rack = racks.length > 1 ? (equal ? null : nextNodeRack(racks, dc)) : null;
  const where =
    racks.length <= 1 ? `rack ${racks[0]?.rack ?? '?'}` : rack ? `rack ${rack.rack} (the smallest)` : `one node in each of the ${racks.length} racks`;
  return {
    id: 'ownership.next-node',
    severity: 'info',
    title:
      `Next ${step > 1 ? `${step} nodes` : 'node'} of ${dc || 'the DC'}: ${where}; with the token allocator a DC of ${next.nodes} nodes × ${tokens} ` +
      `token(s) comes out at about ${next.median.toFixed(2)}× (worst measured ${next.worst.toFixed(2)}×)`,
    evidence: [
      `${p.about}; ${nodes.length} node(s) in ${racks.length} rack(s) (${racks.map((x) => `${x.rack}: ${x.nodes}`).join(', ')})` +
        (spread !== null ? `; ownership spread now ${fmtNum(spread, 2)}×` : ''),
      ...(now ? [`now: ${allocatorSpreadText(now)}`] : []),
      `after: ${allocatorSpreadText(next)}`,
    ],
    recommendation:
      `Join ${step > 1 ? 'them' : 'it'} with allocate_tokens_for_local_replication_factor: ${rf} and num_tokens: ${tokens} like the others` +
      (racks.length > 1 ? `, keeping racks equal (add nodes in multiples of ${racks.length})` : '') +
      '. The allocator splits the most-loaded ranges; existing tokens keep their ranges, so a spread above the measured worst only ' +
      'narrows as allocator-placed nodes are added or skewed ones are replaced.',
    knowledgeIds: ['ownership.allocator-spread', 'topology.unequal-racks'],
    confidence: 'medium',
  };
}

function replicationText(r: Replication): string {
  return r.strategy === 'simple'
    ? `SimpleStrategy rf ${r.rf}`
    : r.strategy === 'network'
      ? `NetworkTopologyStrategy ${Object.entries(r.perDc)
          .map(([d, n]) => `${d}:${n}`)
          .join(', ')}`
      : r.className;
}

/** Replicas each range gets in a DC: the DC's rf (NetworkTopologyStrategy) or the keyspace rf (SimpleStrategy). */
function replicasIn(r: Replication, dc: string): number | null {
  if (r.strategy === 'simple') return r.rf;
  if (r.strategy === 'network') return r.perDc[dc] ?? null;
  return null;
}

/**
 * A spread above the worst the allocator left in its measured runs means these tokens were not placed by it for
 * this rf; at or under it, the spread is what the allocator gives at this vnode count, and only more tokens (new
 * nodes or a new DC: a running node's tokens never change) narrow it.
 */
function allocatorAdvice(ctx: RuleContext, a: AllocatorSpread, ratio: number): string {
  if (ratio > a.worst * 1.02) {
    return (
      `This is beyond what the allocator leaves (at most ${a.worst.toFixed(2)}× measured): these tokens were not placed by ` +
      `allocate_tokens_for_local_replication_factor: ${a.rf} (random tokens, the allocator unset, or set for another RF). New nodes should join ` +
      'with it set to this RF; existing nodes only even out by adding allocator-placed nodes or replacing the most-loaded ones.'
    );
  }
  const limit = ctx.threshold('topology.ownership-imbalance').warning;
  const better = limit !== undefined ? tokensForSpread(a.rf, a.racks, a.nodes, limit) : null;
  return (
    `This is what the allocator itself leaves at ${a.tokens} token(s) per node (up to ${a.worst.toFixed(2)}× measured), not a placement ` +
    'error. ' +
    (better && better.tokens > a.tokens
      ? `num_tokens ${better.tokens} keeps it at or under ${better.worst.toFixed(2)}× for this layout; tokens of a running node never change, so ` +
        'that means new nodes or a new datacenter.'
      : 'Tokens of a running node never change: even it out with more nodes or a new datacenter.')
  );
}

/**
 * Without a keyspace's replication only the primary ranges are known: each node's share of the token space
 * before replicas are added, which varies more than effective ownership (a replica set spans several ranges).
 * That is reported as information, not as a skew to act on.
 */
function skewFindings(ctx: RuleContext, r: OwnershipResult, label: string, source: string, replication: Replication, primaryOnly: boolean): Finding[] {
  const findings: Finding[] = [];
  const byDc = new Map<string, OwnershipResult['nodes']>();
  for (const n of r.nodes) pushTo(byDc, n.datacenter, n);
  for (const [dc, nodes] of byDc) {
    const owns = nodes.map((n) => n.ownsPercent).filter((x) => x > 0);
    if (owns.length < 2 || owns.length !== nodes.length) continue;
    const ratio = maxOf(owns) / minOf(owns);
    const sev = grade(ctx, ratio, 'topology.ownership-imbalance');
    if (!sev) continue;
    const sorted = [...nodes].sort((a, b) => b.ownsPercent - a.ownsPercent);
    const tokenCounts = new Set(nodes.map((n) => n.tokens));
    // Primary ranges of a ring whose token counts differ many times over are most likely a cut paste (a node shown
    // with 1 of its 256 tokens): nothing to say about balance from that.
    if (primaryOnly && maxOf([...tokenCounts]) > 4 * minOf([...tokenCounts])) continue;
    const rf = replicasIn(replication, dc);
    const rackCount = new Set(nodes.map((n) => n.rack)).size;
    // The measurements place replicas rack-aware (NetworkTopologyStrategy); SimpleStrategy over several racks is not that.
    const comparable = replication.strategy === 'network' || rackCount === 1;
    const allocator = !primaryOnly && comparable && tokenCounts.size === 1 && rf ? allocatorSpread(rf, rackCount, nodes[0]!.tokens, nodes.length) : null;
    findings.push({
      id: primaryOnly ? 'ownership.primary-range-skew' : 'ownership.skew',
      severity: primaryOnly ? 'info' : sev,
      title: primaryOnly
        ? `Primary token ranges in ${dc || 'the DC'} differ ${fmtNum(ratio, 2)}× between nodes (no keyspace replication known: run \`nodetool status ` +
          `<keyspace>\`)`
        : `Effective ownership in ${dc || 'the DC'} differs ${fmtNum(ratio, 2)}× between nodes for ${label}`,
      evidence: [
        ...sorted.slice(0, EVIDENCE_NODES).map((n) => `${n.address} (rack ${n.rack}): owns ${fmtNum(n.ownsPercent, 1)} % with ${n.tokens} token(s)`),
        `computed from ${source} for ${replicationText(replication)}${tokenCounts.size > 1 ? `; token counts differ (${[...tokenCounts].join(', ')})` : ''}`,
        ...(allocator ? [allocatorSpreadText(allocator)] : []),
      ],
      node: sorted[0]!.address,
      recommendation:
        tokenCounts.size > 1
          ? 'Mixed num_tokens drive this: align num_tokens on new nodes and replace the outliers.'
          : allocator
            ? allocatorAdvice(ctx, allocator, ratio)
            : 'Token placement is uneven (random tokens or few vnodes). New nodes should join with allocate_tokens_for_local_replication_factor set to the ' +
              'keyspace RF; to even out existing nodes, add allocator-placed nodes or replace the most-loaded ones.',
      knowledgeIds: [
        'topology.ownership-imbalance',
        'config.num-tokens.default',
        ...(tokenCounts.size > 1 ? (['topology.token-count'] satisfies KnowledgeId[]) : []),
        ...(allocator ? (['ownership.allocator-spread'] satisfies KnowledgeId[]) : []),
      ],
      confidence: primaryOnly ? 'low' : 'high',
    });
  }
  return findings;
}

function rackFindings(r: OwnershipResult, label: string, replication: Replication): Finding[] {
  if (replication.strategy !== 'network') return [];
  const findings: Finding[] = [];
  const racksByDc = new Map<string, OwnershipResult['racks']>();
  for (const rack of r.racks) pushTo(racksByDc, rack.datacenter, rack);
  for (const [dc, racks] of racksByDc) {
    const rf = replication.perDc[dc] ?? 0;
    const sizes = new Set(racks.map((x) => x.nodes));
    if (racks.length < 2 || sizes.size < 2 || rf < racks.length) continue;
    const next = nextNodeRack(racks, dc);
    findings.push({
      id: 'ownership.unequal-racks',
      severity: 'warning',
      title: `Racks in ${dc} have ${[...sizes].sort((a, b) => a - b).join('/')} nodes with rf ${rf}: nodes of the smaller racks own more of ${label}`,
      evidence: racks.map(
        (x) => `rack ${x.rack}: ${x.nodes} node(s), ${fmtNum(x.ownsPercent, 1)} % in total, ${fmtNum(x.ownsPercent / x.nodes, 1)} % per node`,
      ),
      recommendation:
        `Keep racks the same size and add nodes in multiples of ${racks.length}.` +
        (next ? ` The next node of ${dc} belongs in rack ${next.rack} (${next.nodes} node(s), ${fmtNum(next.perNodeOwns, 1)} % each).` : ''),
      knowledgeIds: ['topology.unequal-racks'],
      confidence: 'high',
    });
  }
  return findings;
}

/** The status-printed ownership (one keyspace or raw) is re-derived from tokens only for the residual check. */
function ownershipForStatus(ring: { members: RingMember[] }, cluster: ClusterFacts | null): Map<string, number> | null {
  const ks = (cluster?.keyspaces ?? []).find((k) => !isSystemKeyspace(k.name) && replicationFromMap(k.replication).strategy !== 'other');
  const r = effectiveOwnership(ring.members, ks ? replicationFromMap(ks.replication) : { strategy: 'simple', rf: 1 });
  return 'error' in r ? null : new Map(r.nodes.map((n) => [n.address, n.ownsPercent]));
}

/**
 * Effective ownership sums to rf × 100 % in a DC: the keyspace's rf there, without its schema. A sum far from a whole
 * number of replicas means rows are missing (a paste cut short): null, no rf to read.
 */
function replicasFromOwnership(sumPercent: number): number | null {
  const whole = Math.round(sumPercent / 100);
  return whole >= 1 && Math.abs(sumPercent / 100 - whole) <= 0.1 ? whole : null;
}

/** From a pasted or collected `nodetool status <keyspace>`: skew of "Owns (effective)" and unequal racks. */
function statusFindings(ctx: RuleContext, observer: string, s: NodetoolStatus): Finding[] {
  const findings: Finding[] = [];
  const byDc = new Map<string, NodetoolStatus['nodes']>();
  for (const n of s.nodes) pushTo(byDc, n.datacenter, n);
  for (const [dc, nodes] of byDc) {
    const owns = nodes.map((n) => n.ownsPercent).filter((x): x is number => x !== null && x > 0);
    const sum = owns.reduce((a, b) => a + b, 0);
    const rf = replicasFromOwnership(sum);
    if (s.ownsEffective && owns.length >= 2 && owns.length === nodes.length) {
      const ratio = maxOf(owns) / minOf(owns);
      const sev = grade(ctx, ratio, 'topology.ownership-imbalance');
      if (sev) {
        const sorted = [...nodes].sort((a, b) => (b.ownsPercent ?? 0) - (a.ownsPercent ?? 0));
        const tokenCounts = new Set(nodes.map((n) => n.tokens));
        const t = tokenCounts.size === 1 ? [...tokenCounts][0] : null;
        const allocator = t && rf !== null ? allocatorSpread(rf, new Set(nodes.map((n) => n.rack)).size, t, nodes.length) : null;
        findings.push({
          id: 'ownership.skew',
          severity: sev,
          title: `Effective ownership in ${dc || 'the DC'} differs ${fmtNum(ratio, 2)}× between nodes`,
          evidence: [
            ...sorted.slice(0, EVIDENCE_NODES).map((n) => `${n.address} (rack ${n.rack}): owns ${n.ownsPercent} % with ${n.tokens ?? '?'} token(s)`),
            rf !== null
              ? `nodetool status from ${observer} (Owns (effective), summing to ${rf} replica(s) in this DC)`
              : `nodetool status from ${observer}: Owns (effective) sums to ${fmtNum(sum, 1)} %, not a whole number of replicas — rows are missing from this output, so only the rows shown are compared`,
            ...(allocator ? [allocatorSpreadText(allocator)] : []),
          ],
          node: sorted[0]!.address,
          recommendation: allocator
            ? allocatorAdvice(ctx, allocator, ratio)
            : 'Token placement is uneven: new nodes should join with allocate_tokens_for_local_replication_factor set to the keyspace RF; existing tokens ' +
              'only change by adding allocator-placed nodes or replacing nodes.',
          knowledgeIds: [
            'topology.ownership-imbalance',
            'config.num-tokens.default',
            ...(allocator ? (['ownership.allocator-spread'] satisfies KnowledgeId[]) : []),
          ],
          confidence: rf === null ? 'medium' : 'high',
        });
      }
    }
    // the planner needs the rf: not from rows that do not add up to whole replicas (a status cut short)
    if (rf !== null && s.ownsEffective && owns.length === nodes.length && owns.length >= 2 && nodes.every((n) => n.up && n.state === 'normal')) {
      const rackOwns = new Map<string, RackOwnership>();
      for (const n of nodes) {
        const r = rackOwns.get(n.rack) ?? { datacenter: dc, rack: n.rack, nodes: 0, ownsPercent: 0 };
        r.nodes++;
        r.ownsPercent += n.ownsPercent ?? 0;
        rackOwns.set(n.rack, r);
      }
      const about = `nodetool status from ${observer} (Owns (effective) sums to ${rf} replica(s))`;
      const f = nextNodeFinding({ dc, rf, nodes, racks: [...rackOwns.values()], about });
      if (f) findings.push(f);
    }
    const racks = new Map<string, number>();
    for (const n of nodes) racks.set(n.rack, (racks.get(n.rack) ?? 0) + 1);
    const sizes = new Set(racks.values());
    if (racks.size >= 2 && sizes.size >= 2) {
      // rows pasted without their "Datacenter:" header may be part of the DC only: say what was counted
      const partial = s.datacenters.length === 0;
      findings.push({
        id: 'ownership.unequal-racks',
        severity: 'warning',
        title: `Racks in ${dc || 'the DC'} have different node counts${partial ? ' among the rows pasted' : ''} (${[...racks].map(([r, c]) => `${r}: ${c}`).join(', ')})`,
        evidence: [...racks].map(([r, c]) => `rack ${r}: ${c} node(s) [nodetool status from ${observer}]`),
        recommendation:
          `With NetworkTopologyStrategy and rf ≥ ${racks.size} each rack holds a full copy, so nodes of the smaller racks own more; keep racks ` +
          `the same size. Check with \`nodetool status <keyspace>\`.`,
        knowledgeIds: ['topology.unequal-racks'],
        confidence: partial ? 'low' : 'medium',
      });
    }
  }
  return findings;
}

/**
 * Load vs ownership per DC: residual = load / (DC load × ownership share). Only judged where loads differ
 * enough to matter (topology.load-imbalance) and there is real data (≥ 1 GiB on the largest node).
 */
function residualFindings(ctx: RuleContext, observer: string, s: NodetoolStatus, computed: Map<string, number> | null): Finding[] {
  const findings: Finding[] = [];
  const byDc = new Map<string, NodetoolStatus['nodes']>();
  for (const n of s.nodes) pushTo(byDc, n.datacenter, n);
  for (const [dc, nodes] of byDc) {
    const rows = nodes.map((n) => ({
      address: n.address,
      loadBytes: n.loadBytes,
      ownsPercent: s.ownsEffective ? n.ownsPercent : (computed?.get(n.address) ?? null),
    }));
    const res = loadResiduals(rows);
    if (res.length < 2) continue;
    const loads = res.map((r) => r.loadBytes);
    if (maxOf(loads) < GiB || !grade(ctx, maxOf(loads) / minOf(loads), 'topology.load-imbalance')) continue;
    const worst = [...res].sort((a, b) => Math.abs(Math.log(b.residual)) - Math.abs(Math.log(a.residual)))[0]!;
    const dataSkew = Math.abs(Math.log(worst.residual)) >= Math.log(1.25);
    findings.push({
      id: dataSkew ? 'ownership.data-skew' : 'ownership.token-skew',
      severity: 'warning',
      title: dataSkew
        ? `Load in ${dc || 'the DC'} is uneven beyond what ownership explains: ${worst.address} holds ${fmtNum(worst.residual, 2)}× its ownership share`
        : `Load in ${dc || 'the DC'} follows token ownership: the imbalance is token placement, not data`,
      evidence: [
        ...res
          .slice(0, EVIDENCE_NODES)
          .map((r) => `${r.address}: load ${formatBytes(r.loadBytes)}, owns ${fmtNum(r.ownsPercent, 1)} %, load/ownership residual ${fmtNum(r.residual, 2)}`),
        `nodetool status from ${observer}${s.ownsEffective ? ' (Owns (effective))' : computed ? ' (ownership computed from the ring tokens)' : ''}`,
      ],
      node: worst.address,
      recommendation: dataSkew
        ? `Look for large or hot partitions, a missed \`nodetool cleanup\` after a topology change, or snapshots on ${worst.address} (\`nodetool ` +
          `tablestats\`, \`nodetool listsnapshots\`).`
        : 'Even the tokens out (allocator-placed nodes, or replacing the most-loaded nodes); partition sizes are not the cause.',
      knowledgeIds: ['topology.load-imbalance', 'topology.ownership-imbalance'],
      confidence: s.ownsEffective || computed ? 'medium' : 'low',
    });
  }
  return findings;
}

function tabletFindings(ctx: RuleContext, tablets: NonNullable<ClusterFacts['tabletLoad']>): Finding[] {
  const findings: Finding[] = [];
  const byDc = new Map<string, typeof tablets>();
  for (const t of tablets) pushTo(byDc, t.datacenter ?? '', t);
  for (const [dc, nodes] of byDc) {
    const per = nodes.map((n) => n.tabletsPerShard).filter((x): x is number => x !== null && x > 0);
    if (per.length < 2) continue;
    const ratio = maxOf(per) / minOf(per);
    const sev = grade(ctx, ratio, 'scylla.tablets.balance');
    if (!sev) continue;
    findings.push({
      id: 'ownership.tablets-imbalance',
      severity: sev,
      title: `Tablets per shard in ${dc || 'the DC'} differ ${fmtNum(ratio, 2)}× between nodes`,
      evidence: nodes
        .slice(0, EVIDENCE_NODES)
        .map((n) => `${n.hostId} (rack ${n.rack ?? '?'}): ${n.tablets ?? '?'} tablet replica(s), ${n.tabletsPerShard ?? '?'} per shard [system.load_per_node]`),
      recommendation: 'Check that the tablet load balancer is enabled and not blocked by a running topology operation; uneven racks also constrain it.',
      knowledgeIds: ['scylla.tablets.balance', 'scylla.tablets'],
      confidence: 'medium',
    });
  }
  return findings;
}
