/** A CQL schema as DESCRIBE prints it, reduced to what a review needs. */
export type CqlValue = string | number | boolean | null | CqlValue[] | { [key: string]: CqlValue };

export interface SchemaKeyspace {
  name: string;
  /** Short class name: SimpleStrategy, NetworkTopologyStrategy, LocalStrategy, EverywhereStrategy … */
  strategy: string | null;
  /** Replication factor per datacenter (NetworkTopologyStrategy) or under "replication_factor" (SimpleStrategy). */
  replication: Record<string, number>;
  durableWrites: boolean | null;
  /** ScyllaDB: tablets = {'enabled': …, 'initial': …}; null when the statement has no tablets option. */
  tablets: { enabled: boolean | null; initial: number | null } | null;
}

export type ColumnKind = 'partition_key' | 'clustering' | 'static' | 'regular';

export interface SchemaColumn {
  name: string;
  type: string;
  kind: ColumnKind;
}

export interface SchemaOptions {
  /** Every WITH option as written (maps as objects). */
  raw: Record<string, CqlValue>;
  /** Short class name, null when the statement has no compaction option (the server default applies). */
  compaction: { class: string; options: Record<string, string> } | null;
  compression: { class: string | null; enabled: boolean; chunkLengthKb: number | null } | null;
  gcGraceSeconds: number | null;
  defaultTtl: number | null;
  caching: { keys: string | null; rowsPerPartition: string | null } | null;
  speculativeRetry: string | null;
  /** ScyllaDB tombstone_gc = {'mode': 'repair' …}. */
  tombstoneGcMode: string | null;
  compactStorage: boolean;
}

export interface SchemaTable {
  keyspace: string;
  name: string;
  columns: SchemaColumn[];
  partitionKey: string[];
  clustering: { name: string; order: 'ASC' | 'DESC' }[];
  options: SchemaOptions;
}

export interface SchemaIndex {
  keyspace: string;
  table: string;
  name: string | null;
  /** The indexed expression as written: a column, keys(col), values(col), entries(col), full(col). */
  target: string;
  custom: boolean;
  /** Custom index class, e.g. StorageAttachedIndex or org.apache.cassandra.index.sasi.SASIIndex. */
  using: string | null;
}

export interface SchemaView {
  keyspace: string;
  name: string;
  baseKeyspace: string;
  baseTable: string;
  partitionKey: string[];
  clustering: { name: string; order: 'ASC' | 'DESC' }[];
  options: SchemaOptions;
}

export interface SchemaType {
  keyspace: string;
  name: string;
  fields: { name: string; type: string }[];
}

export interface CqlSchema {
  keyspaces: SchemaKeyspace[];
  tables: SchemaTable[];
  indexes: SchemaIndex[];
  views: SchemaView[];
  types: SchemaType[];
  /** Other statements (functions, aggregates, roles, triggers) by their first words. */
  other: string[];
  statements: number;
}
