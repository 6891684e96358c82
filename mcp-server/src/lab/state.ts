import { readFile, rm } from 'node:fs/promises';
import { storedLabNodes } from '../core/lab-node-record.js';
import { writeFileAtomic } from './fs-util.js';
import { labJsonPath } from './paths.js';
import { LAB_DATACENTER, LAB_RACK } from './topology.js';
import type { LabNode, LabSecurityState, LabState } from './types.js';
import { isLabVersion } from './versions.js';

export async function writeLabState(state: LabState): Promise<void> {
  await writeFileAtomic(labJsonPath(state.stateDir), `${JSON.stringify(state, null, 2)}\n`);
}

export async function removeLabState(stateDir: string): Promise<void> {
  await rm(labJsonPath(stateDir), { force: true });
}

function isSecurity(x: unknown): x is LabSecurityState {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  const strOrNull = (v: unknown) => v === null || typeof v === 'string';
  return (
    ['auth', 'tls', 'clientCertAuth', 'jmxAuth'].every((k) => typeof o[k] === 'boolean') &&
    (o.jmxSsl === undefined || typeof o.jmxSsl === 'boolean') &&
    typeof o.secretsDir === 'string' &&
    typeof o.cqlshrc === 'string' &&
    [o.toolRole, o.caPem, o.jmxUser, o.jmxPasswordFile].every(strOrNull) &&
    // Absent in lab.json written before the stress role existed.
    [o.benchRole, o.benchCqlshrc].every((v) => v === undefined || strOrNull(v))
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
  const stored = storedLabNodes(s);
  if (!stored || typeof s.heap !== 'string' || typeof s.startedAt !== 'string') return null;
  if (s.datacenters !== undefined && s.datacenters !== 1 && s.datacenters !== 2) return null;
  if (s.net !== undefined && (typeof s.net !== 'string' || !/^127\.\d{1,3}\.\d{1,3}$/.test(s.net))) return null;
  const security = isSecurity(s.security) ? s.security : undefined;
  if (s.security !== undefined && !security) return null;
  // A lab.json from before 2-DC labs existed has no DC fields: such a lab was single-DC (SimpleSnitch).
  const nodes: LabNode[] = stored.map((n) => ({ ...n, datacenter: n.datacenter ?? LAB_DATACENTER, rack: n.rack ?? LAB_RACK }));
  return {
    version: s.version,
    fullVersion: s.fullVersion,
    nodes,
    heap: s.heap,
    datacenters: s.datacenters ?? 1,
    startedAt: s.startedAt,
    ...(typeof s.net === 'string' ? { net: s.net } : {}),
    ...(security ? { security } : {}),
    ...(isMetrics(s.metrics) ? { metrics: s.metrics } : {}),
    // Where the file was found wins over what it says (the directory may have been moved).
    stateDir,
  };
}

function isMetrics(m: unknown): m is { port: number; agent: string } {
  const r = m as { port?: unknown; agent?: unknown } | null;
  return typeof r === 'object' && r !== null && Number.isInteger(r.port) && typeof r.agent === 'string';
}
