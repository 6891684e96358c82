import type { Parsed } from '../../parsed.js';
import { CASSANDRA_YAML_KIND, parseCassandraYaml } from './cassandra-yaml.js';
import { JVM_OPTIONS_KIND, parseJvmOptions } from './jvm-options.js';

export type ConfigKind = typeof CASSANDRA_YAML_KIND | typeof JVM_OPTIONS_KIND;
type ConfigParser = (text: string) => Parsed<unknown>;

/** One parser per configuration kind (kind strings are the `kind` of each parser's Parsed result). */
export const CONFIG_PARSERS: Record<ConfigKind, ConfigParser> = {
  [CASSANDRA_YAML_KIND]: parseCassandraYaml,
  [JVM_OPTIONS_KIND]: parseJvmOptions,
};

/**
 * Cheap detection regexes (multiline; meant for the head of a text). cassandra.yaml: a well-known top-level
 * key, or a pre-4.1 unit-suffixed one (`column_index_size_in_kb:`), at the start of a line: a pasted excerpt may hold
 * none of the usual head-of-file keys, or have them all commented out (`# num_tokens: 16`). JVM options: an -Xms/-Xmx/-Xmn
 * size, an -XX: flag, -Xlog/-Xloggc, or a cassandra-env.sh JVM_OPTS / MAX_HEAP_SIZE / HEAP_NEWSIZE assignment (also commented out).
 */
export const configSignature: Record<ConfigKind, RegExp> = {
  [CASSANDRA_YAML_KIND]:
    /^(?:#[ \t]?)?(?:cluster_name|num_tokens|partitioner|endpoint_snitch|seed_provider|data_file_directories|commitlog_sync|commitlog_directory|compaction_throughput(?:_mb_per_sec)?|concurrent_(?:reads|writes|compactors)|(?:read|write|range)_request_timeout(?:_in_ms)?|dynamic_snitch|memtable_allocation_type|incremental_backups|snapshot_before_compaction|auto_snapshot|hinted_handoff_enabled|start_native_transport|native_transport_port|storage_port|listen_address|rpc_address|authenticator|authorizer|[a-z]+(?:_[a-z]+)*_in_(?:ms|kb|mb))[ \t]*:/m,
  [JVM_OPTIONS_KIND]:
    /(?:^|[\s"'])-(?:Xm[sxn]\d+[kKmMgGtT]?(?=\s|$|["'])|XX:[+-]?[A-Z][A-Za-z0-9]+|Xlog(?:gc)?:)|^[ \t]*(?:#[ \t]*)?(?:export[ \t]+)?(?:JVM_OPTS|MAX_HEAP_SIZE|HEAP_NEWSIZE)=/m,
};

export { CASSANDRA_YAML_KIND, parseCassandraYaml, JVM_OPTIONS_KIND, parseJvmOptions };
export type { CassandraYaml, CassandraYamlAudit, CassandraYamlAuditField, YamlNaming } from './cassandra-yaml.js';
export type { GcCollector, JvmFlag, JvmOptions } from './jvm-options.js';
export { MEGABIT_PER_SEC, MIB, parseDataRateBytesPerSec, parseDataSizeBytes, parseDurationMs } from './units.js';
