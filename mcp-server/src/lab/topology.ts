import { LabError } from './errors.js';

export const LAB_DATACENTER = 'datacenter1';
export const LAB_DATACENTER2 = 'datacenter2';
export const LAB_RACK = 'rack1';

export type LabDatacenters = 1 | 2;

export interface NodePlacement {
  datacenter: string;
  rack: string;
}

/**
 * Where node N sits. One DC: every node in datacenter1 (SimpleSnitch reports that name itself). Two DCs: nodes 1–2
 * in datacenter1 and node 3 in datacenter2 (node 1, the seed, stays in the first DC), all in rack1.
 */
export function nodePlacement(index: number, datacenters: LabDatacenters): NodePlacement {
  return { datacenter: datacenters === 2 && index >= 3 ? LAB_DATACENTER2 : LAB_DATACENTER, rack: LAB_RACK };
}

/** Two DCs need the 3-node lab (2 + 1); anything else is a usage error that says what to run instead. */
export function checkTopology(nodes: number, datacenters: number): LabDatacenters {
  if (datacenters !== 1 && datacenters !== 2) {
    throw new LabError('BAD_TOPOLOGY', `A lab has 1 or 2 datacenters, not ${String(datacenters)}.`, 'Use --dcs 1 (the default) or --dcs 2 with --nodes 3.');
  }
  if (datacenters === 2 && nodes !== 3) {
    throw new LabError(
      'BAD_TOPOLOGY',
      `A 2-datacenter lab needs 3 nodes (2 in datacenter1, 1 in datacenter2); ${String(nodes)} node(s) were asked for.`,
      'Use `cql-tuner lab start --nodes 3 --dcs 2` (MCP: nodes: 3, datacenters: 2), or drop --dcs for a single-DC lab.',
    );
  }
  return datacenters;
}
