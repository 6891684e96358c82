import { linesCapped, maxOf, minOf, pushTo } from '../arrays.js';
import type { Finding } from '../findings.js';
import { formatBytes } from '../units.js';
import { splitHostPort } from '../host-port.js';
import { finding, outcome, pushFinding, skipped, type Rule } from './rule.js';

const STATE_WORD: Record<string, string> = { N: 'normal', L: 'leaving', J: 'joining', M: 'moving' };
/** Per-node evidence lines kept in one finding: enough for any real DC, bounded for a hostile 100k-row paste. */
const EVIDENCE_NODES = 200;
/** Fewest nodes in a status for "one up, all others down" to point at the observer rather than at the others. */
const ISOLATED_MIN_NODES = 4;

/**
 * Topology: nodes down or in transition (as one node's `nodetool status` or gossip sees them), nodes that
 * did not answer the sweep, schema disagreement, uneven load within a DC and token counts that differ.
 */
export const topologyRule: Rule = {
  id: 'topology',
  checks: 'node states (UN/DN/UJ/UL/UM), unreachable nodes, schema agreement, load imbalance per DC, token counts',
  run(input, ctx) {
    const findings: Finding[] = [];
    const statusViews = input.nodes.filter((n) => n.nodetool.status);
    const gossipViews = input.nodes.filter((n) => n.facts.gossip?.length);
    // `nodetool ring` prints each node's Up/Down and state too: a view where no status was read.
    const ringViews = statusViews.length ? [] : input.nodes.filter((n) => n.nodetool.ring?.nodes.length);
    const haveSchema = input.nodes.filter((n) => n.facts.schemaVersion || n.nodetool.describecluster);
    if (!statusViews.length && !ringViews.length && !gossipViews.length && input.nodes.length < 2 && !haveSchema.length) {
      return skipped('topology', 'no ring view (nodetool status or ring, gossip_info) and a single node');
    }

    // Node states as seen by each observer; the same bad node reported by several observers is one finding.
    const bad = new Map<string, { code: string; observers: string[]; via: string }>();
    for (const v of statusViews) {
      for (const s of v.nodetool.status!.nodes) {
        if (s.code === 'UN') continue;
        const e = bad.get(s.address) ?? { code: s.code, observers: [], via: 'nodetool status' };
        e.observers.push(v.node);
        bad.set(s.address, e);
      }
    }
    for (const v of ringViews) {
      for (const r of v.nodetool.ring!.nodes) {
        const code = (r.status === 'down' ? 'D' : r.status === 'up' ? 'U' : '?') + r.state[0]!.toUpperCase();
        if (code === 'UN') continue;
        const e = bad.get(r.address) ?? { code, observers: [], via: 'nodetool ring' };
        if (!e.observers.includes(v.node)) e.observers.push(v.node);
        bad.set(r.address, e);
      }
    }
    // A cut status (pasted or truncated) hides nodes: say so, or "no node is down" would be a claim about rows never seen.
    for (const v of statusViews) {
      const cut = v.nodetool.status!.rowsNotParsed ?? [];
      if (!cut.length) continue;
      findings.push({
        id: 'topology.status-incomplete',
        severity: 'warning',
        title: `nodetool status from ${v.node} has ${cut.length} row(s) that could not be read`,
        evidence: cut.slice(0, 3).map((row) => `${v.node}: unreadable status row: ${JSON.stringify(row)}`),
        node: v.node,
        recommendation:
          'Node states are judged only from the rows that were read: run `nodetool status` again (whole output, not a cut paste) before concluding that every node is up.',
        knowledgeIds: [],
        confidence: 'high',
      });
    }
    // One node up and every other node down, in one observer's status: a node always sees itself up, so that node is
    // the observer, and one node cut off from the rest is likelier than all the others failing together.
    const isolated = new Map<string, { self: string; down: number; total: number }>();
    for (const v of statusViews) {
      const rows = v.nodetool.status!.nodes;
      const up = rows.filter((r) => r.code.startsWith('U'));
      if (rows.length >= ISOLATED_MIN_NODES && up.length === 1 && rows.every((r) => r === up[0] || r.code.startsWith('D'))) {
        isolated.set(v.node, { self: up[0]!.address, down: rows.length - 1, total: rows.length });
      }
    }
    for (const [view, i] of isolated) {
      findings.push({
        id: 'topology.observer-isolated',
        severity: 'critical',
        title: `Only ${i.self} is up in the status from ${view}: the other ${i.down} of ${i.total} nodes are DN — most likely ${i.self} itself is cut off`,
        evidence: [
          `nodetool status from ${view}: ${i.self} UN, ${i.down} node(s) DN, none other up`,
          `a node always shows itself UN, so ${i.self} is the node that ran nodetool: it sees no peer alive`,
        ],
        node: i.self,
        recommendation: `Run \`nodetool status\` on one of the DN nodes. If it shows the others UN and ${i.self} DN, the trouble is on ${i.self} (network or firewall, a long GC, an overloaded or failing node): look there, not at the ${i.down} others. If they see each other down too, the outage is real and wide: look for what they share (a deploy, a rack, power, the network).`,
        knowledgeIds: [],
        confidence: 'medium',
      });
    }
    for (const [address, e] of bad) {
      const state = STATE_WORD[e.code[1] ?? 'N'] ?? e.code;
      if (e.code.startsWith('?')) {
        // ScyllaDB prints "?" when this observer has no liveness for the node: neither up nor down is known.
        findings.push({
          id: 'topology.node-unknown',
          severity: 'warning',
          title: `${address} is ${e.code} (liveness unknown to ${e.observers.join(', ')}, ${state})`,
          evidence: [`${e.via} from ${e.observers.join(', ')}: ${address} ${e.code}`],
          node: address,
          recommendation: `The observer has no gossip liveness for ${address}: run \`nodetool status\` from another node and check \`nodetool gossipinfo\` for ${address} (a node just restarted, partitioned or removed shows this).`,
          knowledgeIds: [],
          confidence: 'medium',
        });
        continue;
      }
      const down = e.code.startsWith('D');
      // seen down only by observers that see nobody up: unconfirmed (topology.observer-isolated says why)
      const unconfirmed = down && e.observers.every((o) => isolated.has(o));
      findings.push({
        id: down ? 'topology.node-down' : 'topology.node-transition',
        severity: down && !unconfirmed ? 'critical' : 'warning',
        title: `${address} is ${e.code} (${down ? 'down' : 'up'}, ${state})${unconfirmed ? ', unconfirmed' : ''}`,
        evidence: [
          `${e.via} from ${e.observers.join(', ')}: ${address} ${e.code}`,
          ...(unconfirmed
            ? [`only seen from ${e.observers.map((o) => isolated.get(o)!.self).join(', ')}, which sees no other node up (topology.observer-isolated)`]
            : []),
        ],
        node: address,
        recommendation: down
          ? `Check the Cassandra process and network on ${address} (up/down is each observer's view: compare from another node). Hints for it pile up on the others; if it stays down longer than max_hint_window, repair after it returns.`
          : `A ${state} node streams data; if it stays ${e.code} for hours, check \`nodetool netstats\` on it for stuck streams.`,
        knowledgeIds: [],
        confidence: 'high',
      });
    }
    // Gossip states other than NORMAL where status was not collected.
    if (!statusViews.length) {
      for (const v of gossipViews) {
        for (const g of v.facts.gossip ?? []) {
          if (!g.status || g.status === 'NORMAL') continue;
          // LEFT is a node decommissioned or removed: gossip keeps its entry for a while after, as it should
          const left = g.status === 'LEFT';
          findings.push({
            id: 'topology.gossip-state',
            severity: ['shutdown', 'removed', 'DOWN'].includes(g.status) ? 'critical' : left ? 'info' : 'warning',
            title: left ? `${g.address} has left the ring (LEFT in gossip)` : `${g.address} is ${g.status} in gossip`,
            evidence: [
              `${v.node}: ${g.via ?? (v.facts.product === 'scylla' ? 'system.cluster_status' : 'system_views.gossip_info')} state of ${g.address} = ${g.status}` +
                (g.heartbeat !== null && g.heartbeat >= 2147483647 ? ' (heartbeat at its maximum: the node announced its shutdown)' : ''),
            ],
            node: g.address,
            recommendation: left
              ? `Expected after a decommission or removenode of ${g.address}; if it was not removed on purpose, find out who ran it.`
              : `Confirm the state of ${g.address} with \`nodetool status\` from two nodes.`,
            knowledgeIds: [],
            confidence: 'medium',
          });
        }
      }
    }
    for (const n of input.nodes.filter((x) => !x.reachable)) {
      if (bad.has(n.node)) continue;
      findings.push({
        id: 'topology.unreachable',
        severity: 'critical',
        title: `${n.node} did not answer`,
        evidence: n.errors.slice(0, 3).map((e) => `${n.node}: ${e.source} [${e.code}] ${e.message}`.slice(0, 300)),
        node: n.node,
        recommendation: `Check that Cassandra runs on ${n.node} and that its native port (and JMX, for nodetool) is reachable from here.`,
        knowledgeIds: [],
        confidence: 'high',
      });
    }

    // Schema agreement: distinct schema versions across nodes, or describecluster's own grouping.
    const versions = new Map<string, string[]>();
    // push, not [...old, x]: copying the list at every node is quadratic (a 100k-row status took 77 s).
    for (const n of input.nodes) if (n.facts.schemaVersion) pushTo(versions, n.facts.schemaVersion, n.node);
    const dc = input.nodes.find((n) => n.nodetool.describecluster)?.nodetool.describecluster;
    const groups =
      dc && dc.schemaVersions.length
        ? dc.schemaVersions.filter((g) => !/UNREACHABLE/i.test(g.version)).map((g) => ({ version: g.version, nodes: g.endpoints }))
        : [...versions].map(([version, nodes]) => ({ version, nodes }));
    if (groups.length > 1) {
      findings.push({
        id: 'topology.schema-disagreement',
        severity: 'warning',
        title: `${groups.length} schema versions in the cluster`,
        evidence: groups.map((g) => `schema ${g.version}: ${g.nodes.join(', ')}`),
        recommendation:
          'Schema changes are not propagating. Stop DDL until the versions agree; on a stuck node, `nodetool reloadlocalschema` (or a restart) usually fixes it. Avoid concurrent schema changes from several clients.',
        knowledgeIds: ['topology.schema-agreement'],
        confidence: 'high',
      });
    }

    // describecluster's UNREACHABLE group: nodes that did not answer this node's schema check (StorageProxy
    // describeSchemaVersions), i.e. down or cut off from where the command ran
    // a node status or ring already shows down (or that did not answer the sweep) is not reported twice
    const hostOf = (e: string) => splitHostPort(e).host;
    const knownDown = new Set([...bad].filter(([, e]) => e.code.startsWith('D')).map(([a]) => hostOf(a)));
    for (const x of input.nodes) if (!x.reachable) knownDown.add(hostOf(x.node));
    const unreachable = (dc?.unreachable ?? []).filter((e) => !knownDown.has(hostOf(e)));
    if (dc && unreachable.length) {
      const n = unreachable.length;
      const answered = groups.reduce((a, g) => a + g.nodes.length, 0);
      findings.push({
        id: 'topology.schema-unreachable',
        severity: 'critical',
        title: `${n} node(s) did not answer the schema check${answered ? ` (${answered} did)` : ''}: UNREACHABLE in nodetool describecluster`,
        evidence: [
          `UNREACHABLE: ${unreachable.slice(0, 20).join(', ')}${n > 20 ? `, … (${n} in all)` : ''}`,
          ...groups.map((g) => `schema ${g.version}: ${g.nodes.join(', ')}`),
        ],
        recommendation:
          'From the node that ran describecluster these nodes are down or cut off. Run `nodetool status` there and on one of them: ' +
          'if each side sees the other DN while both run, the network between them (storage port 7000/7001, firewalls, pod networking) ' +
          'or gossip is split; queries at QUORUM fail wherever a replica set spans the two groups. If they are really down, start them.',
        knowledgeIds: ['topology.schema-agreement'],
        confidence: 'high',
      });
    }

    // Load and token counts per DC, from the first status view (the whole ring is in it).
    const ring = statusViews[0]?.nodetool.status;
    if (ring) {
      const byDc = new Map<string, typeof ring.nodes>();
      for (const s of ring.nodes) pushTo(byDc, s.datacenter, s);
      for (const [dcName, nodes] of byDc) {
        const loads = nodes.map((s) => s.loadBytes).filter((x): x is number => x !== null && x > 0);
        if (loads.length >= 2) {
          // A loop, not Math.max(...loads): 200k arguments overflow the stack.
          const max = maxOf(loads);
          const min = minOf(loads);
          // Tiny clusters (fresh, < 1 GiB) are uneven by nature; only judge real data.
          // data in motion (a node joining, leaving or moving) or ownership unknown ("?"): the cause is not the key
          const moving = nodes.filter((s) => s.state !== 'normal');
          const ownsUnknown = nodes.every((s) => s.ownsPercent === null);
          const f = finding(ctx, 'topology.load-imbalance', max >= 1024 ** 3 ? max / min : null, () => ({
            title: `Load in ${dcName || 'the DC'} differs ${(max / min).toFixed(1)}× between nodes`,
            evidence: linesCapped(
              nodes,
              EVIDENCE_NODES,
              (s) => `${s.address}: load ${s.loadBytes === null ? '?' : formatBytes(s.loadBytes)}, owns ${s.ownsPercent ?? '?'}%, tokens ${s.tokens ?? '?'}`,
              'nodes',
            ),
            recommendation:
              (moving.length ? `${moving.map((m) => `${m.address} is ${m.code}`).join(', ')}: data is moving, so loads are uneven until that ends. ` : '') +
              (ownsUnknown
                ? 'Ownership is not shown ("?": keyspaces with different replication); read it per keyspace (`nodetool status <keyspace>`) first. '
                : '') +
              'Uneven load with even ownership points at a hot partition key or large partitions, or at a node that was in the ring before others joined and still holds the ranges it gave away (`nodetool cleanup` on it frees them); uneven ownership points at token allocation (num_tokens, allocate_tokens_for_local_replication_factor). Check partition sizes and ownership per keyspace (`nodetool status <keyspace>`).',
            confidence: 'medium',
          }));
          // a transition explains part of the spread: worth a look, not an emergency
          if (f && moving.length && f.severity === 'critical') f.severity = 'warning';
          pushFinding(findings, f);
        }
        const tokens = new Set(nodes.map((s) => s.tokens).filter((x): x is number => x !== null));
        if (tokens.size > 1) {
          findings.push({
            id: 'topology.token-count-mismatch',
            severity: 'warning',
            title: `Nodes in ${dcName || 'the DC'} have different token counts (${[...tokens].join(', ')})`,
            evidence: linesCapped(nodes, EVIDENCE_NODES, (s) => `${s.address}: ${s.tokens ?? '?'} tokens`, 'nodes'),
            recommendation:
              'Mixed num_tokens give the nodes with more tokens proportionally more data. Align num_tokens for new nodes; fixing existing nodes means replacing them.',
            knowledgeIds: ['topology.token-count'],
            confidence: 'high',
          });
        }
      }
    }
    return outcome('topology', findings);
  },
};
