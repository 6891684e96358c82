import type { NodeFacts, TableFact } from '../core/facts/node-facts.js';
import { formatBytes } from '../core/units.js';
import type { ClusterSnapshot, NodeSnapshot } from '../core/reports/snapshot.js';
import { markdownTable } from './markdown-table.js';

const SYSTEM_KEYSPACES =
  /^(system|system_auth|system_schema|system_distributed|system_traces|system_views|system_virtual_schema|system_cluster_metadata|system_distributed_everywhere|system_replicated_keys)$/;

export interface NodeSummary {
  address: string;
  datacenter: string | null;
  rack: string | null;
  releaseVersion: string | null;
  product: string;
  reachable: boolean;
  status: 'complete' | 'partial' | 'unreachable';
  upPerDriver: boolean;
  heapUsedMb: number | null;
  heapMaxMb: number | null;
  gcMaxPauseMs: number | null;
  pendingTasks: number;
  blockedTasks: number;
  blockedAllTime: number;
  /** null when no dropped-message counts were collected (no tpstats, or one cut before its dropped table). */
  droppedMessages: number | null;
  userDataMiB: number;
  busyPools: { name: string; active: number | null; pending: number | null; blocked: number | null; blockedAllTime: number | null }[];
  dropped: Record<string, number>;
  topTables: {
    table: string;
    diskMiB: number | null;
    maxPartitionMiB: number | null;
    readP99Ms: number | null;
    writeP99Ms: number | null;
    tombstonesP99: number | null;
  }[];
  clients: number | null;
  runningSstableTasks: number;
  errors: string[];
  collected: string[];
}

const sum = (xs: (number | null | undefined)[]) => xs.reduce<number>((a, x) => a + (x ?? 0), 0);

function userTables(f: NodeFacts): TableFact[] {
  return (f.tables ?? []).filter((t) => !SYSTEM_KEYSPACES.test(t.keyspace));
}

export function summariseNode(n: NodeSnapshot, topN = 5): NodeSummary {
  const f = n.facts;
  const pools = f.threadPools ?? [];
  const dropped = Object.fromEntries(Object.entries(f.droppedMessages ?? {}).filter(([, v]) => v > 0));
  const tables = userTables(f)
    .sort((a, b) => (b.diskMiB ?? 0) - (a.diskMiB ?? 0) || (b.localRead?.count ?? 0) - (a.localRead?.count ?? 0))
    .slice(0, topN);
  return {
    address: n.address,
    datacenter: n.datacenter,
    rack: n.rack,
    releaseVersion: n.releaseVersion,
    product: n.product,
    reachable: n.reachable,
    status: n.status,
    upPerDriver: n.upPerDriver,
    heapUsedMb: f.heap?.usedMb ?? null,
    heapMaxMb: f.heap?.maxMb ?? null,
    gcMaxPauseMs: f.gc?.maxPauseMs ?? null,
    pendingTasks: sum(pools.map((p) => p.pending)),
    blockedTasks: sum(pools.map((p) => p.blocked)),
    blockedAllTime: sum(pools.map((p) => p.blockedAllTime)),
    droppedMessages: f.droppedMessages ? sum(Object.values(dropped)) : null,
    userDataMiB: sum(userTables(f).map((t) => t.diskMiB)),
    busyPools: pools
      .filter((p) => (p.pending ?? 0) > 0 || (p.blocked ?? 0) > 0 || (p.blockedAllTime ?? 0) > 0)
      .map((p) => ({ name: p.name, active: p.active, pending: p.pending, blocked: p.blocked, blockedAllTime: p.blockedAllTime })),
    dropped,
    topTables: tables.map((t) => ({
      table: `${t.keyspace}.${t.table}`,
      diskMiB: t.diskMiB ?? null,
      maxPartitionMiB: t.maxPartitionMiB ?? null,
      readP99Ms: t.localRead?.p99Ms ?? null,
      writeP99Ms: t.localWrite?.p99Ms ?? null,
      tombstonesP99: t.tombstonesPerRead?.p99 ?? null,
    })),
    clients: f.clients ? f.clients.length : null,
    runningSstableTasks: (f.sstableTasks ?? []).length,
    errors: n.sources.filter((s) => !s.ok).map((s) => `${s.name}: [${s.error?.code ?? '?'}] ${s.error?.message ?? ''}`.slice(0, 300)),
    collected: n.sources.filter((s) => s.ok).map((s) => s.name),
  };
}

export interface SnapshotView {
  collectedAt: string;
  durationMs: number;
  contactPoints: string[];
  bundleDir?: string;
  bundleError?: { code: string; message: string; fix: string };
  nodeCount: number;
  reachableCount: number;
  versions: string[];
  queries: { cql: number; nodetool: number; failed: number };
  nodes: NodeSummary[];
  warnings?: string[];
}

/** The compact structured result: per-node summaries, not every row of every table. */
export function snapshotView(s: ClusterSnapshot): SnapshotView {
  const all = s.nodes.flatMap((n) => n.sources);
  return {
    collectedAt: s.collectedAt,
    durationMs: s.durationMs,
    contactPoints: s.contactPoints,
    ...(s.bundleDir ? { bundleDir: s.bundleDir } : {}),
    ...(s.bundleError ? { bundleError: s.bundleError } : {}),
    nodeCount: s.nodes.length,
    reachableCount: s.nodes.filter((n) => n.reachable).length,
    versions: [...new Set(s.nodes.map((n) => n.releaseVersion).filter((v): v is string => !!v))].sort(),
    queries: {
      cql: all.filter((x) => x.via === 'cql').length,
      nodetool: all.filter((x) => x.via === 'nodetool').length,
      failed: all.filter((x) => !x.ok).length,
    },
    nodes: s.nodes.map((n) => summariseNode(n)),
    ...(s.warnings?.length ? { warnings: s.warnings } : {}),
  };
}

const fmt = (n: number | null, digits = 0) => (n === null ? '?' : n.toFixed(digits));

export function renderSnapshot(v: SnapshotView): string {
  const out: string[] = [];
  out.push(
    `Snapshot of ${v.nodeCount} node(s), ${v.reachableCount} reachable; version(s) ${v.versions.join(', ') || 'unknown'}; ${(v.durationMs / 1000).toFixed(1)} s, ${v.queries.cql} CQL queries + ${v.queries.nodetool} nodetool calls (${v.queries.failed} failed)${v.bundleDir ? `; bundle ${v.bundleDir}` : ''}`,
  );
  if (v.bundleError)
    out.push(`⚠ bundle not written [${v.bundleError.code}]: ${v.bundleError.message} (fix: ${v.bundleError.fix}); the snapshot below is complete`);
  for (const w of v.warnings ?? []) out.push(`⚠ ${w}`);
  out.push(
    '',
    markdownTable(
      ['Node', 'DC/rack', 'Version', 'State', 'Heap MB', 'GC max ms', 'Pending', 'Blocked (all-time)', 'Dropped', 'User data'],
      v.nodes.map((n) => [
        n.address,
        `${n.datacenter ?? '?'}/${n.rack ?? '?'}`,
        n.releaseVersion ?? '?',
        n.status === 'unreachable' ? 'UNREACHABLE' : `${n.status}${n.upPerDriver ? '' : ' (driver saw it down)'}`,
        n.heapMaxMb ? `${fmt(n.heapUsedMb)}/${fmt(n.heapMaxMb)}` : '?',
        fmt(n.gcMaxPauseMs),
        n.pendingTasks,
        `${n.blockedTasks} (${n.blockedAllTime})`,
        n.droppedMessages ?? 'not collected',
        formatBytes(n.userDataMiB * 1024 * 1024),
      ]),
    ),
  );
  for (const n of v.nodes) {
    const notes: string[] = [];
    if (n.busyPools.length)
      notes.push(
        `busy pools: ${n.busyPools.map((p) => `${p.name} pending ${p.pending ?? '?'} blocked ${p.blocked ?? '?'}/${p.blockedAllTime ?? '?'}`).join('; ')}`,
      );
    if (Object.keys(n.dropped).length)
      notes.push(
        `dropped: ${Object.entries(n.dropped)
          .map(([k, x]) => `${k} ${x}`)
          .join(', ')}`,
      );
    if (n.topTables.length)
      notes.push(
        `top tables: ${n.topTables.map((t) => `${t.table} ${t.diskMiB === null ? '?' : formatBytes(t.diskMiB * 1024 * 1024)}, read p99 ${t.readP99Ms ?? '?'} ms`).join('; ')}`,
      );
    if (n.errors.length) notes.push(`errors: ${n.errors.slice(0, 4).join(' | ')}${n.errors.length > 4 ? ` (+${n.errors.length - 4} more)` : ''}`);
    if (notes.length) out.push('', `${n.address}: ${notes.join('\n  ')}`);
  }
  return out.join('\n');
}

/** Raw outputs asked for by name, each in a fenced block under a node/source heading; cuts are said, not hidden. */
export function renderRawOutputs(raw: NonNullable<ClusterSnapshot['raw']>): string {
  const what = [raw.request.node, raw.request.source].filter(Boolean).join(' / ') || 'all outputs';
  if (!raw.outputs.length)
    return `Raw outputs (${what}): none matched. Source names look like "nodetool:tpstats" or "cql:system_views.thread_pools"; node is an address.`;
  const blocks = raw.outputs.map(
    (o) =>
      `### ${o.node} ${o.source}${o.truncated ? ` (first ${formatBytes(Buffer.byteLength(o.text))} of ${formatBytes(o.bytes)})` : ''}\n\`\`\`\n${o.text.replace(/\n$/, '')}\n\`\`\``,
  );
  return [
    `Raw outputs (${what}):`,
    ...blocks,
    ...(raw.omitted ? [`${raw.omitted} more matched but were left out (size cap): ask for one node or source, or read the bundle.`] : []),
  ].join('\n\n');
}
