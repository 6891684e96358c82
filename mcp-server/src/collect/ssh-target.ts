import { buildSshCommand, checkSshConnection, RemoteTargetError, sshConnectTimeoutSec, type BuiltCommand, type SshConnection } from '../core/remote-argv.js';
import { runViaClient, type RemoteTargetOptions } from './remote-run.js';
import type { RunOptions, RunResult, Target } from './target.js';

export type { RemoteTargetOptions };

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
