/**
 * Pure argv builders and validators for the remote Targets (ssh, kubectl exec, docker exec). No I/O: the
 * collect/*-target.ts files run what these return. Every value that lands in a client's argv is either
 * validated against a narrow character set (names, hosts, paths) or, for the command itself, passed as one
 * argv element (kubectl, docker) or POSIX-quoted element by element (ssh, whose remote side always parses a
 * command line through the login shell).
 */
import { OpError } from './errors.js';
import { checkPort } from './validate.js';

const REMOTE_FIX = {
  BAD_TARGET: 'Correct the target (host, user, port, pod, container) in your configuration or flags.',
  BAD_COMMAND: 'Remove control characters or option-like values from what went into this command.',
} as const;

/** A target that cannot be built (BAD_TARGET) or a command a target refuses to run (BAD_COMMAND). */
export class RemoteTargetError extends OpError {
  declare readonly code: 'BAD_TARGET' | 'BAD_COMMAND';

  constructor(code: 'BAD_TARGET' | 'BAD_COMMAND', message: string, fix: string = REMOTE_FIX[code]) {
    super(code, message, fix);
    this.name = 'RemoteTargetError';
  }
}

export type Checked = { ok: true } | { ok: false; reason: string };

export type RemoteKind = 'ssh' | 'kubectl' | 'docker';

const OK: Checked = { ok: true };
const fail = (reason: string): Checked => ({ ok: false, reason });

/** A value shown inside an error message: quoted, control characters escaped, long values cut. */
export function showValue(v: unknown): string {
  if (typeof v === 'number') return String(v);
  const s = typeof v === 'string' ? v : String(v);
  const cut = s.length > 60 ? `${s.slice(0, 60)}…` : s;
  return `${JSON.stringify(cut)}${s.length > 60 ? ` (${s.length} characters)` : ''}`;
}

// ───────────────────────────── POSIX quoting ─────────────────────────────

/**
 * One argument as a POSIX shell single-quoted word: everything between single quotes is literal
 * ($, `, \, ", newlines, globs), and a single quote itself is written as '\'' (close, escaped quote, reopen).
 * The empty string becomes '' so it stays an argument.
 */
export function shQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** argv → one command line that a POSIX shell (sh, dash, bash, ksh, zsh) splits back into exactly argv. */
export function shJoin(argv: readonly string[]): string {
  return argv.map(shQuote).join(' ');
}

/**
 * Linux refuses one exec argument longer than MAX_ARG_STRLEN (32 pages = 131072 bytes with its NUL).
 * ssh sends the command as one string and sshd hands it to `$SHELL -c <command>` as one argument, so the
 * quoted command line must fit, on both machines.
 */
export const MAX_REMOTE_COMMAND_BYTES = 131_071;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The command to run remotely: at least one element, no NUL (exec cannot carry it), valid UTF-16. */
export function checkCommandArgv(argv: readonly string[]): Checked {
  if (!Array.isArray(argv) || argv.length === 0) return fail('the command argv is empty');
  for (let i = 0; i < argv.length; i++) {
    const a: unknown = argv[i];
    if (typeof a !== 'string') return fail(`argv[${i}] is not a string`);
    if (a.includes('\0')) return fail(`argv[${i}] contains a NUL character, which no process argument can carry`);
    if (LONE_SURROGATE.test(a)) return fail(`argv[${i}] contains a lone UTF-16 surrogate, which has no UTF-8 form`);
  }
  return OK;
}

// ───────────────────────────── validators ─────────────────────────────

const SSH_HOST = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,252}$/;
// IPv6 literal: hex digits and colons (an embedded IPv4 tail allowed), at least two colons; no zone ids.
const IPV6 = /^(?=.*:.*:)[0-9A-Fa-f:.]{2,45}$/;
const SSH_USER = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

/** A host name, IPv4/IPv6 literal or ssh_config alias; never option-like, never shell. */
export function checkSshHost(host: string): Checked {
  if (typeof host !== 'string' || host.length === 0) return fail('ssh host is empty');
  if (SSH_HOST.test(host) || IPV6.test(host)) return OK;
  return fail(
    `ssh host ${showValue(host)} is not a host name, IP address or ssh_config alias ` +
      '(1–253 characters of A–Z a–z 0–9 . _ -, starting with a letter, digit or _; IPv6 as hex digits and ":")',
  );
}

export function checkSshUser(user: string): Checked {
  if (typeof user === 'string' && SSH_USER.test(user)) return OK;
  return fail(`ssh user ${showValue(user)} is not a user name (1–64 characters of A–Z a–z 0–9 . _ -, starting with a letter, digit or _)`);
}

// A path handed to ssh (-i, -F, UserKnownHostsFile) or kubectl (--kubeconfig). ssh splits option values on
// whitespace and expands %-tokens in them, so both are refused rather than escaped.
const LOCAL_PATH = /^\/[A-Za-z0-9._/+@,=-]{0,4095}$/;

export function checkLocalPath(what: string, path: string): Checked {
  if (typeof path === 'string' && LOCAL_PATH.test(path)) return OK;
  return fail(`${what} ${showValue(path)} must be an absolute path of A–Z a–z 0–9 and . _ / + @ , = - (no spaces, no %)`);
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Namespace and container names are DNS-1123 labels; pod names DNS-1123 subdomains (as the API server enforces). */
export function checkK8sName(what: 'namespace' | 'pod' | 'container', name: string): Checked {
  const re = what === 'pod' ? DNS1123_SUBDOMAIN : DNS1123_LABEL;
  if (typeof name === 'string' && re.test(name)) return OK;
  const rule =
    what === 'pod'
      ? 'a DNS-1123 subdomain: lower-case a–z 0–9, "-" and ".", starting and ending alphanumeric, at most 253 characters'
      : 'a DNS-1123 label: lower-case a–z 0–9 and "-", starting and ending alphanumeric, at most 63 characters';
  return fail(`kubernetes ${what} ${showValue(name)} is not ${rule}`);
}

// kubeconfig context names are free-form (EKS uses ARNs with ":" and "/", others "user@cluster").
const KUBE_CONTEXT = /^[A-Za-z0-9_.:@/+=~,][A-Za-z0-9_.:@/+=~,-]{0,511}$/;

export function checkKubeContext(context: string): Checked {
  if (typeof context === 'string' && KUBE_CONTEXT.test(context)) return OK;
  return fail(`kubectl context ${showValue(context)} must be 1–512 characters of A–Z a–z 0–9 and _ . : @ / + = ~ , - (not starting with "-", no spaces)`);
}

const DOCKER_CONTAINER = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;
const DOCKER_USER = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,63})?$/;

export function checkDockerContainer(name: string): Checked {
  if (typeof name === 'string' && DOCKER_CONTAINER.test(name)) return OK;
  return fail(`docker container ${showValue(name)} is not a container name or id ([A-Za-z0-9][A-Za-z0-9_.-]*, at most 255 characters)`);
}

export function checkDockerUser(user: string): Checked {
  if (typeof user === 'string' && DOCKER_USER.test(user)) return OK;
  return fail(`docker user ${showValue(user)} must be user, uid, user:group or uid:gid (A–Z a–z 0–9 _ . -, not starting with "-" or ".")`);
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,254}$/;

/**
 * Environment for a remote command. Values are secrets: they travel on stdin (ssh, kubectl) or in the
 * docker client's own environment (docker exec -e NAME), never in argv. stdin carries one value per line.
 */
export function checkRemoteEnv(env: Readonly<Record<string, string>>, transport: 'stdin' | 'client-env'): Checked {
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name)) return fail(`environment variable name ${showValue(name)} is not [A-Za-z_][A-Za-z0-9_]*`);
    if (typeof value !== 'string') return fail(`environment variable ${name} has no string value`);
    if (value.includes('\0')) return fail(`environment variable ${name} contains a NUL character`);
    if (transport === 'stdin' && /[\n\r]/.test(value)) {
      return fail(`environment variable ${name} contains a line break, which cannot be sent to the remote side one value per line`);
    }
    if (LONE_SURROGATE.test(value)) return fail(`environment variable ${name} contains a lone UTF-16 surrogate`);
  }
  return OK;
}

function checkRemoteCwd(cwd: string, mustBeAbsolute: boolean): Checked {
  if (typeof cwd !== 'string' || cwd.length === 0) return fail('cwd is empty');
  if (cwd.includes('\0') || LONE_SURROGATE.test(cwd)) return fail(`cwd ${showValue(cwd)} contains a NUL character or a lone surrogate`);
  if (mustBeAbsolute && !cwd.startsWith('/')) return fail(`cwd ${showValue(cwd)} must be an absolute path for docker exec -w`);
  return OK;
}

// ───────────────────────────── env / cwd wrapper ─────────────────────────────

/**
 * A POSIX sh program that changes directory, reads one line of stdin per variable name given (IFS= read -r
 * keeps the value byte for byte), exports it, then execs the command. sh's read takes a pipe one byte at a
 * time, so whatever stdin follows the values is left for the command. Exit 125 marks a wrapper failure.
 * Positional layout: $0=cql-tuner, $1=cwd or "", then names, then "--", then the command argv.
 */
export const ENV_WRAPPER_SCRIPT =
  'if [ -n "$1" ]; then cd -- "$1" || exit 125; fi; shift; ' +
  'while [ "$1" != -- ]; do ' +
  'IFS= read -r v || { echo "cql-tuner: no value for $1 on stdin" >&2; exit 125; }; ' +
  'export "$1=$v"; shift; ' +
  'done; shift; exec "$@"';

function wrapForEnv(argv: readonly string[], names: readonly string[], cwd: string | undefined): string[] {
  return ['sh', '-c', ENV_WRAPPER_SCRIPT, 'cql-tuner', cwd ?? '', ...names, '--', ...argv];
}

// ───────────────────────────── builders ─────────────────────────────

export type HostKeyCheck = 'accept-new' | 'yes' | 'config';
export const HOST_KEY_CHECKS: readonly HostKeyCheck[] = ['accept-new', 'yes', 'config'];

export interface SshConnection {
  host: string;
  user?: string;
  port?: number;
  /** Private key file (-i); IdentitiesOnly=yes is added so an agent full of keys cannot exhaust MaxAuthTries. */
  identityFile?: string;
  /** -F: replaces ~/.ssh/config; left out, ssh reads the user's config as usual. */
  configFile?: string;
  /** UserKnownHostsFile (tests use a throwaway one). */
  knownHostsFile?: string;
  /** accept-new (default): trust on first use, refuse a changed key; yes: known keys only; config: leave it to ssh_config. */
  hostKeyCheck?: HostKeyCheck;
  /** Upper bound for TCP connect + banner exchange; the run's own timeout lowers it. */
  connectTimeoutSec?: number;
}

export interface KubectlConnection {
  namespace: string;
  pod: string;
  container?: string;
  context?: string;
  kubeconfig?: string;
}

export interface DockerConnection {
  container: string;
  user?: string;
}

/** What the caller wants run remotely (the parts of RunOptions that change the client argv). */
export interface RemoteCall {
  argv: readonly string[];
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** The caller sends stdin (the client then needs -i where it has one). */
  hasStdin?: boolean;
}

export type BuiltCommand =
  | {
      ok: true;
      /** The local client's argv: no secrets in it. */
      argv: string[];
      /** Bytes to send on stdin before the caller's own stdin (env values for the wrapper); "" when none. */
      stdinPrefix: string;
      /** Environment for the local client process (docker exec -e NAME reads values from here). */
      clientEnv: Record<string, string>;
    }
  | { ok: false; reason: string };

const refuse = (reason: string): BuiltCommand => ({ ok: false, reason });

function envNames(env: Readonly<Record<string, string>> | undefined): string[] {
  return env ? Object.keys(env) : [];
}

function stdinPrefixFor(env: Readonly<Record<string, string>> | undefined, names: readonly string[]): string {
  return names.map((n) => `${env?.[n] ?? ''}\n`).join('');
}

export function checkSshConnection(c: SshConnection): Checked {
  const host = checkSshHost(c.host);
  if (!host.ok) return host;
  if (c.user !== undefined) {
    const u = checkSshUser(c.user);
    if (!u.ok) return u;
  }
  if (c.port !== undefined) {
    const p = checkPort(c.port);
    if (!p.ok) return fail(`ssh ${p.reason}`);
  }
  for (const [what, path] of [
    ['ssh identity file', c.identityFile],
    ['ssh config file', c.configFile],
    ['ssh known_hosts file', c.knownHostsFile],
  ] as const) {
    if (path === undefined) continue;
    const r = checkLocalPath(what, path);
    if (!r.ok) return r;
  }
  if (c.hostKeyCheck !== undefined && !HOST_KEY_CHECKS.includes(c.hostKeyCheck)) {
    return fail(`ssh hostKeyCheck ${showValue(c.hostKeyCheck)} is not one of ${HOST_KEY_CHECKS.join(', ')}`);
  }
  if (c.connectTimeoutSec !== undefined && !(Number.isInteger(c.connectTimeoutSec) && c.connectTimeoutSec >= 1 && c.connectTimeoutSec <= 600)) {
    return fail(`ssh connectTimeout ${showValue(c.connectTimeoutSec)} is not a whole number of seconds between 1 and 600`);
  }
  return OK;
}

export const DEFAULT_SSH_CONNECT_TIMEOUT_SEC = 10;

/** ConnectTimeout a little under the run's timeout, so ssh reports a slow host itself before it is killed. */
export function sshConnectTimeoutSec(runTimeoutMs: number, configured = DEFAULT_SSH_CONNECT_TIMEOUT_SEC): number {
  const underRun = Math.floor((runTimeoutMs - 500) / 1000);
  return Math.max(1, Math.min(configured, underRun));
}

/**
 * ssh -T -o BatchMode=yes -o ConnectTimeout=S -o LogLevel=ERROR -o ClearAllForwardings=yes
 *     [-o StrictHostKeyChecking=accept-new|yes] [-o UserKnownHostsFile=F] [-F config] [-p port]
 *     [-i identity -o IdentitiesOnly=yes] [-l user] -- host 'arg0' 'arg1' …
 * -T: no pty, so stdout and stderr stay apart. LogLevel=ERROR: the "Permanently added … to known hosts"
 * warning stays out of the command's stderr. ClearAllForwardings: forwards from the user's config would
 * collide between parallel runs. "--" ends ssh's options: without it ssh parses options after the host too.
 */
export function buildSshCommand(conn: SshConnection, call: RemoteCall, connectTimeoutSec: number): BuiltCommand {
  const c = checkSshConnection(conn);
  if (!c.ok) return refuse(c.reason);
  const a = checkCommandArgv(call.argv);
  if (!a.ok) return refuse(a.reason);
  if (!(Number.isInteger(connectTimeoutSec) && connectTimeoutSec >= 1))
    return refuse(`ssh ConnectTimeout ${showValue(connectTimeoutSec)} is not a positive whole number`);
  const names = envNames(call.env);
  if (call.env) {
    const e = checkRemoteEnv(call.env, 'stdin');
    if (!e.ok) return refuse(e.reason);
  }
  if (call.cwd !== undefined) {
    const w = checkRemoteCwd(call.cwd, false);
    if (!w.ok) return refuse(w.reason);
  }
  const remoteArgv = names.length > 0 || call.cwd !== undefined ? wrapForEnv(call.argv, names, call.cwd) : call.argv;
  const remote = shJoin(remoteArgv);
  const bytes = new TextEncoder().encode(remote).length;
  if (bytes > MAX_REMOTE_COMMAND_BYTES) {
    return refuse(`the remote command is ${bytes} bytes once quoted; one exec argument holds at most ${MAX_REMOTE_COMMAND_BYTES} bytes (Linux MAX_ARG_STRLEN)`);
  }
  const argv = ['ssh', '-T', '-o', 'BatchMode=yes', '-o', `ConnectTimeout=${connectTimeoutSec}`, '-o', 'LogLevel=ERROR', '-o', 'ClearAllForwardings=yes'];
  const check = conn.hostKeyCheck ?? 'accept-new';
  if (check !== 'config') argv.push('-o', `StrictHostKeyChecking=${check}`);
  if (conn.knownHostsFile !== undefined) argv.push('-o', `UserKnownHostsFile=${conn.knownHostsFile}`);
  if (conn.configFile !== undefined) argv.push('-F', conn.configFile);
  if (conn.port !== undefined) argv.push('-p', String(conn.port));
  if (conn.identityFile !== undefined) argv.push('-i', conn.identityFile, '-o', 'IdentitiesOnly=yes');
  if (conn.user !== undefined) argv.push('-l', conn.user);
  argv.push('--', conn.host, remote);
  return { ok: true, argv, stdinPrefix: stdinPrefixFor(call.env, names), clientEnv: {} };
}

export function checkKubectlConnection(c: KubectlConnection): Checked {
  const checks = [checkK8sName('namespace', c.namespace), checkK8sName('pod', c.pod)];
  if (c.container !== undefined) checks.push(checkK8sName('container', c.container));
  for (const r of checks) if (!r.ok) return r;
  if (c.context !== undefined) {
    const r = checkKubeContext(c.context);
    if (!r.ok) return r;
  }
  if (c.kubeconfig !== undefined) {
    const r = checkLocalPath('kubeconfig', c.kubeconfig);
    if (!r.ok) return r;
  }
  return OK;
}

/**
 * kubectl [--kubeconfig F] [--context C] -n NS exec [-i] POD [-c CONTAINER] -- argv…
 * kubectl exec hands argv to the container runtime as is: no shell on either side. With env or cwd the
 * command is wrapped in `sh -c` (the container then needs a POSIX sh) and env values go on stdin.
 */
export function buildKubectlCommand(conn: KubectlConnection, call: RemoteCall): BuiltCommand {
  const c = checkKubectlConnection(conn);
  if (!c.ok) return refuse(c.reason);
  const a = checkCommandArgv(call.argv);
  if (!a.ok) return refuse(a.reason);
  const names = envNames(call.env);
  if (call.env) {
    const e = checkRemoteEnv(call.env, 'stdin');
    if (!e.ok) return refuse(e.reason);
  }
  if (call.cwd !== undefined) {
    const w = checkRemoteCwd(call.cwd, false);
    if (!w.ok) return refuse(w.reason);
  }
  const wrapped = names.length > 0 || call.cwd !== undefined;
  const argv = ['kubectl'];
  if (conn.kubeconfig !== undefined) argv.push('--kubeconfig', conn.kubeconfig);
  if (conn.context !== undefined) argv.push('--context', conn.context);
  argv.push('-n', conn.namespace, 'exec');
  if (call.hasStdin || names.length > 0) argv.push('-i');
  argv.push(conn.pod);
  if (conn.container !== undefined) argv.push('-c', conn.container);
  argv.push('--', ...(wrapped ? wrapForEnv(call.argv, names, call.cwd) : call.argv));
  return { ok: true, argv, stdinPrefix: stdinPrefixFor(call.env, names), clientEnv: {} };
}

export function checkDockerConnection(c: DockerConnection): Checked {
  const r = checkDockerContainer(c.container);
  if (!r.ok) return r;
  if (c.user !== undefined) return checkDockerUser(c.user);
  return OK;
}

/**
 * docker exec [-i] [-u USER] [-w DIR] [-e NAME]… -- CONTAINER argv…
 * "--" must come before CONTAINER: docker stops parsing flags at the first positional, so a "--" after it
 * would become the command. -e NAME without "=value" makes the docker client read the value from its own
 * environment, which is where the secret goes instead of argv.
 */
export function buildDockerCommand(conn: DockerConnection, call: RemoteCall): BuiltCommand {
  const c = checkDockerConnection(conn);
  if (!c.ok) return refuse(c.reason);
  const a = checkCommandArgv(call.argv);
  if (!a.ok) return refuse(a.reason);
  const names = envNames(call.env);
  if (call.env) {
    const e = checkRemoteEnv(call.env, 'client-env');
    if (!e.ok) return refuse(e.reason);
  }
  if (call.cwd !== undefined) {
    const w = checkRemoteCwd(call.cwd, true);
    if (!w.ok) return refuse(w.reason);
  }
  const argv = ['docker', 'exec'];
  if (call.hasStdin) argv.push('-i');
  if (conn.user !== undefined) argv.push('-u', conn.user);
  if (call.cwd !== undefined) argv.push('-w', call.cwd);
  for (const n of names) argv.push('-e', n);
  argv.push('--', conn.container, ...call.argv);
  return { ok: true, argv, stdinPrefix: '', clientEnv: { ...(call.env ?? {}) } };
}

// ───────────────────────────── failures of the client itself ─────────────────────────────

const INSTALL_HINT: Record<RemoteKind, string> = {
  ssh: 'the ssh target runs the OpenSSH client on this machine; install it (Debian/Ubuntu: apt-get install openssh-client; RHEL/Fedora: dnf install openssh-clients) and make sure `ssh` is on PATH',
  kubectl:
    "the kubectl target runs `kubectl exec` on this machine; install kubectl (https://kubernetes.io/docs/tasks/tools/ or your distribution's kubectl package), put it on PATH and give it a kubeconfig for the cluster",
  docker:
    "the docker target runs `docker exec` on this machine; install the Docker CLI (Debian/Ubuntu: apt-get install docker.io, or docker-ce-cli from Docker's repository) and make sure `docker` is on PATH",
};

/** klog lines kubectl prints before its real message: "E1121 22:08:00.434424   15669 memcache.go:265] …". */
const KLOG_LINE = /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s/;

function meaningfulLines(stderr: string): string[] {
  return stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !KLOG_LINE.test(l))
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
}

const DOCKER_CLIENT_FAILURE =
  /^(Cannot connect to the Docker daemon|error during connect|Error response from daemon|permission denied while trying to connect to the Docker daemon|Error: No such container)/;

export interface ClientOutcome {
  exitCode: number | null;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  spawnError?: string;
}

/**
 * Text for RunResult.spawnError when the client (ssh, kubectl, docker) could not start or could not reach the
 * remote side, so callers see "the target failed" apart from "the command failed". The remote command's own
 * failures (non-zero exit, command not found) stay plain results.
 */
export function explainClientFailure(kind: RemoteKind, label: string, r: ClientOutcome): string | undefined {
  if (r.spawnError !== undefined) {
    if (r.spawnError.startsWith('ENOENT')) return `${kind} not found: ${INSTALL_HINT[kind]}`;
    if (r.spawnError.startsWith('EACCES')) return `${kind} is not executable (EACCES): ${INSTALL_HINT[kind]}`;
    return `${kind} could not be started: ${r.spawnError}`;
  }
  if (r.timedOut || r.cancelled || r.exitCode === 0 || r.exitCode === null) return undefined;
  const lines = meaningfulLines(r.stderr);
  const first = lines[0];
  switch (kind) {
    case 'ssh':
      // ssh exits 255 for its own errors (connect, auth, host key). A remote command that itself exits 255
      // is indistinguishable by code; its stderr then shows in the message. The last line is ssh's verdict
      // ("Host key verification failed.") after any warning banner.
      if (r.exitCode !== 255) return undefined;
      return `ssh to ${label} failed: ${lines[lines.length - 1] ?? 'exit 255 without a message (connection or authentication failure, or the remote command exited 255)'}`;
    case 'kubectl': {
      // kubectl ends with "command terminated with exit code N" when the remote command ran and failed.
      if (/^command terminated with exit code \d+$/.test(lines[lines.length - 1] ?? '')) return undefined;
      return `kubectl exec on ${label} failed: ${first ?? `exit ${r.exitCode} without a message`}`;
    }
    case 'docker':
      if (first === undefined || !DOCKER_CLIENT_FAILURE.test(first)) return undefined;
      return `docker exec on ${label} failed: ${first}`;
  }
}
