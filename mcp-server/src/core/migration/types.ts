import type { ClientFact, SstableTaskFact } from '../facts/node-facts.js';
import type { CqlSchema } from '../parse/schema/types.js';

/** ok: nothing to do; action: something to do or verify; blocker: the migration fails or loses data until fixed. */
export type ChecklistStatus = 'ok' | 'action' | 'blocker';

export interface ChecklistItem {
  id: string;
  area: 'path' | 'config' | 'schema' | 'clients' | 'cluster' | 'procedure';
  title: string;
  status: ChecklistStatus;
  /** What was found, with where it came from; "not checked: …" when the input was missing. */
  evidence: string[];
  action?: string;
  knowledgeIds: string[];
  /** Position in the order of steps (procedure items), 1-based. */
  step?: number;
}

export type MigrationKind = 'cassandra-upgrade' | 'cassandra-to-scylla' | 'vnodes-to-tablets';

export interface Endpoint {
  product: 'cassandra' | 'scylla';
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
  inputs: { config: boolean; schema: boolean; cluster: boolean };
  warnings: string[];
}
