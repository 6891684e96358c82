import { buildDockerCommand, checkDockerConnection, RemoteTargetError, type BuiltCommand, type DockerConnection } from '../core/remote-argv.js';
import { runViaClient, type RemoteTargetOptions } from './remote-run.js';
import type { RunOptions, RunResult, Target } from './target.js';

/**
 * A running container reached with `docker exec` (argv straight to the runtime, no shell). Env values reach
 * the container through `-e NAME` + the docker client's own environment, so they never appear in argv.
 * DOCKER_HOST / DOCKER_CONTEXT for a remote engine go in clientEnv.
 */
export class DockerTarget implements Target {
  readonly kind = 'docker' as const;
  readonly connection: Readonly<DockerConnection>;

  constructor(
    connection: DockerConnection,
    private readonly options: RemoteTargetOptions = {},
  ) {
    const c = checkDockerConnection(connection);
    if (!c.ok) throw new RemoteTargetError('BAD_TARGET', c.reason);
    this.connection = { ...connection };
  }

  /** "docker cass1" or "docker cass1 (user cassandra)". */
  describe(): string {
    return `docker ${this.label()}`;
  }

  private label(): string {
    const { container, user } = this.connection;
    return `${container}${user !== undefined ? ` (user ${user})` : ''}`;
  }

  commandFor(argv: readonly string[], opts: Pick<RunOptions, 'env' | 'cwd' | 'stdin'>): Extract<BuiltCommand, { ok: true }> {
    const built = buildDockerCommand(this.connection, {
      argv,
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
      hasStdin: opts.stdin !== undefined,
    });
    if (!built.ok) throw new RemoteTargetError('BAD_COMMAND', `${this.describe()}: ${built.reason}`);
    return built;
  }

  async run(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
    return runViaClient('docker', this.label(), this.commandFor(argv, opts), argv, opts, this.options.clientEnv);
  }
}
