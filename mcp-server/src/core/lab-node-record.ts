/**
 * A lab node as lab.json stores it (written by lab/state.ts). The check lives in core so the lab, which owns the
 * file, and the credential allow-list in collect/, which trusts the running lab's own nodes, read it the same way.
 */
export interface StoredLabNode {
  index: number;
  /** 127.0.0.N */
  host: string;
  cqlPort: 9042;
  /** 7199, 7299, 7399 (JMX listens on 127.0.0.1 for every node; other ports on a CQL_TUNER_LAB_NET lab). */
  jmxPort: number;
  pid: number | null;
  dir: string;
  /** logs/system.log */
  logFile: string;
  /** Absent in lab.json written before 2-DC labs existed. */
  datacenter?: string;
  rack?: string;
}

export function isStoredLabNode(x: unknown): x is StoredLabNode {
  if (typeof x !== 'object' || x === null) return false;
  const n = x as Record<string, unknown>;
  return (
    (n.datacenter === undefined || typeof n.datacenter === 'string') &&
    (n.rack === undefined || typeof n.rack === 'string') &&
    typeof n.index === 'number' &&
    typeof n.host === 'string' &&
    n.cqlPort === 9042 &&
    typeof n.jmxPort === 'number' &&
    (n.pid === null || typeof n.pid === 'number') &&
    typeof n.dir === 'string' &&
    typeof n.logFile === 'string'
  );
}

/** The nodes of a parsed lab.json, or null when the document or any node record is not what the lab writes. */
export function storedLabNodes(raw: unknown): StoredLabNode[] | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const nodes = (raw as Record<string, unknown>).nodes;
  return Array.isArray(nodes) && nodes.every(isStoredLabNode) ? nodes : null;
}
