import type cassandraDriver from 'cassandra-driver';

export type CassandraDriver = typeof cassandraDriver;

let loaded: Promise<CassandraDriver> | null = null;

/**
 * cassandra-driver, loaded on first use: most verbs (interpret, logs, storage, planners) and the MCP server's
 * start never talk CQL, and evaluating the driver is a noticeable part of a cold start.
 */
export function loadDriver(): Promise<CassandraDriver> {
  loaded ??= import('cassandra-driver').then((m) => m.default);
  return loaded;
}
