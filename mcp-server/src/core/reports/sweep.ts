/** What a sweep reads from one node, raw: ops/sweep.ts fills it, collect/bundle-store.ts writes and reads it. Types only. */

/** A node as the sweep addresses it: CQL on address:cqlPort, JMX (for nodetool) on jmxHost:jmxPort. */
export interface SweepNode {
  address: string;
  cqlPort: number;
  jmxHost: string;
  jmxPort: number;
  datacenter: string | null;
  rack: string | null;
  hostId: string | null;
  /** What the driver believes (gossip through the control connection). */
  upPerDriver: boolean;
}

export interface RawSourceResult {
  /** "cql:<keyspace>.<table>" or "nodetool:<subcommand>" (also the bundle file name). */
  name: string;
  via: 'cql' | 'nodetool';
  ok: boolean;
  ms: number;
  text?: string;
  rows?: number;
  error?: { code: string; message: string };
  /**
   * The node answered that this does not exist, and that is a fact about the node, not a failed read: set
   * (with ok: true, no text) for the system_virtual_schema probe on nodes without virtual tables. Holds the
   * node's own answer and what it means.
   */
  absent?: string;
}

export interface NodeRaw {
  node: SweepNode;
  sources: RawSourceResult[];
  ms: number;
  /** CQL answered at all (system.local or the virtual schema). */
  cqlReachable: boolean;
  virtualTables: string[];
  /** The database version recorded in a bundle's manifest (absent in bundles written before it was recorded). */
  version?: string | null;
  product?: 'cassandra' | 'scylla' | 'unknown';
}
