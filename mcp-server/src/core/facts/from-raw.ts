import { NODETOOL_PARSERS } from '../parse/nodetool/index.js';
import type { NodetoolGcstats } from '../parse/nodetool/gcstats.js';
import type { NodetoolGossipinfo } from '../parse/nodetool/gossipinfo.js';
import type { NodetoolInfo } from '../parse/nodetool/info.js';
import type { NodetoolTablestats } from '../parse/nodetool/tablestats.js';
import type { NodetoolVersion } from '../parse/nodetool/version.js';
import type { NodetoolTpstats } from '../parse/nodetool/tpstats.js';
import { parseTsv, type TsvTable } from '../parse/tsv.js';
import { clusterFactsFromTables } from './from-cluster.js';
import { factsFromScyllaTables } from './from-scylla.js';
import { factsFromVtables } from './from-vtables.js';
import type { GossipEndpointFact, NodeFacts, TableFact, ThreadPoolFact } from './node-facts.js';

/**
 * One node's raw outputs (name → text, as stored in a bundle) → NodeFacts. Used live and offline
 * (`analyze <bundle>`), so a bundle re-analysed later gives the same facts. Names: "cql:<keyspace>.<table>"
 * for TSV query results, "nodetool:<subcommand>" for nodetool text.
 */
export interface RawOutput {
  name: string;
  text: string;
}

export interface FactsResult {
  facts: NodeFacts;
  /** Every nodetool output that parsed, by subcommand, for rules that read more than NodeFacts holds. */
  nodetool: Record<string, unknown>;
  /** Outputs that were present but could not be parsed, with the parser's reason. */
  unparsed: { name: string; reason: string }[];
}

export function nodeFactsFromRaw(outputs: readonly RawOutput[]): FactsResult {
  const unparsed: FactsResult['unparsed'] = [];
  const tables: Record<string, TsvTable> = {};
  const nodetool: Record<string, string> = {};
  for (const o of outputs) {
    if (o.name.startsWith('cql:')) {
      const t = parseTsv(o.text);
      if (t.ok) tables[o.name.slice(4)] = t.value;
      else unparsed.push({ name: o.name, reason: t.reason });
    } else if (o.name.startsWith('nodetool:')) nodetool[o.name.slice(9)] = o.text;
  }
  // ScyllaDB answers from system.* views; Cassandra from system_views.*.
  const facts = tables['system.versions'] ? { ...factsFromVtables(tables), ...factsFromScyllaTables(tables) } : factsFromVtables(tables);

  const schema = tables['system_schema.tables'];
  if (schema) {
    facts.tableSchemas = schema.rows.map((r) => {
      // The compaction map is stored as JSON text: {"class":"org.apache…SizeTieredCompactionStrategy",…}.
      let cls: string | null = null;
      try {
        const m = JSON.parse(r['compaction'] ?? '{}') as Record<string, unknown>;
        cls = typeof m['class'] === 'string' ? m['class'].split('.').pop()! : null;
      } catch {
        cls = null;
      }
      return { keyspace: r['keyspace_name'] ?? '?', table: r['table_name'] ?? '?', compaction: cls };
    });
  }
  const cluster = clusterFactsFromTables(tables);
  if (cluster) facts.cluster = cluster;
  const local = tables['system.local']?.rows[0];
  if (local) {
    // ScyllaDB's release_version is the Cassandra version it emulates (3.0.8); system.versions has its own.
    if (local['release_version'] && facts.product !== 'scylla') facts.releaseVersion = local['release_version'];
    if (local['data_center']) facts.datacenter = local['data_center'];
    if (local['rack']) facts.rack = local['rack'];
    if (local['host_id']) facts.hostId = local['host_id'];
    if (local['schema_version']) facts.schemaVersion = local['schema_version'];
  }
  if (!facts.product && facts.releaseVersion) facts.product = 'cassandra';

  // Every nodetool output is parsed once; facts are derived from the parsed values.
  const parsedNodetool: Record<string, unknown> = {};
  for (const [sub, text] of Object.entries(nodetool)) {
    const parser = NODETOOL_PARSERS[sub];
    if (!parser) continue;
    const p = parser(text);
    if (p.ok) parsedNodetool[sub] = p.value;
    else unparsed.push({ name: `nodetool:${sub}`, reason: p.reason });
  }
  const info = parsedNodetool['info'] as NodetoolInfo | undefined;
  if (info) {
    facts.heap = { usedMb: info.heapUsedMb, maxMb: info.heapMaxMb };
    facts.uptimeSeconds = info.uptimeSeconds;
    facts.datacenter ??= info.datacenter ?? undefined;
    facts.rack ??= info.rack ?? undefined;
    facts.hostId ??= info.hostId ?? undefined;
  }
  // Without CQL (or before 4.0 with no system.local answer) the version comes from nodetool version.
  const version = parsedNodetool['version'] as NodetoolVersion | undefined;
  // DSE's ReleaseVersion (4.0.0.677 for DSE 6.7.7) is its own build, not Apache Cassandra 4.0: version-gated
  // Cassandra rules must not apply it, so the node's version stays unknown and says why.
  if (version) {
    if (version.product === 'dse') {
      facts.product ??= 'unknown';
      facts.dseVersion ??= version.dse ?? undefined;
    } else {
      facts.releaseVersion ??= version.release;
      facts.product ??= version.product;
    }
  }
  // Without virtual tables (Cassandra < 4.0, ScyllaDB, CQL down) tablestats says how much data each table
  // holds; where a table already has a fact from a virtual table, that value stays (one source per field).
  const tablestats = parsedNodetool['tablestats'] as NodetoolTablestats | undefined;
  if (tablestats) {
    const byKey = new Map((facts.tables ?? []).map((t) => [`${t.keyspace}.${t.table}`, t]));
    for (const t of tablesFromTablestats(tablestats)) {
      const have = byKey.get(`${t.keyspace}.${t.table}`);
      if (!have) byKey.set(`${t.keyspace}.${t.table}`, t);
      else {
        if (have.diskMiB === undefined || have.diskMiB === null) have.diskMiB = t.diskMiB ?? null;
        if (!have.localRead && t.localRead) have.localRead = t.localRead;
        if (!have.localWrite && t.localWrite) have.localWrite = t.localWrite;
      }
    }
    if (byKey.size) facts.tables = [...byKey.values()];
  }
  // nodetool gossipinfo is the same gossip view as system_views.gossip_info (Cassandra < 4.1, ScyllaDB, a bundle)
  const gossip = parsedNodetool['gossipinfo'] as NodetoolGossipinfo | undefined;
  if (gossip && !facts.gossip?.length) {
    facts.gossip = gossip.endpoints.map((e): GossipEndpointFact => ({
      address: e.address,
      via: 'nodetool gossipinfo',
      status: e.status,
      dc: e.datacenter,
      rack: e.rack,
      hostId: e.hostId,
      releaseVersion: e.releaseVersion,
      schema: e.schemaVersion,
      load: e.loadBytes,
      generation: e.generation,
      heartbeat: e.heartbeat,
    }));
  }
  const gc = parsedNodetool['gcstats'] as NodetoolGcstats | undefined;
  if (gc) {
    facts.gc = {
      intervalMs: gc.intervalMs,
      maxPauseMs: gc.maxGcElapsedMs,
      totalPauseMs: gc.totalGcElapsedMs,
      collections: gc.collections,
      reclaimedBytes: gc.reclaimedBytes,
    };
  }
  const tp = parsedNodetool['tpstats'] as NodetoolTpstats | undefined;
  if (tp) {
    // A tpstats cut before its "Message type … Dropped" table says nothing about drops: leave them unknown
    // (undefined) rather than an empty record, which readers take as "none dropped".
    if (tp.droppedSection === 'present') facts.droppedMessages = tp.dropped;
    // Pools come from the virtual table when there is one (same numbers, one source of truth).
    facts.threadPools ??= tp.pools.map((p): ThreadPoolFact => ({
      name: p.name,
      active: p.active,
      activeLimit: null,
      pending: p.pending,
      blocked: p.blocked,
      blockedAllTime: p.allTimeBlocked,
      completed: p.completed,
    }));
  }
  return { facts, nodetool: parsedNodetool, unparsed };
}

const MiB = 1024 ** 2;

/**
 * nodetool tablestats → the TableFacts the virtual tables give (disk_usage, local read/write counts), so the
 * nodetool-only path shows the same data sizes. Only what tablestats states: latency percentiles stay absent
 * (it prints a mean), and partition maximum and tombstones per slice stay with the rules that read the parsed
 * tablestats directly and cite it (filling them here would report each finding twice). Index tables are left
 * out: their space is not user data.
 */
export function tablesFromTablestats(ts: NodetoolTablestats): TableFact[] {
  const count = (n: number | null) => ({ count: n, p50Ms: null, p99Ms: null, maxMs: null, perSecond: null });
  return ts.tables
    .filter((t) => t.keyspace && !t.isIndex)
    .map((t): TableFact => ({
      keyspace: t.keyspace!,
      table: t.name,
      diskMiB: t.spaceUsedLiveBytes === null ? null : t.spaceUsedLiveBytes / MiB,
      ...(t.localReadCount !== null ? { localRead: count(t.localReadCount) } : {}),
      ...(t.localWriteCount !== null ? { localWrite: count(t.localWriteCount) } : {}),
    }));
}
