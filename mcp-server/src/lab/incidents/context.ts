/**
 * The real IncidentContext: CQL through cassandra-driver pinned to one lab node, nodetool from the lab's own jars
 * (write commands included: this is the lab, on loopback, that the user asked to break), latte for traffic, and
 * signals/cgroups only for PIDs that /proc shows are still the lab's daemons. Secured labs are refused: the
 * incidents need a superuser and JMX without a password.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type cassandra from 'cassandra-driver';
import { loadDriver } from '../../collect/cql-driver.js';
import { locateStressTool } from '../../collect/stress-runner.js';
import { OpError } from '../../core/errors.js';
import type { ProgressFn } from '../../core/progress.js';
import { labNodetoolArgv } from '../lab.js';
import { isAlive, isLabProcess, readCmdline, signalLabProcess } from '../proc.js';
import { isSecured } from '../security.js';
import type { LabNode, LabState } from '../types.js';
import { CGROUP_V1_ROOT } from './host.js';
import { realDiskOps } from './loop-disk.js';
import type { IncidentContext, LatteRun } from './types.js';

type Client = InstanceType<typeof cassandra.Client>;

const CQL_ATTEMPTS = 3;
const CQL_RETRY_MS = 5_000;

/** The driver's error with each host's own reason ("All host(s) tried… See innerErrors" says nothing by itself). */
export function driverErrorText(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const inner = (e as { innerErrors?: Record<string, unknown> } | null)?.innerErrors;
  const hosts = Object.entries(inner ?? {}).map(([h, err]) => `${h}: ${err instanceof Error ? err.message : String(err)}`);
  return hosts.length ? `${msg.replace(/\s*See innerErrors\.?$/, '')} (${hosts.join('; ')})` : msg;
}

/**
 * One request of an incident. Every statement an incident sends is idempotent (DDL with IF [NOT] EXISTS, writes by
 * key), so a request no host could answer in time is tried again: on a 2-core host three freshly started nodes can
 * miss one (clean-clone CI, node-down, 2026-11-29). Anything else, or the last failure, names each host's reason.
 */
export async function executeIdempotent(
  client: Pick<Client, 'execute'>,
  query: string,
  params: unknown[],
  opts: cassandra.QueryOptions,
  retryMs = CQL_RETRY_MS,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.execute(query, params, opts);
      return;
    } catch (e) {
      const name = e instanceof Error ? e.name : '';
      if ((name === 'NoHostAvailableError' || name === 'OperationTimedOutError') && attempt < CQL_ATTEMPTS) {
        await new Promise((r) => setTimeout(r, retryMs * attempt));
        continue;
      }
      throw new OpError(
        'INCIDENT_CQL_FAILED',
        `${query.slice(0, 120)} failed${attempt > 1 ? ` after ${attempt} attempts` : ''}: ${driverErrorText(e)}`,
        'Check the lab with `cql-tuner lab status` (every node UN?) and its logs, then run the incident again.',
      );
    }
  }
}

const NODETOOL_TIMEOUT_MS = 300_000;

/** latte's argv for one run: pure, so tests can check exactly what an incident starts. */
export function latteArgv(bin: string, workloadFile: string, run: LatteRun, hosts: readonly string[]): string[] {
  const argv = [bin, 'run', workloadFile, '-f', run.fn, '-d', `${run.seconds}s`, '-w', '1', '-q'];
  if (run.rate !== undefined) argv.push('-r', String(run.rate));
  if (run.concurrency !== undefined) argv.push('-p', String(run.concurrency));
  for (const [k, v] of Object.entries(run.params ?? {})) argv.push('-P', `${k}=${String(v)}`);
  argv.push(...hosts);
  return argv;
}

/** nodetool argv for one lab node (JMX always listens on 127.0.0.1, one port per node). */
export function nodetoolArgvFor(prefix: readonly string[], node: LabNode, args: readonly string[]): string[] {
  return [...prefix, '-h', '127.0.0.1', '-p', String(node.jmxPort), ...args];
}

/** Only names this module makes: a fixed prefix and the node index, so no path can be steered elsewhere. */
export function cgroupDir(controller: 'cpu' | 'blkio', group: string): string {
  if (!/^cql-tuner-lab-[a-z0-9-]{1,40}$/.test(group)) {
    throw new OpError('BAD_CGROUP', `cgroup name ${group} is not one of the lab's`, 'This is a bug in an incident.');
  }
  return join(CGROUP_V1_ROOT, controller, group);
}

/** Where a background load keeps its workload, output and PID: <stateDir>/incident-load/<tag>/. */
export function loadDir(stateDir: string, tag: string): string {
  if (!/^[a-z0-9-]{1,40}$/.test(tag)) throw new OpError('BAD_LOAD_TAG', `load tag ${tag} is not a plain name`, 'This is a bug in an incident.');
  return join(stateDir, 'incident-load', tag);
}

/** True only for a live latte whose command line runs this tag's workload file. */
async function isOurLatte(pid: number, workloadFile: string): Promise<boolean> {
  if (!(await isAlive(pid))) return false;
  const argv = await readCmdline(pid);
  return argv !== null && (argv[0] ?? '').endsWith('latte') && argv.includes(workloadFile);
}

export interface RealContext extends IncidentContext {
  close(): Promise<void>;
}

export function nodeOf(state: LabState, index: number): LabNode {
  const n = state.nodes.find((x) => x.index === index);
  if (!n) {
    throw new OpError(
      'INCIDENT_NEEDS_NODES',
      `the lab has no node ${index} (it has ${state.nodes.length})`,
      'Start a 3-node lab: `cql-tuner lab start --nodes 3`.',
    );
  }
  return n;
}

async function verifiedPid(state: LabState, index: number): Promise<number> {
  const n = nodeOf(state, index);
  if (n.pid === null || !(await isLabProcess(n.pid, n.dir))) {
    throw new OpError('INCIDENT_NODE_NOT_RUNNING', `node ${index} is not running (pid ${String(n.pid)})`, 'Check `cql-tuner lab status`.');
  }
  return n.pid;
}

export async function realContext(state: LabState, onProgress: ProgressFn = () => {}): Promise<RealContext> {
  // Any security option (isSecured: auth, TLS, JMX auth or JMX SSL) breaks the plain CQL and nodetool used here.
  if (isSecured(state.security)) {
    throw new OpError(
      'INCIDENT_SECURED_LAB',
      'incidents run on an open lab only (this one has authentication, TLS, JMX authentication or JMX SSL)',
      'Stop it and start a lab without --auth/--tls/--jmx-auth/--jmx-ssl.',
    );
  }
  const driver = await loadDriver();
  const first = state.nodes[0]!;
  const client: Client = new driver.Client({
    contactPoints: state.nodes.map((n) => n.host),
    localDataCenter: first.datacenter,
    socketOptions: { readTimeout: 120_000, connectTimeout: 10_000 },
    // No pool warm-up: connect() would otherwise wait on every node, and a heal must start while a node is frozen
    // (node-down's SIGSTOP accepts TCP and never answers: the heal waited until the scenario's 300 s timeout).
    pooling: { warmup: false },
  });
  await client.connect();
  const prefix = await labNodetoolArgv(state.version);
  if (!prefix) {
    throw new OpError(
      'INCIDENT_NO_NODETOOL',
      `the jars of Cassandra ${state.version} are not in the cache`,
      'Start the lab once with `cql-tuner lab start` (it downloads them).',
    );
  }
  const hostOf = (index: number) => {
    const n = nodeOf(state, index);
    const h = client.hosts.get(`${n.host}:${n.cqlPort}`);
    if (!h) throw new OpError('INCIDENT_NODE_UNKNOWN', `the driver does not know node ${index} (${n.host})`, 'Check `cql-tuner lab status`.');
    return h;
  };
  const consistencies = driver.types.consistencies;
  const ctx: RealContext = {
    state,
    async cql(query, params, opts = {}) {
      await executeIdempotent(client, query, params ?? [], {
        prepare: (params?.length ?? 0) > 0,
        host: hostOf(opts.node ?? 1),
        consistency: opts.consistency === 'all' ? consistencies.all : consistencies.one,
      });
    },
    async cqlMany(query, rows, concurrency = 32) {
      for (let i = 0; i < rows.length; i += concurrency) {
        const opts = { prepare: true, host: hostOf(1), consistency: consistencies.one };
        await Promise.all(rows.slice(i, i + concurrency).map((r) => executeIdempotent(client, query, r, opts)));
      }
    },
    async nodetool(index, args) {
      const argv = nodetoolArgvFor(prefix, nodeOf(state, index), args);
      const r = await execa(argv[0]!, argv.slice(1), { timeout: NODETOOL_TIMEOUT_MS, reject: false });
      if (r.exitCode !== 0) {
        throw new OpError(
          'INCIDENT_NODETOOL_FAILED',
          `nodetool ${args.join(' ')} on node ${index} failed: ${(r.stderr || r.stdout).slice(-400)}`,
          'Check the node with `cql-tuner lab status`.',
        );
      }
      return r.stdout;
    },
    async latte(run) {
      const bin = (await locateStressTool('latte')).path;
      const dir = await mkdtemp(join(tmpdir(), 'cql-tuner-incident-'));
      try {
        const file = join(dir, 'workload.rn');
        await writeFile(file, run.workload, { mode: 0o600 });
        const argv = latteArgv(
          bin,
          file,
          run,
          state.nodes.map((n) => n.host),
        );
        // Errors (timeouts, overload) are the point of some incidents: the exit code is not a failure here.
        await execa(argv[0]!, argv.slice(1), { cwd: dir, timeout: (run.seconds + 120) * 1000, reject: false, stdin: 'ignore' });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async startLoad(tag, run) {
      const bin = (await locateStressTool('latte')).path;
      const dir = loadDir(state.stateDir, tag);
      await ctx.stopLoad(tag);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, 'workload.rn');
      await writeFile(file, run.workload, { mode: 0o600 });
      const argv = latteArgv(
        bin,
        file,
        run,
        state.nodes.map((n) => n.host),
      );
      const out = openSync(join(dir, 'latte.out'), 'w');
      try {
        // Detached: the load outlives this CLI call (diagnose runs next); stopLoad ends its group.
        const child = spawn(argv[0]!, argv.slice(1), { cwd: dir, detached: true, stdio: ['ignore', out, out] });
        if (child.pid === undefined) throw new OpError('INCIDENT_LOAD_FAILED', `could not start ${bin}`, 'Check that latte runs: `latte --version`.');
        child.on('error', () => {});
        child.unref();
        await writeFile(join(dir, 'pid'), `${child.pid}\n`);
      } finally {
        closeSync(out);
      }
    },
    async stopLoad(tag) {
      const dir = loadDir(state.stateDir, tag);
      const pid = Number.parseInt((await readFile(join(dir, 'pid'), 'utf8').catch(() => '')).trim(), 10);
      if (Number.isInteger(pid) && pid > 0 && (await isOurLatte(pid, join(dir, 'workload.rn')))) {
        try {
          process.kill(-pid, 'SIGTERM');
        } catch {
          // gone meanwhile
        }
      }
      await rm(dir, { recursive: true, force: true });
    },
    labPid: (index) => verifiedPid(state, index),
    async signal(index, sig) {
      await signalLabProcess(await verifiedPid(state, index), sig);
    },
    async cgroupWrite(controller, group, file, value) {
      const dir = cgroupDir(controller, group);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, file), value);
    },
    async cgroupRemove(controller, group) {
      const dir = cgroupDir(controller, group);
      const procs = await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => null);
      if (procs === null) return;
      for (const pid of procs.split('\n').filter(Boolean)) await writeFile(join(CGROUP_V1_ROOT, controller, 'cgroup.procs'), pid).catch(() => {});
      await rmdir(dir).catch(() => {});
    },
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    progress: (message) => onProgress({ message }),
    close: () => client.shutdown(),
  };
  return {
    ...ctx,
    disk: realDiskOps(
      state,
      (i, a) => ctx.nodetool(i, a),
      (m) => onProgress({ message: m }),
    ),
  };
}
