import { resolve } from 'node:path';
import type { Command } from 'commander';
import { clusterSnapshotCliInputSchema, DEFAULT_NODE_TIMEOUT_MS, DEFAULT_SWEEP_CONCURRENCY, type RawRequest, type SnapshotInput } from '../../ops/snapshot.js';
import { intArg } from '../arg-parsers.js';
import { parseFlags } from '../validate-flags.js';

/** How a verb reaches a cluster: the same flags for snapshot and diagnose (and later verbs). */
export interface ClusterFlags {
  hosts?: string[];
  lab?: boolean;
  cqlPort?: number;
  localDc?: string;
  dc?: string;
  jmxHost: string;
  jmxPort: number;
  nodetoolPath?: string;
  nodetoolVia?: string;
  concurrency: number;
  nodeTimeout: number;
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function addClusterOptions(cmd: Command): Command {
  return (
    cmd
      .option('--hosts <list>', 'contact points, comma-separated (host or host:port)', list)
      .option('--lab', 'use the running local lab')
      .option('--cql-port <port>', 'native transport port', intArg('cql-port'))
      .option('--local-dc <dc>', 'local datacenter for the driver')
      .option('--dc <dc>', 'only nodes of this datacenter')
      .option('--jmx-host <host>', '"node" (each node’s address) or a fixed JMX host', 'node')
      .option('--jmx-port <port>', 'JMX port', intArg('jmx-port'), 7199)
      .option('--nodetool-path <path>', 'absolute path of nodetool (on the remote host with --nodetool-via)')
      .option('--nodetool-via <target>', 'run nodetool on each node, e.g. ssh://ops@{host} ({host} = node address; JMX then 127.0.0.1)')
      .option('--concurrency <n>', 'nodes collected at once', intArg('concurrency'), DEFAULT_SWEEP_CONCURRENCY)
      .option('--node-timeout <ms>', 'per-node deadline', intArg('node-timeout'), DEFAULT_NODE_TIMEOUT_MS)
      .option('--cqlshrc <path>', 'cqlshrc with the CQL login and TLS settings (default $CQL_TUNER_CQLSHRC, else ~/.cassandra/cqlshrc)')
      // The user's own flag, so trusted like the environment variable it sets for this run (collect/cql-credentials.ts).
      .hook('preAction', (_cmd, action) => {
        const rc = action.opts<{ cqlshrc?: string }>().cqlshrc;
        if (rc) process.env.CQL_TUNER_CQLSHRC = resolve(rc);
      })
  );
}

/**
 * The hosts the user typed (contact points, a fixed JMX host): trusted flags, so credentials may go to them for
 * this run (collect/credential-hosts.ts). Peers the cluster reports still need CQL_TUNER_CREDENTIAL_HOSTS.
 */
export function commandLineHostsOf(o: Pick<ClusterFlags, 'hosts' | 'jmxHost'>): string[] {
  return [...(o.hosts ?? []), ...(o.jmxHost && o.jmxHost !== 'node' ? [o.jmxHost] : [])];
}

export function snapshotInputFrom(o: ClusterFlags): SnapshotInput {
  return {
    hosts: o.hosts,
    lab: o.lab === true,
    cqlPort: o.cqlPort,
    localDataCenter: o.localDc,
    dc: o.dc,
    jmxHost: o.jmxHost,
    jmxPort: o.jmxPort,
    nodetoolPath: o.nodetoolPath,
    nodetoolVia: o.nodetoolVia,
    // The user's own --nodetool-via: it may name an ssh key or config (?identity=, ?config=).
    targetOrigin: 'trusted',
    concurrency: o.concurrency,
    nodeTimeoutMs: o.nodeTimeout,
  };
}

/** Input key → the cluster flag that sets it, where that is not the key in kebab case. */
export const CLUSTER_FLAG_NAMES = {
  localDataCenter: '--local-dc',
  nodeTimeoutMs: '--node-timeout',
  bundleDir: '--bundle',
  raw: '--raw',
  'raw.node': '--raw-node',
  'raw.source': '--raw-source',
};

/**
 * The cluster flags (and a verb's extras) checked against the snapshot operation's CLI schema, so that ranges the
 * tool enforces (--concurrency 1–64, --node-timeout 1000–600000, …) hold on the command line too.
 */
export function checkedSnapshotInput(verb: string, o: ClusterFlags, extra: { nodetool?: boolean; bundleDir?: string; raw?: RawRequest } = {}): SnapshotInput {
  const { targetOrigin, ...fields } = snapshotInputFrom(o);
  const input = parseFlags(verb, clusterSnapshotCliInputSchema, { ...fields, ...extra }, CLUSTER_FLAG_NAMES);
  return { ...input, targetOrigin };
}
