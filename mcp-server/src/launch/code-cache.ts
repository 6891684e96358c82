/**
 * The `cql-tuner` entry file: runs a CommonJS bundle through node:vm with a V8 code cache kept per user, because
 * compiling the 3 MB bundle is a third of the MCP server's start-up and Node 20 has no compile cache of its own
 * (module.enableCompileCache came in Node 22). The bundle is cql-tuner-main.cjs (every verb and the MCP server),
 * or the verb's own smaller bundle when argv names a verb that has one (`cql-tuner logs …` → cql-tuner-logs.cjs):
 * a third of the bytes to compile, and a peak RSS near Node's own.
 *
 * It prints nothing on stdout (that is the MCP server's JSON-RPC channel) and never stops the program for a
 * cache problem: any failure runs the bundle without the cache. CQL_TUNER_CODE_CACHE=0 turns it off;
 * CQL_TUNER_CODE_CACHE_DEBUG=1 says on stderr what it did.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

interface Bundle {
  file: string;
  sha256: string;
}
/** The bundles beside this file and their sha256, put in at build time (scripts/build-options.mjs) so each cache key follows its content. */
declare const __CQL_TUNER_BUNDLES__: { main: Bundle; verbs: Record<string, Bundle> };

/** Long enough for an MCP session to have listed its tools, so the cache holds the functions start-up uses. */
const WRITE_AFTER_MS = 1500;
const STALE_AFTER_MS = 7 * 24 * 3600 * 1000;
/** The names this file gives its caches (see `key` in run()): sha prefix, size, mtime, Node version, arch. */
const CACHE_NAME = /^[0-9a-f]{16}-\d+-\d+-v\d+\.\d+\.\d+-[a-z0-9_]+\.bin$/;

const debug = process.env.CQL_TUNER_CODE_CACHE_DEBUG === '1' ? (m: string) => process.stderr.write(`cql-tuner code cache: ${m}\n`) : () => {};

/** A folder only this user can write, or null (then no cache is read or written). */
function privateCacheDir(): string | null {
  const base = process.env.CQL_TUNER_CODE_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cql-tuner', 'code-cache');
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    const st = lstatSync(base);
    // Cached bytecode is run as code: a folder another user can write into must not be trusted.
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) {
      debug(`unusable folder ${base} (not a directory of this user, or writable by others)`);
      return null;
    }
    return base;
  } catch (e) {
    debug(`unusable folder ${base} (${(e as Error).message})`);
    return null;
  }
}

/** The cache file's bytes when it is a regular file of this user that nobody else can write. */
function readPrivate(path: string): Buffer | undefined {
  let fd: number | null = null;
  try {
    // No link followed and no wait on a FIFO: only a regular file passes the fstat below.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The verb's own bundle when argv names one and it is there (a partial copy of dist still runs), else the main one. */
function pickBundle(dir: string): { bundle: string; sha256: string; own: boolean } {
  const verbs = __CQL_TUNER_BUNDLES__.verbs;
  const verb = process.argv[2];
  const own = verb !== undefined && Object.hasOwn(verbs, verb) ? verbs[verb] : undefined;
  const chosen = own && statSync(join(dir, own.file), { throwIfNoEntry: false })?.isFile() ? own : __CQL_TUNER_BUNDLES__.main;
  return { bundle: join(dir, chosen.file), sha256: chosen.sha256, own: chosen !== __CQL_TUNER_BUNDLES__.main };
}

function run(): void {
  // built as CommonJS (scripts/build-options.mjs): __dirname is the dist folder
  const { bundle, sha256, own } = pickBundle(__dirname);
  if (own) debug(`verb bundle ${bundle}`);
  // A verb streaming a big log allocates fast but keeps little, and V8 still grows the young generation towards its
  // 16 MiB semi-space limit: 12 MiB more peak RSS on the 100 MB log of bench/sperf.mjs (99 vs 87 MiB), no faster.
  // The growth factor is a GC heuristic read at each scavenge, so setting it now, before the bundle runs, holds.
  if (own) setFlagsFromString('--semi-space-growth-factor=1');
  // TurboFan compiles on V8's worker threads, each with its own malloc arena; inlining makes those compilations the
  // big ones. Without it the same log reads as fast (pure parse of the 100 MB log, 6 runs each: median 690 vs 694 ms)
  // with ~4 MiB less peak RSS. Read at each compilation, so it holds when set here.
  if (own && process.argv[2] === 'logs') setFlagsFromString('--no-turbo-inlining');
  const source = readFileSync(bundle, 'utf8');
  const off = process.env.CQL_TUNER_CODE_CACHE === '0';
  const dir = off ? null : privateCacheDir();
  if (off) debug('off (CQL_TUNER_CODE_CACHE=0)');
  // Content, size and mtime in the name: V8 itself only checks the source length, so an edited bundle of the
  // same length must not meet an old cache.
  const st = statSync(bundle);
  const key = `${sha256.slice(0, 16)}-${st.size}-${Math.floor(st.mtimeMs)}-${process.version}-${process.arch}`;
  const file = dir ? join(dir, `${key}.bin`) : null;
  const cachedData = file ? readPrivate(file) : undefined;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  const hit = cachedData !== undefined && !script.cachedDataRejected;
  if (file) debug(hit ? `hit ${file}` : cachedData ? `rejected ${file}` : `miss ${file}`);

  if (file && !hit) {
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, file);
        debug(`wrote ${file}`);
        // Caches of other builds go once unused for a week (not at once: two checkouts used in turn would
        // otherwise delete each other's cache at every start).
        // Only files this code wrote: its exact name pattern, a regular file (lstat: a link is never followed) of
        // this user. The folder may be one the user named (CQL_TUNER_CODE_CACHE_DIR) and hold other *.bin files.
        for (const name of readdirSync(dir!)) {
          const other = join(dir!, name);
          if (!CACHE_NAME.test(name) || other === file) continue;
          const st = lstatSync(other, { throwIfNoEntry: false });
          if (st?.isFile() && (!process.getuid || st.uid === process.getuid()) && Date.now() - st.mtimeMs > STALE_AFTER_MS) unlinkSync(other);
        }
      } catch (e) {
        debug(`not written (${(e as Error).message})`);
        try {
          unlinkSync(tmp);
        } catch {
          /* nothing was written */
        }
      }
    };
    setTimeout(write, WRITE_AFTER_MS).unref();
    // Short CLI calls end before the timer: write then, once.
    process.once('exit', write);
  }

  const module = { exports: {} };
  const fn = script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string) => void;
  fn.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

run();
