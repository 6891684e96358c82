/**
 * What a cluster snapshot returns, as data: ops/snapshot.ts fills it, render/snapshot.ts prints it. Types only, in
 * core so the renderer depends down.
 */
import type { NodeFacts } from '../facts/node-facts.js';

export interface SourceSummary {
  name: string;
  /** mgmt-api: the k8ssandra Management API over HTTP (ops/mgmt-api-diagnose.ts), where JMX is closed. */
  via: 'cql' | 'nodetool' | 'mgmt-api';
  ok: boolean;
  ms: number;
  rows?: number;
  error?: { code: string; message: string };
  /** Not there on this node, which is a fact about it (no virtual tables), not a failure. */
  absent?: string;
}

export interface NodeSnapshot {
  address: string;
  datacenter: string | null;
  rack: string | null;
  hostId: string | null;
  releaseVersion: string | null;
  product: 'cassandra' | 'scylla' | 'unknown';
  upPerDriver: boolean;
  reachable: boolean;
  /** complete: every source answered; partial: some failed; unreachable: nothing answered. */
  status: 'complete' | 'partial' | 'unreachable';
  ms: number;
  sources: SourceSummary[];
  facts: NodeFacts;
  /** Parsed nodetool outputs by subcommand (rules read these; not part of the compact view). */
  nodetool: Record<string, unknown>;
  unparsed: { name: string; reason: string }[];
}

/** Which raw outputs to hand back inline (a node address and/or a source name such as "nodetool:tpstats"). */
export interface RawRequest {
  node?: string;
  source?: string;
}

/** One raw output returned on request, cut at RAW_MAX_BYTES_PER_OUTPUT. */
export interface RawOutput {
  node: string;
  source: string;
  via: string;
  text: string;
  bytes: number;
  truncated: boolean;
}

export interface ClusterSnapshot {
  /** Raw outputs asked for (raw option), capped; the rest stay in the bundle. */
  raw?: { request: RawRequest; outputs: RawOutput[]; omitted: number };
  collectedAt: string;
  durationMs: number;
  contactPoints: string[];
  nodes: NodeSnapshot[];
  bundleDir?: string;
  /** The bundle could not be written (disk full, permissions): the snapshot itself is still complete. */
  bundleError?: { code: string; message: string; fix: string };
  /** About credentials (collect/cql-session.ts): withheld from hosts not allowed them, or sent without TLS. */
  warnings?: string[];
}
