import { isMap, isScalar, parseDocument } from 'yaml';
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { allKeyChanges } from '../../config/renames.js';
import { MEGABIT_PER_SEC, MIB, parseDataRateBytesPerSec, parseDataSizeBytes, parseDurationMs } from './units.js';

export const CASSANDRA_YAML_KIND = 'config.cassandra-yaml';

/**
 * Which key naming the file uses. Cassandra 4.1 (CASSANDRA-15234) renamed settings whose unit lived in the key
 * (`read_request_timeout_in_ms: 5000`) to unit-carrying values (`read_request_timeout: 5000ms`); 4.1+ still
 * accepts the old names. 'mixed' = both styles in one file; 'unknown' = no renamed setting appears at all.
 */
export type YamlNaming = 'pre-4.1' | '4.1+' | 'mixed' | 'unknown';

/** Commonly audited values, normalised to units. null = absent from the file (Cassandra's default applies) or unreadable. */
export interface CassandraYamlAudit {
  /** MiB/s; 0 = unthrottled. */
  compactionThroughputMiBPerSec: number | null;
  concurrentCompactors: number | null;
  readRequestTimeoutMs: number | null;
  writeRequestTimeoutMs: number | null;
  rangeRequestTimeoutMs: number | null;
  requestTimeoutMs: number | null;
  counterWriteRequestTimeoutMs: number | null;
  casContentionTimeoutMs: number | null;
  truncateRequestTimeoutMs: number | null;
  numTokens: number | null;
  partitioner: string | null;
  endpointSnitch: string | null;
  dynamicSnitch: boolean | null;
  dynamicSnitchBadnessThreshold: number | null;
  concurrentReads: number | null;
  concurrentWrites: number | null;
  concurrentCounterWrites: number | null;
  memtableAllocationType: string | null;
  memtableHeapSpaceMiB: number | null;
  memtableOffheapSpaceMiB: number | null;
  memtableFlushWriters: number | null;
  memtableCleanupThreshold: number | null;
  /** Names under `memtable.configurations` (5.0 pluggable memtables); null when the block is absent. */
  memtableConfigurations: string[] | null;
  commitlogSync: string | null;
  commitlogSyncPeriodMs: number | null;
  commitlogSyncGroupWindowMs: number | null;
  commitlogSegmentSizeMiB: number | null;
  commitlogTotalSpaceMiB: number | null;
  diskAccessMode: string | null;
  /** file_cache_size (the chunk cache in 4.0+), MiB. */
  fileCacheSizeMiB: number | null;
  /** MiB/s; pre-4.1 megabits/s are converted (200 Mbit/s ≈ 23.84 MiB/s). 0 = unthrottled. */
  streamThroughputOutboundMiBPerSec: number | null;
  interDcStreamThroughputOutboundMiBPerSec: number | null;
}

export type CassandraYamlAuditField = Exclude<keyof CassandraYamlAudit, 'memtableConfigurations'>;

export interface CassandraYaml {
  /** Top-level keys as parsed (YAML 1.1, like SnakeYAML; for duplicate keys the last occurrence wins). */
  settings: Record<string, unknown>;
  naming: YamlNaming;
  /** Keys in the pre-4.1 style (unit in the key name: *_in_ms, *_in_kb, *_mb_per_sec, enable_* …). */
  oldStyleKeys: string[];
  /** Keys in the 4.1+ style (renamed names, or values that carry a unit). */
  newStyleKeys: string[];
  /** The same setting given under both its old and its new name. */
  renamedBoth: { oldKey: string; newKey: string }[];
  /** Top-level keys that occur more than once. */
  duplicateKeys: string[];
  audit: CassandraYamlAudit;
  /** Which key each non-null audit value came from. */
  auditSources: Partial<Record<CassandraYamlAuditField, string>>;
  /** scylla: a scylla.yaml (ScyllaDB-only keys, or its header comment); the same parser reads both files. */
  product: 'cassandra' | 'scylla';
  /** The ScyllaDB-only keys that gave it away. */
  scyllaKeys: string[];
}

// Keys only ScyllaDB's scylla.yaml has (db/config.cc); any of them means the file is not a cassandra.yaml.
const SCYLLA_ONLY =
  /^(?:developer_mode|api_port|api_address|api_ui_dir|api_doc_dir|experimental|experimental_features|murmur3_partitioner_ignore_msb_bits|enable_tablets|tablets_mode_for_new_keyspaces|consistent_cluster_management|force_schema_commit_log|alternator_\w+|prometheus_port|prometheus_address|commitlog_use_o_dsync|reader_concurrency_semaphore_\w+|enable_repair_based_node_ops|allowed_repair_based_node_ops|compaction_static_shares|memtable_flush_static_shares|enable_sstables_mc_format|enable_sstables_md_format|sstable_format|enable_dangerous_direct_import_of_cassandra_counters|abort_on_lsa_bad_alloc|maintenance_socket|schema_commitlog_segment_size_in_mb|compaction_enforce_min_threshold|query_tombstone_page_limit)$/;

type Conv =
  | { t: 'rate'; outFactor: number; oldFactor: number }
  | { t: 'duration'; oldFactor: number }
  | { t: 'size'; outFactor: number; oldFactor: number }
  | { t: 'int' }
  | { t: 'number' }
  | { t: 'string' }
  | { t: 'bool' };

interface Spec {
  field: CassandraYamlAuditField;
  key: string;
  oldKey?: string;
  conv: Conv;
}

const RATE_MIB: Conv = { t: 'rate', outFactor: MIB, oldFactor: MIB };
const MS: Conv = { t: 'duration', oldFactor: 1 };
const SIZE_MIB: Conv = { t: 'size', outFactor: MIB, oldFactor: MIB };

const SPECS: Spec[] = [
  { field: 'compactionThroughputMiBPerSec', key: 'compaction_throughput', oldKey: 'compaction_throughput_mb_per_sec', conv: RATE_MIB },
  { field: 'concurrentCompactors', key: 'concurrent_compactors', conv: { t: 'int' } },
  { field: 'readRequestTimeoutMs', key: 'read_request_timeout', oldKey: 'read_request_timeout_in_ms', conv: MS },
  { field: 'writeRequestTimeoutMs', key: 'write_request_timeout', oldKey: 'write_request_timeout_in_ms', conv: MS },
  { field: 'rangeRequestTimeoutMs', key: 'range_request_timeout', oldKey: 'range_request_timeout_in_ms', conv: MS },
  { field: 'requestTimeoutMs', key: 'request_timeout', oldKey: 'request_timeout_in_ms', conv: MS },
  { field: 'counterWriteRequestTimeoutMs', key: 'counter_write_request_timeout', oldKey: 'counter_write_request_timeout_in_ms', conv: MS },
  { field: 'casContentionTimeoutMs', key: 'cas_contention_timeout', oldKey: 'cas_contention_timeout_in_ms', conv: MS },
  { field: 'truncateRequestTimeoutMs', key: 'truncate_request_timeout', oldKey: 'truncate_request_timeout_in_ms', conv: MS },
  { field: 'numTokens', key: 'num_tokens', conv: { t: 'int' } },
  { field: 'partitioner', key: 'partitioner', conv: { t: 'string' } },
  { field: 'endpointSnitch', key: 'endpoint_snitch', conv: { t: 'string' } },
  { field: 'dynamicSnitch', key: 'dynamic_snitch', conv: { t: 'bool' } },
  { field: 'dynamicSnitchBadnessThreshold', key: 'dynamic_snitch_badness_threshold', conv: { t: 'number' } },
  { field: 'concurrentReads', key: 'concurrent_reads', conv: { t: 'int' } },
  { field: 'concurrentWrites', key: 'concurrent_writes', conv: { t: 'int' } },
  { field: 'concurrentCounterWrites', key: 'concurrent_counter_writes', conv: { t: 'int' } },
  { field: 'memtableAllocationType', key: 'memtable_allocation_type', conv: { t: 'string' } },
  { field: 'memtableHeapSpaceMiB', key: 'memtable_heap_space', oldKey: 'memtable_heap_space_in_mb', conv: SIZE_MIB },
  { field: 'memtableOffheapSpaceMiB', key: 'memtable_offheap_space', oldKey: 'memtable_offheap_space_in_mb', conv: SIZE_MIB },
  { field: 'memtableFlushWriters', key: 'memtable_flush_writers', conv: { t: 'int' } },
  { field: 'memtableCleanupThreshold', key: 'memtable_cleanup_threshold', conv: { t: 'number' } },
  { field: 'commitlogSync', key: 'commitlog_sync', conv: { t: 'string' } },
  { field: 'commitlogSyncPeriodMs', key: 'commitlog_sync_period', oldKey: 'commitlog_sync_period_in_ms', conv: MS },
  { field: 'commitlogSyncGroupWindowMs', key: 'commitlog_sync_group_window', oldKey: 'commitlog_sync_group_window_in_ms', conv: MS },
  { field: 'commitlogSegmentSizeMiB', key: 'commitlog_segment_size', oldKey: 'commitlog_segment_size_in_mb', conv: SIZE_MIB },
  { field: 'commitlogTotalSpaceMiB', key: 'commitlog_total_space', oldKey: 'commitlog_total_space_in_mb', conv: SIZE_MIB },
  { field: 'diskAccessMode', key: 'disk_access_mode', conv: { t: 'string' } },
  { field: 'fileCacheSizeMiB', key: 'file_cache_size', oldKey: 'file_cache_size_in_mb', conv: SIZE_MIB },
  {
    field: 'streamThroughputOutboundMiBPerSec',
    key: 'stream_throughput_outbound',
    oldKey: 'stream_throughput_outbound_megabits_per_sec',
    conv: { t: 'rate', outFactor: MIB, oldFactor: MEGABIT_PER_SEC },
  },
  {
    field: 'interDcStreamThroughputOutboundMiBPerSec',
    key: 'inter_dc_stream_throughput_outbound',
    oldKey: 'inter_dc_stream_throughput_outbound_megabits_per_sec',
    conv: { t: 'rate', outFactor: MIB, oldFactor: MEGABIT_PER_SEC },
  },
];

// Pre-4.1 unit-in-the-key suffixes.
const OLD_SUFFIX = /_(?:in_(?:ms|kb|mb|s|seconds|minutes|hours|days)|mb_per_sec|kb_per_sec|megabits_per_sec|in_mb_per_sec)$/;
// Every 4.1 rename (knowledge/config-renames.yaml, from Config.java @Replaces), plus the audited specs.
const OLD_TO_NEW = new Map<string, string>([
  ...allKeyChanges()
    .filter((c) => c.change === 'renamed' && c.since === '4.1')
    .map((c) => [c.key, c.replacement!] as [string, string]),
  ...SPECS.filter((s) => s.oldKey).map((s) => [s.oldKey!, s.key] as [string, string]),
]);
const NEW_NAMES = new Set(OLD_TO_NEW.values());

// A value with a 4.1+ unit (duration, size or rate).
const UNIT_VALUE = /^\s*\d+(?:\.\d+)?\s*(?:ns|us|µs|ms|s|m|h|d|B|KiB|MiB|GiB|B\/s|KiB\/s|MiB\/s)\s*$/;

const KNOWN_KEYS = new Set<string>([
  ...SPECS.map((s) => s.key),
  ...SPECS.flatMap((s) => (s.oldKey ? [s.oldKey] : [])),
  ...OLD_TO_NEW.keys(),
  ...NEW_NAMES,
  'cluster_name',
  'seed_provider',
  'listen_address',
  'listen_interface',
  'rpc_address',
  'broadcast_address',
  'broadcast_rpc_address',
  'native_transport_port',
  'storage_port',
  'ssl_storage_port',
  'start_native_transport',
  'data_file_directories',
  'commitlog_directory',
  'saved_caches_directory',
  'hints_directory',
  'cdc_raw_directory',
  'authenticator',
  'authorizer',
  'role_manager',
  'hinted_handoff_enabled',
  'incremental_backups',
  'snapshot_before_compaction',
  'auto_snapshot',
  'phi_convict_threshold',
  'cross_node_timeout',
  'key_cache_size_in_mb',
  'key_cache_size',
  'row_cache_size_in_mb',
  'row_cache_size',
  'memtable',
  'server_encryption_options',
  'client_encryption_options',
  'internode_compression',
  'batch_size_warn_threshold_in_kb',
  'batch_size_warn_threshold',
  'column_index_size_in_kb',
  'column_index_size',
  'initial_token',
  'allocate_tokens_for_keyspace',
  'allocate_tokens_for_local_replication_factor',
]);

function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d+(?:\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

/** Reads one value with its converter; `old` = it came from the pre-4.1 key whose unit is in the name. */
function convert(v: unknown, conv: Conv, old: boolean, key: string, warnings: string[]): number | string | boolean | null {
  if (v === null || v === undefined) return null;
  const bad = (what: string) => {
    warnings.push(`${key}: cannot read ${JSON.stringify(v)} as ${what}`);
    return null;
  };
  switch (conv.t) {
    case 'int': {
      const n = numberOf(v);
      return n === null || !Number.isInteger(n) ? bad('an integer') : n;
    }
    case 'number': {
      const n = numberOf(v);
      return n === null ? bad('a number') : n;
    }
    case 'string':
      return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : bad('text');
    case 'bool':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'string' && /^(?:true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
      return bad('true/false');
    case 'duration':
    case 'rate':
    case 'size': {
      const bare = numberOf(v);
      if (bare !== null && !old) warnings.push(`${key}: ${bare} has no unit; read in the unit of the old name`);
      if (bare !== null) {
        const base = bare * conv.oldFactor;
        return conv.t === 'duration' ? base : base / conv.outFactor;
      }
      if (old) return bad('a number (the unit is in the key name)');
      if (conv.t === 'duration') {
        const ms = parseDurationMs(v);
        return ms === null ? bad('a duration (e.g. 5000ms, 10s)') : ms;
      }
      if (conv.t === 'rate') {
        const bps = parseDataRateBytesPerSec(v);
        return bps === null ? bad('a rate (e.g. 64MiB/s)') : bps / conv.outFactor;
      }
      const bytes = parseDataSizeBytes(v);
      return bytes === null ? bad('a size (e.g. 512MiB)') : bytes / conv.outFactor;
    }
  }
}

function emptyAudit(): CassandraYamlAudit {
  const a = {} as Record<string, unknown>;
  for (const s of SPECS) a[s.field] = null;
  a['memtableConfigurations'] = null;
  return a as unknown as CassandraYamlAudit;
}

function stripOldSuffix(key: string): string | null {
  const m = /^(.*?)_(?:in_(?:ms|kb|mb|s|seconds|minutes|hours|days)|mb_per_sec|kb_per_sec|megabits_per_sec)$/.exec(key);
  return m ? m[1]! : null;
}

/**
 * Most YAML a settings file may hold (comment and blank lines aside) before the yaml package is run on it: it
 * costs microseconds per character, so a hostile megabyte would take seconds; real files hold tens of KiB.
 */
export const MAX_YAML_BODY_CHARS = 64 * 1024;

/** Characters outside blank and whole-line comment lines. */
export function yamlBodyChars(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) {
    const t = line.trimStart();
    if (t !== '' && !t.startsWith('#')) n += line.length + 1;
  }
  return n;
}

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export const parseCassandraYaml = total<CassandraYaml>(CASSANDRA_YAML_KIND, (text) => {
  if (text.trim() === '') return unrecognized(CASSANDRA_YAML_KIND, 'empty text');
  const body = yamlBodyChars(text);
  if (body > MAX_YAML_BODY_CHARS) {
    const size = `${Math.round(body / 1024)} KiB of settings (comments aside)`;
    return unrecognized(CASSANDRA_YAML_KIND, `${size}: a cassandra.yaml holds a few hundred settings, tens of KiB; give the file itself`);
  }
  // YAML 1.1 like SnakeYAML (Cassandra's parser): yes/no/on/off are booleans. Duplicates are found below.
  // prettyErrors off: it locates every error by rescanning the text (quadratic on a text of many errors);
  // the first error's line is counted once below.
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false, prettyErrors: false, logLevel: 'error' });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const line = e.pos?.[0] === undefined ? undefined : lineAt(text, e.pos[0]);
    const msg = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return unrecognized(CASSANDRA_YAML_KIND, `YAML error${line !== undefined ? ` at line ${line}` : ''}: ${msg}`);
  }
  const warnings: string[] = doc.warnings.map((w) => w.message.split('\n')[0]!);
  if (doc.contents === null) {
    // Comments only: an excerpt of the shipped file whose settings are all commented out sets nothing (defaults apply).
    const commented = [...text.matchAll(/^#[ \t]?([a-z][a-z0-9_]*)[ \t]*:/gm)].map((m) => m[1]!).filter((k) => KNOWN_KEYS.has(k) || OLD_SUFFIX.test(k));
    if (commented.length === 0) return unrecognized(CASSANDRA_YAML_KIND, 'only comments, and none of them a commented-out cassandra.yaml setting');
    const shown = [...new Set(commented)].slice(0, 5).join(', ');
    const more = commented.length > 5 ? ', …' : '';
    warnings.push(`only comments: every setting in this excerpt is commented out (${shown}${more}), so it sets nothing and the defaults apply`);
    return parsedOk<CassandraYaml>(
      CASSANDRA_YAML_KIND,
      {
        settings: {},
        naming: 'unknown',
        oldStyleKeys: [],
        newStyleKeys: [],
        renamedBoth: [],
        duplicateKeys: [],
        audit: emptyAudit(),
        auditSources: {},
        product: 'cassandra',
        scyllaKeys: [],
      },
      warnings,
    );
  }
  if (!isMap(doc.contents)) {
    return unrecognized(CASSANDRA_YAML_KIND, 'not a YAML mapping of settings');
  }

  // Duplicate top-level keys (SnakeYAML, like the yaml package with uniqueKeys off, keeps the last one).
  const seen = new Map<string, number>();
  for (const item of doc.contents.items) {
    const k = isScalar(item.key) ? String(item.key.value) : String(item.key);
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  const duplicateKeys = [...seen].filter(([, n]) => n > 1).map(([k]) => k);
  for (const k of duplicateKeys) warnings.push(`duplicate key ${k}: the last occurrence wins`);

  const js: unknown = doc.toJS({ maxAliasCount: 1000 });
  if (js === null || typeof js !== 'object' || Array.isArray(js)) {
    return unrecognized(CASSANDRA_YAML_KIND, 'not a YAML mapping of settings');
  }
  const settings = js as Record<string, unknown>;
  const keys = Object.keys(settings);
  if (!keys.some((k) => KNOWN_KEYS.has(k) || OLD_SUFFIX.test(k))) {
    return unrecognized(CASSANDRA_YAML_KIND, 'a YAML mapping, but no cassandra.yaml setting among its keys');
  }

  // Naming style.
  const oldStyleKeys = keys.filter((k) => OLD_SUFFIX.test(k) || OLD_TO_NEW.has(k));
  const newStyleKeys = keys.filter((k) => !oldStyleKeys.includes(k) && (NEW_NAMES.has(k) || (typeof settings[k] === 'string' && UNIT_VALUE.test(settings[k]))));
  const naming: YamlNaming = oldStyleKeys.length && newStyleKeys.length ? 'mixed' : oldStyleKeys.length ? 'pre-4.1' : newStyleKeys.length ? '4.1+' : 'unknown';
  const renamedBoth: { oldKey: string; newKey: string }[] = [];
  for (const oldKey of oldStyleKeys) {
    const newKey = OLD_TO_NEW.get(oldKey) ?? stripOldSuffix(oldKey);
    if (newKey && newKey in settings) renamedBoth.push({ oldKey, newKey });
  }
  for (const r of renamedBoth) {
    warnings.push(`${r.oldKey} and ${r.newKey} both set (the same setting under its pre-4.1 and 4.1+ names); the audit uses ${r.newKey}`);
  }

  // Typed view.
  const audit = emptyAudit();
  const auditSources: Partial<Record<CassandraYamlAuditField, string>> = {};
  for (const spec of SPECS) {
    let key: string | null = null;
    let old = false;
    if (spec.key in settings && settings[spec.key] !== null) key = spec.key;
    else if (spec.oldKey && spec.oldKey in settings && settings[spec.oldKey] !== null) {
      key = spec.oldKey;
      old = true;
    }
    if (key === null) continue;
    const v = convert(settings[key], spec.conv, old, key, warnings);
    if (v === null) continue;
    (audit as unknown as Record<string, unknown>)[spec.field] = v;
    auditSources[spec.field] = key;
  }
  const memtable = settings['memtable'];
  if (memtable && typeof memtable === 'object' && !Array.isArray(memtable)) {
    const conf = (memtable as Record<string, unknown>)['configurations'];
    audit.memtableConfigurations = conf && typeof conf === 'object' && !Array.isArray(conf) ? Object.keys(conf) : [];
  }

  const scyllaKeys = keys.filter((k) => SCYLLA_ONLY.test(k));
  const product: CassandraYaml['product'] = scyllaKeys.length > 0 || /^#\s*Scylla storage config YAML/m.test(text.slice(0, 2000)) ? 'scylla' : 'cassandra';

  return parsedOk<CassandraYaml>(
    CASSANDRA_YAML_KIND,
    { settings, naming, oldStyleKeys, newStyleKeys, renamedBoth, duplicateKeys, audit, auditSources, product, scyllaKeys },
    warnings,
  );
});
