import { readdirSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { checkCommandArgv, RemoteTargetError } from '../core/remote-argv.js';
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
    if (!checked.ok) throw Object.assign(new RemoteTargetError('BAD_COMMAND', `local: ${checked.reason}`), { fix: 'Remove control characters from the value that went into this command.' });
    const started = performance.now();
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    // The deadline and the abort are handled here, not by execa: a wrapper script (Cassandra's bin/nodetool
    // runs java without exec) would otherwise lose only its shell, and its java, holding the output pipe,
    // would keep the call waiting past the deadline and live on. Descendants are killed first, then the child.
    let timedOut = false;
    let cancelled = false;
    const sub = execa(file, args, {
      shell: false,
      reject: false,
      forceKillAfterDelay: 2000,
      maxBuffer: maxBytes,
      // cql-tuner's own credentials are for cql-tuner: a child gets them only when a caller passes them in
      // opts.env, never by inheritance (a nodetool or ssh that prints its environment must not leak them).
      env: { ...inheritedEnv(), ...opts.env },
      extendEnv: false,
      cwd: opts.cwd,
      input: opts.stdin,
      stdin: opts.stdin === undefined ? 'ignore' : 'pipe',
      stripFinalNewline: false,
      encoding: 'utf8',
      // Same process group as ours (a terminal's Ctrl-C reaches it); grandchildren are ended by killDescendants.
      detached: false,
      cleanup: true,
    });
    const stop = (why: 'timeout' | 'abort') => {
      if (why === 'timeout') timedOut = true;
      else cancelled = true;
      if (sub.pid !== undefined) killDescendants(sub.pid);
      sub.kill();
    };
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
      result.failed && result.exitCode === undefined && !timedOut && !cancelled && result.code
        ? `${result.code}: ${result.shortMessage}`
        : undefined;
    return {
      argv: [...argv],
      stdout: typeof result.stdout === 'string' ? result.stdout : '',
      stderr: typeof result.stderr === 'string' ? result.stderr : '',
      exitCode: result.exitCode ?? null,
      ms,
      timedOut,
      cancelled: cancelled && !timedOut,
      truncated: result.isMaxBuffer === true,
      ...(spawnError ? { spawnError } : {}),
    };
  }
}

const OWN_SECRET = /^CQL_TUNER_.*(PASSWORD|SECRET|TOKEN)/i;

/** process.env without cql-tuner's own credential variables. */
function inheritedEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !OWN_SECRET.test(k)) out[k] = v;
  return out;
}

/** SIGKILLs every live descendant of pid (read from /proc; nothing to do elsewhere), deepest first. */
function killDescendants(pid: number): void {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return;
  }
  const children = new Map<number, number[]>();
  for (const n of names) {
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(n)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      walk(c);
      found.push(c);
    }
  };
  walk(pid);
  for (const c of found) {
    try {
      process.kill(c, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
