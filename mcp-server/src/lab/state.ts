import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from './fs-util.js';
import { labJsonPath } from './paths.js';
import { LAB_DATACENTER, LAB_RACK } from './topology.js';
import type { LabNode, LabState } from './types.js';
import { isLabVersion } from './versions.js';

export async function writeLabState(state: LabState): Promise<void> {
  await writeFileAtomic(labJsonPath(state.stateDir), `${JSON.stringify(state, null, 2)}\n`);
}

export async function removeLabState(stateDir: string): Promise<void> {
  await rm(labJsonPath(stateDir), { force: true });
}

type StoredNode = Omit<LabNode, 'datacenter' | 'rack'> & { datacenter?: string; rack?: string };

function isNode(x: unknown): x is StoredNode {
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

/** lab.json, or null when absent or unreadable (a corrupt file is treated like no lab, never trusted for PIDs). */
export async function readLabState(stateDir: string): Promise<LabState | null> {
  const text = await readFile(labJsonPath(stateDir), 'utf8').catch(() => null);
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const s = raw as Record<string, unknown>;
  if (!isLabVersion(s.version) || typeof s.fullVersion !== 'string' || !Array.isArray(s.nodes)) return null;
  if (!s.nodes.every(isNode) || typeof s.heap !== 'string' || typeof s.startedAt !== 'string') return null;
  if (s.datacenters !== undefined && s.datacenters !== 1 && s.datacenters !== 2) return null;
  // A lab.json from before 2-DC labs existed has no DC fields: such a lab was single-DC (SimpleSnitch).
  const nodes: LabNode[] = s.nodes.map((n) => ({ ...n, datacenter: n.datacenter ?? LAB_DATACENTER, rack: n.rack ?? LAB_RACK }));
  return {
    version: s.version,
    fullVersion: s.fullVersion,
    nodes,
    heap: s.heap,
    datacenters: s.datacenters ?? 1,
    startedAt: s.startedAt,
    // Where the file was found wins over what it says (the directory may have been moved).
    stateDir,
  };
}
