import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { splitBatchOutput } from '../core/nodetool-batch-output.js';
import { LocalTarget } from './local-target.js';
import { NODETOOL_BATCH_CLASS, NODETOOL_BATCH_JAVA } from './nodetool-batch-source.js';
import type { RunOptions, RunResult } from './target.js';

/** The lab nodetool's argv is `java <flags> -cp <classpath> <NodeTool class>`; the batch runner reuses it. */
export interface JavaNodetoolArgv {
  java: string;
  flags: string[];
  classpath: string;
}

export function splitJavaNodetoolArgv(prefix: readonly string[]): JavaNodetoolArgv | null {
  const cp = prefix.indexOf('-cp');
  if (cp < 1 || cp !== prefix.length - 3 || !prefix[prefix.length - 1]?.endsWith('.NodeTool')) return null;
  return { java: prefix[0]!, flags: prefix.slice(1, cp), classpath: prefix[cp + 1]! };
}

const compiled = new Map<string, Promise<string | null>>();

/**
 * Compiles the runner once per (source, classpath, JDK) into the cache; null when javac is missing or
 * fails (callers then run one JVM per command, as before). The class is written to a temp dir and
 * renamed into place, so a killed compile never leaves a half-written class behind.
 */
export function compileBatchRunner(java: string, classpath: string, cacheDir: string): Promise<string | null> {
  const key = createHash('sha256').update(NODETOOL_BATCH_JAVA).update('\0').update(classpath).update('\0').update(java).digest('hex').slice(0, 16);
  let p = compiled.get(key);
  if (!p) {
    p = doCompile(java, classpath, join(cacheDir, 'nodetool-batch', key));
    compiled.set(key, p);
  }
  return p;
}

async function doCompile(java: string, classpath: string, dir: string): Promise<string | null> {
  if (existsSync(join(dir, `${NODETOOL_BATCH_CLASS}.class`))) return dir;
  const javac = join(dirname(await realpath(java).catch(() => java)), 'javac');
  if (!existsSync(javac)) return null;
  await mkdir(dirname(dir), { recursive: true });
  const tmp = await mkdtemp(`${dir}.tmp-`);
  try {
    const src = join(tmp, `${NODETOOL_BATCH_CLASS}.java`);
    await writeFile(src, NODETOOL_BATCH_JAVA);
    const res = await new LocalTarget().run([javac, '-nowarn', '-cp', classpath, '-d', tmp, src], { timeoutMs: 120_000 });
    if (res.exitCode !== 0) return null;
    await rename(tmp, dir).catch(async () => {
      // Another process won the race: its class is as good as ours.
      await rm(tmp, { recursive: true, force: true });
    });
    return existsSync(join(dir, `${NODETOOL_BATCH_CLASS}.class`)) ? dir : null;
  } catch {
    await rm(tmp, { recursive: true, force: true });
    return null;
  }
}

const BATCH_WINDOW_MS = 50;

interface Pending {
  args: string[];
  opts: RunOptions;
  resolve(r: RunResult): void;
}

/**
 * Collects the nodetool commands issued for one node in the same tick and runs them in one JVM. Each
 * caller gets a RunResult of its own, as if it had run nodetool alone.
 */
export class NodetoolBatcher {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly java: JavaNodetoolArgv,
    private readonly classDir: string,
  ) {}

  run(args: readonly string[], opts: RunOptions): Promise<RunResult> {
    return new Promise((resolve) => {
      this.queue.push({ args: [...args], opts, resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        // Callers reach here after a few awaits of their own (locating nodetool, credentials files): a short
        // window gathers them; it is nothing next to the second or two a JVM takes to start.
        setTimeout(() => void this.flush(), BATCH_WINDOW_MS);
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    this.scheduled = false;
    let rest = batch;
    while (rest.length) {
      const { results, exitedAt } = await this.runOnce(rest);
      const done = exitedAt === null ? rest.length : exitedAt + 1;
      rest.slice(0, done).forEach((p, i) => p.resolve(results[i]!));
      rest = rest.slice(done);
      const exited = exitedAt === null ? null : results[exitedAt]!;
      // nodetool exits the JVM when it cannot reach JMX: the commands after it, aimed at the same endpoint,
      // would fail the same way, so they get that answer instead of another JVM each.
      if (exited && /Failed to connect/i.test(exited.stderr)) {
        const endpoint = endpointOf(batch[exitedAt!]?.args ?? []);
        const same = rest.filter((p) => endpointOf(p.args) === endpoint);
        for (const p of same) p.resolve({ ...exited, argv: [this.java.java, '…', ...p.args] });
        rest = rest.filter((p) => !same.includes(p));
      }
    }
  }

  /** One JVM for `batch`; exitedAt is the command during which nodetool ended the JVM, if it did. */
  private async runOnce(batch: Pending[]): Promise<{ results: RunResult[]; exitedAt: number | null }> {
    const marker = `@@cql-tuner-${randomBytes(8).toString('hex')}`;
    const argv = [this.java.java, ...this.java.flags, '-cp', `${this.java.classpath}:${this.classDir}`, NODETOOL_BATCH_CLASS, marker];
    for (const p of batch) argv.push(marker, ...p.args);
    const env = Object.assign({}, ...batch.map((p) => p.opts.env ?? {})) as Record<string, string>;
    const signals = batch.flatMap((p) => (p.opts.signal ? [p.opts.signal] : []));
    const res = await new LocalTarget().run(argv, {
      timeoutMs: Math.max(...batch.map((p) => p.opts.timeoutMs)),
      ...(signals.length ? { signal: AbortSignal.any(signals) } : {}),
      env,
      ...(batch[0]!.opts.maxBytes ? { maxBytes: batch[0]!.opts.maxBytes * batch.length } : {}),
    });
    const sections = splitBatchOutput(res.stdout, marker, batch.length);
    // Killed at the deadline (or aborted), the runner's shutdown hook still prints an "exit" section for the
    // command it was in: that command did not end on its own, and the rest must not get a JVM of their own.
    const killed = res.timedOut || res.cancelled;
    const exited = killed ? -1 : sections.findIndex((s) => s.exited);
    const results = batch.map((p, i): RunResult => {
      const s = sections[i]!;
      const finished = s.status !== null && !(killed && s.exited);
      return {
        argv: [this.java.java, '…', ...p.args],
        stdout: s.stdout,
        // The JVM's own complaints (a start-up failure) belong to every command that did not finish.
        stderr: finished ? s.stderr : `${s.stderr}${res.stderr}`,
        exitCode: finished ? s.status : res.exitCode === 0 ? 1 : res.exitCode,
        ms: s.ms ?? res.ms,
        timedOut: !finished && res.timedOut,
        cancelled: !finished && res.cancelled,
        truncated: res.truncated,
        ...(res.spawnError ? { spawnError: res.spawnError } : {}),
      };
    });
    return { results, exitedAt: exited >= 0 ? exited : null };
  }
}

function endpointOf(args: readonly string[]): string {
  const h = args.indexOf('-h');
  const p = args.indexOf('-p');
  return `${h >= 0 ? args[h + 1] : ''}:${p >= 0 ? args[p + 1] : ''}`;
}

/** One batcher per nodetool argv prefix, for the commands of one node's sweep. */
export class NodetoolBatchPool {
  private readonly batchers = new Map<string, Promise<NodetoolBatcher | null>>();

  constructor(private readonly cacheDir: string) {}

  /** null when the prefix is not a java NodeTool command line or the runner cannot be compiled. */
  batcherFor(prefix: readonly string[]): Promise<NodetoolBatcher | null> {
    const key = prefix.join('\0');
    let b = this.batchers.get(key);
    if (!b) {
      const java = splitJavaNodetoolArgv(prefix);
      b = java
        ? compileBatchRunner(java.java, java.classpath, this.cacheDir).then((dir) => (dir ? new NodetoolBatcher(java, dir) : null))
        : Promise.resolve(null);
      this.batchers.set(key, b);
    }
    return b;
  }
}
