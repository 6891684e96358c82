import { buildKubectlCommand, checkKubectlConnection, RemoteTargetError, type BuiltCommand, type KubectlConnection } from '../core/remote-argv.js';
import { runViaClient, type RemoteTargetOptions } from './remote-run.js';
import type { RunOptions, RunResult, Target } from './target.js';

/**
 * A container in a Kubernetes pod, reached with `kubectl exec`. kubectl passes argv to the container runtime
 * as is (no shell on either side); only env or cwd need a POSIX sh in the container (see buildKubectlCommand).
 * On timeout the local kubectl is killed; the API server then closes the stream, but like ssh the command
 * inside the container may run on.
 */
export class KubectlTarget implements Target {
  readonly kind = 'kubectl' as const;
  readonly connection: Readonly<KubectlConnection>;

  constructor(
    connection: KubectlConnection,
    private readonly options: RemoteTargetOptions = {},
  ) {
    const c = checkKubectlConnection(connection);
    if (!c.ok) throw new RemoteTargetError('BAD_TARGET', c.reason);
    this.connection = { ...connection };
  }

  /** "kubectl cassandra/cass-0/cassandra (context prod)". */
  describe(): string {
    return `kubectl ${this.label()}`;
  }

  private label(): string {
    const { namespace, pod, container, context } = this.connection;
    return `${namespace}/${pod}${container !== undefined ? `/${container}` : ''}${context !== undefined ? ` (context ${context})` : ''}`;
  }

  commandFor(argv: readonly string[], opts: Pick<RunOptions, 'env' | 'cwd' | 'stdin'>): Extract<BuiltCommand, { ok: true }> {
    const built = buildKubectlCommand(this.connection, {
      argv,
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
      hasStdin: opts.stdin !== undefined,
    });
    if (!built.ok) throw new RemoteTargetError('BAD_COMMAND', `${this.describe()}: ${built.reason}`);
    return built;
  }

  async run(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
    return runViaClient('kubectl', this.label(), this.commandFor(argv, opts), argv, opts, this.options.clientEnv);
  }
}
