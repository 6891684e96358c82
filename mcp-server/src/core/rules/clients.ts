import { maxOf, pushTo } from '../arrays.js';
import type { NodeEvidence } from '../diagnosis/evidence.js';
import type { ClientFact } from '../facts/node-facts.js';
import type { Finding } from '../findings.js';
import { compareVersionText, valueOf, versionInRange, type KnowledgeId } from '../knowledge/index.js';
import { finding, fmtNum, grade, outcome, pushFinding, type Rule, type RuleContext } from './rule.js';

/** Evidence lines kept per finding: enough to act on, bounded for a hostile paste of 100k connections. */
const EVIDENCE_LINES = 12;

interface Conn extends ClientFact {
  node: string;
}

/** Minimum driver versions, each read from a knowledge entry (the number lives there, not here). */
interface Minimum {
  driver: RegExp;
  label: string;
  knowledgeId: KnowledgeId;
  min: (product: string | undefined, version: string | undefined, tablets: boolean) => string | null;
}

/** "python 3.26.5, java 4.18.0 / 3.11.5.2, go 1.13.0" → per-language minimums (several for majors in parallel). */
export function tabletAwareMinimums(value: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of value.split(',')) {
    const m = /^\s*(\w+)\s+(.+)$/.exec(part);
    if (m)
      out[m[1]!.toLowerCase()] = m[2]!
        .split('/')
        .map((v) => v.trim())
        .filter((v) => /^\d+(?:\.\d+)*$/.test(v));
  }
  return out;
}

/** The minimum among several parallel majors that applies to this version (same major), else the lowest. */
function minFor(version: string, mins: readonly string[]): string | null {
  const major = version.split('.')[0];
  return mins.find((m) => m.split('.')[0] === major) ?? null;
}

const SCYLLA_DRIVER = /scylla/i;

const MINIMUMS: Minimum[] = [
  {
    driver: /^(?:DataStax|Apache Cassandra) Python Driver$/i,
    label: 'Python driver (protocol v5)',
    knowledgeId: 'client.driver-min.python',
    min: (product, version) => (product === 'cassandra' && (!version || versionInRange(version, '>=4.0')) ? String(valueOf('client.driver-min.python')) : null),
  },
  ...(['python', 'java', 'go'] as const).map((lang): Minimum => ({
    driver: new RegExp(`scylla.*\\b${lang === 'go' ? 'go(?:cql)?' : lang}\\b`, 'i'),
    label: `ScyllaDB ${lang} driver (tablet-aware)`,
    knowledgeId: 'driver.scylla.tablet-aware',
    min: (product, _v, tablets) =>
      product === 'scylla' && tablets ? (tabletAwareMinimums(String(valueOf('driver.scylla.tablet-aware')))[lang] ?? []).join('/') || null : null,
  })),
];

const below = (version: string, min: string): boolean => (compareVersionText(version, min) ?? 0) < 0;

const settingTrue = (n: NodeEvidence, ...names: string[]) => names.some((k) => String(n.facts.settings?.[k] ?? '').toLowerCase() === 'true');

/**
 * Connected clients (system_views.clients on Cassandra 4.0+, system.clients on ScyllaDB), as each node lists
 * the connections it serves: driver versions below known minimums, Cassandra drivers on ScyllaDB (not
 * shard-aware) and shard-aware drivers that do not reach the shard-aware port, old protocol versions,
 * connections concentrated on one coordinator, plain connections where TLS is optional, and the clients
 * that send most requests.
 */
export const clientsRule: Rule = {
  id: 'clients',
  checks:
    'driver names and versions vs known minimums, shard-aware drivers on ScyllaDB, protocol versions, connections per coordinator, TLS, requests per client',
  dependsOn: ['facts:clients'],
  run(input, ctx) {
    const withClients = input.nodes.filter((n) => n.facts.clients !== undefined);
    const conns: Conn[] = withClients.flatMap((n) => (n.facts.clients ?? []).map((c) => ({ ...c, node: n.node })));
    const findings: Finding[] = [];
    const product = withClients.map((n) => n.facts.product).find((p) => p && p !== 'unknown');
    const version = withClients.map((n) => n.facts.releaseVersion).find(Boolean);
    const tablets = input.nodes.some((n) => (n.facts.cluster?.tabletLoad ?? []).some((t) => (t.tablets ?? 0) > 0));
    const src = product === 'scylla' ? 'system.clients' : 'system_views.clients';

    // Driver versions below a minimum, one finding per driver name and minimum.
    const byDriver = new Map<string, Conn[]>();
    for (const c of conns) if (c.driverName) pushTo(byDriver, c.driverName, c);
    for (const [name, cs] of byDriver) {
      const rule = MINIMUMS.find((m) => m.driver.test(name));
      const mins = rule?.min(product, version, tablets);
      if (!rule || !mins) continue;
      const old = cs.filter(
        (c) =>
          c.driverVersion &&
          (() => {
            const m = minFor(c.driverVersion, mins.split('/')) ?? mins.split('/').at(-1)!;
            return below(c.driverVersion, m);
          })(),
      );
      if (!old.length) continue;
      const versions = [...new Set(old.map((c) => c.driverVersion))].join(', ');
      findings.push({
        id: 'clients.driver-outdated',
        severity: 'warning',
        title: `${old.length} connection(s) use ${name} ${versions}, below ${mins} (${rule.label})`,
        evidence: clientLines(old, src),
        recommendation: `Upgrade ${name} to ${mins} or later in the applications on ${hosts(old)}.`,
        knowledgeIds: [rule.knowledgeId],
        confidence: 'high',
      });
    }

    if (product === 'scylla') {
      const plain = conns.filter((c) => c.driverName && !SCYLLA_DRIVER.test(c.driverName));
      if (plain.length) {
        findings.push({
          id: 'clients.not-shard-aware',
          severity: 'warning',
          title:
            `${plain.length} of ${conns.length} connection(s) come from Cassandra drivers, which are not shard-aware ` +
            `(${[...new Set(plain.map((c) => c.driverName))].join(', ')})`,
          evidence: clientLines(plain, src),
          recommendation:
            `Switch ${hosts(plain)} to the ScyllaDB build of the driver (same API): it routes each request to the owning shard over the ` +
            `shard-aware port 19042.`,
          knowledgeIds: ['client.scylla-driver', 'driver.scylla.shard-aware'],
          confidence: 'high',
        });
      }
      findings.push(...shardAwarePortFindings(conns, src));
    }

    // Protocol versions.
    // Protocol 0/null is a connection still in its handshake (connection_stage established/authenticating), not a version.
    const oldProto = conns.filter((c) => (c.protocolVersion ?? 0) > 0 && grade(ctx, c.protocolVersion, 'client.protocol-version'));
    if (oldProto.length) {
      findings.push({
        id: 'clients.protocol-old',
        severity: 'warning',
        title: `${oldProto.length} connection(s) use native protocol v${[...new Set(oldProto.map((c) => c.protocolVersion))].join('/v')}`,
        evidence: clientLines(oldProto, src),
        recommendation: 'Upgrade the driver or remove a pinned protocol_version so it negotiates v4 (v5 on Cassandra 4.0+).',
        knowledgeIds: ['client.protocol-version'],
        confidence: 'high',
      });
    }

    findings.push(...balanceFindings(ctx, withClients, conns, src));

    // TLS: plain connections while client encryption is enabled but optional, or next to TLS connections.
    const plainTls = conns.filter((c) => c.sslEnabled === false);
    const tlsConns = conns.filter((c) => c.sslEnabled === true);
    const optional = withClients.filter(
      (n) =>
        settingTrue(n, 'client_encryption_options.enabled', 'client_encryption_options_enabled') &&
        settingTrue(n, 'client_encryption_options.optional', 'client_encryption_options_optional'),
    );
    if (plainTls.length && (optional.length || tlsConns.length)) {
      findings.push({
        id: 'clients.tls-off',
        severity: 'warning',
        title:
          `${plainTls.length} connection(s) without TLS` +
          (optional.length
            ? ` while client encryption is enabled but optional on ${optional.map((n) => n.node).join(', ')}`
            : ` next to ${tlsConns.length} TLS connection(s)`),
        evidence: clientLines(plainTls, src),
        recommendation:
          `Enable TLS in the driver configuration of ${hosts(plainTls)}; once every client uses it, set client_encryption_options.optional: ` +
          `false so the nodes refuse plain connections.`,
        knowledgeIds: ['client.tls-optional'],
        confidence: optional.length ? 'high' : 'medium',
      });
    }

    // Requests per client host (request_count: Cassandra 4.0+).
    const reqByHost = new Map<string, number>();
    for (const c of conns) if (c.requests !== null) reqByHost.set(c.address, (reqByHost.get(c.address) ?? 0) + c.requests);
    const total = [...reqByHost.values()].reduce((a, b) => a + b, 0);
    if (reqByHost.size >= 3 && total > 0) {
      const top = [...reqByHost].sort((a, b) => b[1] - a[1]);
      const share = top[0]![1] / total;
      if (share >= 0.5) {
        findings.push({
          id: 'clients.request-concentration',
          severity: 'info',
          title: `Client ${top[0]![0]} sent ${fmtNum(share * 100, 0)} % of the ${total} requests counted on these connections`,
          evidence: top.slice(0, EVIDENCE_LINES).map(([a, n]) => `${a}: ${n} request(s) (${fmtNum((n / total) * 100, 1)} %) [${src} request_count]`),
          recommendation: 'When load is uneven, start with this client: its statements, consistency levels and retry policy shape what the cluster sees.',
          knowledgeIds: [],
          confidence: 'medium',
        });
      }
    }
    return outcome('clients', findings);
  },
};

function clientLines(cs: readonly Conn[], src: string): string[] {
  const lines = cs
    .slice(0, EVIDENCE_LINES)
    .map(
      (c) =>
        `${c.node}: ${c.address}${c.port !== null ? `:${c.port}` : ''} ${c.driverName ?? '?'} ${c.driverVersion ?? '?'}, protocol ` +
        `v${c.protocolVersion ?? '?'}, ssl ${c.sslEnabled ?? '?'}` +
        (c.shardId !== undefined && c.shardId !== null ? `, shard ${c.shardId}` : '') +
        (c.requests !== null ? `, ${c.requests} request(s)` : '') +
        ` [${src}]`,
    );
  if (cs.length > EVIDENCE_LINES) lines.push(`… ${cs.length - EVIDENCE_LINES} more connection(s)`);
  return lines;
}

const hosts = (cs: readonly Conn[]) => {
  const h = [...new Set(cs.map((c) => c.address))];
  return h.length > 5 ? `${h.slice(0, 5).join(', ')} and ${h.length - 5} more client host(s)` : h.join(', ');
};

/**
 * A shard-aware driver that reaches port 19042 picks each connection's shard by its source port (port modulo
 * the node's shard count = shard). Where a ScyllaDB driver's connections to a node cover every shard but almost
 * none satisfy that, the driver fell back to 9042 (port blocked or not advertised): it still routes by shard but
 * connects by trial.
 */
function shardAwarePortFindings(conns: readonly Conn[], src: string): Finding[] {
  const byNode = new Map<string, Conn[]>();
  for (const c of conns) if (c.shardId !== undefined && c.shardId !== null) pushTo(byNode, c.node, c);
  const findings: Finding[] = [];
  for (const [node, cs] of byNode) {
    const shards = maxOf(cs.map((c) => c.shardId!)) + 1;
    if (shards < 2) continue;
    const byClient = new Map<string, Conn[]>();
    for (const c of cs) if (c.driverName && SCYLLA_DRIVER.test(c.driverName) && c.port !== null) pushTo(byClient, c.address, c);
    for (const [client, own] of byClient) {
      if (own.length < shards) continue;
      const matching = own.filter((c) => c.port! % shards === c.shardId).length;
      // By chance 1 in `shards` matches; a client on the shard-aware port matches every time.
      if (matching / own.length > Math.max(0.5, 2 / shards)) continue;
      findings.push({
        id: 'clients.shard-aware-port-unused',
        severity: 'info',
        title: `${client} runs a ScyllaDB driver but its connections to ${node} do not come through the shard-aware port`,
        evidence: [
          `${node}: ${own.length} connection(s) from ${client} over ${shards} shard(s); ${matching} have source port modulo ${shards} = shard [${src} port, ` +
            `shard_id]`,
        ],
        node,
        recommendation:
          `Open port 19042 (19142 with TLS) from ${client} to ${node}: without it the driver finds each shard by opening and closing ` + `connections on 9042.`,
        knowledgeIds: ['driver.scylla.shard-aware'],
        confidence: 'medium',
      });
    }
  }
  return findings;
}

/** Connections per coordinator, and clients that use a single coordinator while several nodes serve clients. */
function balanceFindings(ctx: RuleContext, nodes: readonly NodeEvidence[], conns: readonly Conn[], src: string): Finding[] {
  if (nodes.length < 2) return [];
  const findings: Finding[] = [];
  const perNode = nodes.map((n) => ({ node: n.node, count: (n.facts.clients ?? []).length }));
  const mean = perNode.reduce((s, x) => s + x.count, 0) / perNode.length;
  const max = perNode.reduce((a, b) => (b.count > a.count ? b : a));
  const ratio = mean > 0 ? max.count / mean : 0;
  pushFinding(
    findings,
    finding(ctx, ['client.coordinator-balance', 'driver.token-aware'], conns.length >= 10 ? ratio : null, () => ({
      id: 'clients.coordinator-imbalance',
      title: `${max.node} serves ${max.count} client connection(s), ${fmtNum(ratio, 1)}× the mean of ${fmtNum(mean, 1)} per node`,
      evidence: perNode.slice(0, 50).map((x) => `${x.node}: ${x.count} connection(s) [${src}]`),
      node: max.node,
      recommendation:
        'Use a token-aware policy over all local-DC nodes (no single contact point behind a load balancer, no whitelist of one node) so coordinator work ' +
        'spreads.',
      confidence: 'medium',
    })),
  );
  if (nodes.length >= 3) {
    const nodesByClient = new Map<string, Set<string>>();
    const countByClient = new Map<string, number>();
    for (const c of conns) {
      const set = nodesByClient.get(c.address) ?? new Set<string>();
      set.add(c.node);
      nodesByClient.set(c.address, set);
      countByClient.set(c.address, (countByClient.get(c.address) ?? 0) + 1);
    }
    const pinned = [...nodesByClient].filter(([addr, set]) => set.size === 1 && (countByClient.get(addr) ?? 0) >= 2);
    if (pinned.length) {
      findings.push({
        id: 'clients.pinned-coordinator',
        severity: 'warning',
        title: `${pinned.length} client host(s) connect to one node only, of ${nodes.length} that list clients`,
        evidence: pinned.slice(0, EVIDENCE_LINES).map(([addr, set]) => `${addr}: ${countByClient.get(addr)} connection(s), all to ${[...set][0]} [${src}]`),
        recommendation:
          'These clients use one coordinator for everything: check their contact points and load-balancing policy (token-aware, local DC, all nodes).',
        knowledgeIds: ['client.coordinator-balance', 'driver.token-aware'],
        confidence: 'medium',
      });
    }
  }
  return findings;
}
