/**
 * Stress runs as background jobs: run_stress / stress_status / stress_cancel / compare_runs and the CLI
 * `stress` verbs. Safety first (loopback or allow-listed targets, confirmation, duration cap, one run per
 * target), then snapshot → steps → parse → rules → charts → snapshot, all kept in runs/<id>/.
 */
import { lstat, readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { worstFirst } from '../core/findings.js';
import { CASSANDRA_STRESS_KIND, LATTE_JSON_KIND, LATTE_TEXT_KIND, STRESS_PARSERS, type StressKind } from '../core/parse/stress/index.js';
import { runStressRules } from '../core/rules/stress.js';
import { ARGV_BUILDERS, redactedSteps, type StressCommand, type StressFiles } from '../core/stress/argv.js';
import { grantForUnauthorized } from '../core/cql-connect-errors.js';
import { cqlCredentialsFromEnv, type CqlCredentials } from '../collect/cql-credentials.js';
import { verifyStressTls } from '../collect/stress-tls.js';
import { argvPasswordWarning, credentialsFileText } from '../core/stress/argv-cassandra-stress.js';
import { stressPathProblem } from '../core/stress/argv-guard.js';
import { scyllaBenchPasswordWarning } from '../core/stress/argv-scylla-bench.js';
import { scrubStressText, secretValuesOf } from '../core/stress/scrub-secrets.js';
import { compareRuns as compareFacts } from '../core/stress/compare.js';
import { stressFacts, type StressFacts } from '../core/stress/facts.js';
import { LATTE_KV_WORKLOAD } from '../core/stress/latte-workload.js';
import { DEFAULT_KEYSPACE, plannedSeconds, validateParams, type StressCredentials, type StressParams } from '../core/stress/params.js';
import { CqlSession } from '../collect/cql-session.js';
import { diffSnapshots } from '../core/stress/server-diff.js';
import {
  acquireTarget,
  checkIdentity,
  diskFull,
  killGroup,
  listRunIds,
  locateStressTool,
  newRunId,
  ownerAlive,
  probeCredentialsFile,
  procIdentitySync,
  processesInGroup,
  readJson,
  readStatus,
  releaseTarget,
  runDir,
  runsDir,
  runStep,
  runStillAlive,
  writeJson,
  writePrivateFile,
  type PrivateFile,
  type RunStatusFile,
} from '../collect/stress-runner.js';
import { COMPARE_CHARTS, comparisonCharts, comparisonSvg, distributionSvg, summaryPercentiles, timelineSvg, type CompareRun } from '../render/stress-chart.js';
import { comparisonPng, distributionPng, timelinePng } from '../render/stress-chart-png.js';
import { OpError } from './errors.js';
import { noProgress, type ProgressFn } from './progress.js';
import { takeSnapshot, type ClusterSnapshot } from './snapshot.js';
import { z } from 'zod';
import { CONSISTENCY_LEVELS } from '../core/stress/params.js';
import { runIdSchema } from './input-schemas.js';
import type { CompareResult, RunResult, StartedRun, StressStatus } from '../core/reports/stress.js';
export type { CompareResult, RunResult, StartedRun, StressStatus } from '../core/reports/stress.js';

/** run_stress's input, registered by the MCP tool and checked by `cql-tuner stress run` (wait: the CLI's default, unless --detach). */
export const runStressInputSchema = z.object({
  tool: z.enum(['latte', 'cassandra-stress', 'scylla-bench']),
  workload: z.enum(['write', 'read', 'mixed', 'user']),
  readRatio: z.number().gt(0).lt(1).optional().describe('mixed: share of reads, e.g. 0.75'),
  profile: z.string().max(4096).optional().describe('user: cassandra-stress profile YAML or latte .rn script'),
  ops: z.record(z.string().max(64), z.number().positive()).optional().describe('user: operation → weight'),
  n: z.number().int().positive().optional().describe('number of operations (or durationS)'),
  durationS: z.number().int().positive().optional().describe('seconds (or n)'),
  warmupS: z.number().int().min(0).optional(),
  threads: z.number().int().min(1).max(100000).optional(),
  concurrency: z.number().int().min(1).max(100000).optional(),
  rate: z.number().positive().optional().describe('fixed target op/s (open loop); omit for closed loop'),
  consistency: z.enum(CONSISTENCY_LEVELS as [string, ...string[]]).optional(),
  keyspace: z.string().max(48).optional(),
  replicationFactor: z.number().int().min(1).max(100).optional(),
  population: z.object({ distribution: z.enum(['uniform', 'gaussian', 'sequential']), size: z.number().int().positive() }).optional(),
  nodes: z.array(z.string().max(253)).min(1).max(64),
  port: z.number().int().min(1).max(65535).optional(),
  scriptParams: z.record(z.string().max(64), z.union([z.string().max(200), z.number()])).optional(),
  binary: z.string().max(4096).optional(),
  confirm: z.boolean().optional().describe('required true for non-loopback targets, after asking the user'),
  maxDurationS: z.number().int().positive().optional(),
  snapshots: z.enum(['auto', 'lab', 'hosts', 'none']).default('auto'),
  wait: z.boolean().default(false).describe('block until the run ends (progress notifications when the client sends a token)'),
});

/** stress_status (id optional: the latest run), stress_cancel and compare_runs. */
export const stressStatusInputSchema = z.object({ id: runIdSchema.optional() });
export const stressCancelInputSchema = z.object({ id: runIdSchema });
export const compareRunsInputSchema = z.object({ a: runIdSchema, b: runIdSchema });

type Env = Record<string, string | undefined>;

export const DEFAULT_CAP_S = 600;

export interface RunStressInput extends StressParams {
  /** Path of the tool's binary (else $CQL_TUNER_<TOOL>, PATH, cache). */
  binary?: string;
  /** Required (true) for targets that are not loopback. */
  confirm?: boolean;
  /** Lower the duration cap for this run (seconds); it can never exceed $CQL_TUNER_STRESS_MAX_SECONDS / 600. */
  maxDurationS?: number;
  /** Server snapshots before and after: 'lab' (the local lab, with nodetool), 'hosts' (the run's nodes), 'none'. */
  snapshots?: 'auto' | 'lab' | 'hosts' | 'none';
}

// ---------------------------------------------------------------------------------------------------------------
// Safety

const isLoopback = (h: string) => h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));

export function allowList(env: Env = process.env): string[] {
  return (env['CQL_TUNER_STRESS_ALLOW'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Refuses targets that are neither loopback nor allow-listed, and allow-listed ones without confirm: true. */
export function checkTarget(nodes: string[], confirm: boolean | undefined, env: Env = process.env): void {
  const allowed = allowList(env);
  const foreign = nodes.filter((n) => !isLoopback(n));
  const refused = foreign.filter((n) => !allowed.includes(n));
  if (refused.length) {
    throw new OpError(
      'STRESS_TARGET_NOT_ALLOWED',
      `refusing to load ${refused.join(', ')}: stress runs write data and load the cluster, and only loopback addresses or hosts in CQL_TUNER_STRESS_ALLOW may be targeted`,
      `If this cluster is yours to load, add its contact points to the environment of cql-tuner: CQL_TUNER_STRESS_ALLOW=${refused.join(',')} (comma-separated), then call again with confirm: true.`,
    );
  }
  if (foreign.length && confirm !== true) {
    throw new OpError(
      'STRESS_CONFIRM_REQUIRED',
      `${foreign.join(', ')} is not loopback: a stress run writes load and data into that cluster`,
      'Ask the user, then call again with confirm: true (CLI: --yes).',
    );
  }
}

export function capSeconds(input: { maxDurationS?: number }, env: Env = process.env): number {
  const fromEnv = Number(env['CQL_TUNER_STRESS_MAX_SECONDS']);
  const cap = Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_CAP_S;
  return input.maxDurationS !== undefined && input.maxDurationS > 0 ? Math.min(cap, input.maxDurationS) : cap;
}

const targetKey = (p: StressParams) => `${[...p.nodes].sort().join(',')}_${p.port ?? 9042}`;

/** The login for the stress tool: what its own role would be given, from the user's environment or cqlshrc. */
function credentials(c: CqlCredentials): StressCredentials | undefined {
  return c.username ? { username: c.username, password: c.password ?? '' } : undefined;
}

/** TLS files for the tool: only latte can take them; the others would send the password in clear text. */
function stressTls(tool: StressParams['tool'], c: CqlCredentials): StressFiles['tls'] | undefined {
  if (!c.tls) return undefined;
  if (tool !== 'latte') {
    throw new OpError(
      'STRESS_TLS_UNSUPPORTED',
      `TLS is on for CQL (${c.caSource ?? 'CQL_TUNER_CQL_TLS or cqlshrc [connection] ssl'}), and cql-tuner runs ${tool} without TLS: ` +
        'it would not reach a TLS-only cluster, and would send the password unencrypted',
      'Use tool: latte (it takes the CA and client certificate from the same settings), ' +
        'or unset TLS for this run if the cluster also accepts plain connections.',
    );
  }
  const f = c.tlsFiles ?? {};
  return { ...(f.ca ? { ca: f.ca } : {}), ...(f.key && f.cert ? { key: f.key, cert: f.cert } : {}) };
}

// ---------------------------------------------------------------------------------------------------------------
// Jobs of this process

interface Job {
  id: string;
  done: Promise<RunResult>;
  cancelled: boolean;
  /** Warnings known before the steps run; they open the result's warnings. */
  warnings: string[];
  /** The private -credentials-file folder, removed as soon as the steps are over (and again at the end). */
  secret?: PrivateFile;
  /** pid of the step this process is running now (its child, not yet reaped, so the pid cannot be reused). */
  stepPid: number | null;
  /** Password values to mask in anything the tools print that the run stores or returns. */
  secrets: string[];
  /** The CQL role the tool logs in as (from the user's settings), to name a missing grant. */
  role?: string;
}
const JOBS = new Map<string, Job>();
/** Process groups of steps running now: ended with this process, so no run outlives its owner and its cap. */
const LIVE_GROUPS = new Set<number>();
let exitHook = false;
function trackGroup(pid: number): void {
  LIVE_GROUPS.add(pid);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const g of LIVE_GROUPS) {
      try {
        process.kill(-g, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  });
}

/** status.json keeps room for its last rewrite (a failed run's error and output tail) when the disk fills up. */
const STATUS_RESERVE = { reserveBytes: 32 * 1024 };

async function setStatus(dir: string, patch: Partial<RunStatusFile>): Promise<RunStatusFile> {
  const cur = (await readJson<RunStatusFile>(join(dir, 'status.json')))!;
  const next = { ...cur, ...patch };
  // A cancel from another process wins over a later "finished"/"failed" from the owner.
  if (cur.state === 'cancelled' && patch.state && patch.state !== 'cancelled') next.state = 'cancelled';
  await writeJson(join(dir, 'status.json'), next, STATUS_RESERVE);
  return next;
}

async function snapshotFor(mode: RunStressInput['snapshots'], p: StressParams, signal?: AbortSignal): Promise<ClusterSnapshot> {
  const lab = mode === 'lab' || (mode === 'auto' && p.nodes.every(isLoopback) && (p.port ?? 9042) === 9042);
  return takeSnapshot(lab ? { lab: true } : { hosts: p.nodes, cqlPort: p.port ?? 9042 }, signal ? { signal } : {});
}

/**
 * A user profile (cassandra-stress YAML, latte script) as the tool will get it: an absolute path (a relative
 * one is taken from this process's folder, not the run folder the tool runs in) of an existing regular file,
 * not a symlink, that no tool can read as an option (argv-guard.ts).
 */
export async function checkedProfile(tool: StressParams['tool'], profile: string): Promise<string> {
  const fix =
    'Give the path of the profile file itself (not a link to it), with no spaces or , = ( ) and not starting with "-"; copy it to such a path if needed.';
  const abs = resolve(profile);
  const bad = stressPathProblem(tool, abs);
  if (bad) throw new OpError('STRESS_BAD_PROFILE', `profile ${JSON.stringify(abs.slice(0, 300))} ${bad}`, fix);
  const st = await lstat(abs).catch(() => null);
  if (!st) throw new OpError('STRESS_BAD_PROFILE', `profile ${abs} does not exist on the machine cql-tuner runs on`, fix);
  if (st.isSymbolicLink()) throw new OpError('STRESS_BAD_PROFILE', `profile ${abs} is a symbolic link`, fix);
  if (!st.isFile()) throw new OpError('STRESS_BAD_PROFILE', `profile ${abs} is not a regular file`, fix);
  return abs;
}

/** Validates, takes the target, writes argv.json and starts the job; returns at once with the run id. */
export async function startStress(input: RunStressInput, deps: { onProgress?: ProgressFn; env?: Env } = {}): Promise<StartedRun> {
  const env = deps.env ?? process.env;
  const { binary: explicit, confirm, maxDurationS, snapshots = 'auto', ...params } = input;
  const problems = validateParams(params);
  if (problems.length)
    throw new OpError('STRESS_BAD_PARAMS', `invalid stress parameters: ${problems.join('; ')}`, 'Fix the parameters named above and call again.');
  if (params.workload === 'user' && params.profile !== undefined) params.profile = await checkedProfile(params.tool, params.profile);
  checkTarget(params.nodes, confirm, env);
  const capS = capSeconds({ ...(maxDurationS !== undefined ? { maxDurationS } : {}) }, env);
  const planned = plannedSeconds(params);
  if (planned !== null && planned > capS) {
    throw new OpError(
      'STRESS_TOO_LONG',
      `the run would take ${planned} s, above the ${capS} s cap`,
      `Shorten durationS, or raise the cap with CQL_TUNER_STRESS_MAX_SECONDS (default ${DEFAULT_CAP_S}).`,
    );
  }
  const tool = await locateStressTool(params.tool, explicit, env);
  // Environment first, then cqlshrc, as every collecting tool (collect/cql-credentials.ts); never an argument.
  const cql = await cqlCredentialsFromEnv(env);
  const creds = credentials(cql);
  const tls = stressTls(params.tool, cql);
  if (tls) await verifyStressTls(params.nodes, params.port ?? 9042, cql);
  // cassandra-stress takes credentials from a private file when it can (asked once per binary), else from argv.
  const probe = params.tool === 'cassandra-stress' && creds ? await probeCredentialsFile(tool.path) : null;
  const id = newRunId(params.tool);
  const dir = runDir(id, env);
  const target = targetKey(params);
  const holder = await acquireTarget(target, id, env).catch((e: unknown) => {
    throw storageError(e, runsDir(env), 'the run was not started');
  });
  if (holder) {
    throw new OpError(
      'STRESS_TARGET_BUSY',
      `run ${holder} is still loading ${params.nodes.join(', ')}: one run per target at a time`,
      `Wait for it (stress_status ${holder}) or cancel it (stress_cancel ${holder}).`,
    );
  }
  // Until the job starts, a failure (a full disk) leaves neither a run folder nor a held target behind.
  let secret: PrivateFile | undefined;
  const abandon = async (e: unknown): Promise<never> => {
    await secret?.remove();
    await releaseTarget(target, id, env).catch(() => {});
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    throw storageError(e, dir, 'the run was not started');
  };
  await mkdir(dir, { recursive: true }).catch(abandon);
  if (probe?.supported && creds) secret = await writePrivateFile('cassandra-stress-credentials.properties', credentialsFileText(creds)).catch(abandon);
  const workload = join(dir, 'kv.rn');
  const files: StressFiles = {
    workload,
    reportJson: join(dir, 'latte.json'),
    logDir: dir,
    ...(secret ? { credentialsFile: secret.path } : {}),
    ...(tls ? { tls } : {}),
  };
  if (params.tool === 'latte' && params.workload !== 'user') await writeFile(workload, LATTE_KV_WORKLOAD).catch(abandon);
  let cmd: StressCommand;
  try {
    cmd = ARGV_BUILDERS[params.tool](tool.path, params, files, creds);
  } catch (e) {
    await secret?.remove();
    await releaseTarget(target, id, env);
    throw new OpError('STRESS_BAD_PARAMS', (e as Error).message, 'Change the parameters as the message says.');
  }
  const steps = redactedSteps(cmd);
  const warnings = cmd.credentials !== 'argv' ? [] : params.tool === 'scylla-bench' ? [scyllaBenchPasswordWarning()] : [argvPasswordWarning(probe?.reason)];
  warnings.push(...cql.warnings);
  if (tls && cql.sslOptions?.rejectUnauthorized === false) {
    warnings.push(
      'TLS without certificate checks (validate = false in cqlshrc, or CQL_TUNER_CQL_TLS_INSECURE=1): ' +
        'the run would give the password to any server at these addresses',
    );
  }
  const now = new Date().toISOString();
  const credentialsMode = cmd.credentials ? { credentials: cmd.credentials } : {};
  await writeJson(join(dir, 'argv.json'), {
    tool: params.tool,
    binary: tool.path,
    binaryFrom: tool.from,
    params,
    steps,
    env: Object.keys(cmd.env),
    ...credentialsMode,
  }).catch(abandon);
  const status: RunStatusFile = {
    id,
    tool: params.tool,
    binary: tool.path,
    target,
    state: 'starting',
    step: null,
    pid: null,
    ownerPid: process.pid,
    ownerIdentity: procIdentitySync(process.pid),
    startedAt: now,
    runStartedAt: null,
    endedAt: null,
    plannedS: planned,
    capS,
    exitCode: null,
    error: null,
    ...(warnings.length ? { warnings } : {}),
  };
  await writeJson(join(dir, 'status.json'), status, STATUS_RESERVE).catch(abandon);
  const secrets = [...(creds ? [creds.password] : []), ...secretValuesOf(env), ...secretValuesOf(cmd.env)];
  const job: Job = {
    id,
    cancelled: false,
    warnings,
    stepPid: null,
    secrets,
    ...(secret ? { secret } : {}),
    ...(creds ? { role: creds.username } : {}),
    done: Promise.resolve(null as unknown as RunResult),
  };
  // The credentials folder goes whatever way the job ends (finished, failed, cancelled, timed out, thrown).
  job.done = execute(job, dir, params, cmd, capS, snapshots, deps.onProgress ?? noProgress, deps.onProgress !== undefined, env).finally(async () => {
    await secret?.remove();
    await releaseTarget(target, id, env);
  });
  JOBS.set(id, job);
  return { id, dir, tool: params.tool, binary: tool.path, binaryFrom: tool.from, steps, plannedS: planned, capS, target, ...credentialsMode, warnings };
}

async function execute(
  job: Job,
  dir: string,
  p: StressParams,
  cmd: StressCommand,
  capS: number,
  snapshots: RunStressInput['snapshots'],
  onProgress: ProgressFn,
  watched: boolean,
  env: Env,
): Promise<RunResult> {
  const warnings: string[] = [...job.warnings];
  const snapshotErrors: string[] = [];
  let before: ClusterSnapshot | null = null;
  let failure: string | null = null;
  let state: RunStatusFile['state'] = 'running';
  let timer: NodeJS.Timeout | undefined;
  let currentPid: number | null = null;
  let timedOut = false;
  try {
    if (snapshots !== 'none') {
      onProgress({ message: 'server snapshot before the run' });
      before = await snapshotFor(snapshots, p).catch((e: Error) => (snapshotErrors.push(`before: ${e.message}`), null));
      if (before) await writeJson(join(dir, 'snapshot-before.json'), before);
    }
    // The cap covers the whole job (schema, load and run) and also bounds count-based runs.
    timer = setTimeout(() => {
      timedOut = true;
      if (currentPid !== null) void killGroup(currentPid);
    }, capS * 1000);
    for (const step of cmd.steps) {
      if (job.cancelled || (await readStatus(job.id, env))?.state === 'cancelled') break;
      await setStatus(dir, { state: 'running', step: step.name, ...(step.name === 'run' ? { runStartedAt: new Date().toISOString() } : {}) });
      onProgress({ message: `${p.tool} ${step.name}` });
      // Live intervals are parsed only for someone watching (CLI line, MCP progress token): no cost otherwise.
      const poll = step.name === 'run' && watched ? setInterval(() => void reportProgress(job.id, dir, p, onProgress, env), 1000) : undefined;
      let spawnWrite: Promise<unknown> = Promise.resolve();
      const res = await runStep(step.argv, {
        cwd: dir,
        stdoutPath: join(dir, `${step.name}.out.txt`),
        stderrPath: join(dir, `${step.name}.err.txt`),
        env: cmd.env,
        onSpawn: (pid) => {
          currentPid = pid;
          job.stepPid = pid;
          trackGroup(pid);
          // Start time and command line, so a cancel from another process signals this process only.
          spawnWrite = setStatus(dir, { pid, pidIdentity: procIdentitySync(pid) }).catch(() => {});
        },
      }).finally(() => poll && clearInterval(poll));
      if (currentPid !== null) LIVE_GROUPS.delete(currentPid);
      currentPid = null;
      job.stepPid = null;
      // The pid write must land before the pid is cleared, or a finished step would look alive.
      await spawnWrite;
      await setStatus(dir, { pid: null, pidIdentity: null, exitCode: res.exitCode, ...(step.name === 'run' ? { runEndedAt: new Date().toISOString() } : {}) });
      if (job.cancelled || (await readStatus(job.id, env))?.state === 'cancelled') break;
      if (timedOut) {
        state = 'timed-out';
        break;
      }
      // latte 0.29 counts a refused statement as a request error and still exits 0 ("Schema created successfully"):
      // a missing CREATE grant would only show later as "keyspace does not exist". Check what the schema made.
      const builtinSchema = res.exitCode === 0 && step.name === 'schema' && p.tool === 'latte' && p.workload !== 'user';
      const schemaGap = builtinSchema ? await latteSchemaGap(p, job.role, env) : null;
      if (schemaGap) {
        state = 'failed';
        failure = `schema step exited with 0 but ${schemaGap}`;
        await setStatus(dir, { error: failure });
        break;
      }
      if (res.exitCode !== 0) {
        // The tail goes into status.json and the result: a tool that echoes its argv must not leak the password.
        const errText = await readFile(join(dir, `${step.name}.err.txt`), 'utf8').catch(() => '');
        const tail = errText.trim().split('\n').slice(-5).join(' | ');
        const err = scrubStressText(tail, job.secrets);
        const grant = await missingGrant(dir, step.name, errText);
        state = 'failed';
        // A tool that cannot write its output (full disk) dies with little to say: name the cause.
        const full = (await diskFull(dir)) ? ` (the runs folder ${dir} is full: no space left on its device, ENOSPC)` : '';
        failure = `${step.name} step exited with ${res.exitCode ?? res.signal}${full}: ${grant ? `${grant}; ` : ''}${err.slice(0, 600)}`;
        await setStatus(dir, { error: failure });
        break;
      }
    }
    if (state === 'running') state = (await readStatus(job.id, env))?.state === 'cancelled' || job.cancelled ? 'cancelled' : 'finished';
  } catch (e) {
    state = 'failed';
    failure = storageError(e, dir, 'the run stopped').message;
    await setStatus(dir, { error: failure }).catch(() => {});
  } finally {
    if (timer) clearTimeout(timer);
    // The step may have died on a write error before a kill: never leave its group behind.
    if (currentPid !== null) void killGroup(currentPid);
    // No step will read the credentials file again: it goes now, not after the after-snapshot.
    await job.secret?.remove();
  }
  try {
    return await finish(job, dir, p, snapshots, onProgress, { state, before, warnings, snapshotErrors, failure });
  } catch (e) {
    // Results could not be written (a full disk): report the run as failed, with what is in memory.
    const message = storageError(e, dir, 'its results were not all written').message;
    for (const f of ['result.json', 'timeline.svg', 'latency-distribution.svg', 'chart-timeline.png', 'chart-latency-distribution.png'])
      await rm(join(dir, f), { force: true }).catch(() => {});
    await setStatus(dir, { state: 'failed', error: failure ?? message, endedAt: new Date().toISOString(), pid: null }).catch(() => {});
    onProgress({ message: 'run failed' });
    return {
      id: job.id,
      state: 'failed',
      kind: null,
      facts: null,
      findings: [],
      checked: [],
      charts: [],
      serverDiff: null,
      snapshotErrors,
      warnings: [...warnings, ...(failure ? [failure] : []), message],
    };
  }
}

/**
 * What the built-in latte schema (core/stress/latte-workload.ts: CREATE KEYSPACE, then CREATE TABLE <ks>.kv) did
 * not make, with the grant it needed, or null when the table is there or nothing could be checked. system_schema
 * is readable by any logged-in role; CREATE KEYSPACE needs CREATE ON ALL KEYSPACES even with IF NOT EXISTS.
 */
async function latteSchemaGap(p: StressParams, role: string | undefined, env: Env): Promise<string | null> {
  const ks = p.keyspace ?? DEFAULT_KEYSPACE;
  const session = await CqlSession.connect({ contactPoints: p.nodes, port: p.port ?? 9042, env }).catch(() => null);
  if (!session) return null;
  try {
    const node = session.hosts().find((h) => h.up)?.address;
    if (!node) return null;
    const tablesCql = 'SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?';
    const hasTable = async () => (await session.query(node, tablesCql, [ks])).rows.some((r) => r[0] === 'kv');
    // One more look after a moment: on several nodes the one asked may not have the new schema yet.
    if ((await hasTable()) || (await new Promise((r) => setTimeout(r, 2000)).then(hasTable))) return null;
    const keyspaces = await session.query(node, 'SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?', [ks]);
    const who = role ?? '<role>';
    const grant = keyspaces.rows.length ? `GRANT CREATE ON KEYSPACE ${ks} TO ${who}` : `GRANT CREATE ON ALL KEYSPACES TO ${who}`;
    const what = keyspaces.rows.length ? `table ${ks}.kv` : `keyspace ${ks}`;
    return `${what} does not exist (latte does not report a refused statement): the role ${who} may not create it; as a superuser run: ${grant}`;
  } catch {
    return null;
  } finally {
    await session.close();
  }
}

/**
 * A step refused by authorization ("User r has no CREATE permission on <all keyspaces>", as Cassandra words
 * its Unauthorized error, which the tools print on stdout or stderr) as the GRANT that would let it run.
 */
async function missingGrant(dir: string, step: string, errText: string): Promise<string | null> {
  const out = await readFile(join(dir, `${step}.out.txt`), 'utf8').catch(() => '');
  // latte keeps going when requests are refused: its JSON report lists the request errors' messages.
  const report = step === 'run' ? await readFile(join(dir, 'latte.json'), 'utf8').catch(() => '') : '';
  for (const text of [errText, out.slice(-64 * 1024), report.slice(0, 8 * 1024 * 1024)]) {
    const at = text.search(/has no \w+ permission on </i);
    const g = at >= 0 ? grantForUnauthorized(text.slice(Math.max(0, at - 200), at + 300)) : null;
    if (g) return `the role ${g.role} lacks a permission the run needs; as a superuser run: ${g.grant}`;
  }
  return null;
}

/** Parse, rules, charts, the after-snapshot and result.json of an ended run. */
async function finish(
  job: Job,
  dir: string,
  p: StressParams,
  snapshots: RunStressInput['snapshots'],
  onProgress: ProgressFn,
  ctx: { state: RunStatusFile['state']; before: ClusterSnapshot | null; warnings: string[]; snapshotErrors: string[]; failure: string | null },
): Promise<RunResult> {
  const { state, before, warnings, snapshotErrors } = ctx;
  let after: ClusterSnapshot | null = null;
  if (ctx.failure) warnings.push(ctx.failure);
  const parsed = await parseRunOutput(dir, p.tool);
  const facts = parsed ? stressFacts(parsed.kind, parsed.value) : null;
  const checked = facts ? runStressRules(facts) : [];
  const findings = worstFirst(checked.flatMap((c) => c.findings));
  // A run whose requests were refused still "finishes" (latte counts them as errors): say which grant is missing.
  if (!ctx.failure && p.tool === 'latte') {
    const grant = await missingGrant(dir, 'run', '');
    if (grant) warnings.push(`requests were refused by authorization: ${grant}`);
  }
  let charts: string[] = [];
  if (facts) {
    await writeJson(join(dir, 'parsed.json'), { kind: parsed!.kind, warnings: parsed!.warnings, facts });
    const pcts =
      parsed!.kind === LATTE_JSON_KIND
        ? (parsed!.value as { latencyPercentilesMs: Record<string, number | null> }).latencyPercentilesMs
        : summaryPercentiles(facts);
    charts = await writeRunCharts(dir, facts, pcts, `${p.tool} ${p.workload} run ${job.id}`);
  } else warnings.push('no parsable output from the run step');
  if (snapshots !== 'none' && state !== 'cancelled') {
    onProgress({ message: 'server snapshot after the run' });
    after = await snapshotFor(snapshots, p).catch((e: Error) => (snapshotErrors.push(`after: ${e.message}`), null));
    if (after) await writeJson(join(dir, 'snapshot-after.json'), after);
  }
  const serverDiff =
    before && after
      ? diffSnapshots(
          before.nodes.map((n) => ({ address: n.address, facts: n.facts })),
          after.nodes.map((n) => ({ address: n.address, facts: n.facts })),
        )
      : null;
  const final = await setStatus(dir, { state, endedAt: new Date().toISOString(), pid: null });
  const result: RunResult = {
    id: job.id,
    state: final.state,
    kind: parsed?.kind ?? null,
    facts,
    findings,
    checked,
    charts,
    serverDiff,
    snapshotErrors,
    warnings,
  };
  await writeJson(join(dir, 'result.json'), result);
  onProgress({ message: `run ${final.state}` });
  return result;
}

/**
 * Writes the run's charts: SVG files (listed in the result) and, next to each, a PNG twin named
 * chart-<name>.png (pngChartOf) that the MCP tools return as image content. Returns the SVG paths.
 */
export async function writeRunCharts(dir: string, facts: StressFacts, pcts: Record<string, number | null>, title: string): Promise<string[]> {
  const charts: string[] = [];
  if (facts.intervals.length) {
    await writeFile(join(dir, 'timeline.svg'), timelineSvg(facts, title));
    await writeFile(pngChartOf(join(dir, 'timeline.svg')), timelinePng(facts, title));
    charts.push(join(dir, 'timeline.svg'));
  }
  if (Object.values(pcts).some((v) => v !== null)) {
    await writeFile(join(dir, 'latency-distribution.svg'), distributionSvg(facts, pcts));
    await writeFile(pngChartOf(join(dir, 'latency-distribution.svg')), distributionPng(facts, pcts));
    charts.push(join(dir, 'latency-distribution.svg'));
  }
  return charts;
}

/** The PNG written beside an SVG chart: <dir>/timeline.svg → <dir>/chart-timeline.png. */
export function pngChartOf(svgPath: string): string {
  return join(dirname(svgPath), `chart-${basename(svgPath).replace(/\.svg$/, '')}.png`);
}

/** The run step's output parsed with the tool's parser (latte: the JSON report when written, else its text). */
export async function parseRunOutput(dir: string, tool: StressParams['tool']): Promise<{ kind: string; value: unknown; warnings: string[] } | null> {
  const tries: [StressKind, string][] =
    tool === 'latte'
      ? [
          [LATTE_JSON_KIND, 'latte.json'],
          [LATTE_TEXT_KIND, 'run.out.txt'],
        ]
      : tool === 'cassandra-stress'
        ? [[CASSANDRA_STRESS_KIND, 'run.out.txt']]
        : [['stress.scylla-bench', 'run.out.txt']];
  for (const [kind, file] of tries) {
    const text = await readFile(join(dir, file), 'utf8').catch(() => null);
    if (text === null || !text.trim()) continue;
    const parser = (STRESS_PARSERS as Record<string, (t: string) => { ok: boolean; kind: string; value?: unknown; warnings?: string[] }>)[kind];
    if (!parser) continue;
    const r = parser(text);
    if (r.ok) return { kind: r.kind, value: r.value, warnings: r.warnings ?? [] };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Status, progress, cancel

async function liveFacts(dir: string, tool: StressParams['tool']): Promise<StressFacts | null> {
  const parsed = await parseRunOutput(dir, tool);
  return parsed ? stressFacts(parsed.kind, parsed.value) : null;
}

export async function stressStatus(id: string, env: Env = process.env): Promise<StressStatus> {
  const dir = runDir(id, env);
  const st = await readStatus(id, env);
  if (!st) throw new OpError('STRESS_RUN_NOT_FOUND', `no run ${id} in ${dir}`, 'List runs with `cql-tuner stress status` (no id) and use one of those ids.');
  // An owner that died leaves "running" behind: say so instead of waiting forever.
  if ((st.state === 'running' || st.state === 'starting') && !(await runStillAlive(st))) {
    st.state = 'failed';
    st.error = 'the process that owned this run exited before it finished';
  }
  const argv = await readJson<{ params: StressParams }>(join(dir, 'argv.json'));
  const result = await readJson<RunResult>(join(dir, 'result.json'));
  const facts = result?.facts ?? (argv ? await liveFacts(dir, st.tool) : null);
  const since = st.runStartedAt ?? st.startedAt;
  const endAt = st.runEndedAt ?? st.endedAt;
  const end = endAt ? Date.parse(endAt) : Date.now();
  const rated = facts?.intervals.filter((i) => i.opRate !== null) ?? [];
  const done = facts && argv?.params.n !== undefined ? (facts.totalOps ?? null) : null;
  return {
    id,
    tool: st.tool,
    state: st.state,
    step: st.step,
    elapsedS: Math.max(0, Math.round((end - Date.parse(since)) / 100) / 10),
    totalS: st.plannedS,
    capS: st.capS,
    latest: rated.at(-1) ?? null,
    intervals: rated.length,
    done,
    planned: argv?.params.n ?? null,
    error: st.error,
    warnings: result?.warnings ?? st.warnings ?? [],
    result,
    dir,
  };
}

async function reportProgress(id: string, dir: string, p: StressParams, onProgress: ProgressFn, env: Env): Promise<void> {
  const s = await stressStatus(id, env).catch(() => null);
  if (!s) return;
  const l = s.latest;
  const lat = l
    ? `${l.opRate !== null ? Math.round(l.opRate) : '?'} op/s, p50 ${l.p50Ms ?? '?'} ms, p99 ${l.p99Ms ?? '?'} ms, errors ${l.errors ?? 0}`
    : 'waiting for the first interval';
  onProgress({
    message: `${p.tool} ${s.elapsedS}s${s.totalS ? `/${s.totalS}s` : ''}: ${lat}`,
    progress: Math.floor(s.elapsedS),
    ...(s.totalS ? { total: s.totalS } : {}),
  });
  void dir;
}

export async function latestRunId(env: Env = process.env): Promise<string | null> {
  // Comparison folders (compare-<a>-<b>) live beside the runs but are not runs.
  return (await listRunIds(env)).filter((n) => !n.startsWith(COMPARE_PREFIX)).at(-1) ?? null;
}

export interface CancelResult {
  id: string;
  state: RunStatusFile['state'];
  /** Process ids left in the run's process group after the kill (read from /proc); must be empty. */
  leftover: number[];
  wasRunning: boolean;
  /** Set when nothing was signalled: why the recorded process is not the run's any more (state "stale"). */
  stale?: string;
  /** Set when the run's owner lives but the recorded step pid failed the identity check: not signalled. */
  note?: string;
}

/**
 * Why nothing of a "running" run is alive any more, or null when something is: the step process (same start
 * time and command line as recorded at its spawn) or the owner. A job of this process is always alive.
 */
async function staleReason(st: RunStatusFile, job: Job | undefined): Promise<string | null> {
  if (job) return null;
  const step = st.pid === null ? null : await checkIdentity(st.pid, st.pidIdentity);
  if (step?.same) return null;
  if (await ownerAlive(st)) return null;
  return `${step && !step.same ? `${step.why}; ` : ''}the process that owned the run (pid ${st.ownerPid}) is gone`;
}

/**
 * Ends the run's whole process tree (its process group), from this or another process. Before any signal the
 * recorded pid must still be the step it was at spawn (start time and command line from /proc): a pid left in
 * status.json by a run that died may belong to any program by now. If nothing of the run is alive, the run is
 * marked "stale" and nothing is signalled.
 */
export async function stressCancel(id: string, env: Env = process.env): Promise<CancelResult> {
  const dir = runDir(id, env);
  const st = await readStatus(id, env);
  if (!st) throw new OpError('STRESS_RUN_NOT_FOUND', `no run ${id}`, 'List runs with `cql-tuner stress status`.');
  const wasRunning = st.state === 'running' || st.state === 'starting';
  if (!wasRunning) return { id, state: st.state, leftover: [], wasRunning };
  const job = JOBS.get(id);
  const stale = await staleReason(st, job);
  if (stale) {
    const error = `ended without cql-tuner seeing it end: ${stale}; nothing was signalled`;
    const final = await setStatus(dir, { state: 'stale', pid: null, pidIdentity: null, endedAt: new Date().toISOString(), error });
    return { id, state: final.state, leftover: [], wasRunning, stale };
  }
  if (job) job.cancelled = true;
  await setStatus(dir, { state: 'cancelled' });
  let leftover: number[] = [];
  let note: string | undefined;
  // The step may be between spawn and status write: re-read the pid a few times.
  for (let i = 0; i < 10; i++) {
    const cur = await readStatus(id, env);
    const pid = cur?.pid ?? null;
    if (pid !== null) {
      // This process's own unreaped child cannot have lost its pid; any other pid is checked against /proc.
      const check = job?.stepPid === pid ? { same: true as const } : await checkIdentity(pid, cur!.pidIdentity);
      if (check.same) leftover = await killGroup(pid);
      else note = `not signalled: ${check.why}; the run's owner stops it before its next step`;
      break;
    }
    if (!job) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (job) await job.done.catch(() => null);
  const final = await setStatus(dir, { state: 'cancelled', endedAt: new Date().toISOString() });
  return { id, state: final.state, leftover, wasRunning, ...(note ? { note } : {}) };
}

/** Waits for a run this process started (CLI foreground runs and tests). */
export async function waitForRun(id: string): Promise<RunResult> {
  const job = JOBS.get(id);
  if (!job) throw new OpError('STRESS_RUN_NOT_OWNED', `run ${id} was not started by this process`, 'Poll it with stress_status instead.');
  return job.done;
}

export { processesInGroup };

// ---------------------------------------------------------------------------------------------------------------
// Compare

const COMPARE_PREFIX = 'compare-';

/** The folder of the A/B charts of two runs (ids are checked by runDir first). */
export function compareDir(a: string, b: string, env: Env = process.env): string {
  runDir(a, env);
  runDir(b, env);
  return join(runsDir(env), `${COMPARE_PREFIX}${a}-${b}`);
}

/** The side of a comparison: facts, the tool's full percentile list when it has one (latte JSON), a label. */
async function compareRunOf(key: 'A' | 'B', id: string, facts: StressFacts, env: Env): Promise<CompareRun> {
  const dir = runDir(id, env);
  let percentiles = summaryPercentiles(facts);
  if (facts.kind === LATTE_JSON_KIND) {
    const parsed = await parseRunOutput(dir, 'latte').catch(() => null);
    if (parsed?.kind === LATTE_JSON_KIND) percentiles = (parsed.value as { latencyPercentilesMs: Record<string, number | null> }).latencyPercentilesMs;
  }
  const argv = await readJson<{ params?: Partial<StressParams> }>(join(dir, 'argv.json')).catch(() => null);
  const what = [argv?.params?.tool ?? facts.tool, argv?.params?.workload].filter(Boolean).join(' ');
  return { key, label: `${id} (${what})`, facts, percentiles };
}

/**
 * Writes the A/B charts (latency and throughput over time, latency by percentile) as SVG plus PNG twins into
 * dir; a run without interval samples or percentiles is left out of the chart it cannot appear in, with a note.
 */
export async function writeCompareCharts(dir: string, a: CompareRun, b: CompareRun): Promise<{ charts: string[]; notes: string[] }> {
  const c = comparisonCharts(a, b);
  const charts: string[] = [];
  for (const name of COMPARE_CHARTS) {
    const title = `A/B ${name.replace(/-/g, ' ')}`;
    const svg = comparisonSvg(c, name, title);
    const png = comparisonPng(c, name, title);
    if (!svg || !png) continue;
    if (!charts.length) await mkdir(dir, { recursive: true });
    const path = join(dir, `${name}.svg`);
    await writeFile(path, svg);
    await writeFile(pngChartOf(path), png);
    charts.push(path);
  }
  return { charts, notes: c.notes };
}

async function factsOf(id: string, env: Env): Promise<StressFacts> {
  const dir = runDir(id, env);
  const parsed = await readJson<{ facts: StressFacts }>(join(dir, 'parsed.json'));
  if (parsed?.facts) return parsed.facts;
  const st = await readStatus(id, env);
  const live = st ? await liveFacts(dir, st.tool) : null;
  if (!live) throw new OpError('STRESS_NO_RESULT', `run ${id} has no parsed result`, 'Compare finished runs (stress_status shows the state).');
  return live;
}

export async function compareStressRuns(a: string, b: string, env: Env = process.env): Promise<CompareResult> {
  const [fa, fb] = await Promise.all([factsOf(a, env), factsOf(b, env)]);
  const comparison = compareFacts(fa, fb);
  const dir = compareDir(a, b, env);
  const written = await writeCompareCharts(dir, await compareRunOf('A', a, fa, env), await compareRunOf('B', b, fb, env)).catch((e: unknown) => {
    // The numbers stand without the pictures: a full disk costs the charts, not the comparison.
    const err = storageError(e, dir, 'the comparison charts were not written');
    return { charts: [] as string[], notes: [err.message] };
  });
  return { a, b, comparison, dir: written.charts.length ? dir : null, charts: written.charts, chartNotes: written.notes };
}

/** A file-system error as the user should read it: a full disk is named as such, with what to do. */
function storageError(e: unknown, where: string, consequence: string): Error {
  if (e instanceof OpError) return e;
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOSPC') {
    return new OpError(
      'DISK_FULL',
      `no space left on the device holding ${where} (ENOSPC): ${consequence}`,
      'Free space on that file system, or point CQL_TUNER_HOME at one with room, then run again.',
    );
  }
  return e instanceof Error ? e : new Error(String(e));
}
