/**
 * Stress-run I/O: find the tool's binary, keep each run in its own folder (runs/<id>/ under the data home),
 * run its steps as detached process groups writing straight into files, and end a whole process tree.
 * Status lives in status.json so a CLI in another process can read or cancel a run the MCP server started.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, rmSync } from 'node:fs';
import { access, chmod, lstat, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { credentialsFileProbeArgv, credentialsFileSupported, safeCredentialsPath } from '../core/stress/argv-cassandra-stress.js';
import type { StressToolName } from '../core/stress/params.js';
import { OpError } from '../ops/errors.js';
import { dataHome } from './data-home.js';

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
export function stressToolCandidates(tool: StressToolName, explicit: string | undefined, env: Env = process.env, home: string = homedir()): { path: string; from: string }[] {
  const out: { path: string; from: string }[] = [];
  if (explicit) out.push({ path: explicit, from: 'explicit path' });
  const fromEnv = env[ENV_VAR[tool]];
  if (fromEnv && fromEnv.trim()) out.push({ path: fromEnv.trim(), from: `$${ENV_VAR[tool]}` });
  for (const dir of (env['PATH'] ?? '').split(delimiter).filter(Boolean)) out.push({ path: join(dir, tool), from: 'PATH' });
  if (tool === 'latte') {
    const caches = [env['CQL_TUNER_CACHE']?.trim(), env['XDG_CACHE_HOME']?.trim() ? join(env['XDG_CACHE_HOME']!.trim(), 'cql-tuner') : undefined, join(home, '.cache', 'cql-tuner')];
    for (const c of caches) if (c) out.push({ path: join(c, `latte-${LATTE_VERSION}`, 'bin', 'latte'), from: 'cql-tuner cache' });
  }
  if (tool === 'cassandra-stress' && env['CASSANDRA_HOME']) out.push({ path: join(env['CASSANDRA_HOME'], 'tools', 'bin', 'cassandra-stress'), from: '$CASSANDRA_HOME/tools/bin' });
  return out;
}

/**
 * The tool's binary: an explicit path, then $CQL_TUNER_LATTE / $CQL_TUNER_CASSANDRA_STRESS /
 * $CQL_TUNER_SCYLLA_BENCH, then PATH, then (latte) ~/.cache/cql-tuner/latte-0.29.0/bin/latte or
 * (cassandra-stress) $CASSANDRA_HOME/tools/bin. An explicit path that is not executable is an error, not skipped.
 */
export async function locateStressTool(tool: StressToolName, explicit?: string, env: Env = process.env, home: string = homedir()): Promise<{ path: string; from: string }> {
  // As with nodetoolPath: an explicit binary must be the named tool, so it cannot become a way to run any program.
  if (explicit && !new RegExp(`^${tool}(\\.sh)?$`).test(explicit.split('/').pop() ?? '')) {
    throw new OpError('STRESS_TOOL_NOT_FOUND', `binary ${JSON.stringify(explicit.slice(0, 200))} is not a file named ${tool}`, `Give the path of the ${tool} executable itself (…/${tool}), or omit binary.`);
  }
  const candidates = stressToolCandidates(tool, explicit, env, home);
  if (explicit && !(await executable(explicit))) {
    throw new OpError('STRESS_TOOL_NOT_FOUND', `${tool} binary ${explicit} is missing or not executable`, `Give the path of an executable ${tool}, or omit it to search $${ENV_VAR[tool]}, PATH and the cache.`);
  }
  for (const c of candidates) if (await executable(c.path)) return c;
  const install =
    tool === 'latte'
      ? `cargo install latte-cli --version ${LATTE_VERSION} --locked --root ~/.cache/cql-tuner/latte-${LATTE_VERSION}`
      : tool === 'cassandra-stress'
        ? 'use the cassandra-stress of a Cassandra tarball (set CASSANDRA_HOME, or $CQL_TUNER_CASSANDRA_STRESS)'
        : 'build scylla-bench from source (git clone https://github.com/scylladb/scylla-bench, go build .; its go.mod replaces gocql, so go install @latest does not work) and set $CQL_TUNER_SCYLLA_BENCH';
  throw new OpError('STRESS_TOOL_NOT_FOUND', `${tool} was not found (looked at: explicit path, $${ENV_VAR[tool]}, PATH${tool === 'latte' ? ', ~/.cache/cql-tuner' : tool === 'cassandra-stress' ? ', $CASSANDRA_HOME/tools/bin' : ''})`, `Install it: ${install}.`);
}

// ---------------------------------------------------------------------------------------------------------------
// Runs folder

export type RunState = 'starting' | 'running' | 'finished' | 'failed' | 'cancelled' | 'timed-out';

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
  /** The process that owns the run (MCP server or CLI). */
  ownerPid: number;
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
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(id)) throw new OpError('STRESS_BAD_RUN_ID', `"${id}" is not a run id`, 'Use an id returned by run_stress or listed by `cql-tuner stress status`.');
  return join(runsDir(env), id);
}

export function newRunId(tool: StressToolName, now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `${t}-${tool}-${randomBytes(3).toString('hex')}`;
}

/** Atomic JSON write (tmp + rename) so a concurrent reader never sees half a file. */
export async function writeJson(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  const text = JSON.stringify(value, null, 2) + '\n';
  try {
    await writeFile(tmp, text);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    // A full disk has no room for a second copy, but rewriting the file in place reuses its own blocks: the
    // run's status still reaches status.json (a reader may then see it mid-write, and reads it as absent).
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC' || !(await access(path).then(() => true, () => false))) throw e;
    await writeFile(path, text);
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

async function procStat(pid: number): Promise<{ state: string; ppid: number; pgid: number } | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (text === null) return null;
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: rest[0] ?? '?', ppid: Number(rest[1]), pgid: Number(rest[2]) };
}

export async function pidAlive(pid: number | null): Promise<boolean> {
  if (pid === null || !Number.isInteger(pid) || pid <= 0) return false;
  const st = await procStat(pid);
  if (st) return st.state !== 'Z' && st.state !== 'X';
  if (process.platform === 'linux') return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Live processes whose process group is pgid (read from /proc): what a cancel must leave empty. */
export async function processesInGroup(pgid: number): Promise<number[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const out: number[] = [];
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    const st = await procStat(Number(n));
    if (st && st.pgid === pgid && st.state !== 'Z' && st.state !== 'X') out.push(Number(n));
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

const OWN_SECRET = /^CQL_TUNER_.*(PASSWORD|SECRET|TOKEN)/i;

/** process.env without cql-tuner's own credential variables: a step gets only what its argv builder chose. */
function inheritedEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !OWN_SECRET.test(k)) out[k] = v;
  return out;
}

/**
 * Starts one step in its own process group with stdout/stderr going straight to files (no pipe through node,
 * so the runner adds nothing to the tool's own work). onSpawn gets the pid (= pgid) at once.
 */
export function runStep(argv: string[], opts: { cwd: string; stdoutPath: string; stderrPath: string; env: Record<string, string>; onSpawn(pid: number): void }): Promise<StepResult> {
  return new Promise((resolve, reject) => {
    const out = openSync(opts.stdoutPath, 'a');
    const err = openSync(opts.stderrPath, 'a');
    const started = Date.now();
    let child;
    try {
      child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, detached: true, stdio: ['ignore', out, err], env: { ...inheritedEnv(), ...opts.env }, shell: false });
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
    const live = st && (st.state === 'starting' || st.state === 'running') && ((await pidAlive(st.ownerPid)) || (await pidAlive(st.pid)));
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
    const res = await runStep(credentialsFileProbeArgv(binary), { cwd: dir, stdoutPath: outPath, stderrPath: errPath, env: {}, onSpawn: (p) => (pid = p) }).catch((e: Error) => e);
    clearTimeout(timer);
    if (res instanceof Error) return { supported: false, reason: `\`${binary} help -credentials-file\` could not be started (${res.message})` };
    const output = [await readFile(outPath, 'utf8').catch(() => ''), await readFile(errPath, 'utf8').catch(() => '')].join('\n').slice(0, 64 * 1024);
    if (credentialsFileSupported(output, res.exitCode, timedOut)) return { supported: true, reason: 'cassandra-stress has -credentials-file' };
    const said = output.split('\n').map((l) => l.trim()).filter(Boolean).find((l) => /invalid|unknown|unrecognized/i.test(l)) ?? '';
    const how = timedOut ? `did not answer within ${Math.round(timeoutMs / 1000)} s` : `exited with ${res.exitCode ?? res.signal}${said ? ` ("${said.slice(0, 120)}")` : ''}`;
    return { supported: false, reason: `this cassandra-stress has no -credentials-file option (\`help -credentials-file\` ${how})` };
  } finally {
    clearTimeout(timer);
    if (pid !== null && timedOut) await killGroup(pid, 1000);
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

const PRIVATE_PREFIX = 'cql-tuner-cred-';

/**
 * Removes credential folders whose owner process is gone: a server killed with SIGKILL runs no exit hook, so
 * its folder would otherwise keep the password until the temp folder is cleaned. Only this user's folders
 * named with a pid are touched; a live pid (even a reused one) keeps its folder. Returns what was removed.
 */
export async function sweepStalePrivateDirs(base: string): Promise<string[]> {
  const removed: string[] = [];
  const names = await readdir(base).catch(() => [] as string[]);
  const uid = process.getuid?.();
  for (const name of names) {
    const m = name.startsWith(PRIVATE_PREFIX) ? /^(\d+)-/.exec(name.slice(PRIVATE_PREFIX.length)) : null;
    if (!m) continue;
    const dir = join(base, name);
    // lstat: a symlink planted under this name in a shared temp folder is not ours to follow or remove.
    const st = await lstat(dir).catch(() => null);
    if (!st?.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
    if (await pidAlive(Number(m[1]))) continue;
    await rm(dir, { recursive: true, force: true }).then(() => removed.push(dir)).catch(() => {});
  }
  return removed;
}

/** Private credential folders alive now: removed when this process exits, whatever ends it through exit(). */
const SECRET_DIRS = new Set<string>();
let secretExitHook = false;

export interface PrivateFile {
  dir: string;
  path: string;
  /** Removes the folder and the file; safe to call more than once. */
  remove(): Promise<void>;
}

/**
 * Writes text to a fresh private folder outside the run folder (mkdtemp, 0700) as a 0600 file created
 * exclusively, so no other user can read it and nothing kept with the run holds it.
 */
export async function writePrivateFile(name: string, text: string): Promise<PrivateFile> {
  await sweepStalePrivateDirs(privateBase());
  // The owner's pid is in the name so a later run can tell a folder left by a killed process from a live one.
  const dir = await mkdtemp(join(privateBase(), `${PRIVATE_PREFIX}${process.pid}-`));
  SECRET_DIRS.add(dir);
  if (!secretExitHook) {
    secretExitHook = true;
    process.once('exit', () => {
      for (const d of SECRET_DIRS) rmSync(d, { recursive: true, force: true });
    });
  }
  const remove = async () => {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    SECRET_DIRS.delete(dir);
  };
  try {
    await chmod(dir, 0o700);
    const path = join(dir, name);
    await writeFile(path, text, { mode: 0o600, flag: 'wx' });
    await chmod(path, 0o600); // the umask cannot widen it, but be explicit
    return { dir, path, remove };
  } catch (e) {
    await remove();
    throw e;
  }
}
