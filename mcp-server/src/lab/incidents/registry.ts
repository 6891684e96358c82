/** The incident registry: every problem `cql-tuner lab incident` can put into the lab, cheapest first. */
import { badIndex } from './bad-index.js';
import { badSchema } from './bad-schema.js';
import { clientMisuse } from './client-misuse.js';
import { compactionBacklog } from './compaction-backlog.js';
import { configMistake } from './config-mistake.js';
import { diskNearFull } from './disk-near-full.js';
import { droppedMutations } from './dropped-mutations.js';
import { gcPressure } from './gc-pressure.js';
import { hotPartition } from './hot-partition.js';
import { lcsWriteHeavy } from './lcs-write-heavy.js';
import { nodeDown } from './node-down.js';
import { schemaDisagreement } from './schema-disagreement.js';
import { slowDisk } from './slow-disk.js';
import { slowNode } from './slow-node.js';
import { sstablePileup } from './sstable-pileup.js';
import { tombstones } from './tombstones.js';
import type { Incident } from './types.js';
import { widePartition } from './wide-partition.js';

export const INCIDENTS: readonly Incident[] = [
  tombstones,
  sstablePileup,
  widePartition,
  compactionBacklog,
  droppedMutations,
  configMistake,
  gcPressure,
  nodeDown,
  slowNode,
  diskNearFull,
  slowDisk,
  schemaDisagreement,
  badSchema,
  badIndex,
  lcsWriteHeavy,
  clientMisuse,
  hotPartition,
];

export function incidentNames(): string[] {
  return INCIDENTS.map((i) => i.name);
}

export function findIncident(name: string): Incident | undefined {
  return INCIDENTS.find((i) => i.name === name);
}
