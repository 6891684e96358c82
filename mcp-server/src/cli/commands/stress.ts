import { Command, Option } from 'commander';
import type { StressParams } from '../../core/stress/params.js';
import { compareStressRuns, latestRunId, startStress, stressCancel, stressStatus, waitForRun, type RunStressInput } from '../../ops/stress.js';
import { withCommandLineHosts } from '../../collect/credential-hosts.js';
import { OpError } from '../../ops/errors.js';
import { renderCompare, renderStarted, renderStatus } from '../../render/stress.js';
import { abortOnSignal } from '../abort-on-signal.js';
import { failWith, printJson, printText } from '../output.js';
import { numberArg } from '../arg-parsers.js';
import { progressLine } from '../progress-line.js';

// Range checks (negative durations, huge rates) belong to the stress parameters' own validation.
const int = numberArg;

interface RunFlags {
  tool: StressParams['tool'];
  workload: StressParams['workload'];
  readRatio?: number;
  profile?: string;
  op?: string[];
  n?: number;
  duration?: number;
  warmup?: number;
  threads?: number;
  concurrency?: number;
  rate?: number;
  cl?: string;
  keyspace?: string;
  rf?: number;
  population?: string;
  nodes: string;
  port?: number;
  binary?: string;
  yes?: boolean;
  maxDuration?: number;
  snapshots: 'auto' | 'lab' | 'hosts' | 'none';
  detach?: boolean;
  json?: boolean;
}

function inputFrom(o: RunFlags): RunStressInput {
  const ops = o.op?.length ? Object.fromEntries(o.op.map((s) => { const [k, w] = s.split('='); return [k!, Number(w ?? 1)]; })) : undefined;
  let population: StressParams['population'];
  if (o.population) {
    const m = /^(uniform|gaussian|sequential):(\d+)$/.exec(o.population);
    if (!m) throw new OpError('STRESS_BAD_PARAMS', `--population ${o.population} is not DIST:SIZE`, 'Use e.g. --population uniform:100000 (uniform, gaussian or sequential).');
    population = { distribution: m[1] as 'uniform', size: Number(m[2]) };
  }
  return {
    tool: o.tool,
    workload: o.workload,
    nodes: o.nodes.split(',').map((s) => s.trim()).filter(Boolean),
    snapshots: o.snapshots,
    ...(o.readRatio !== undefined ? { readRatio: o.readRatio } : {}),
    ...(o.profile ? { profile: o.profile } : {}),
    ...(ops ? { ops } : {}),
    ...(o.n !== undefined ? { n: o.n } : {}),
    ...(o.duration !== undefined ? { durationS: o.duration } : {}),
    ...(o.warmup !== undefined ? { warmupS: o.warmup } : {}),
    ...(o.threads !== undefined ? { threads: o.threads } : {}),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.rate !== undefined ? { rate: o.rate } : {}),
    ...(o.cl ? { consistency: o.cl.toUpperCase() as StressParams['consistency'] } : {}),
    ...(o.keyspace ? { keyspace: o.keyspace } : {}),
    ...(o.rf !== undefined ? { replicationFactor: o.rf } : {}),
    ...(population ? { population } : {}),
    ...(o.port !== undefined ? { port: o.port } : {}),
    ...(o.binary ? { binary: o.binary } : {}),
    ...(o.yes ? { confirm: true } : {}),
    ...(o.maxDuration !== undefined ? { maxDurationS: o.maxDuration } : {}),
  };
}

export function stressCommand(): Command {
  const cmd = new Command('stress').description('run, watch, cancel and compare stress tests (latte, cassandra-stress, scylla-bench)');
  cmd
    .command('run')
    .description('start a stress run; waits and shows progress unless --detach (then prints the run id)')
    .addOption(new Option('--tool <tool>', 'stress tool').choices(['latte', 'cassandra-stress', 'scylla-bench']).default('latte'))
    .addOption(new Option('--workload <w>', 'workload').choices(['write', 'read', 'mixed', 'user']).default('write'))
    .option('--read-ratio <r>', 'mixed: share of reads (0–1)', int)
    .option('--profile <path>', 'user: cassandra-stress YAML profile or latte .rn script')
    .option('--op <name=weight...>', 'user: operation weights')
    .option('-n, --n <count>', 'number of operations', int)
    .option('-d, --duration <seconds>', 'duration in seconds', int)
    .option('--warmup <seconds>', 'warm-up seconds (latte)', int)
    .option('-t, --threads <n>', 'client threads', int)
    .option('-p, --concurrency <n>', 'requests in flight (latte, scylla-bench)', int)
    .option('--rate <ops>', 'fixed rate, op/s (open loop)', int)
    .option('--cl <level>', 'consistency level')
    .option('--keyspace <name>', 'keyspace')
    .option('--rf <n>', 'replication factor', int)
    .option('--population <dist:size>', 'key population, e.g. uniform:100000')
    .option('--nodes <list>', 'contact points, comma-separated', '127.0.0.1')
    .option('--port <port>', 'CQL port', int)
    .option('--binary <path>', 'path of the tool binary')
    .option('--yes', 'confirm a non-loopback (allow-listed) target')
    .option('--max-duration <seconds>', 'lower the duration cap', int)
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
        const runId = id ?? (await latestRunId());
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
        const c = await stressCancel(id);
        if (o.json) printJson(c);
        else if (c.stale) printText(`${id} had already ended (stale): ${c.stale}; nothing signalled`);
        else printText(c.wasRunning ? `cancelled ${id}; ${c.leftover.length ? `still alive: ${c.leftover.join(', ')}` : 'no process left'}` : `${id} was not running (${c.state})`);
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
        const c = await compareStressRuns(a, b);
        if (o.json) printJson(c);
        else printText(renderCompare(c));
      } catch (e) {
        failWith(e, o);
      }
    });
  return cmd;
}
