/**
 * Stress-run I/O: find the tool's binary, keep each run in its own folder (runs/<id>/ under the data home),
 * run its steps as detached process groups writing straight into files, and end a whole process tree.
 * Status lives in status.json so a CLI in another process can read or cancel a run the MCP server started.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { access, mkdir, mkdtemp, open, readFile, readdir, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { inheritedEnv } from './child-env.js';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { credentialsFileProbeArgv, credentialsFileSupported, safeCredentialsPath } from '../core/stress/argv-cassandra-stress.js';
import type { StressToolName } from '../core/stress/params.js';
import { OpError } from '../core/errors.js';
import { dataHome } from './data-home.js';
import { pidAlive } from './pid-alive.js';
import { processTable } from './process-table.js';
import { sweepStaleOwnedDirs, writeOwnedPrivateFile, type PrivateFile } from './private-dirs.js';
import type { RunState } from '../core/reports/stress.js';
export type { RunState } from '../core/reports/stress.js';

export { pidAlive };
export type { PrivateFile };

type Env = Record<string, string | undefined>;

export const LATTE_VERSION = '0.29.0';

const ENV_VAR: Record<StressToolName, string> = {
  latte: 'CQL_TUNER_LATTE',
  'cassandra-stress': 'CQL_TUNER_CASSANDRA_STRESS',
  'scylla-bench': 'CQL_TUNER_SCYLLA_BENCH',
};

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** Where each tool may be, in look-up order (the first executable wins). */
export function stressToolCandidates(
  tool: StressToolName,
  explicit: string | undefined,
  env: Env = process.env,
  home: string = homedir(),
): { path: string; from: string }[] {
  const out: { path: string; from: string }[] = [];
  if (explicit) out.push({ path: explicit, from: 'explicit path' });
  const fromEnv = env[ENV_VAR[tool]];
  if (fromEnv && fromEnv.trim()) out.push({ path: fromEnv.trim(), from: `$${ENV_VAR[tool]}` });
  for (const dir of (env['PATH'] ?? '').split(delimiter).filter(Boolean)) out.push({ path: join(dir, tool), from: 'PATH' });
  if (tool === 'latte') {
    const caches = [
      env['CQL_TUNER_CACHE']?.trim(),
      env['XDG_CACHE_HOME']?.trim() ? join(env['XDG_CACHE_HOME'].trim(), 'cql-tuner') : undefined,
      join(home, '.cache', 'cql-tuner'),
    ];
    for (const c of caches) if (c) out.push({ path: join(c, `latte-${LATTE_VERSION}`, 'bin', 'latte'), from: 'cql-tuner cache' });
  }
  if (tool === 'cassandra-stress' && env['CASSANDRA_HOME'])
    out.push({ path: join(env['CASSANDRA_HOME'], 'tools', 'bin', 'cassandra-stress'), from: '$CASSANDRA_HOME/tools/bin' });
  return out;
}

/**
 * The tool's binary: an explicit path, then $CQL_TUNER_LATTE / $CQL_TUNER_CASSANDRA_STRESS /
 * $CQL_TUNER_SCYLLA_BENCH, then PATH, then (latte) ~/.cache/cql-tuner/latte-0.29.0/bin/latte or
 * (cassandra-stress) $CASSANDRA_HOME/tools/bin. An explicit path that is not executable is an error, not skipped.
 */
export async function locateStressTool(
  tool: StressToolName,
  explicit?: string,
  env: Env = process.env,
  home: string = homedir(),
): Promise<{ path: string; from: string }> {
  // As with nodetoolPath: an explicit binary must be the named tool, so it cannot become a way to run any program.
  if (explicit && !new RegExp(`^${tool}(\\.sh)?$`).test(explicit.split('/').pop() ?? '')) {
    throw new OpError(
      'STRESS_TOOL_NOT_FOUND',
      `binary ${JSON.stringify(explicit.slice(0, 200))} is not a file named ${tool}`,
      `Give the path of the ${tool} executable itself (…/${tool}), or omit binary.`,
    );
  }
  const candidates = stressToolCandidates(tool, explicit, env, home);
  if (explicit && !(await executable(explicit))) {
    throw new OpError(
      'STRESS_TOOL_NOT_FOUND',
      `${tool} binary ${explicit} is missing or not executable`,
      `Give the path of an executable ${tool}, or omit it to search $${ENV_VAR[tool]}, PATH and the cache.`,
    );
  }
  for (const c of candidates) if (await executable(c.path)) return c;
  const install =
    tool === 'latte'
      ? `cargo install latte-cli --version ${LATTE_VERSION} --locked --root ~/.cache/cql-tuner/latte-${LATTE_VERSION}`
      : tool === 'cassandra-stress'
        ? 'use the cassandra-stress of a Cassandra tarball (set CASSANDRA_HOME, or $CQL_TUNER_CASSANDRA_STRESS)'
        : 'build scylla-bench from source (git clone https://github.com/scylladb/scylla-bench, go build .; its go.mod replaces gocql, so go install @latest does not work) and set $CQL_TUNER_SCYLLA_BENCH';
  throw new OpError(
    'STRESS_TOOL_NOT_FOUND',
    `${tool} was not found (looked at: explicit path, $${ENV_VAR[tool]}, PATH${tool === 'latte' ? ', ~/.cache/cql-tuner' : tool === 'cassandra-stress' ? ', $CASSANDRA_HOME/tools/bin' : ''})`,
    `Install it: ${install}.`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Runs folder

export interface RunStatusFile {
  id: string;
  tool: StressToolName;
  binary: string;
  /** One-run-per-target key: sorted contact points and port. */
  target: string;
  state: RunState;
  step: string | null;
  /** pid of the current step's process, which is also its process-group id (spawned detached). */
  pid: number | null;
  /** Start time and command line of that process, read at spawn: a cancel signals only the same process. */
  pidIdentity?: ProcIdentity | null;
  /** The process that owns the run (MCP server or CLI). */
  ownerPid: number;
  /** Its identity, so a reused owner pid does not keep a dead run "running". */
  ownerIdentity?: ProcIdentity | null;
  startedAt: string;
  runStartedAt: string | null;
  /** When the measured step ended (before parsing and the after-snapshot). */
  runEndedAt?: string | null;
  endedAt: string | null;
  plannedS: number | null;
  capS: number;
  exitCode: number | null;
  error: string | null;
  /** Warnings known when the run started (e.g. the CQL password on cassandra-stress's command line). */
  warnings?: string[];
}

export function runsDir(env: Env = process.env): string {
  return join(dataHome(env), 'runs');
}

export function runDir(id: string, env: Env = process.env): string {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(id))
    throw new OpError('STRESS_BAD_RUN_ID', `"${id}" is not a run id`, 'Use an id returned by run_stress or listed by `cql-tuner stress status`.');
  return join(runsDir(env), id);
}

export function newRunId(tool: StressToolName, now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `${t}-${tool}-${randomBytes(3).toString('hex')}`;
}

/**
 * Atomic JSON write (tmp + rename) so a concurrent reader never sees half a file. `reserveBytes` pads the file with
 * trailing blanks (still valid JSON) to at least that size, so that a later rewrite on a full disk fits in the
 * blocks the file already holds.
 */
export async function writeJson(path: string, value: unknown, opts: { reserveBytes?: number } = {}): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  const json = JSON.stringify(value, null, 2);
  const pad = Math.max(0, (opts.reserveBytes ?? 0) - Buffer.byteLength(json) - 1);
  const text = `${json}${' '.repeat(pad)}\n`;
  try {
    await writeFile(tmp, text);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
    await rewriteInPlace(path, json, e);
  }
}

/**
 * A full disk has no room for a second copy. The file's own blocks still take a new text that is no longer than
 * the file: written over it from the start and padded with blanks to its length, never truncated first (a
 * truncate frees the blocks, and a longer text would then be cut by ENOSPC half-way: an unreadable file). A text
 * that does not fit leaves the file as it was, and the write fails.
 */
export async function rewriteInPlace(path: string, json: string, cause: unknown): Promise<void> {
  const size = await stat(path).then(
    (st) => st.size,
    () => -1,
  );
  const body = Buffer.from(`${json}\n`);
  if (size < body.length) throw cause;
  const f = await open(path, 'r+');
  try {
    await f.write(Buffer.concat([body.subarray(0, body.length - 1), Buffer.alloc(size - body.length, ' '), Buffer.from('\n')]), 0, size, 0);
  } finally {
    await f.close();
  }
}

/** True when the file system holding path has no free block left for us (the cause of a failed write). */
export async function diskFull(path: string): Promise<boolean> {
  return statfs(path).then(
    (s) => s.bavail === 0,
    () => false,
  );
}

export async function readJson<T>(path: string): Promise<T | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export async function readStatus(id: string, env: Env = process.env): Promise<RunStatusFile | null> {
  return readJson<RunStatusFile>(join(runDir(id, env), 'status.json'));
}

export async function listRunIds(env: Env = process.env): Promise<string[]> {
  const names = await readdir(runsDir(env)).catch(() => [] as string[]);
  return names.filter((n) => !n.startsWith('.')).sort();
}

// ---------------------------------------------------------------------------------------------------------------
// Processes

/** Live processes whose process group is pgid (from /proc, or `ps` elsewhere): what a cancel must leave empty. */
// eslint-disable-next-line @typescript-eslint/require-await -- async so a failed process-table read is a rejection, as callers expect
export async function processesInGroup(pgid: number): Promise<number[]> {
  return processTable()
    .filter((r) => r.pgid === pgid && r.state !== 'Z' && r.state !== 'X')
    .map((r) => r.pid);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * What tells a process apart from a later one that got the same pid: its start time in clock ticks since boot
 * (/proc/<pid>/stat field 22) and its command line. Both survive nothing but the process itself.
 */
export interface ProcIdentity {
  startTime: string;
  cmdline: string[];
}

function identityOf(stat: string, cmdline: Buffer): ProcIdentity | null {
  // Fields after the command name, which is in parentheses and may hold spaces: rest[0] is field 3 (state).
  const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  if (!startTime || !/^\d+$/.test(startTime)) return null;
  const args = cmdline.toString('utf8').split('\0');
  if (args.at(-1) === '') args.pop();
  return { startTime, cmdline: args };
}

/**
 * Read at spawn, synchronously: the child has already exec'd (spawn returns after exec) and cannot have been
 * reaped yet, so this is the step itself. null where there is no /proc (the cancel then refuses to signal).
 */
export function procIdentitySync(pid: number): ProcIdentity | null {
  try {
    return identityOf(readFileSync(`/proc/${pid}/stat`, 'utf8'), readFileSync(`/proc/${pid}/cmdline`));
  } catch {
    return null;
  }
}

export async function procIdentity(pid: number): Promise<ProcIdentity | null> {
  const [stat, cmdline] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null), readFile(`/proc/${pid}/cmdline`).catch(() => null)]);
  return stat === null || cmdline === null ? null : identityOf(stat, cmdline);
}

export type IdentityCheck = { same: true } | { same: false; why: string };

/**
 * Is pid still the process that was recorded? Anything short of the same start time and the same command line
 * is "no": a pid is reused once its process is gone, and signalling the new owner would end an unrelated program.
 * The reason never quotes the other process's command line (it may hold someone else's secrets).
 */
export async function checkIdentity(pid: number | null, recorded: ProcIdentity | null | undefined): Promise<IdentityCheck> {
  if (pid === null || !Number.isInteger(pid) || pid <= 1) return { same: false, why: `pid ${String(pid)} is not a process a run can own` };
  if (!recorded) {
    return { same: false, why: `no start time or command line was recorded for pid ${pid}, so it cannot be told apart from a process that reused the pid` };
  }
  const now = await procIdentity(pid);
  if (!now || now.cmdline.length === 0) return { same: false, why: `process ${pid} is gone` };
  if (now.startTime !== recorded.startTime) {
    return { same: false, why: `pid ${pid} now belongs to another process (started at tick ${now.startTime}, not ${recorded.startTime}): the pid was reused` };
  }
  if (JSON.stringify(now.cmdline) !== JSON.stringify(recorded.cmdline)) {
    return { same: false, why: `pid ${pid} now runs another command line than the one recorded at its start` };
  }
  return { same: true };
}

/** The run's owner is alive: the same process (identity recorded), or for older status files a live pid. */
export async function ownerAlive(st: Pick<RunStatusFile, 'ownerPid' | 'ownerIdentity'>): Promise<boolean> {
  return st.ownerIdentity ? (await checkIdentity(st.ownerPid, st.ownerIdentity)).same : pidAlive(st.ownerPid);
}

/** Something of the run is still alive: its owner or its recorded step process (identity checked). */
export async function runStillAlive(st: Pick<RunStatusFile, 'ownerPid' | 'ownerIdentity' | 'pid' | 'pidIdentity'>): Promise<boolean> {
  if (await ownerAlive(st)) return true;
  return st.pid !== null && (st.pidIdentity ? (await checkIdentity(st.pid, st.pidIdentity)).same : await pidAlive(st.pid));
}

/**
 * Ends the whole process group: SIGTERM (the tools print their summary), then SIGKILL after graceMs; returns
 * the pids still alive afterwards (from /proc), which must be empty.
 */
export async function killGroup(pgid: number, graceMs = 3000): Promise<number[]> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pgid, s);
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  const until = Date.now() + graceMs;
  while (Date.now() < until) {
    if ((await processesInGroup(pgid)).length === 0) return [];
    await sleep(100);
  }
  signal('SIGKILL');
  for (let i = 0; i < 30; i++) {
    const left = await processesInGroup(pgid);
    if (left.length === 0) return [];
    await sleep(100);
  }
  return processesInGroup(pgid);
}

export interface StepResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
}

/**
 * Starts one step in its own process group with stdout/stderr going straight to files (no pipe through node,
 * so the runner adds nothing to the tool's own work). onSpawn gets the pid (= pgid) at once.
 */
export function runStep(
  argv: string[],
  opts: { cwd: string; stdoutPath: string; stderrPath: string; env: Record<string, string>; onSpawn(pid: number): void },
): Promise<StepResult> {
  return new Promise((resolve, reject) => {
    const out = openSync(opts.stdoutPath, 'a');
    const err = openSync(opts.stderrPath, 'a');
    const started = Date.now();
    let child;
    try {
      child = spawn(argv[0]!, argv.slice(1), {
        cwd: opts.cwd,
        detached: true,
        stdio: ['ignore', out, err],
        env: { ...inheritedEnv(), ...opts.env },
        shell: false,
      });
    } catch (e) {
      closeSync(out);
      closeSync(err);
      reject(e);
      return;
    }
    closeSync(out);
    closeSync(err);
    child.once('error', reject);
    if (child.pid !== undefined) opts.onSpawn(child.pid);
    child.once('exit', (code, signal) => resolve({ exitCode: code, signal, ms: Date.now() - started }));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// One run per target (across processes): a lock file naming the run that holds the target.

function lockPath(target: string, env: Env): string {
  return join(runsDir(env), '.locks', `${target.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
}

/** Takes the target for this run, or returns the id of the live run that holds it. */
export async function acquireTarget(target: string, id: string, env: Env = process.env): Promise<string | null> {
  const path = lockPath(target, env);
  await mkdir(join(runsDir(env), '.locks'), { recursive: true });
  const held = await readJson<{ id: string }>(path);
  if (held && held.id !== id) {
    const st = await readStatus(held.id, env).catch(() => null);
    const live = st && (st.state === 'starting' || st.state === 'running') && (await runStillAlive(st));
    if (live) return held.id;
  }
  await writeJson(path, { id, ownerPid: process.pid });
  return null;
}

export async function releaseTarget(target: string, id: string, env: Env = process.env): Promise<void> {
  const path = lockPath(target, env);
  const held = await readJson<{ id: string }>(path);
  if (held?.id === id) await rm(path, { force: true });
}

// ---------------------------------------------------------------------------------------------------------------
// cassandra-stress -credentials-file: does this binary have it, and a private file for one run.

export interface CredentialsFileProbe {
  supported: boolean;
  /** What the probe saw, for the run's warning when not supported. */
  reason: string;
}

export const CREDENTIALS_PROBE_TIMEOUT_MS = 20_000;
const PROBES = new Map<string, Promise<CredentialsFileProbe>>();

/** Folder for short-lived private files: the system temp folder, unless its path would confuse cassandra-stress. */
function privateBase(): string {
  const t = tmpdir();
  return safeCredentialsPath(t) ? t : '/tmp';
}

/**
 * Asks the binary `help -credentials-file` once per binary and version (cached by path and mtime for the life
 * of this process), through runStep like any step (argv, no shell, own process group). A JVM is slow to start,
 * hence the 20 s timeout; a timeout, a spawn error or an answer that is not the option's usage line all mean
 * "not supported".
 */
export async function probeCredentialsFile(binary: string, opts: { timeoutMs?: number } = {}): Promise<CredentialsFileProbe> {
  const st = await stat(binary).catch(() => null);
  const key = `${binary}\0${st?.mtimeMs ?? 'missing'}`;
  let probe = PROBES.get(key);
  if (!probe) {
    probe = runCredentialsProbe(binary, opts.timeoutMs ?? CREDENTIALS_PROBE_TIMEOUT_MS);
    PROBES.set(key, probe);
  }
  return probe;
}

async function runCredentialsProbe(binary: string, timeoutMs: number): Promise<CredentialsFileProbe> {
  let dir: string;
  try {
    dir = await mkdtemp(join(privateBase(), 'cql-tuner-probe-'));
  } catch (e) {
    return { supported: false, reason: `its -credentials-file support could not be checked (${(e as Error).message})` };
  }
  const outPath = join(dir, 'out.txt');
  const errPath = join(dir, 'err.txt');
  let pid: number | null = null;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (pid !== null) void killGroup(pid, 1000);
  }, timeoutMs);
  try {
    const res = await runStep(credentialsFileProbeArgv(binary), {
      cwd: dir,
      stdoutPath: outPath,
      stderrPath: errPath,
      env: {},
      onSpawn: (p) => (pid = p),
    }).catch((e: Error) => e);
    clearTimeout(timer);
    if (res instanceof Error) return { supported: false, reason: `\`${binary} help -credentials-file\` could not be started (${res.message})` };
    const output = [await readFile(outPath, 'utf8').catch(() => ''), await readFile(errPath, 'utf8').catch(() => '')].join('\n').slice(0, 64 * 1024);
    if (credentialsFileSupported(output, res.exitCode, timedOut)) return { supported: true, reason: 'cassandra-stress has -credentials-file' };
    const said =
      output
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .find((l) => /invalid|unknown|unrecognized/i.test(l)) ?? '';
    const how = timedOut
      ? `did not answer within ${Math.round(timeoutMs / 1000)} s`
      : `exited with ${res.exitCode ?? res.signal}${said ? ` ("${said.slice(0, 120)}")` : ''}`;
    return { supported: false, reason: `this cassandra-stress has no -credentials-file option (\`help -credentials-file\` ${how})` };
  } finally {
    clearTimeout(timer);
    if (pid !== null && timedOut) await killGroup(pid, 1000);
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

const PRIVATE_PREFIX = 'cql-tuner-cred-';

/** Removes cassandra-stress credential folders whose owner process is gone (collect/private-dirs.ts). */
export function sweepStalePrivateDirs(base: string): Promise<string[]> {
  return sweepStaleOwnedDirs(base, PRIVATE_PREFIX);
}

/** A private 0600 file in its own 0700 folder, outside the run folder, named with this process's pid. */
export function writePrivateFile(name: string, text: string): Promise<PrivateFile> {
  return writeOwnedPrivateFile(privateBase(), PRIVATE_PREFIX, name, text);
}
