import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalTarget } from '../collect/local-target.js';
import type { ProgressFn } from '../core/progress.js';
import { renderResolvePom } from './config-files.js';
import { LabError } from './errors.js';
import { exists, writeText } from './fs-util.js';
import { cassandraCacheRoot, labPaths, libDirFor, versionCacheDir } from './paths.js';
import { isAlive } from './proc.js';
import { findMaven } from './preflight.js';
import { type LabVersion, SUPPORTED_LAB_VERSIONS, normalizeLabVersion } from './versions.js';

/**
 * The fix for a failed `mvn dependency:copy-dependencies`, from what Maven printed: a broken JAVA_HOME or
 * settings.xml is not a network problem, and sending the operator to check connectivity would waste the night.
 */
export function mavenFailureFix(mavenOutput: string, timedOut: boolean): string {
  // "No plugin found for prefix 'dependency'" is what Maven says when it cannot download its own plugin.
  if (/JAVA_HOME/.test(mavenOutput)) return 'Maven rejected JAVA_HOME: point it at a JDK 17+ (the folder that holds bin/java) or unset it, then retry.';
  if (/settings\.xml|Non-parseable settings|Unable to parse/i.test(mavenOutput))
    return 'Maven could not read its settings: fix or move ~/.m2/settings.xml (the error above names the line), then retry.';
  if (
    /Unknown host|UnknownHost|No plugin found for prefix|Connection (?:refused|reset|timed out)|Could not transfer|Network is unreachable|No route to host|PKIX|proxy/i.test(
      mavenOutput,
    ) ||
    timedOut
  ) {
    return 'Check that https://repo.maven.apache.org is reachable from this machine (or that ~/.m2/settings.xml names a mirror/proxy that is), then retry.';
  }
  if (/No space left|Disk quota/i.test(mavenOutput)) return 'Free disk space under ~/.m2 and the cql-tuner cache, then retry.';
  return 'Read the Maven error above; if it names a network problem, check that https://repo.maven.apache.org (or your mirror) is reachable, then retry.';
}

export interface ResolvedJars {
  fullVersion: string;
  libDir: string;
  /** Absolute jar paths, cassandra-all first, then by name (a stable order for a stable classpath). */
  classpath: string[];
}

const RESOLVE_TIMEOUT_MS = 20 * 60_000;
const TMP_PREFIX = '.resolving-';

function mainJarName(fullVersion: string): string {
  return `cassandra-all-${fullVersion}.jar`;
}

/** The jars of an already resolved version, or null when that version is not (completely) in the cache. */
export async function cachedJars(version: LabVersion, cacheDir = labPaths().cacheDir): Promise<ResolvedJars | null> {
  const fullVersion = SUPPORTED_LAB_VERSIONS[version];
  const libDir = libDirFor(cacheDir, version);
  const names = await readdir(libDir).catch(() => null);
  if (!names) return null;
  const main = mainJarName(fullVersion);
  // The rename is the commit point, so a present lib dir is complete; the main-jar check catches hand edits.
  if (!names.includes(main)) return null;
  const jars = names.filter((n) => n.endsWith('.jar') && n !== main).sort();
  return { fullVersion, libDir, classpath: [main, ...jars].map((n) => join(libDir, n)) };
}

/** Removes resolve temp dirs left by processes that are gone (an interrupted resolve). */
async function sweepStaleTemps(root: string): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(TMP_PREFIX)) continue;
    const pid = Number(/-(\d+)-[0-9a-f]+$/.exec(name)?.[1]);
    // A live owner (this process included) may still be resolving into it.
    if (Number.isInteger(pid) && (await isAlive(pid))) continue;
    await rm(join(root, name), { recursive: true, force: true });
  }
}

/**
 * cassandra-all and its runtime dependencies from Maven Central into <cache>/cassandra/<fullVersion>/lib, once.
 * mvn writes into a temp dir beside the final one, which is renamed into place only when complete, so an
 * interrupted resolve never leaves a half-filled lib dir that would later be taken for a good one.
 */
export async function resolveCassandraJars(version: LabVersion, opts: { onProgress?: ProgressFn; signal?: AbortSignal } = {}): Promise<ResolvedJars> {
  const v = normalizeLabVersion(version);
  const fullVersion = SUPPORTED_LAB_VERSIONS[v];
  const { cacheDir } = labPaths();
  const progress: ProgressFn = (e) => {
    try {
      opts.onProgress?.(e);
    } catch {
      // a caller's callback must not break the resolve
    }
  };

  const cached = await cachedJars(v, cacheDir);
  if (cached) return cached;

  const mvn = await findMaven();
  const root = cassandraCacheRoot(cacheDir);
  await mkdir(root, { recursive: true });
  await sweepStaleTemps(root);
  const finalDir = versionCacheDir(cacheDir, v);
  // A version dir without a usable lib (hand-edited, or from an older layout): replace it.
  if (await exists(finalDir)) await rm(finalDir, { recursive: true, force: true });

  const tmp = join(root, `${TMP_PREFIX}${fullVersion}-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp, { recursive: true });
  const pom = join(tmp, 'pom.xml');
  await writeText(pom, renderResolvePom(fullVersion));

  const started = Date.now();
  progress({ message: `Resolving Cassandra ${fullVersion} jars from Maven Central (once per version; about a minute)` });
  const beat = setInterval(() => {
    progress({ message: `Resolving Cassandra ${fullVersion} jars (${Math.round((Date.now() - started) / 1000)}s)` });
  }, 5000);
  try {
    const r = await new LocalTarget().run([mvn, '-q', '-B', '-f', pom, 'dependency:copy-dependencies'], {
      timeoutMs: RESOLVE_TIMEOUT_MS,
      cwd: tmp,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (r.cancelled) {
      throw new LabError('ABORTED', `Resolving Cassandra ${fullVersion} jars was cancelled.`, 'Run the command again; nothing half-done was kept.');
    }
    if (r.spawnError || r.timedOut || r.exitCode !== 0) {
      const out = `${r.stdout}\n${r.stderr}`
        .split('\n')
        // eslint-disable-next-line no-control-regex -- strips ANSI colour escapes (ESC [ ... m) from tool output
        .map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trimEnd())
        .filter((l) => l.trim() !== '');
      const errorLines = out.filter((l) => l.startsWith('[ERROR]'));
      const detail = (errorLines.length > 0 ? errorLines : out).slice(0, 8).join('\n');
      const why = r.spawnError ?? (r.timedOut ? `timed out after ${RESOLVE_TIMEOUT_MS / 60_000} min` : `mvn exited with ${r.exitCode}`);
      throw new LabError(
        'RESOLVE_FAILED',
        `Could not resolve org.apache.cassandra:cassandra-all:${fullVersion} with Maven (${why}).${detail ? `\n${detail}` : ''}`,
        mavenFailureFix(detail, Boolean(r.timedOut)),
      );
    }
    const names = await readdir(join(tmp, 'lib')).catch(() => [] as string[]);
    if (!names.includes(mainJarName(fullVersion))) {
      throw new LabError(
        'RESOLVE_FAILED',
        `Maven finished but ${mainJarName(fullVersion)} is not among the ${names.length} copied jars.`,
        'Retry; if it persists, delete ~/.m2/repository/org/apache/cassandra and retry.',
      );
    }
    await rm(pom, { force: true });
    try {
      await rename(tmp, finalDir);
    } catch (e) {
      // Another process resolved the same version meanwhile: keep theirs.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
    }
    const done = await cachedJars(v, cacheDir);
    if (!done) throw new LabError('RESOLVE_FAILED', `Resolved jars for ${fullVersion} vanished from ${finalDir}.`, 'Retry.');
    progress({ message: `Resolved ${done.classpath.length} jars for Cassandra ${fullVersion} in ${Math.round((Date.now() - started) / 1000)}s` });
    return done;
  } finally {
    clearInterval(beat);
    await rm(tmp, { recursive: true, force: true });
  }
}
