import { execa } from 'execa';
import { DEFAULT_MAX_BYTES, type RunOptions, type RunResult, type Target } from './target.js';

/** Runs argv on this machine with execa: no shell, whole process tree killed on timeout or abort. */
export class LocalTarget implements Target {
  readonly kind = 'local' as const;

  describe(): string {
    return 'local';
  }

  async run(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
    const [file, ...args] = argv;
    if (!file) throw new Error('LocalTarget.run: empty argv');
    const started = performance.now();
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    const result = await execa(file, args, {
      shell: false,
      reject: false,
      timeout: opts.timeoutMs,
      cancelSignal: opts.signal,
      forceKillAfterDelay: 2000,
      maxBuffer: maxBytes,
      env: opts.env,
      extendEnv: true,
      cwd: opts.cwd,
      input: opts.stdin,
      stdin: opts.stdin === undefined ? 'ignore' : 'pipe',
      stripFinalNewline: false,
      encoding: 'utf8',
      // A detached group lets a timeout kill grandchildren too (a java launched by a wrapper script).
      detached: false,
      cleanup: true,
    });
    const ms = Math.round(performance.now() - started);
    const spawnError =
      result.failed && result.exitCode === undefined && !result.timedOut && !result.isCanceled && result.code
        ? `${result.code}: ${result.shortMessage}`
        : undefined;
    return {
      argv: [...argv],
      stdout: typeof result.stdout === 'string' ? result.stdout : '',
      stderr: typeof result.stderr === 'string' ? result.stderr : '',
      exitCode: result.exitCode ?? null,
      ms,
      timedOut: result.timedOut === true,
      cancelled: result.isCanceled === true,
      truncated: result.isMaxBuffer === true,
      ...(spawnError ? { spawnError } : {}),
    };
  }
}
