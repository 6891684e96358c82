import { readFile, rm } from 'node:fs/promises';
import { writeFileAtomic } from './fs-util.js';
import { labJsonPath } from './paths.js';
import type { LabNode, LabState } from './types.js';
import { isLabVersion } from './versions.js';

export async function writeLabState(state: LabState): Promise<void> {
  await writeFileAtomic(labJsonPath(state.stateDir), `${JSON.stringify(state, null, 2)}\n`);
}

export async function removeLabState(stateDir: string): Promise<void> {
  await rm(labJsonPath(stateDir), { force: true });
}

function isNode(x: unknown): x is LabNode {
  if (typeof x !== 'object' || x === null) return false;
  const n = x as Record<string, unknown>;
  return (
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
  return {
    version: s.version,
    fullVersion: s.fullVersion,
    nodes: s.nodes,
    heap: s.heap,
    startedAt: s.startedAt,
    // Where the file was found wins over what it says (the directory may have been moved).
    stateDir,
  };
}
