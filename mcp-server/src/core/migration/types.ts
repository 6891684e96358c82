import type { ClientFact, SstableTaskFact } from '../facts/node-facts.js';
import type { PgSchema } from '../parse/postgres-ddl.js';
import type { CqlSchema } from '../parse/schema/types.js';
import type { AccessPattern } from './postgres-patterns.js';

/** ok: nothing to do; action: something to do or verify; blocker: the migration fails or loses data until fixed. */
export type ChecklistStatus = 'ok' | 'action' | 'blocker';

export interface ChecklistItem {
  id: string;
  area: 'path' | 'config' | 'schema' | 'clients' | 'cluster' | 'procedure' | 'model';
  /** The proposed table (or source table) the item is about, when it is about one. */
  subject?: string;
  title: string;
  status: ChecklistStatus;
  /** What was found, with where it came from; "not checked: …" when the input was missing. */
  evidence: string[];
  action?: string;
  knowledgeIds: string[];
  /** Position in the order of steps (procedure items), 1-based. */
  step?: number;
}

export type MigrationKind = 'cassandra-upgrade' | 'cassandra-to-scylla' | 'vnodes-to-tablets' | 'postgres-to-cql';

export interface Endpoint {
  product: 'cassandra' | 'scylla' | 'postgres';
  version: string;
}

/** What a snapshot tells a migration review. */
export interface ClusterFacts {
  nodes: number;
  releaseVersions: string[];
  schemaVersions: string[];
  datacenters: string[];
  clients: ClientFact[];
  sstableTasks: SstableTaskFact[];
}

export interface MigrationInput {
  from: Endpoint;
  to: Endpoint;
  kind?: MigrationKind;
  configText?: string;
  schema?: CqlSchema;
  cluster?: ClusterFacts;
  /** PostgreSQL → CQL: the parsed DDL, the access patterns and the keyspace to propose tables in. */
  postgres?: { schema: PgSchema; patterns: AccessPattern[]; keyspace?: string };
}

export interface MigrationReview {
  kind: MigrationKind;
  from: Endpoint;
  to: Endpoint;
  /** Versions the cluster passes through, e.g. 3.11 → 4.1 → 5.0. */
  path: string[];
  items: ChecklistItem[];
  counts: Record<ChecklistStatus, number>;
  verdict: 'blocked' | 'actions' | 'ready';
  inputs: { config: boolean; schema: boolean; cluster: boolean; ddl?: boolean; patterns?: number };
  /** PostgreSQL → CQL: the proposed query tables and their CQL DDL. */
  proposal?: CqlProposal;
  warnings: string[];
}

export interface ProposedColumn {
  name: string;
  type: string;
  kind: 'partition_key' | 'clustering' | 'regular';
  /** Where the value comes from: "orders.created_at", or "bucket of orders.created_at". */
  from: string;
}

export interface ProposedTable {
  name: string;
  /** The access pattern it serves, as one line. */
  pattern: string;
  sourceTable: string;
  partitionKey: string[];
  clustering: { name: string; order: 'ASC' | 'DESC' }[];
  columns: ProposedColumn[];
  bucket: { column: string; period: 'hour' | 'day' | 'week' | 'month' | 'year'; of: string } | null;
  /** Tables whose columns were copied in (parents) or nested (children). */
  denormalized: { table: string; how: 'copied columns' | 'nested list'; columns: string[] }[];
  cql: string;
}

export interface CqlProposal {
  keyspace: string;
  tables: ProposedTable[];
  types: { name: string; fields: { name: string; type: string }[] }[];
  /** CREATE KEYSPACE / TYPE / TABLE statements, ready for cqlsh after review. */
  ddl: string;
}
