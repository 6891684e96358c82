import { markdownTable } from './markdown-table.js';

export interface LabStatusView {
  running: boolean;
  version: string | null;
  /** 1 or 2 (null when no lab state). */
  datacenters?: number | null;
  nodes: {
    index: number;
    host: string;
    cqlPort: number;
    jmxPort: number;
    pid: number | null;
    alive: boolean;
    cqlUp: boolean;
    logFile: string;
    datacenter: string;
    rack: string;
  }[];
}

export function labRows(s: LabStatusView): (string | number | null)[][] {
  return s.nodes.map((n) => [
    `node${n.index}`,
    n.host,
    n.datacenter,
    n.rack,
    n.cqlPort,
    n.jmxPort,
    n.pid,
    n.pid === null ? 'not started' : n.alive ? (n.cqlUp ? 'up' : 'starting / no CQL yet') : 'DEAD',
  ]);
}

export const LAB_HEADERS = ['Node', 'Host', 'DC', 'Rack', 'CQL', 'JMX', 'PID', 'State'];

export function renderLabStatus(s: LabStatusView): string {
  if (!s.nodes.length) return 'No lab is running. Start one with lab_start (or `cql-tuner lab start`).';
  const dcs = new Set(s.nodes.map((n) => n.datacenter)).size;
  const head = `Lab: Cassandra ${s.version ?? '?'}, ${s.nodes.length} node(s)${dcs > 1 ? ` in ${dcs} datacenters` : ''}, ${s.nodes.filter((n) => n.cqlUp).length} answering CQL`;
  return `${head}\n\n${markdownTable(LAB_HEADERS, labRows(s))}`;
}
