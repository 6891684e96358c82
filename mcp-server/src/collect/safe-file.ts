/**
 * The one way cql-tuner opens a file whose path came from outside: a path an MCP argument or a CLI flag names
 * (a saved output, a config file, a schema, a log) or a file inside a bundle. The path is untrusted, so:
 * - a named path is resolved (realpath) and refused when it lands in /proc, /sys or /dev: /proc/self/environ
 *   holds the server's own credentials and /dev/zero never ends;
 * - inside a bundle nothing is a symbolic link (manifest.json included) and every file stays inside the root;
 * - only regular files are opened, checked with lstat before the open and fstat after it (the same dev/ino), and
 *   opened O_NOFOLLOW|O_NONBLOCK so a FIFO or link swapped in after the check can neither block the open (nor so
 *   a thread of libuv's small pool, which every file call shares) nor redirect it;
 * - reads go through the opened fd in a bounded loop: a size cap per file and an AbortSignal between chunks.
 */
import { constants, createReadStream, type ReadStream } from 'node:fs';
import { lstat, open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import type { Stats } from 'node:fs';

export type RefusalCode = 'NOT_FOUND' | 'NOT_A_FILE' | 'TOO_LARGE' | 'OUTSIDE_ROOT' | 'ABORTED' | 'READ_ERROR';

/** Why a file was not read; `reason` reads after the path ("<path> is a symbolic link …"). */
export interface Refusal {
  ok: false;
  code: RefusalCode;
  reason: string;
  /** Set with TOO_LARGE: the size seen and the limit it passed. */
  size?: number;
  limit?: number;
}

export interface OpenedFile {
  ok: true;
  handle: FileHandle;
  /** The resolved path that was opened. */
  path: string;
  size: number;
}

export interface ReadLimits {
  /** Largest file accepted; a bigger one (or one that grows past it while read) is refused with TOO_LARGE. */
  maxBytes?: number;
  signal?: AbortSignal;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK = 1024 * 1024;
const KERNEL_PATH = /^\/(proc|sys|dev)(\/|$)/;

const refuse = (code: RefusalCode, reason: string, extra: { size?: number; limit?: number } = {}): Refusal => ({ ok: false, code, reason, ...extra });
const errCode = (e: unknown) => (e as NodeJS.ErrnoException).code ?? 'error';
const NOT_REGULAR = 'is not a regular file (a directory, device or FIFO)';
const tooLarge = (size: number, limit: number) => refuse('TOO_LARGE', `is ${size} bytes, over the ${limit}-byte limit`, { size, limit });
/** The policy message every tool shares for /proc, /sys and /dev (interpret, audit_config, review_schema …). */
const kernelFile = (real: string) => refuse('NOT_A_FILE', `is ${real}, a kernel or device file (/proc, /sys, /dev), which cql-tuner never reads`);

/** The path the kernel has for an open fd (Linux), or null where /proc is not there. */
async function fdPath(handle: FileHandle): Promise<string | null> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return null;
  }
}

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/**
 * Opens `path` (already free of links: realpath'd, or walked with lstat) as the regular file `expected` said it
 * was; anything else after the open (a FIFO, a link, another file) is closed and refused.
 */
async function openChecked(path: string, expected: Stats, where: (real: string) => Refusal | null): Promise<OpenedFile | Refusal> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (e) {
    const code = errCode(e);
    if (code === 'ELOOP') return refuse('NOT_A_FILE', 'became a symbolic link while it was being opened');
    return refuse(code === 'ENOENT' ? 'NOT_FOUND' : 'READ_ERROR', `cannot be opened (${code})`);
  }
  let checked: OpenedFile | Refusal;
  try {
    checked = await checkOpened(handle, path, expected, where);
  } catch (e) {
    checked = refuse('READ_ERROR', `cannot be read (${errCode(e)})`);
  }
  if (!checked.ok) await handle.close().catch(() => {});
  return checked;
}

/** The open fd is the regular file `expected` described, somewhere `where` allows; may throw on an I/O error. */
async function checkOpened(handle: FileHandle, path: string, expected: Stats, where: (real: string) => Refusal | null): Promise<OpenedFile | Refusal> {
  const st = await handle.stat();
  if (!st.isFile()) return refuse('NOT_A_FILE', NOT_REGULAR);
  if (!sameFile(st, expected)) return refuse('NOT_A_FILE', 'changed while it was being opened');
  // A directory above it swapped for a link between the checks and the open: judge what was really opened.
  const real = await fdPath(handle);
  const bad = real === null ? null : where(real);
  return bad ?? { ok: true, handle, path: real ?? path, size: st.size };
}

/** Resolves a named path and applies the /proc, /sys, /dev policy; the real path, or why not. */
async function resolveNamed(path: string): Promise<{ ok: true; real: string; st: Stats } | Refusal> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (e) {
    const code = errCode(e);
    return refuse(code === 'ENOENT' || code === 'ENOTDIR' ? 'NOT_FOUND' : 'READ_ERROR', `cannot be resolved (${code})`);
  }
  if (KERNEL_PATH.test(real)) return kernelFile(real);
  try {
    return { ok: true, real, st: await lstat(real) };
  } catch (e) {
    return refuse('NOT_FOUND', `cannot be resolved (${errCode(e)})`);
  }
}

/**
 * Opens a path a user or the assistant named: resolved, outside /proc, /sys and /dev, a regular file, at most
 * maxBytes. The caller reads it (readOpened, streamOpened) and closes the handle.
 */
export async function openNamedFile(path: string, limits: { maxBytes?: number } = {}): Promise<OpenedFile | Refusal> {
  const r = await resolveNamed(path);
  if (!r.ok) return r;
  if (!r.st.isFile()) return refuse('NOT_A_FILE', NOT_REGULAR);
  if (limits.maxBytes !== undefined && r.st.size > limits.maxBytes) return tooLarge(r.st.size, limits.maxBytes);
  return openChecked(r.real, r.st, (real) => (KERNEL_PATH.test(real) ? kernelFile(real) : null));
}

/** A named directory (a conf dir, a bundle): its real path, or why not (kernel paths refused like files). */
export async function namedDirectory(path: string): Promise<{ ok: true; path: string } | Refusal> {
  const r = await resolveNamed(path);
  if (!r.ok) return r;
  return r.st.isDirectory() ? { ok: true, path: r.real } : refuse('NOT_A_FILE', 'is not a directory');
}

/** Reads an opened file to its end through its fd: at most maxBytes, the signal checked between chunks. */
export async function readOpened(file: OpenedFile, limits: ReadLimits = {}): Promise<{ ok: true; bytes: Buffer } | Refusal> {
  const max = limits.maxBytes ?? Number.MAX_SAFE_INTEGER;
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      if (limits.signal?.aborted) return refuse('ABORTED', 'was not read: the call was cancelled');
      // One byte past the cap tells a file that grew past it from one that ends exactly there.
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, max + 1 - total));
      const { bytesRead } = await file.handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > max) return tooLarge(total, max);
      chunks.push(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead));
    }
  } catch (e) {
    return refuse('READ_ERROR', `cannot be read (${errCode(e)})`);
  }
  return { ok: true, bytes: Buffer.concat(chunks, total) };
}

/** Opens, reads (UTF-8) and closes a named file. */
export async function readNamedFile(path: string, limits: ReadLimits = {}): Promise<{ ok: true; text: string; path: string } | Refusal> {
  const f = await openNamedFile(path, limits);
  if (!f.ok) return f;
  try {
    const r = await readOpened(f, limits);
    return r.ok ? { ok: true, text: r.bytes.toString('utf8'), path: f.path } : r;
  } finally {
    await f.handle.close().catch(() => {});
  }
}

/** A read stream over an opened file (logs of any size); it closes the handle when it ends or is destroyed. */
export function streamOpened(file: OpenedFile, opts: { signal?: AbortSignal; highWaterMark?: number } = {}): ReadStream {
  return createReadStream(file.path, {
    fd: file.handle,
    autoClose: true,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.highWaterMark ? { highWaterMark: opts.highWaterMark } : {}),
  });
}

/**
 * Opens `rel` inside a bundle whose root is `root` (a real path, from namedDirectory): a relative path with no
 * "..", every component lstat'ed on the way down (no symbolic link anywhere, directories then a regular file),
 * and what was opened still inside the root.
 */
export async function openBundleFile(root: string, rel: string, limits: { maxBytes?: number } = {}): Promise<OpenedFile | Refusal> {
  const parts = rel.split('/');
  if (!rel || isAbsolute(rel) || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) {
    return refuse('OUTSIDE_ROOT', 'is not a plain relative path inside the bundle');
  }
  const inside = (p: string) => p.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
  const path = resolve(root, ...parts);
  if (!inside(path)) return refuse('OUTSIDE_ROOT', 'is outside the bundle');
  let st: Stats | undefined;
  let at = root;
  for (const [i, p] of parts.entries()) {
    at = resolve(at, p);
    try {
      st = await lstat(at);
    } catch (e) {
      const code = errCode(e);
      return refuse(code === 'ENOENT' || code === 'ENOTDIR' ? 'NOT_FOUND' : 'READ_ERROR', `cannot be read (${code})`);
    }
    if (st.isSymbolicLink()) return refuse('NOT_A_FILE', 'is a symbolic link (a bundle holds none): not read');
    if (i < parts.length - 1 && !st.isDirectory()) return refuse('NOT_FOUND', 'cannot be read (ENOTDIR)');
  }
  if (!st?.isFile()) return refuse('NOT_A_FILE', NOT_REGULAR);
  if (limits.maxBytes !== undefined && st.size > limits.maxBytes) return tooLarge(st.size, limits.maxBytes);
  return openChecked(path, st, (real) => (inside(real) ? null : refuse('OUTSIDE_ROOT', `resolves to ${real}, outside the bundle`)));
}

/** Opens, reads (UTF-8) and closes a file inside a bundle. */
export async function readBundleFile(root: string, rel: string, limits: ReadLimits = {}): Promise<{ ok: true; text: string; bytes: number } | Refusal> {
  const f = await openBundleFile(root, rel, limits);
  if (!f.ok) return f;
  try {
    const r = await readOpened(f, limits);
    return r.ok ? { ok: true, text: r.bytes.toString('utf8'), bytes: r.bytes.byteLength } : r;
  } finally {
    await f.handle.close().catch(() => {});
  }
}
