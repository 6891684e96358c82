/**
 * Runs one incident's inject or heal against the running lab, after checking the lab (running, open, big enough)
 * and the host (capabilities the incident needs). Only the local lab is ever touched: the lab's own state file
 * names the nodes, never an argument.
 */
import { OpError } from '../../core/errors.js';
import type { ProgressFn } from '../../core/progress.js';
import { labStatus } from '../lab.js';
import { realContext } from './context.js';
import { detectHost, skipReason, type HostCapabilities } from './host.js';
import { findIncident, incidentNames, INCIDENTS } from './registry.js';
import type { Incident } from './types.js';

export interface IncidentRunResult {
  incident: string;
  action: 'inject' | 'heal';
  title: string;
  expect: string[];
  durationMs: number;
}

export interface IncidentListing {
  name: string;
  title: string;
  description: string;
  nodes: 1 | 3;
  /** Heap a fresh lab for it should get. */
  heap: string;
  expect: string[];
  /** null = runnable on this host. */
  skipReason: string | null;
}

export async function listIncidents(caps?: HostCapabilities): Promise<IncidentListing[]> {
  const c = caps ?? (await detectHost());
  return INCIDENTS.map((i) => {
    const { name, title, description, nodes, expect } = i;
    return { name, title, description, nodes, heap: i.heap ?? '1G', expect, skipReason: skipReason(i, c) };
  });
}

export function incidentByName(name: string): Incident {
  const i = findIncident(name);
  if (!i) {
    throw new OpError(
      'UNKNOWN_INCIDENT',
      `there is no incident named ${JSON.stringify(name.slice(0, 80))}`,
      `Use one of: ${incidentNames().join(', ')} (see \`cql-tuner lab incident --list\`).`,
    );
  }
  return i;
}

export async function runIncident(name: string, opts: { heal?: boolean; onProgress?: ProgressFn; caps?: HostCapabilities } = {}): Promise<IncidentRunResult> {
  const incident = incidentByName(name);
  const action = opts.heal ? 'heal' : 'inject';
  const why = skipReason(incident, opts.caps ?? (await detectHost()));
  if (why) {
    throw new OpError(
      'INCIDENT_UNAVAILABLE',
      `incident ${incident.name} cannot run on this host: ${why}`,
      'Run it on a host that offers this, or pick another incident.',
    );
  }
  const status = await labStatus();
  if (!status.running || !status.state) {
    throw new OpError('LAB_NOT_RUNNING', 'no lab is running', `Start one: \`cql-tuner lab start --nodes ${incident.nodes}\`.`);
  }
  const down = status.nodes.filter((n) => !n.alive);
  if (down.length && action === 'inject') {
    throw new OpError(
      'LAB_NODE_DOWN',
      `lab node(s) ${down.map((n) => n.index).join(', ')} are not running`,
      'Restart the lab: `cql-tuner lab stop`, then `cql-tuner lab start`.',
    );
  }
  if (status.state.nodes.length < incident.nodes) {
    throw new OpError(
      'INCIDENT_NEEDS_NODES',
      `incident ${incident.name} needs a ${incident.nodes}-node lab; this one has ${status.state.nodes.length}`,
      `Restart the lab with \`cql-tuner lab start --nodes ${incident.nodes}\`.`,
    );
  }
  const progress = opts.onProgress ?? (() => {});
  const t0 = Date.now();
  const ctx = await realContext(status.state, progress);
  try {
    progress({ message: `${action === 'inject' ? 'Injecting' : 'Healing'} ${incident.name}: ${incident.title}` });
    await (action === 'inject' ? incident.inject(ctx) : incident.heal(ctx));
  } finally {
    await ctx.close().catch(() => {});
  }
  return { incident: incident.name, action, title: incident.title, expect: incident.expect, durationMs: Date.now() - t0 };
}
