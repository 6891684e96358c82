import { markdownTable } from './markdown-table.js';

export interface LabStatusView {
  running: boolean;
  version: string | null;
  nodes: { index: number; host: string; cqlPort: number; jmxPort: number; pid: number | null; alive: boolean; cqlUp: boolean; logFile: string }[];
}

export function labRows(s: LabStatusView): (string | number | null)[][] {
  return s.nodes.map((n) => [`node${n.index}`, n.host, n.cqlPort, n.jmxPort, n.pid, n.pid === null ? 'not started' : n.alive ? (n.cqlUp ? 'up' : 'starting / no CQL yet') : 'DEAD']);
}

export const LAB_HEADERS = ['Node', 'Host', 'CQL', 'JMX', 'PID', 'State'];

export function renderLabStatus(s: LabStatusView): string {
  if (!s.nodes.length) return 'No lab is running. Start one with lab_start (or `cql-tuner lab start`).';
  const head = `Lab: Cassandra ${s.version ?? '?'}, ${s.nodes.length} node(s), ${s.nodes.filter((n) => n.cqlUp).length} answering CQL`;
  return `${head}\n\n${markdownTable(LAB_HEADERS, labRows(s))}`;
}
