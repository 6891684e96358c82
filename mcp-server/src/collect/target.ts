/** Every command the tool runs goes through a Target: an argv array, never a shell string. */
export interface RunOptions {
  /** Hard limit; the process tree is killed when it passes. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Output cap per stream; the rest is dropped and `truncated` is set. */
  maxBytes?: number;
  /** Extra environment for the child (credentials go here, never into argv). */
  env?: Record<string, string>;
  cwd?: string;
  stdin?: string;
}

export interface RunResult {
  argv: string[];
  stdout: string;
  stderr: string;
  /** null when the process was killed by a signal or never started. */
  exitCode: number | null;
  ms: number;
  timedOut: boolean;
  cancelled: boolean;
  truncated: boolean;
  /** Set when the binary could not be started at all (ENOENT, EACCES). */
  spawnError?: string;
}

export interface Target {
  readonly kind: 'local' | 'ssh' | 'kubectl' | 'docker';
  /** Short human label for reports, e.g. "local" or "ssh db1". */
  describe(): string;
  run(argv: readonly string[], opts: RunOptions): Promise<RunResult>;
}

export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
