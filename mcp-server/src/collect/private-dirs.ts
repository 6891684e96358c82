/**
 * Short-lived private folders for credentials handed to another program by file (cassandra-stress
 * -credentials-file, nodetool -pwf). Each folder's name carries its owner's pid, so the next write can remove
 * folders whose owner was killed (SIGKILL runs no exit hook) instead of leaving a password in the temp folder.
 */
import { rmSync } from 'node:fs';
import { chmod, lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pidAlive } from './pid-alive.js';

/**
 * Removes prefix<pid>-* folders under base whose owner process is gone. Only this user's folders named with a
 * pid are touched; a live pid (even a reused one) keeps its folder. Returns what was removed.
 */
export async function sweepStaleOwnedDirs(base: string, prefix: string): Promise<string[]> {
  const removed: string[] = [];
  const names = await readdir(base).catch(() => [] as string[]);
  const uid = process.getuid?.();
  for (const name of names) {
    const m = name.startsWith(prefix) ? /^(\d+)-/.exec(name.slice(prefix.length)) : null;
    if (!m) continue;
    const dir = join(base, name);
    // lstat: a symlink planted under this name in a shared temp folder is not ours to follow or remove.
    const st = await lstat(dir).catch(() => null);
    if (!st?.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
    if (await pidAlive(Number(m[1]))) continue;
    await rm(dir, { recursive: true, force: true })
      .then(() => removed.push(dir))
      .catch(() => {});
  }
  return removed;
}

/** Private folders alive now: removed when this process exits, whatever ends it through exit(). */
const SECRET_DIRS = new Set<string>();
let secretExitHook = false;

export interface PrivateFile {
  dir: string;
  path: string;
  /** Removes the folder and the file; safe to call more than once. */
  remove(): Promise<void>;
}

/**
 * Writes text to a fresh private folder base/prefix<pid>-XXXXXX (mkdtemp, 0700) as a 0600 file created
 * exclusively, so no other user can read it; stale folders of the same prefix are swept first.
 */
export async function writeOwnedPrivateFile(base: string, prefix: string, name: string, text: string): Promise<PrivateFile> {
  await sweepStaleOwnedDirs(base, prefix);
  const dir = await mkdtemp(join(base, `${prefix}${process.pid}-`));
  SECRET_DIRS.add(dir);
  if (!secretExitHook) {
    secretExitHook = true;
    process.once('exit', () => {
      for (const d of SECRET_DIRS) rmSync(d, { recursive: true, force: true });
    });
  }
  const remove = async () => {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    SECRET_DIRS.delete(dir);
  };
  try {
    await chmod(dir, 0o700);
    const path = join(dir, name);
    await writeFile(path, text, { mode: 0o600, flag: 'wx' });
    await chmod(path, 0o600); // the umask cannot widen it, but be explicit
    return { dir, path, remove };
  } catch (e) {
    await remove();
    throw e;
  }
}
