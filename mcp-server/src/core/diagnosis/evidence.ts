import type { NodeFacts } from '../facts/node-facts.js';
import type { LogFacts } from '../parse/logs/types.js';
import type { NodetoolCompactionstats } from '../parse/nodetool/compactionstats.js';
import type { NodetoolDescribeCluster } from '../parse/nodetool/describecluster.js';
import type { NodetoolCompactionThroughput } from '../parse/nodetool/getcompactionthroughput.js';
import type { NodetoolProxyHistograms } from '../parse/nodetool/proxyhistograms.js';
import type { NodetoolRing } from '../parse/nodetool/ring.js';
import type { NodetoolStatus } from '../parse/nodetool/status.js';
import type { NodetoolTableHistograms } from '../parse/nodetool/tablehistograms.js';
import type { NodetoolTablestats } from '../parse/nodetool/tablestats.js';
import type { NodetoolTpstats } from '../parse/nodetool/tpstats.js';

/** Parsed nodetool outputs a rule may read, by subcommand. */
export interface NodetoolEvidence {
  status?: NodetoolStatus;
  tpstats?: NodetoolTpstats;
  tablestats?: NodetoolTablestats;
  compactionstats?: NodetoolCompactionstats;
  tablehistograms?: NodetoolTableHistograms;
  proxyhistograms?: NodetoolProxyHistograms;
  describecluster?: NodetoolDescribeCluster;
  getcompactionthroughput?: NodetoolCompactionThroughput;
  ring?: NodetoolRing;
}

/** The node of a pasted output: findings read "dropped on this node", evidence "this node: …". */
export const PASTED_NODE = 'this node';

/** Everything known about one node (or one pasted output) that rules may read. */
export interface NodeEvidence {
  /** Node address, or PASTED_NODE for pasted text. */
  node: string;
  reachable: boolean;
  facts: NodeFacts;
  nodetool: NodetoolEvidence;
  /** What the node's logs say (system.log, gc.log, Scylla journal), when they were read. */
  logs?: LogFacts;
  /** Collection errors: a rule can say "could not check" instead of "fine". */
  errors: { source: string; code: string; message: string }[];
}

export interface DiagnosisInput {
  nodes: NodeEvidence[];
  /** Where the evidence came from, for the report: "live cluster", "bundle …", "pasted nodetool tpstats". */
  origin: string;
}

/** Builds one node's evidence from facts + parsed nodetool outputs (the shape from-raw returns). */
export function nodeEvidence(
  node: string,
  reachable: boolean,
  r: { facts: NodeFacts; nodetool: Record<string, unknown> },
  errors: NodeEvidence['errors'] = [],
): NodeEvidence {
  return { node, reachable, facts: r.facts, nodetool: r.nodetool, errors };
}
