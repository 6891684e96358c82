import type { RunOptions, RunResult, Target } from '../target.js';

/** Why a remote target ran nothing: the client's own failure (ssh exit 255, kubectl/docker exec errors). */
export interface ClientFailure {
  /** The client failure as the target reported it (e.g. "ssh to ops@db1 failed: Permission denied (publickey)."). */
  message: string;
  /** The first line of the client's stderr. */
  stderrFirstLine: string;
}

/**
 * A Target that remembers whether it ever ran a command. The readers record every failed read as "not read"
 * and carry on, which is right for a missing file but turns a host that refused the login into an empty,
 * clean report; with this the caller can tell "nothing there" from "could not get in".
 */
export class WatchedTarget implements Target {
  readonly kind: Target['kind'];
  private ran = false;
  private failure: ClientFailure | null = null;

  constructor(readonly inner: Target) {
    this.kind = inner.kind;
  }

  describe(): string {
    return this.inner.describe();
  }

  async run(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
    const r = await this.inner.run(argv, opts);
    // On a remote target spawnError is set only by the client (ssh, kubectl, docker) failing, never by the
    // remote command; on the local one it is a missing tool, which says nothing about reachability.
    if (this.inner.kind !== 'local' && r.spawnError !== undefined) {
      this.failure ??= { message: r.spawnError, stderrFirstLine: r.stderr.trim().split('\n')[0]?.trim() ?? '' };
    } else if (r.spawnError === undefined && !r.timedOut && !r.cancelled) this.ran = true;
    return r;
  }

  /** The client failure, when not one command has run on the target. */
  get unreachable(): ClientFailure | null {
    return this.ran ? null : this.failure;
  }
}
