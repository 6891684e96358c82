import {
  buildSshCommand,
  checkSshConnection,
  explainClientFailure,
  RemoteTargetError,
  sshConnectTimeoutSec,
  type BuiltCommand,
  type RemoteKind,
  type SshConnection,
} from '../core/remote-argv.js';
import { LocalTarget } from './local-target.js';
import type { RunOptions, RunResult, Target } from './target.js';

/** Options for the local client process (ssh, kubectl, docker) that every remote Target accepts. */
export interface RemoteTargetOptions {
  /**
   * Extra environment for the local client only, never the remote command: PATH, SSH_AUTH_SOCK, KUBECONFIG,
   * DOCKER_HOST. (RunOptions.env is for the remote command.)
   */
  clientEnv?: Record<string, string>;
}

/**
 * Runs a built client argv through LocalTarget (one place for timeouts, kill and output caps), then reports
 * the caller's argv in the result and turns client failures into spawnError text.
 */
export async function runViaClient(
  kind: RemoteKind,
  label: string,
  built: Extract<BuiltCommand, { ok: true }>,
  argv: readonly string[],
  opts: RunOptions,
  clientEnv: Record<string, string> | undefined,
): Promise<RunResult> {
  const stdin = built.stdinPrefix !== '' || opts.stdin !== undefined ? built.stdinPrefix + (opts.stdin ?? '') : undefined;
  const res = await new LocalTarget().run(built.argv, {
    timeoutMs: opts.timeoutMs,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
    env: { ...(clientEnv ?? {}), ...built.clientEnv },
    ...(stdin !== undefined ? { stdin } : {}),
  });
  const spawnError = explainClientFailure(kind, label, res);
  // argv is what the caller asked for: the same command reads the same in a report whatever the target.
  const out: RunResult = {
    argv: [...argv],
    stdout: res.stdout,
    stderr: res.stderr,
    // A killed client may still exit with a code of its own (ssh catches SIGTERM and exits 255): after a
    // timeout or abort that code says nothing about the remote command, so it is reported as killed.
    exitCode: res.timedOut || res.cancelled ? null : res.exitCode,
    ms: res.ms,
    timedOut: res.timedOut,
    cancelled: res.cancelled,
    truncated: res.truncated,
  };
  if (spawnError !== undefined) out.spawnError = spawnError;
  return out;
}

/**
 * A host reached with the OpenSSH client. BatchMode: a missing key fails at once instead of prompting.
 * ~/.ssh/config applies (aliases, ProxyJump, ControlMaster) unless configFile replaces it.
 * The remote sshd always runs the command through the user's login shell, so each argv element is
 * POSIX-quoted (core/remote-argv.ts); the login shell must be POSIX-like (sh, bash, dash, ksh, zsh; not
 * csh or fish). Env values travel on stdin to a small sh wrapper, never in argv.
 * On timeout or abort only the local ssh process is killed: without a pty sshd does not signal the
 * remote command, which may run on until it finishes or next writes to its closed output.
 */
export class SshTarget implements Target {
  readonly kind = 'ssh' as const;
  readonly connection: Readonly<SshConnection>;

  constructor(
    connection: SshConnection,
    private readonly options: RemoteTargetOptions = {},
  ) {
    const c = checkSshConnection(connection);
    if (!c.ok) throw new RemoteTargetError('BAD_TARGET', c.reason);
    this.connection = { ...connection };
  }

  describe(): string {
    const { host, user, port } = this.connection;
    const h = port !== undefined && host.includes(':') ? `[${host}]` : host;
    return `ssh ${user !== undefined ? `${user}@` : ''}${h}${port !== undefined ? `:${port}` : ''}`;
  }

  /** The local argv a run executes; env values are not part of it. Throws RemoteTargetError when refused. */
  commandFor(argv: readonly string[], opts: Pick<RunOptions, 'timeoutMs' | 'env' | 'cwd' | 'stdin'>): Extract<BuiltCommand, { ok: true }> {
    const built = buildSshCommand(
      this.connection,
      { argv, ...(opts.env ? { env: opts.env } : {}), ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}), hasStdin: opts.stdin !== undefined },
      sshConnectTimeoutSec(opts.timeoutMs, this.connection.connectTimeoutSec),
    );
    if (!built.ok) throw new RemoteTargetError('BAD_COMMAND', `${this.describe()}: ${built.reason}`);
    return built;
  }

  async run(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
    const built = this.commandFor(argv, opts);
    return runViaClient('ssh', this.describe().slice('ssh '.length), built, argv, opts, this.options.clientEnv);
  }
}
