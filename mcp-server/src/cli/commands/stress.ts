import { Command, Option } from 'commander';
import {
  compareRunsInputSchema,
  compareStressRuns,
  latestRunId,
  runStressInputSchema,
  startStress,
  stressCancel,
  stressCancelInputSchema,
  stressStatus,
  stressStatusInputSchema,
  waitForRun,
  type RunStressInput,
} from '../../ops/stress.js';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { OpError } from '../../ops/errors.js';
import { renderCompare, renderStarted, renderStatus } from '../../render/stress.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { cliList, cliNumber, parseFlags } from '../validate-flags.js';
import { progressLine } from '../progress-line.js';

interface RunFlags {
  tool: string;
  workload: string;
  readRatio?: string;
  profile?: string;
  op?: string[];
  n?: string;
  duration?: string;
  warmup?: string;
  threads?: string;
  concurrency?: string;
  rate?: string;
  cl?: string;
  keyspace?: string;
  rf?: string;
  population?: string;
  nodes: string;
  port?: string;
  binary?: string;
  yes?: boolean;
  maxDuration?: string;
  snapshots: string;
  detach?: boolean;
  json?: boolean;
}

/** Input key → the `stress run` flag that sets it, where that is not the key in kebab case. */
const RUN_FLAGS = {
  ops: '--op',
  durationS: '--duration',
  warmupS: '--warmup',
  consistency: '--cl',
  replicationFactor: '--rf',
  maxDurationS: '--max-duration',
  confirm: '--yes',
};

/** The flags as run_stress's input, checked by the same schema as the tool's arguments (ranges, names, limits). */
function inputFrom(o: RunFlags): RunStressInput {
  const ops = o.op?.length
    ? Object.fromEntries(
        o.op.map((s) => {
          const [k, w] = s.split('=');
          return [k!, cliNumber(w ?? '1')];
        }),
      )
    : undefined;
  let population: { distribution: string; size: string | number | undefined } | undefined;
  if (o.population) {
    const m = /^(uniform|gaussian|sequential):(.+)$/.exec(o.population);
    if (!m)
      throw new OpError(
        'STRESS_BAD_PARAMS',
        `--population ${o.population} is not DIST:SIZE`,
        'Use e.g. --population uniform:100000 (uniform, gaussian or sequential).',
      );
    population = { distribution: m[1]!, size: cliNumber(m[2]) };
  }
  const { wait: _wait, ...input } = parseFlags(
    'stress run',
    runStressInputSchema,
    {
      tool: o.tool,
      workload: o.workload,
      nodes: cliList(o.nodes),
      snapshots: o.snapshots,
      readRatio: cliNumber(o.readRatio),
      profile: o.profile,
      ops,
      n: cliNumber(o.n),
      durationS: cliNumber(o.duration),
      warmupS: cliNumber(o.warmup),
      threads: cliNumber(o.threads),
      concurrency: cliNumber(o.concurrency),
      rate: cliNumber(o.rate),
      consistency: o.cl?.toUpperCase(),
      keyspace: o.keyspace,
      replicationFactor: cliNumber(o.rf),
      population,
      port: cliNumber(o.port),
      binary: o.binary,
      confirm: o.yes ? true : undefined,
      maxDurationS: cliNumber(o.maxDuration),
    },
    RUN_FLAGS,
  );
  return input as RunStressInput;
}

export function stressCommand(): Command {
  const cmd = new Command('stress').description('run, watch, cancel and compare stress tests (latte, cassandra-stress, scylla-bench)');
  cmd
    .command('run')
    .description('start a stress run; waits and shows progress unless --detach (then prints the run id)')
    .addOption(new Option('--tool <tool>', 'stress tool').choices(['latte', 'cassandra-stress', 'scylla-bench']).default('latte'))
    .addOption(new Option('--workload <w>', 'workload').choices(['write', 'read', 'mixed', 'user']).default('write'))
    .option('--read-ratio <r>', 'mixed: share of reads (0–1)')
    .option('--profile <path>', 'user: cassandra-stress YAML profile or latte .rn script')
    .option('--op <name=weight...>', 'user: operation weights')
    .option('-n, --n <count>', 'number of operations')
    .option('-d, --duration <seconds>', 'duration in seconds')
    .option('--warmup <seconds>', 'warm-up seconds (latte)')
    .option('-t, --threads <n>', 'client threads')
    .option('-p, --concurrency <n>', 'requests in flight (latte, scylla-bench)')
    .option('--rate <ops>', 'fixed rate, op/s (open loop)')
    .option('--cl <level>', 'consistency level')
    .option('--keyspace <name>', 'keyspace')
    .option('--rf <n>', 'replication factor')
    .option('--population <dist:size>', 'key population, e.g. uniform:100000')
    .option('--nodes <list>', 'contact points, comma-separated', '127.0.0.1')
    .option('--port <port>', 'CQL port')
    .option('--binary <path>', 'path of the tool binary')
    .option('--yes', 'confirm a non-loopback (allow-listed) target')
    .option('--max-duration <seconds>', 'lower the duration cap')
    .addOption(new Option('--snapshots <mode>', 'server snapshots before/after').choices(['auto', 'lab', 'hosts', 'none']).default('auto'))
    .option('--detach', 'return at once with the run id')
    .option('--json', 'print JSON')
    .action(async (o: RunFlags) => {
      const progress = progressLine();
      const abort = abortOnSignal();
      try {
        const input = inputFrom(o);
        // --nodes are the user's own flag: the run's before/after snapshots may log in there.
        const started = await withCommandLineHosts(input.nodes, () => startStress(input, { onProgress: o.detach ? () => {} : progress }));
        if (o.detach) {
          if (o.json) printJson(started);
          else printText(renderStarted(started));
          // The run belongs to this process: a detached CLI run keeps the process alive until it ends.
          printText('(this process keeps running the job; use `cql-tuner stress status` from another shell)');
          await waitForRun(started.id);
          return;
        }
        abort.signal.addEventListener('abort', () => void stressCancel(started.id), { once: true });
        await waitForRun(started.id);
        progress.done();
        const st = await stressStatus(started.id);
        if (o.json) printJson(st);
        else printText(renderStatus(st));
        if (st.state !== 'finished') process.exitCode = 1;
      } catch (e) {
        progress.done();
        failWith(e, o);
      } finally {
        abort.dispose();
      }
    });
  cmd
    .command('status')
    .description('state, latest interval and (when finished) result of a run; the latest run without an id')
    .argument('[id]', 'run id')
    .option('--json', 'print JSON')
    .action(async (id: string | undefined, o: { json?: boolean }) => {
      try {
        const input = parseFlags('stress status', stressStatusInputSchema, { id }, { id: '[id]' });
        const runId = input.id ?? (await latestRunId());
        if (!runId) throw new OpError('STRESS_RUN_NOT_FOUND', 'no stress run yet', 'Start one with `cql-tuner stress run`.');
        const st = await stressStatus(runId);
        if (o.json) printJson(st);
        else printText(renderStatus(st));
      } catch (e) {
        failWith(e, o);
      }
    });
  cmd
    .command('cancel')
    .description('end a run and its whole process tree')
    .argument('<id>', 'run id')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      try {
        const input = parseFlags('stress cancel', stressCancelInputSchema, { id }, { id: '<id>' });
        const c = await stressCancel(input.id);
        if (o.json) printJson(c);
        else if (c.stale) printText(`${id} had already ended (stale): ${c.stale}; nothing signalled`);
        else
          printText(
            c.wasRunning
              ? `cancelled ${id}; ${c.leftover.length ? `still alive: ${c.leftover.join(', ')}` : 'no process left'}`
              : `${id} was not running (${c.state})`,
          );
        if (c.leftover.length) process.exitCode = 1;
      } catch (e) {
        failWith(e, o);
      }
    });
  cmd
    .command('compare')
    .description('A/B: bootstrap interval of the ratio of interval medians (B against A), and overlaid charts (SVG + PNG) in runs/compare-<a>-<b>/')
    .argument('<a>', 'baseline run id')
    .argument('<b>', 'candidate run id')
    .option('--json', 'print JSON')
    .action(async (a: string, b: string, o: { json?: boolean }) => {
      try {
        const input = parseFlags('stress compare', compareRunsInputSchema, { a, b }, { a: '<a>', b: '<b>' });
        const c = await compareStressRuns(input.a, input.b);
        if (o.json) printJson(c);
        else printText(renderCompare(c));
      } catch (e) {
        failWith(e, o);
      }
    });
  return cmd;
}
