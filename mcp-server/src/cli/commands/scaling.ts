import { OpError } from '../../core/errors.js';
import { Command } from 'commander';
import { estimateScaling, estimateScalingInputSchema } from '../../ops/scaling.js';
import { renderScaling } from '../../render/scaling.js';
import { failWith, printJson, printText } from '../output.js';
import { cliNumber, parseFlags } from '../validate-flags.js';

interface ScalingFlags {
  dataGib: string;
  nodes: string;
  target?: string;
  targetThroughput?: string;
  perNodeThroughput?: string;
  step?: string;
  streamMibs?: string;
  diskGib?: string;
  compactionMibs?: string;
  lastBootstrapMin?: string;
  lastBootstrapGib?: string;
  firstStepMin?: string;
  exponent?: string;
  scylla?: boolean;
  vnodes?: boolean;
  json?: boolean;
}

/** Input key → the flag that sets it, where that is not the key in kebab case. */
const FLAGS = {
  dataGiB: '--data-gib',
  targetNodes: '--target',
  nodesPerStep: '--step',
  streamMiBs: '--stream-mibs',
  diskGiB: '--disk-gib',
  compactionMiBs: '--compaction-mibs',
  lastBootstrap: '--last-bootstrap-min',
  'lastBootstrap.dataPerNodeGiB': '--last-bootstrap-gib',
  firstStepMinutes: '--first-step-min',
};

export function estimateScalingCommand(): Command {
  return new Command('estimate-scaling')
    .description('plan a scale-out: steps, bootstrap time per step (T0·(d_k/d0)^0.6), cleanup, tablets, disk headroom')
    .requiredOption('--data-gib <n>', 'total on-disk data of the cluster, GiB (sum of node loads)')
    .requiredOption('--nodes <n>', 'current node count')
    .option('--target <n>', 'target node count')
    .option('--target-throughput <n>', 'wanted throughput (with --per-node-throughput)')
    .option('--per-node-throughput <n>', 'throughput one node sustains')
    .option('--step <n>', 'nodes added per step (default: current node count)')
    .option('--stream-mibs <n>', 'per-node stream throughput, MiB/s')
    .option('--disk-gib <n>', 'disk capacity per node, GiB')
    .option('--compaction-mibs <n>', 'compaction throughput for the cleanup estimate, MiB/s')
    .option('--last-bootstrap-min <n>', 'duration of your last bootstrap, minutes (with --last-bootstrap-gib)')
    .option('--last-bootstrap-gib <n>', 'data per node at your last bootstrap, GiB')
    .option('--first-step-min <n>', 'measured time of the first step of this plan, minutes')
    .option('--exponent <n>', 'model exponent (default from the knowledge base)')
    .option('--scylla', 'ScyllaDB (tablets unless --vnodes)')
    .option('--vnodes', 'ScyllaDB keyspaces on vnodes')
    .option('--json', 'print the plan as JSON')
    .action((o: ScalingFlags) => {
      try {
        if ((o.lastBootstrapMin === undefined) !== (o.lastBootstrapGib === undefined)) {
          throw new OpError(
            'BAD_ARGUMENT',
            '--last-bootstrap-min and --last-bootstrap-gib go together',
            'Give both: how long it took and the data per node at the time.',
          );
        }
        const input = parseFlags(
          'estimate-scaling',
          estimateScalingInputSchema,
          {
            dataGiB: cliNumber(o.dataGib),
            nodes: cliNumber(o.nodes),
            targetNodes: cliNumber(o.target),
            targetThroughput: cliNumber(o.targetThroughput),
            perNodeThroughput: cliNumber(o.perNodeThroughput),
            nodesPerStep: cliNumber(o.step),
            streamMiBs: cliNumber(o.streamMibs),
            diskGiB: cliNumber(o.diskGib),
            compactionMiBs: cliNumber(o.compactionMibs),
            lastBootstrap:
              o.lastBootstrapMin !== undefined ? { minutes: cliNumber(o.lastBootstrapMin), dataPerNodeGiB: cliNumber(o.lastBootstrapGib) } : undefined,
            firstStepMinutes: cliNumber(o.firstStepMin),
            exponent: cliNumber(o.exponent),
            product: o.scylla ? 'scylla' : 'cassandra',
            tablets: o.scylla ? !o.vnodes : undefined,
          },
          FLAGS,
        );
        const plan = estimateScaling(input);
        if (o.json) printJson(plan);
        else printText(renderScaling(plan));
      } catch (e) {
        failWith(e, o);
      }
    });
}
