import { explainClientFailure, type BuiltCommand, type RemoteKind } from '../core/remote-argv.js';
import { LocalTarget } from './local-target.js';
import type { RunOptions, RunResult } from './target.js';
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
