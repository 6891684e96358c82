import type { TsvTable } from '../parse/tsv.js';
import { parseNumber } from '../units.js';
import { timeUuidMs } from '../timeuuid.js';
import { collectionCell, mapCell, timestampMs } from './cells.js';
import { reaperRunsFromTables, REAPER_RUNS_SOURCE, REAPER_UNITS_SOURCE, runsOfCluster } from './reaper-runs.js';
import { runsFromTabletRepairs, tabletRepairsFromTable, TABLETS_SOURCE, TABLETS_ROW_LIMIT, type TabletRepairFact } from './scylla-tablets.js';

export { collectionCell, mapCell, timestampMs };

/**
 * Cluster-wide tables (read once, from the first node that answers) → facts the repair and ownership rules
 * read: keyspace replication, per-table gc_grace_seconds and ScyllaDB tombstone_gc, the token ring as that
 * node sees it (system.local + system.peers), repair history (Cassandra system_distributed.parent_repair_history,
 * ScyllaDB system.repair_history), ScyllaDB tablet load per node (system.load_per_node), and the node's own
 * clock (so "days since the last repair" needs no clock here). Cells come as the collector writes them (JSON
 * for collections, ISO timestamps) or as cqlsh prints them ({'a': 'b'}, "2024-05-01 10:00:00.000000+0000").
 */

export interface KeyspaceFact {
  name: string;
  replication: Record<string, string>;
}

export interface TableOptionsFact {
  keyspace: string;
  table: string;
  gcGraceSeconds: number | null;
  /** ScyllaDB tombstone_gc mode (timeout, repair, disabled, immediate) when the schema extension says it. */
  tombstoneGcMode: string | null;
  /** When the table was created (ISO), from its time-based id; null when the id was not read or is not time-based. */
  createdAt?: string | null;
}

export interface RingTokensFact {
  address: string;
  datacenter: string;
  rack: string;
  hostId: string | null;
  tokens: string[];
}

export interface RepairRunFact {
  keyspace: string;
  /** Tables the repair covered; empty = the whole keyspace. */
  tables: string[];
  startedAt: string | null;
  finishedAt: string | null;
  /** Finished without an exception. */
  ok: boolean;
  /** From the options map: subrange (ranges given), primary range only, incremental. */
  subrange: boolean;
  incremental: boolean | null;
  /** Tables a whole-keyspace run left out (Reaper's blacklisted_tables). */
  excludedTables?: string[];
  /** A run held to some nodes or datacenters (Reaper's unit): it did not repair every replica. */
  limitedTo?: string;
  /** Reaper's run state (DONE, ERROR, ABORTED, RUNNING, PAUSED, NOT_STARTED). */
  state?: string;
  /** Reaper's name of the cluster the run belongs to (one Reaper backend may serve several). */
  reaperCluster?: string;
  source: 'parent_repair_history' | 'scylla.repair_history' | 'scylla.tablets' | 'reaper';
}

export interface TabletLoadFact {
  hostId: string;
  datacenter: string | null;
  rack: string | null;
  tablets: number | null;
  tabletsPerShard: number | null;
}

/** A row of system_schema.indexes: legacy (COMPOSITES/KEYS) or CUSTOM (SAI, SASI, …) with its class. */
export interface IndexFact {
  keyspace: string;
  table: string;
  name: string;
  kind: string | null;
  /** options.target: the indexed column or expression (keys(m), values(l), …). */
  target: string | null;
  /** options.class_name of a CUSTOM index. */
  className: string | null;
}

export interface ClusterFacts {
  keyspaces?: KeyspaceFact[];
  tableOptions?: TableOptionsFact[];
  indexes?: IndexFact[];
  ring?: RingTokensFact[];
  repairs?: RepairRunFact[];
  /** Rows of the repair history that were read, and the limit of the query (history may be longer). */
  repairRowsRead?: number;
  /** The repair histories that were read (an empty one still says what was looked at). */
  repairSources?: RepairRunFact['source'][];
  /** Which Reaper runs were kept when its backend holds several clusters' runs. */
  reaperNote?: string;
  /** ScyllaDB tablet tables: tablets repaired per table (system.tablets repair_time). */
  tabletRepairs?: TabletRepairFact[];
  tabletLoad?: TabletLoadFact[];
  /** The node's clock when the cluster tables were read (ISO), from system.local. */
  nodeNow?: string;
}

/** The queries the sweep makes once per cluster; the source name is the bundle file name and the table key here. */
export const REPAIR_HISTORY_LIMIT = 5000;
export const CLUSTER_CQL = {
  common: [
    { keyspace: 'system_schema', table: 'keyspaces', query: 'SELECT keyspace_name, replication FROM system_schema.keyspaces' },
    { keyspace: 'system', table: 'peers', query: 'SELECT peer, data_center, rack, host_id, tokens FROM system.peers' },
    { keyspace: 'system', table: 'local', query: 'SELECT toTimestamp(now()) AS now FROM system.local', sourceName: 'cql:system.local#clock' },
    {
      keyspace: 'system_schema',
      table: 'tables',
      query: 'SELECT keyspace_name, table_name, id, gc_grace_seconds, extensions FROM system_schema.tables',
      sourceName: 'cql:system_schema.tables#options',
    },
    { keyspace: 'system_schema', table: 'indexes', query: 'SELECT keyspace_name, table_name, index_name, kind, options FROM system_schema.indexes' },
  ],
  cassandra: [
    {
      keyspace: 'system_distributed',
      table: 'parent_repair_history',
      // One row per repair command (the per-range rows of repair_history are far more); 30-day TTL from 4.0 on.
      query:
        `SELECT keyspace_name, columnfamily_names, started_at, finished_at, exception_message, options FROM system_distributed.parent_repair_history ` +
        `LIMIT ${REPAIR_HISTORY_LIMIT}`,
    },
  ],
  scylla: [
    // Clustered by repair_time DESC per table: one row per table is its latest repair.
    {
      keyspace: 'system',
      table: 'repair_history',
      query: 'SELECT table_uuid, keyspace_name, table_name, repair_time FROM system.repair_history PER PARTITION LIMIT 1',
    },
    { keyspace: 'system', table: 'load_per_node', query: 'SELECT * FROM system.load_per_node' },
    // Tablet repairs are recorded per tablet here, not in repair_history (core/facts/scylla-tablets.ts); * because
    // the columns differ by version (repair_time 2025.1+, base_table 2025.4+).
    { keyspace: 'system', table: 'tablets', query: `SELECT * FROM system.tablets LIMIT ${TABLETS_ROW_LIMIT}` },
  ],
} as const;

/**
 * ScyllaDB keeps tombstone_gc in the table's schema extensions (a blob: "0x…" from the collector). The
 * encoding is ScyllaDB's own serialisation of a string map; rather than depend on it, the printable runs of
 * the blob are read and the word after "mode" taken when it is one of the four modes.
 */
export function tombstoneGcModeFromExtensions(ext: string | null | undefined): string | null {
  const map = mapCell(ext);
  const blob = map['tombstone_gc'];
  if (!blob) return null;
  let text = blob;
  if (/^0x[0-9a-fA-F]*$/.test(blob)) {
    const bytes = Buffer.from(blob.slice(2), 'hex');
    text = [...bytes].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ' ')).join('');
  }
  const m = /\bmode\b[\s'":=]*(timeout|repair|disabled|immediate)\b/.exec(text);
  return m ? m[1]! : null;
}

const SYSTEM_KEYSPACES = new Set([
  'system',
  'system_schema',
  'system_auth',
  'system_distributed',
  'system_traces',
  'system_views',
  'system_virtual_schema',
  'system_distributed_everywhere',
  'system_replicated_keys',
  'system_auth_v2',
]);
export const isSystemKeyspace = (ks: string): boolean => SYSTEM_KEYSPACES.has(ks) || ks.startsWith('system_') || ks === 'system';

function createdAtOf(id: string | null | undefined): string | null {
  const ms = timeUuidMs(id);
  return ms === null ? null : new Date(ms).toISOString();
}

export function clusterFactsFromTables(tables: Record<string, TsvTable>): ClusterFacts | null {
  const out: ClusterFacts = {};
  const ks = tables['system_schema.keyspaces'];
  if (ks?.columns.includes('replication')) {
    out.keyspaces = ks.rows.filter((r) => r['keyspace_name']).map((r) => ({ name: r['keyspace_name']!, replication: mapCell(r['replication']) }));
  }
  // The sweep's own read, or a pasted SELECT of system_schema.tables with these columns.
  const schema = tables['system_schema.tables#options'] ?? tables['system_schema.tables'];
  if (schema && (schema.columns.includes('gc_grace_seconds') || schema.columns.includes('extensions'))) {
    out.tableOptions = schema.rows
      .filter((r) => r['keyspace_name'] && r['table_name'])
      .map((r) => ({
        keyspace: r['keyspace_name']!,
        table: r['table_name']!,
        gcGraceSeconds: parseNumber(r['gc_grace_seconds'] ?? undefined),
        tombstoneGcMode: tombstoneGcModeFromExtensions(r['extensions']),
        createdAt: createdAtOf(r['id']),
      }));
  }
  const indexes = tables['system_schema.indexes'];
  if (indexes?.columns.includes('index_name')) {
    out.indexes = indexes.rows
      .filter((r) => r['keyspace_name'] && r['table_name'] && r['index_name'])
      .map((r) => {
        const options = mapCell(r['options']);
        return {
          keyspace: r['keyspace_name']!,
          table: r['table_name']!,
          name: r['index_name']!,
          kind: r['kind'] ?? null,
          target: options['target'] ?? null,
          className: options['class_name'] ?? null,
        };
      });
  }
  const peers = tables['system.peers'];
  const local = tables['system.local']?.rows[0];
  if (peers?.columns.includes('tokens')) {
    const ring: RingTokensFact[] = peers.rows.map((r) => ({
      address: r['peer'] ?? '?',
      datacenter: r['data_center'] ?? '',
      rack: r['rack'] ?? '',
      hostId: r['host_id'] ?? null,
      tokens: collectionCell(r['tokens']),
    }));
    if (local && local['tokens'] !== undefined) {
      ring.unshift({
        address: local['broadcast_address'] ?? local['listen_address'] ?? local['rpc_address'] ?? 'local',
        datacenter: local['data_center'] ?? '',
        rack: local['rack'] ?? '',
        hostId: local['host_id'] ?? null,
        tokens: collectionCell(local['tokens']),
      });
    }
    out.ring = ring;
  }
  const clock = tables['system.local#clock']?.rows[0]?.['now'];
  if (clock && timestampMs(clock) !== null) out.nodeNow = new Date(timestampMs(clock)!).toISOString();
  const parent = tables['system_distributed.parent_repair_history'];
  const readFrom = (src: RepairRunFact['source']) => (out.repairSources = [...(out.repairSources ?? []), src]);
  if (parent) {
    readFrom('parent_repair_history');
    out.repairRowsRead = parent.rows.length;
    out.repairs = parent.rows
      .filter((r) => r['keyspace_name'])
      .map((r): RepairRunFact => {
        const options = mapCell(r['options']);
        const ranges = options['ranges'] ?? '';
        return {
          keyspace: r['keyspace_name']!,
          tables: collectionCell(r['columnfamily_names']),
          startedAt: iso(r['started_at']),
          finishedAt: iso(r['finished_at']),
          ok: timestampMs(r['finished_at']) !== null && !r['exception_message'],
          subrange: ranges.trim() !== '' || options['primaryRange'] === 'true',
          incremental: options['incremental'] === undefined ? null : options['incremental'] === 'true',
          source: 'parent_repair_history',
        };
      });
  }
  const scyllaHistory = tables['system.repair_history'];
  if (scyllaHistory) {
    readFrom('scylla.repair_history');
    out.repairRowsRead = (out.repairRowsRead ?? 0) + scyllaHistory.rows.length;
    out.repairs = [
      ...(out.repairs ?? []),
      ...scyllaHistory.rows
        .filter((r) => r['keyspace_name'] && r['table_name'])
        .map((r): RepairRunFact => ({
          keyspace: r['keyspace_name']!,
          tables: [r['table_name']!],
          startedAt: null,
          finishedAt: iso(r['repair_time']),
          ok: timestampMs(r['repair_time']) !== null,
          subrange: false,
          incremental: null,
          source: 'scylla.repair_history',
        })),
    ];
  }
  const tablets = tabletRepairsFromTable(tables[TABLETS_SOURCE]);
  if (tablets) {
    readFrom('scylla.tablets');
    out.tabletRepairs = tablets;
    out.repairRowsRead = (out.repairRowsRead ?? 0) + (tables[TABLETS_SOURCE]?.rows.length ?? 0);
    out.repairs = [...(out.repairs ?? []), ...runsFromTabletRepairs(tablets)];
  }
  const reaper = reaperRunsFromTables(tables[REAPER_RUNS_SOURCE], tables[REAPER_UNITS_SOURCE]);
  if (reaper) {
    readFrom('reaper');
    out.repairs ??= [];
    const mine = runsOfCluster(reaper, local?.['cluster_name'] ?? null);
    out.repairRowsRead = (out.repairRowsRead ?? 0) + (tables[REAPER_RUNS_SOURCE]?.rows.length ?? 0);
    out.repairs = [...(out.repairs ?? []), ...mine.runs];
    if (mine.note) out.reaperNote = mine.note;
  }
  const load = tables['system.load_per_node'];
  if (load) {
    out.tabletLoad = load.rows
      .filter((r) => r['node'])
      .map((r) => ({
        hostId: r['node']!,
        datacenter: r['dc'] ?? null,
        rack: r['rack'] ?? null,
        tablets: parseNumber(r['tablets_allocated'] ?? undefined),
        tabletsPerShard: parseNumber(r['tablets_allocated_per_shard'] ?? undefined),
      }));
  }
  return Object.keys(out).length ? out : null;
}

function iso(v: string | null | undefined): string | null {
  const ms = timestampMs(v);
  return ms === null ? null : new Date(ms).toISOString();
}
