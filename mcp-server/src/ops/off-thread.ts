/**
 * Parsing of large untrusted text off the event loop: a worker thread per call, with a deadline. A parse that
 * runs long can then neither block other tool calls nor outlive its timeout: at the deadline, or when the
 * request is cancelled, the worker is terminated (V8 stops it even inside a regex) and the call fails with
 * PARSE_TIMEOUT / CANCELLED. Small texts are parsed inline: a thread costs more than they do.
 *
 * Where the worker's code comes from (the server is ONE esbuild bundle run through node:vm, the tests run the
 * TypeScript sources):
 *  - built: scripts/build-options.mjs builds parse-worker.ts as its own file next to the bundle and defines
 *    __CQL_TUNER_PARSE_WORKER__ as its name; the bundle's __dirname is the dist folder (launch/code-cache.ts);
 *  - sources (vitest): parse-worker.ts is bundled in memory with esbuild (a devDependency) on first use and run
 *    with `eval: true`; the same job table runs in both.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { OpError } from './errors.js';
import { runParseJob, type ParseJobArg, type ParseJobName, type ParseJobResult } from './parse-jobs.js';

/** File name of the built worker beside the bundle; undefined when running from the sources. */
declare const __CQL_TUNER_PARSE_WORKER__: string | undefined;

/** Texts shorter than this are parsed inline (a worker starts in tens of milliseconds). */
export const OFF_THREAD_MIN_CHARS = 64 * 1024;
/** Default deadline of one parse; CQL_TUNER_PARSE_TIMEOUT_MS (the user's environment) overrides it. */
export const PARSE_DEADLINE_MS = 30_000;
/** Heap a parse worker may use: a hostile text exhausts the worker, not the server. */
const WORKER_HEAP_MB = 1536;

export interface OffThreadOptions {
  /** What is parsed, for the error message ("the pasted text", "schema text"). */
  what: string;
  /** Size that decides inline vs worker (characters of the text(s)). */
  chars: number;
  signal?: AbortSignal | undefined;
  /** Overrides the deadline (tests). */
  deadlineMs?: number;
}

export function parseDeadlineMs(): number {
  const v = Number(process.env['CQL_TUNER_PARSE_TIMEOUT_MS']);
  return Number.isFinite(v) && v > 0 ? v : PARSE_DEADLINE_MS;
}

type WorkerSource = { file: string } | { code: string };
let devSource: Promise<WorkerSource> | null = null;

function workerSource(): Promise<WorkerSource> {
  if (typeof __CQL_TUNER_PARSE_WORKER__ === 'string') return Promise.resolve({ file: join(__dirname, __CQL_TUNER_PARSE_WORKER__) });
  devSource ??= (async () => {
    // A variable specifier so that no bundler follows it: esbuild exists only where the sources do.
    const esbuildName = 'esbuild';
    const esbuild = (await import(esbuildName)) as typeof import('esbuild');
    const entry = fileURLToPath(new URL('./parse-worker.ts', import.meta.url));
    const out = await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', target: 'node20', format: 'cjs', write: false, logLevel: 'error' });
    return { code: out.outputFiles[0]!.text };
  })();
  return devSource;
}

const kib = (chars: number) => (chars >= 1024 * 1024 ? `${(chars / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(chars / 1024)} KiB`);

/** Runs a parse job inline (small input) or in a worker with a deadline; rejects with an OpError. */
export async function parseOffThread<K extends ParseJobName>(job: K, arg: ParseJobArg<K>, opts: OffThreadOptions): Promise<ParseJobResult<K>> {
  if (opts.signal?.aborted) throw cancelled(opts.what);
  if (opts.chars < OFF_THREAD_MIN_CHARS) return runParseJob(job, arg);
  const deadlineMs = opts.deadlineMs ?? parseDeadlineMs();
  const src = await workerSource();
  if (opts.signal?.aborted) throw cancelled(opts.what);
  const workerData = { job, arg };
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  const worker = 'file' in src ? new Worker(src.file, { workerData, resourceLimits }) : new Worker(src.code, { eval: true, workerData, resourceLimits });
  return new Promise<ParseJobResult<K>>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const fail = (e: OpError) => finish(() => reject(e));
    const timer = setTimeout(() => fail(timedOut(opts, deadlineMs)), deadlineMs);
    const onAbort = () => fail(cancelled(opts.what));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (m: { ok: true; value: ParseJobResult<K> } | { ok: false; message: string }) =>
      m.ok ? finish(() => resolve(m.value)) : fail(unreadable(opts.what, m.message)),
    );
    worker.once('error', (e: Error & { code?: string }) => {
      if (e.code !== 'ERR_WORKER_OUT_OF_MEMORY') return fail(unreadable(opts.what, e.message));
      const what = `${opts.what} (${kib(opts.chars)}) needed more than ${WORKER_HEAP_MB} MiB to parse; the parse was stopped`;
      fail(new OpError('PARSE_FAILED', what, 'Cut the paste to the part that matters and call again.'));
    });
    worker.once('exit', (code) => fail(new OpError('PARSE_FAILED', `the parse of ${opts.what} stopped (exit ${code}) without a result`, 'Call again.')));
  });
}

function timedOut(opts: OffThreadOptions, deadlineMs: number): OpError {
  const after = (deadlineMs / 1000).toFixed(deadlineMs < 1000 ? 2 : 0);
  return new OpError(
    'PARSE_TIMEOUT',
    `${opts.what} (${kib(opts.chars)}) was still being parsed after ${after} s; the parse was stopped`,
    'Cut the paste to the part that matters (the output of one command, a few hundred KiB at most) and call again; big logs go to analyze_logs.',
  );
}

function unreadable(what: string, why: string): OpError {
  return new OpError('PARSE_FAILED', `${what} could not be parsed: ${why}`, 'Check that the text is the output it should be; cut it to the relevant part.');
}

function cancelled(what: string): OpError {
  return new OpError('CANCELLED', `parsing ${what} was cancelled by the client`, 'Run it again when needed.');
}
