import { StringDecoder } from 'node:string_decoder';
import { execa } from 'execa';
import { descendantsOf } from '../core/parse/proc/ps-table.js';
import { checkCommandArgv, RemoteTargetError } from '../core/remote-argv.js';
import { processTable } from './process-table.js';
import { inheritedEnv } from './child-env.js';
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
    // The same argv check as the remote targets: a NUL or lone surrogate (from a hostile value) is refused
    // with a clear error instead of surfacing as an internal spawn failure.
    const checked = checkCommandArgv(argv);
    if (!checked.ok)
      throw new RemoteTargetError('BAD_COMMAND', `local: ${checked.reason}`, 'Remove control characters from the value that went into this command.');
    const started = performance.now();
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    // The deadline and the abort are handled here, not by execa: a wrapper script (Cassandra's bin/nodetool
    // runs java without exec) would otherwise lose only its shell, and its java, holding the output pipe,
    // would keep the call waiting past the deadline and live on. Descendants are killed first, then the child.
    let timedOut = false;
    let cancelled = false;
    let capped = false;
    const sub = execa(file, args, {
      shell: false,
      reject: false,
      forceKillAfterDelay: 2000,
      // Output is collected here, as bytes, not by execa: execa's own buffer counts characters after decoding and,
      // when the cap is hit, copies the whole output into its error message with every control character escaped
      // (a NUL becomes six characters), which took gigabytes for a few MiB of NUL bytes.
      buffer: false,
      // cql-tuner's own credentials are for cql-tuner: a child gets them only when a caller passes them in
      // opts.env, never by inheritance (a nodetool or ssh that prints its environment must not leak them).
      env: { ...inheritedEnv(), ...opts.env },
      extendEnv: false,
      cwd: opts.cwd,
      input: opts.stdin,
      stdin: opts.stdin === undefined ? 'ignore' : 'pipe',
      stripFinalNewline: false,
      // Same process group as ours (a terminal's Ctrl-C reaches it); grandchildren are ended by killDescendants.
      detached: false,
      cleanup: true,
    });
    const stop = (why: 'timeout' | 'abort' | 'cap') => {
      if (why === 'timeout') timedOut = true;
      else if (why === 'abort') cancelled = true;
      else capped = true;
      if (sub.pid !== undefined) killDescendants(sub.pid);
      sub.kill();
    };
    // Past the cap the child is stopped (as execa's maxBuffer did) and whatever is still in the pipe is discarded.
    const stdout = new CappedOutput(maxBytes, () => stop('cap'));
    const stderr = new CappedOutput(maxBytes, () => stop('cap'));
    sub.stdout?.on('data', (b: Buffer) => stdout.push(b));
    sub.stderr?.on('data', (b: Buffer) => stderr.push(b));
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    const onAbort = () => stop('abort');
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    const result = await sub.finally(() => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    });
    const ms = Math.round(performance.now() - started);
    const spawnError =
      result.failed && result.exitCode === undefined && !timedOut && !cancelled && !capped && result.code
        ? `${result.code}: ${result.shortMessage}`
        : undefined;
    return {
      argv: [...argv],
      stdout: stdout.text(),
      stderr: stderr.text(),
      exitCode: result.exitCode ?? null,
      ms,
      timedOut,
      cancelled: cancelled && !timedOut,
      truncated: stdout.truncated || stderr.truncated,
      ...(spawnError ? { spawnError } : {}),
    };
  }
}

/**
 * One output stream kept up to a cap counted in bytes read, whatever the bytes are: each chunk is decoded as it
 * arrives (its buffer is then free), so memory stays near the cap's worth of text.
 */
class CappedOutput {
  private readonly pieces: string[] = [];
  private readonly decoder = new StringDecoder('utf8');
  private kept = 0;
  truncated = false;
  constructor(
    private readonly maxBytes: number,
    private readonly onCap: () => void,
  ) {}

  push(b: Buffer): void {
    if (this.truncated) return;
    const room = this.maxBytes - this.kept;
    if (b.byteLength > room) {
      if (room > 0) this.pieces.push(this.decoder.write(b.subarray(0, room)));
      this.kept = this.maxBytes;
      this.truncated = true;
      this.onCap();
      return;
    }
    this.pieces.push(this.decoder.write(b));
    this.kept += b.byteLength;
  }

  /** The text; after a cut, a character left incomplete at the cap is dropped (the decoder is not flushed). */
  text(): string {
    if (!this.truncated) this.pieces.push(this.decoder.end());
    return this.pieces.join('');
  }
}

/** SIGKILLs every live descendant of pid (from /proc, or `ps` where there is no /proc), deepest first. */
function killDescendants(pid: number): void {
  for (const c of descendantsOf(pid, processTable())) {
    try {
      process.kill(c, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
