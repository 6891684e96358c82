import { z } from 'zod';
import { nodeFactsFromRaw } from '../core/facts/from-raw.js';
import { checkHost, checkNodeAddress } from '../core/validate.js';
import { mapBounded } from '../collect/bounded.js';
import { readBundle, writeBundle } from '../collect/bundle-store.js';
import { isDiagTree, readDiagTree, type DiagTree } from '../collect/diag-tree.js';
import { CqlSession } from '../collect/cql-session.js';
import {
  asAbsenceFact,
  collectNode,
  collectNodeWithNodetoolOnly,
  NODETOOL_FALLBACKS,
  NODETOOL_WITHOUT_VTABLES,
  type NodeRaw,
  type SweepNode,
} from './sweep.js';
import type { NodetoolStatus } from '../core/parse/nodetool/status.js';
import { runNodetool } from './nodetool.js';
import { labStatus } from '../lab/index.js';
import { createTarget, targetForms, type TargetOrigin, type TargetSpec } from '../collect/target-spec.js';
import { parseTargetTemplate, specForNode, type TargetTemplate } from '../collect/target-template.js';
import type { Target } from '../collect/target.js';
import { CQL_TUNER_VERSION } from '../version.js';
import { describeError, OpError } from './errors.js';
import { missingGrantWarnings } from '../core/cql-connect-errors.js';
import type { ProgressFn } from './progress.js';
import { contactPointsSchema, NODETOOL_VIA_DESCRIPTION, portSchema } from './input-schemas.js';
import type { ClusterSnapshot, NodeSnapshot, RawOutput, RawRequest } from '../core/reports/snapshot.js';
export type { ClusterSnapshot, NodeSnapshot, RawOutput, RawRequest, SourceSummary } from '../core/reports/snapshot.js';

export interface SnapshotInput {
  /** Contact points (host or host:port). Omit with lab: true to use the local lab. */
  hosts?: string[];
  lab?: boolean;
  cqlPort?: number;
  localDataCenter?: string;
  /** Only nodes of this DC. */
  dc?: string;
  /** JMX host for nodetool: "node" = each node's own address (remote JMX), or a fixed host (e.g. 127.0.0.1). */
  jmxHost?: string;
  jmxPort?: number;
  /** Per-node JMX ports by node address (the lab uses 7199/7299/7399 on 127.0.0.1). */
  jmxPorts?: Record<string, number>;
  /** Add nodetool for what no virtual table answers (heap, GC, dropped messages). */
  nodetool?: boolean;
  nodetoolPath?: string;
  /** false: one JVM per local java nodetool command (default: one JVM per node for all of them). */
  batchNodetool?: boolean;
  /**
   * Run nodetool on each node through a target, "{host}" standing for the node's address, e.g.
   * "ssh://ops@{host}" (JMX then defaults to 127.0.0.1 on that node, as LOCAL_JMX clusters require).
   */
  nodetoolVia?: string;
  /**
   * Where nodetoolVia comes from: 'trusted' only for the user's own CLI flags, which may then name an ssh
   * key or config (?identity=, ?config=, …). Anything else (MCP arguments) is 'untrusted', the default.
   */
  targetOrigin?: TargetOrigin;
  /**
   * Where each node's nodetool runs, by node address (diagnose --k8s: the pod of each pod IP). Takes the place
   * of nodetoolVia; a node with no entry is not collected through any target. Built by trusted code only.
   */
  nodeTargets?: Record<string, TargetSpec>;
  /** More nodetool subcommands per node (e.g. compactionstats, tablestats for a diagnosis). */
  nodetoolExtra?: string[];
  /** nodetool subcommands with a cluster-wide answer, run on the first node only (status, describecluster). */
  nodetoolOnce?: string[];
  concurrency?: number;
  nodeTimeoutMs?: number;
  bundleDir?: string;
  /** Also return these raw outputs inline (capped); without it raw text stays out of the result. */
  raw?: RawRequest;
}

/** Raw text is for reading one output closely, not for pulling a whole cluster into the context: the bundle keeps all of it. */
export const RAW_MAX_BYTES_PER_OUTPUT = 32 * 1024;
export const RAW_MAX_BYTES_TOTAL = 128 * 1024;

export const DEFAULT_SWEEP_CONCURRENCY = 8;
/** Compaction strategy per table: rules weigh strategy against data size. */
const SCHEMA_QUERY = { keyspace: 'system_schema', table: 'tables', query: 'SELECT keyspace_name, table_name, compaction FROM system_schema.tables' };
export const DEFAULT_NODE_TIMEOUT_MS = 30_000;

const rawRequestSchema = z.object({
  node: z.string().max(300).optional().describe('Node address, e.g. 10.0.0.1'),
  source: z.string().max(200).optional().describe('Output name, e.g. "tpstats", "nodetool:gcstats" or "cql:system_views.thread_pools"'),
});

/** The raw outputs to return inline, as cluster_snapshot and analyze_bundle take them. */
export const rawRequestInputSchema = rawRequestSchema
  .optional()
  .describe(
    `Return the raw text of the matching outputs inline (at most ${RAW_MAX_BYTES_PER_OUTPUT / 1024} KiB each, ${RAW_MAX_BYTES_TOTAL / 1024} KiB in all); ` +
      'omit for the summary only',
  );

/** cluster_snapshot's input (untrusted tool arguments); the CLI derives a wider one (cli/commands/cluster-options.ts). */
export const clusterSnapshotInputSchema = z.object({
  hosts: contactPointsSchema().optional().describe('Contact points, host or host:port'),
  lab: z.boolean().default(false).describe('Use the running local lab instead of hosts'),
  cqlPort: portSchema().optional(),
  localDataCenter: z.string().max(200).optional(),
  dc: z.string().max(200).optional().describe('Only nodes of this datacenter'),
  jmxHost: z.string().max(253).optional().describe('"node" (default: each node’s address) or a fixed JMX host'),
  jmxPort: portSchema().optional(),
  nodetoolVia: z.string().max(500).optional().describe(NODETOOL_VIA_DESCRIPTION),
  nodetool: z.boolean().default(true).describe('Fill heap/GC/dropped messages with nodetool'),
  concurrency: z.number().int().min(1).max(64).default(DEFAULT_SWEEP_CONCURRENCY),
  nodeTimeoutMs: z.number().int().min(1000).max(600_000).default(DEFAULT_NODE_TIMEOUT_MS),
  bundle: z.boolean().default(false).describe('Also save all raw outputs as a bundle in the data folder'),
  detail: z.boolean().default(false).describe('Return every collected fact (large)'),
  raw: rawRequestInputSchema,
});

/**
 * `cql-tuner snapshot`'s input: the tool's schema, widened for the user's own flags. --nodetool-path chooses the
 * binary that runs and --bundle DIR where files are written; neither is a tool argument (an untrusted caller gets
 * the data folder and the nodetool found on the server). The raw request is the same, as flags.
 */
export const clusterSnapshotCliInputSchema = clusterSnapshotInputSchema.omit({ bundle: true, detail: true }).extend({
  nodetoolPath: z.string().max(4096).optional(),
  bundleDir: z.string().max(4096).optional(),
  raw: rawRequestSchema.optional(),
});

/** analyze_bundle's input, registered by the MCP tool and checked by `cql-tuner analyze`. */
export const analyzeBundleInputSchema = z.object({ path: z.string().min(1).max(4096), detail: z.boolean().default(false), raw: rawRequestInputSchema });

/**
 * The raw outputs a caller asked for: matching sources of matching nodes (source matched exactly or by its
 * name after "nodetool:" / "cql:"), each cut at RAW_MAX_BYTES_PER_OUTPUT, all together at RAW_MAX_BYTES_TOTAL.
 */
export function selectRaw(raw: NodeRaw[], request: RawRequest): NonNullable<ClusterSnapshot['raw']> {
  const wantSource = (name: string): boolean => !request.source || name === request.source || name.replace(/^(?:nodetool|cql):/, '') === request.source;
  const outputs: RawOutput[] = [];
  let total = 0;
  let omitted = 0;
  for (const n of raw) {
    if (request.node && n.node.address !== request.node) continue;
    for (const src of n.sources) {
      if (src.text === undefined || !wantSource(src.name)) continue;
      const bytes = Buffer.byteLength(src.text);
      const room = Math.min(RAW_MAX_BYTES_PER_OUTPUT, RAW_MAX_BYTES_TOTAL - total);
      if (room <= 0) {
        omitted++;
        continue;
      }
      const text =
        bytes <= room
          ? src.text
          : Buffer.from(src.text)
              .subarray(0, room)
              .toString('utf8')
              .replace(/\uFFFD$/, '');
      total += Buffer.byteLength(text);
      outputs.push({ node: n.node.address, source: src.name, via: src.via, text, bytes, truncated: bytes > room });
    }
  }
  return { request, outputs, omitted };
}

/** Raw per-node outputs → the snapshot users see; the same function serves live sweeps and bundles. */
export function snapshotFromRaw(
  raw: NodeRaw[],
  meta: Pick<ClusterSnapshot, 'collectedAt' | 'durationMs' | 'contactPoints' | 'bundleDir' | 'bundleError' | 'warnings'>,
  rawRequest?: RawRequest,
): ClusterSnapshot {
  const nodes = raw.map((n0): NodeSnapshot => {
    // Bundles written before absence was recorded hold the virtual-schema probe as a failure: same reading.
    const n = { ...n0, sources: n0.sources.map(asAbsenceFact) };
    const { facts, nodetool, unparsed } = nodeFactsFromRaw(n.sources.filter((s) => s.ok && s.text !== undefined).map((s) => ({ name: s.name, text: s.text! })));
    const reachable = n.cqlReachable || n.sources.some((s) => s.ok);
    return {
      address: n.node.address,
      datacenter: facts.datacenter ?? n.node.datacenter,
      rack: facts.rack ?? n.node.rack,
      hostId: facts.hostId ?? n.node.hostId,
      // The outputs decide; a bundle's manifest version covers a node whose version output is missing.
      releaseVersion: facts.releaseVersion ?? n.version ?? null,
      product: facts.product ?? n.product ?? 'unknown',
      upPerDriver: n.node.upPerDriver,
      reachable,
      status: !reachable ? 'unreachable' : n.sources.every((s) => s.ok) ? 'complete' : 'partial',
      ms: n.ms,
      sources: n.sources.map(({ text: _text, ...s }) => s),
      facts,
      nodetool,
      unparsed,
    };
  });
  return { ...meta, nodes, ...(rawRequest ? { raw: selectRaw(raw, rawRequest) } : {}) };
}

/** nodetoolVia parsed once, before anything connects; undefined without one. */
export type NodeTargets = TargetTemplate | { byAddress: Record<string, TargetSpec> };

export function nodetoolTemplate(input: SnapshotInput): NodeTargets | undefined {
  if (input.nodeTargets) {
    // Per-node targets name pods to exec into: only the user's own flags (diagnose --k8s) may set them.
    if (input.targetOrigin !== 'trusted') {
      throw new OpError('BAD_TARGET', 'nodeTargets come only from trusted input', 'Use diagnose --k8s on the command line.');
    }
    return { byAddress: input.nodeTargets };
  }
  if (!input.nodetoolVia) return undefined;
  const origin = input.targetOrigin ?? 'untrusted';
  const t = parseTargetTemplate(input.nodetoolVia, origin);
  if (!t.ok) throw new OpError('BAD_TARGET', `nodetoolVia: ${t.error}`, `Write it like ssh://ops@{host} (or "local"). Accepted forms: ${targetForms(origin)}`);
  return t.value;
}

export function nodetoolTargetFor(template: NodeTargets, address: string): Target {
  if ('byAddress' in template) {
    const own = Object.hasOwn(template.byAddress, address) ? template.byAddress[address] : undefined;
    if (!own) {
      const fix = 'Collect the other datacenter with its own --k8s namespace/name.';
      throw new OpError('BAD_TARGET', `node ${address} has no target of its own (it is not one of the pods found)`, fix);
    }
    return createTarget(own);
  }
  const spec = specForNode(template, address);
  if (!spec.ok) {
    throw new OpError('BAD_TARGET', `nodetoolVia for this node: ${spec.error}`, 'Only nodes with an IP address or host name are reached through nodetoolVia.');
  }
  return createTarget(spec.value);
}

/**
 * Nodes whose address (from system.peers or nodetool status: cluster data) is an IP address or host name,
 * and the others, which are reported and never contacted (no JMX host, no target, no bundle folder).
 */
function splitByAddress<T extends { address: string }>(nodes: T[]): { usable: T[]; refused: { address: string; reason: string }[] } {
  const usable: T[] = [];
  const refused: { address: string; reason: string }[] = [];
  for (const n of nodes) {
    const c = checkNodeAddress(n.address);
    if (c.ok) usable.push(n);
    else refused.push({ address: n.address, reason: c.reason });
  }
  return { usable, refused };
}

/** The refused nodes as snapshot warnings, so the report shows they exist and why they were not collected. */
function refusedWarnings(refused: { address: string; reason: string }[], seenBy: string): string[] {
  return refused.map((r) => `${seenBy} lists a node whose ${r.reason}: it was not collected (nothing connects to such an address)`);
}

/** "host", "host:port", "[v6]:port" or a bare IPv6 literal → the host. */
function hostOnly(contactPoint: string): string {
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(contactPoint);
  if (bracket) return bracket[1]!;
  return contactPoint.split(':').length === 2 ? contactPoint.replace(/:\d+$/, '') : contactPoint;
}

/** CQL connect errors that mean "reachable, but this client's login or TLS settings are refused". */
const CQL_SETTINGS_REFUSALS = new Set([
  'CQL_AUTH',
  'CQL_AUTH_REQUIRED',
  'CQL_TLS',
  'CQL_TLS_HOSTNAME',
  'CQL_TLS_UNKNOWN_CA',
  'CQL_TLS_CERT_EXPIRED',
  'CQL_TLS_CLIENT_CERT',
  'CQL_TLS_REQUIRED',
  'CQL_TLS_NOT_ON_SERVER',
]);

export async function resolveTargets(input: SnapshotInput): Promise<{ hosts: string[]; jmxHost: string; jmxPorts: Record<string, number> }> {
  if (input.lab) {
    const s = await labStatus();
    if (!s.running || !s.nodes.length) throw new OpError('NO_LAB', 'no lab is running', 'Start one with `cql-tuner lab start` (or lab_start), or give hosts.');
    return {
      hosts: s.nodes.map((n) => n.host),
      jmxHost: '127.0.0.1',
      jmxPorts: Object.fromEntries(s.nodes.map((n) => [n.host, n.jmxPort])),
    };
  }
  const hosts = input.hosts ?? [];
  if (!hosts.length) throw new OpError('NO_CONTACT_POINTS', 'no hosts given', 'Give at least one node address (hosts), or lab: true for the local lab.');
  const jmxHost = input.jmxHost ?? (input.nodetoolVia && input.nodetoolVia !== 'local' ? '127.0.0.1' : 'node');
  if (jmxHost !== 'node') {
    const c = checkHost(jmxHost);
    if (!c.ok) throw new OpError('BAD_HOST', `jmxHost: ${c.reason}`, 'Give "node" or a host name/IP.');
  }
  return { hosts, jmxHost, jmxPorts: input.jmxPorts ?? {} };
}

/**
 * Discovers the cluster's nodes through the driver (system.peers_v2 / peers), then collects every node
 * with bounded concurrency and a per-node deadline. Always returns what it got: a node that fails is
 * marked unreachable with its errors, the others are complete.
 */
export async function takeSnapshot(input: SnapshotInput, deps: { onProgress?: ProgressFn; signal?: AbortSignal } = {}): Promise<ClusterSnapshot> {
  const started = Date.now();
  const { hosts, jmxHost, jmxPorts } = await resolveTargets(input);
  // A bad template fails before connecting, not once per node.
  const via = nodetoolTemplate(input);
  const concurrency = input.concurrency ?? DEFAULT_SWEEP_CONCURRENCY;
  const nodeTimeoutMs = input.nodeTimeoutMs ?? DEFAULT_NODE_TIMEOUT_MS;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    throw new OpError('BAD_CONCURRENCY', `concurrency ${concurrency} is outside 1–64`, 'Use the default 8, or a value up to 64.');
  if (!Number.isInteger(nodeTimeoutMs) || nodeTimeoutMs < 1000 || nodeTimeoutMs > 600_000)
    throw new OpError('BAD_TIMEOUT', `nodeTimeoutMs ${nodeTimeoutMs} is outside 1000–600000`, 'Give a per-node timeout between 1 s and 10 min.');
  deps.onProgress?.({ message: `connecting to ${hosts.join(', ')}` });
  let session: CqlSession;
  try {
    session = await CqlSession.connect({ contactPoints: hosts, port: input.cqlPort, localDataCenter: input.localDataCenter }, deps.signal);
  } catch (e) {
    // No CQL at all: read the cluster through JMX instead, if nodetool is allowed and answers.
    // A login or TLS refusal (issue #20) takes the same path, and stays the error when JMX does not answer either.
    if (input.nodetool === false || !(e instanceof OpError) || (e.code !== 'CQL_UNREACHABLE' && !CQL_SETTINGS_REFUSALS.has(e.code))) throw e;
    const why = e.code === 'CQL_UNREACHABLE' ? 'no node answers CQL' : `CQL refused (${e.code})`;
    deps.onProgress?.({ message: `${why}: reading the cluster with nodetool only` });
    const ctx = { hosts, jmxHost, jmxPorts, concurrency, nodeTimeoutMs, started, cqlError: e, via };
    if (e.code === 'CQL_UNREACHABLE') return nodetoolOnlySnapshot(input, ctx, deps);
    return nodetoolOnlySnapshot(input, ctx, deps).catch(() => Promise.reject(e));
  }
  try {
    const discovered = splitByAddress(session.hosts().filter((h) => !input.dc || h.datacenter === input.dc));
    const nodes: SweepNode[] = discovered.usable
      .map((h) => ({
        address: h.address,
        cqlPort: h.port,
        jmxHost: jmxHost === 'node' ? h.address : jmxHost,
        jmxPort: jmxPorts[h.address] ?? input.jmxPort ?? 7199,
        datacenter: h.datacenter,
        rack: h.rack,
        hostId: h.hostId,
        upPerDriver: h.up,
      }))
      .sort((a, b) => a.address.localeCompare(b.address, undefined, { numeric: true }));
    let done = 0;
    deps.onProgress?.({ message: `collecting ${nodes.length} node(s)`, progress: 0, total: nodes.length });
    const perNode = input.nodetool === false ? [] : [...new Set([...NODETOOL_FALLBACKS, ...(input.nodetoolExtra ?? [])])];
    const firstUp = nodes.find((n) => n.upPerDriver) ?? nodes[0];
    const settled = await mapBounded(nodes, concurrency, async (node) => {
      const raw = await collectNode(session, node, {
        ...(node === firstUp ? { extraCql: [SCHEMA_QUERY] } : {}),
        ...(via ? { target: nodetoolTargetFor(via, node.address) } : {}),
        nodetool: input.nodetool === false ? [] : node === firstUp ? [...new Set([...perNode, ...(input.nodetoolOnce ?? [])])] : perNode,
        nodetoolPath: input.nodetoolPath,
        ...(input.batchNodetool === false ? { batchNodetool: false } : {}),
        nodeTimeoutMs,
        signal: deps.signal,
      });
      done++;
      deps.onProgress?.({ message: `collected ${node.address}`, progress: done, total: nodes.length });
      return raw;
    });
    const raw = settled.map((s, i): NodeRaw =>
      s.status === 'fulfilled'
        ? s.value
        : {
            node: nodes[i]!,
            sources: [{ name: 'sweep', via: 'cql', ok: false, ms: 0, error: { code: 'INTERNAL', message: String(s.reason) } }],
            ms: 0,
            cqlReachable: false,
            virtualTables: [],
          },
    );
    const meta = { collectedAt: new Date(started).toISOString(), durationMs: Date.now() - started, contactPoints: hosts };
    if (input.bundleDir) deps.onProgress?.({ message: `writing bundle ${input.bundleDir}` });
    const warnings = [...session.warnings(), ...refusedWarnings(discovered.refused, 'system.peers'), ...missingGrantWarnings(raw.flatMap((r) => r.sources))];
    return snapshotFromRaw(raw, { ...meta, ...(await saveBundle(input.bundleDir, meta, raw)), ...(warnings.length ? { warnings } : {}) }, input.raw);
  } finally {
    await session.close();
  }
}

async function nodetoolOnlySnapshot(
  input: SnapshotInput,
  ctx: {
    hosts: string[];
    jmxHost: string;
    jmxPorts: Record<string, number>;
    concurrency: number;
    nodeTimeoutMs: number;
    started: number;
    cqlError: OpError;
    via: NodeTargets | undefined;
  },
  deps: { onProgress?: ProgressFn; signal?: AbortSignal },
): Promise<ClusterSnapshot> {
  const first = hostOnly(ctx.hosts[0]!);
  const jmxFor = (address: string) => ({ jmxHost: ctx.jmxHost === 'node' ? address : ctx.jmxHost, jmxPort: ctx.jmxPorts[address] ?? input.jmxPort ?? 7199 });
  const target = ctx.via ? nodetoolTargetFor(ctx.via, first) : undefined;
  const ring = await runNodetool(
    { subcommand: 'status', host: jmxFor(first).jmxHost, port: jmxFor(first).jmxPort, nodetoolPath: input.nodetoolPath, raw: true },
    { ...(target ? { target, credentialHost: first } : {}), ...(deps.signal ? { signal: deps.signal } : {}) },
  ).catch(() => null);
  const status = ring?.ok && ring.parsed?.ok ? (ring.parsed.value as NodetoolStatus) : null;
  if (!status || !status.nodes.length) {
    throw new OpError(
      'CLUSTER_UNREACHABLE',
      `${ctx.cqlError.message}; nodetool status at ${jmxFor(first).jmxHost}:${jmxFor(first).jmxPort} did not answer either${ring?.error ? ` (${ring.error.code}: ${ring.error.message})` : ''}`,
      'Check that the nodes run. If JMX only listens locally, run nodetool on the node (nodetoolVia: ssh://user@{host}).',
    );
  }
  // Status rows are cluster data: a row whose address is no IP address or host name is reported, not contacted.
  const listed = splitByAddress(status.nodes.filter((n) => !input.dc || n.datacenter === input.dc));
  if (!listed.usable.length && listed.refused.length) {
    throw new OpError(
      'BAD_ADDRESS',
      `${ctx.cqlError.message}; nodetool status lists ${listed.refused.length} node(s), none with an IP address or host name (${listed.refused[0]!.reason})`,
      'Check the nodetool that answered; cql-tuner only contacts nodes by IP address or host name.',
    );
  }
  const nodes: SweepNode[] = listed.usable.map((n) => ({
    address: n.address,
    cqlPort: input.cqlPort ?? 9042,
    ...jmxFor(n.address),
    datacenter: n.datacenter || null,
    rack: n.rack || null,
    hostId: n.hostId,
    upPerDriver: n.up,
  }));
  const subs = [...new Set([...NODETOOL_WITHOUT_VTABLES, ...(input.nodetoolExtra ?? [])])];
  let done = 0;
  const settled = await mapBounded(nodes, ctx.concurrency, async (node, i) => {
    const raw = await collectNodeWithNodetoolOnly(node, i === 0 ? [...new Set([...subs, ...(input.nodetoolOnce ?? [])])] : subs, {
      nodetool: subs,
      nodetoolPath: input.nodetoolPath,
      ...(input.batchNodetool === false ? { batchNodetool: false } : {}),
      nodeTimeoutMs: ctx.nodeTimeoutMs,
      ...(ctx.via ? { target: nodetoolTargetFor(ctx.via, node.address) } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    deps.onProgress?.({ message: `collected ${node.address} (nodetool only)`, progress: ++done, total: nodes.length });
    return raw;
  });
  const raw = settled.map((s, i): NodeRaw => {
    if (s.status === 'fulfilled') return s.value;
    const { code, message } = describeError(s.reason);
    const failed: NodeRaw['sources'][number] = { name: 'sweep', via: 'nodetool', ok: false, ms: 0, error: { code, message } };
    return { node: nodes[i]!, sources: [failed], ms: 0, cqlReachable: false, virtualTables: [] };
  });
  for (const r of raw)
    r.sources.unshift({
      name: 'cql:system.local',
      via: 'cql',
      ok: false,
      ms: 0,
      error: { code: ctx.cqlError.code, message: ctx.cqlError.message.slice(0, 300) },
    });
  const warnings = refusedWarnings(listed.refused, 'nodetool status');
  const meta = { collectedAt: new Date(ctx.started).toISOString(), durationMs: Date.now() - ctx.started, contactPoints: ctx.hosts };
  return snapshotFromRaw(raw, { ...meta, ...(await saveBundle(input.bundleDir, meta, raw)), ...(warnings.length ? { warnings } : {}) }, input.raw);
}

/**
 * Writes the bundle when one was asked for. A failure (disk full, permissions) must not lose what was just
 * collected from the cluster: the snapshot is returned with the error instead of being thrown away.
 */
async function saveBundle(
  dir: string | undefined,
  meta: { collectedAt: string; durationMs: number; contactPoints: string[] },
  raw: NodeRaw[],
): Promise<{ bundleDir?: string; bundleError?: ClusterSnapshot['bundleError'] }> {
  if (!dir) return {};
  try {
    return { bundleDir: await writeBundle(dir, { tool: { name: 'cql-tuner', version: CQL_TUNER_VERSION }, ...meta }, raw) };
  } catch (e) {
    const { code, message, fix } = describeError(e);
    return { bundleError: { code, message, fix } };
  }
}

/** Re-analyses a bundle offline with the same parsers as a live sweep. */
/** A diagnostic tree's nodetool outputs as a snapshot; files it refused are named in the warnings. */
export function snapshotOfDiagTree(tree: DiagTree, dir: string, raw?: RawRequest): ClusterSnapshot {
  const s = snapshotFromRaw(tree.nodes, { collectedAt: tree.collectedAt, durationMs: 0, contactPoints: [], bundleDir: dir }, raw);
  return tree.refused.length ? { ...s, warnings: [...(s.warnings ?? []), ...tree.refused.map((r) => `not read: ${r}`)] } : s;
}

export async function analyzeBundle(dir: string, opts: { raw?: RawRequest; signal?: AbortSignal } = {}): Promise<ClusterSnapshot> {
  // An unpacked OpsCenter / ds-collector diagnostic tarball reads like a bundle (collect/diag-tree.ts).
  if (await isDiagTree(dir)) return snapshotOfDiagTree(await readDiagTree(dir, opts.signal ? { signal: opts.signal } : {}), dir, opts.raw);
  const { manifest, nodes } = await readBundle(dir, opts.signal ? { signal: opts.signal } : {});
  return snapshotFromRaw(
    nodes,
    { collectedAt: manifest.collectedAt, durationMs: manifest.durationMs, contactPoints: manifest.contactPoints, bundleDir: dir },
    opts.raw,
  );
}
