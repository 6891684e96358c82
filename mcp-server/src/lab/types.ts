import type { LabVersion } from './versions.js';

export interface LabNode {
  index: number;
  /** 127.0.0.N */
  host: string;
  cqlPort: 9042;
  /** 7199, 7299, 7399 (JMX listens on 127.0.0.1 for every node). */
  jmxPort: number;
  pid: number | null;
  dir: string;
  /** logs/system.log */
  logFile: string;
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
