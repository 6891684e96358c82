import { Command } from 'commander';
import { estimateScaling, renderScaling } from '../../ops/scaling.js';
import { numberArg as num } from '../arg-parsers.js';
import { failWith, printJson, printText } from '../output.js';

interface ScalingFlags {
  dataGib: number;
  nodes: number;
  target?: number;
  targetThroughput?: number;
  perNodeThroughput?: number;
  step?: number;
  streamMibs?: number;
  diskGib?: number;
  compactionMibs?: number;
  lastBootstrapMin?: number;
  lastBootstrapGib?: number;
  firstStepMin?: number;
  exponent?: number;
  scylla?: boolean;
  vnodes?: boolean;
  json?: boolean;
}

export function estimateScalingCommand(): Command {
  return new Command('estimate-scaling')
    .description('plan a scale-out: steps, bootstrap time per step (T0·(d_k/d0)^0.6), cleanup, tablets, disk headroom')
    .requiredOption('--data-gib <n>', 'total on-disk data of the cluster, GiB (sum of node loads)', num)
    .requiredOption('--nodes <n>', 'current node count', num)
    .option('--target <n>', 'target node count', num)
    .option('--target-throughput <n>', 'wanted throughput (with --per-node-throughput)', num)
    .option('--per-node-throughput <n>', 'throughput one node sustains', num)
    .option('--step <n>', 'nodes added per step (default: current node count)', num)
    .option('--stream-mibs <n>', 'per-node stream throughput, MiB/s', num)
    .option('--disk-gib <n>', 'disk capacity per node, GiB', num)
    .option('--compaction-mibs <n>', 'compaction throughput for the cleanup estimate, MiB/s', num)
    .option('--last-bootstrap-min <n>', 'duration of your last bootstrap, minutes (with --last-bootstrap-gib)', num)
    .option('--last-bootstrap-gib <n>', 'data per node at your last bootstrap, GiB', num)
    .option('--first-step-min <n>', 'measured time of the first step of this plan, minutes', num)
    .option('--exponent <n>', 'model exponent (default from the knowledge base)', num)
    .option('--scylla', 'ScyllaDB (tablets unless --vnodes)')
    .option('--vnodes', 'ScyllaDB keyspaces on vnodes')
    .option('--json', 'print the plan as JSON')
    .action((o: ScalingFlags) => {
      try {
        if ((o.lastBootstrapMin === undefined) !== (o.lastBootstrapGib === undefined)) {
          throw Object.assign(new Error('--last-bootstrap-min and --last-bootstrap-gib go together'), { code: 'BAD_ARGUMENT', fix: 'Give both: how long it took and the data per node at the time.' });
        }
        const plan = estimateScaling({
          dataGiB: o.dataGib,
          nodes: o.nodes,
          targetNodes: o.target,
          targetThroughput: o.targetThroughput,
          perNodeThroughput: o.perNodeThroughput,
          nodesPerStep: o.step,
          streamMiBs: o.streamMibs,
          diskGiB: o.diskGib,
          compactionMiBs: o.compactionMibs,
          lastBootstrap: o.lastBootstrapMin !== undefined ? { minutes: o.lastBootstrapMin, dataPerNodeGiB: o.lastBootstrapGib! } : undefined,
          firstStepMinutes: o.firstStepMin,
          exponent: o.exponent,
          product: o.scylla ? 'scylla' : 'cassandra',
          tablets: o.scylla ? !o.vnodes : undefined,
        });
        if (o.json) printJson(plan);
        else printText(renderScaling(plan));
      } catch (e) {
        failWith(e, o);
      }
    });
}
