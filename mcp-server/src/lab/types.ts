import type { StoredLabNode } from '../core/lab-node-record.js';
import type { LabSecurityOptions } from './security.js';
import type { LabVersion } from './versions.js';

/** A lab node as lab.json stores it, with the DC fields that older files may lack filled in. */
export interface LabNode extends Omit<StoredLabNode, 'datacenter' | 'rack'> {
  /** datacenter1, or datacenter2 for node 3 of a 2-DC lab. */
  datacenter: string;
  rack: string;
}

export interface LabState {
  version: LabVersion;
  fullVersion: string;
  nodes: LabNode[];
  heap: string;
  /** 1 (SimpleSnitch) or 2 (GossipingPropertyFileSnitch, nodes 1–2 in datacenter1, node 3 in datacenter2). */
  datacenters: 1 | 2;
  startedAt: string;
  stateDir: string;
  /** First three octets of the node addresses (CQL_TUNER_LAB_NET); absent = 127.0.0. */
  net?: string;
  /** --metrics: each node serves Prometheus metrics (JMX exporter agent) on <host>:<port>/metrics. */
  metrics?: { port: number; agent: string };
  /** A secured lab (--auth, --tls, --jmx-auth): what is on, and the files a client reads. Absent = open lab. */
  security?: LabSecurityState;
}

/** No password is kept here: they are in the files named, 0600 under <stateDir>/secrets. */
export interface LabSecurityState extends LabSecurityOptions {
  secretsDir: string;
  /** cqlshrc for the tool's least-privilege role (CQL_TUNER_CQLSHRC=<this>). */
  cqlshrc: string;
  /** The tool's CQL role, or null without --auth. */
  toolRole: string | null;
  /** With --auth: the stress role (the tool's grants plus CREATE ON ALL KEYSPACES) and its cqlshrc. */
  benchRole?: string | null;
  benchCqlshrc?: string | null;
  /** The lab CA as PEM (with --tls), else null. */
  caPem: string | null;
  /** The tool's JMX user and its `user password` file for CQL_TUNER_JMX_PASSWORD_FILE (with --jmx-auth), else null. */
  jmxUser: string | null;
  jmxPasswordFile: string | null;
}

export interface LabNodeStatus extends LabNode {
  alive: boolean;
  cqlUp: boolean;
}

export interface LabStatus {
  running: boolean;
  state: LabState | null;
  nodes: LabNodeStatus[];
}
