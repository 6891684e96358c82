/**
 * Writes a report the user asked for (their own CLI flag names the path) in one piece: a temporary sibling
 * opened O_EXCL|O_NOFOLLOW, synced, then renamed over the name, so a reader sees the old file or the whole new
 * one. A name that is a symbolic link, a directory, a FIFO or a device is refused rather than followed or
 * replaced, and so are /proc, /sys and /dev. The folder must exist: a typo is reported, not created.
 */
import { OpError } from '../core/errors.js';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

export interface WriteRefusal {
  code: 'BAD_PATH' | 'NOT_A_FILE' | 'WRITE_FAILED';
  message: string;
  fix: string;
}

const NEW_FILE = 'Name a new file or an existing regular file.';
const KERNEL_PATH = /^\/(proc|sys|dev)(\/|$)/;
const errCode = (e: unknown) => (e as NodeJS.ErrnoException).code ?? 'error';

/** Writes `content` to `path` atomically; returns the absolute path written, or why not. */
export async function writeReportFile(path: string, content: string): Promise<{ ok: true; path: string; bytes: number } | ({ ok: false } & WriteRefusal)> {
  const wanted = resolve(path);
  const name = basename(wanted);
  let folder: string;
  try {
    folder = await realpath(dirname(wanted));
  } catch (e) {
    const code = errCode(e);
    return {
      ok: false,
      code: 'BAD_PATH',
      message: `cannot write ${wanted}: its folder ${dirname(wanted)} ${code === 'ENOENT' ? 'does not exist' : `cannot be reached (${code})`}`,
      fix: 'Create the folder first, or name a file in an existing folder.',
    };
  }
  const target = join(folder, name);
  if (KERNEL_PATH.test(target)) {
    return { ok: false, code: 'BAD_PATH', message: `${target} is under /proc, /sys or /dev`, fix: 'Name a file in an ordinary folder, e.g. ./incident.html.' };
  }
  if (!(await stat(folder)).isDirectory()) {
    return { ok: false, code: 'BAD_PATH', message: `${dirname(wanted)} is not a folder`, fix: 'Name a file in an existing folder.' };
  }
  const existing = await lstat(target).catch(() => null);
  if (existing && !existing.isFile()) {
    const what = existing.isSymbolicLink() ? 'a symbolic link' : existing.isDirectory() ? 'a directory' : 'a special file (FIFO, socket or device)';
    return { ok: false, code: 'NOT_A_FILE', message: `${target} is ${what}; a report is only written to a regular file`, fix: NEW_FILE };
  }
  const tmp = join(folder, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const bytes = Buffer.from(content, 'utf8');
  try {
    const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, existing ? existing.mode & 0o777 : 0o644);
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    // Checked again just before the rename: a link or folder put there meanwhile is refused, not replaced.
    const now = await lstat(target).catch(() => null);
    if (now && !now.isFile())
      throw new OpError('ENOTFILE', `${target} stopped being a regular file while the report was written`, 'Write the report to a path nothing else changes.');
    await rename(tmp, target);
    return { ok: true, path: target, bytes: bytes.length };
  } catch (e) {
    await rm(tmp, { force: true });
    const code = errCode(e);
    if (code === 'ENOTFILE') return { ok: false, code: 'NOT_A_FILE', message: (e as Error).message, fix: NEW_FILE };
    return {
      ok: false,
      code: 'WRITE_FAILED',
      message: `cannot write ${target} (${code})`,
      fix: code === 'EACCES' || code === 'EPERM' ? 'Choose a folder you can write to.' : code === 'ENOSPC' ? 'Free some disk space.' : 'Check the path.',
    };
  }
}
