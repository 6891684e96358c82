/**
 * Streams a log file (or stdin, or any byte stream) through the pure LogAccumulator in chunks: a 100 MB
 * system.log is never held as one string. Gzip-rotated files (*.gz) are inflated on the way.
 * Total like the parsers: a missing file or a read error comes back as ok:false, never as a throw.
 */
import { isAscii } from 'node:buffer';
import { readSync } from 'node:fs';
import { basename } from 'node:path';
import { createGunzip } from 'node:zlib';
import { unrecognized, type Parsed } from '../core/parsed.js';
import { LOG_KIND, LogAccumulator, type LogFacts, type LogReadOptions } from '../core/parse/logs/index.js';
import { openNamedFile, streamOpened, type OpenedFile } from './safe-file.js';

export interface ReadLogOptions extends LogReadOptions {
  /** Stop after this many bytes (the facts then cover the head of the file; a warning says so). */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Read size; 64 KiB by default. */
  chunkBytes?: number;
}

// Node's own read size. Larger chunks read a little faster, but each becomes one external string that lives until a
// full GC: 1 MiB chunks held ~35 MiB of them while a 100 MB log was read (peak RSS 120 MiB against 80 MiB).
const DEFAULT_CHUNK = 64 * 1024;

/**
 * Put between two files of one node in a stream given to readLogStream: what follows is another file, so an event
 * line that an earlier file already had (debug.log repeating system.log) is counted once.
 */
export const NEXT_SOURCE: unique symbol = Symbol('next log file');

/** True when the bytes end inside a multi-byte UTF-8 sequence. */
function endsMidSequence(b: Uint8Array): boolean {
  for (let i = b.length - 1, seen = 0; i >= 0 && seen < 4; i--, seen++) {
    const c = b[i]!;
    if ((c & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    if (c < 0x80) return false;
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    return seen + 1 < need;
  }
  return false;
}

/**
 * Decodes chunks to text: ASCII chunks (nearly every log) take the native one-byte path, which is several times
 * faster than UTF-8 decoding; anything else goes through a streaming TextDecoder that keeps split sequences.
 */
export class ChunkDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  private pending = false;
  decode(chunk: Uint8Array): string {
    if (!this.pending && isAscii(chunk)) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    const text = this.utf8.decode(chunk, { stream: true });
    this.pending = endsMidSequence(chunk);
    return text;
  }
  flush(): string {
    this.pending = false;
    return this.utf8.decode();
  }
}

/** What a reading loop takes: bytes, text, or the mark between two files. */
export type LogPiece = Uint8Array | string | typeof NEXT_SOURCE;

/** Rotated logs gzip-compressed: streamLogFile inflates them; the blocking reader cannot. */
export const isGzipLog = (name: string): boolean => name.endsWith('.gz');

/** One read: a fresh accumulator, its decoder and the byte cap, fed piece by piece by either reading loop below. */
class LogFeed {
  private readonly acc: LogAccumulator;
  private readonly decoder = new ChunkDecoder();
  private seen = 0;
  private cut = false;
  constructor(private readonly opts: ReadLogOptions) {
    this.acc = new LogAccumulator({
      ...(opts.source ? { source: opts.source } : {}),
      ...(opts.node ? { node: opts.node } : {}),
      ...(opts.sources ? { sources: opts.sources } : {}),
    });
  }

  private feed(bytes: Uint8Array): void {
    this.acc.push(this.decoder.decode(bytes), bytes.byteLength);
  }

  /** Takes one piece; false once maxBytes is reached (nothing more is wanted). */
  take(raw: LogPiece): boolean {
    if (raw === NEXT_SOURCE) {
      this.acc.push(this.decoder.flush(), 0);
      this.acc.nextSource();
      return true;
    }
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    const max = this.opts.maxBytes;
    if (max !== undefined && this.seen + chunk.byteLength > max) {
      this.feed(chunk.subarray(0, Math.max(0, max - this.seen)));
      this.seen = max;
      this.cut = true;
      return false;
    }
    this.seen += chunk.byteLength;
    this.feed(chunk);
    return true;
  }

  finish(): Parsed<LogFacts> {
    this.acc.push(this.decoder.flush(), 0);
    const r = this.acc.end();
    if (this.cut && r.ok) r.warnings.push(`stopped after ${this.opts.maxBytes} bytes (maxBytes): the facts cover the head of the input only`);
    return r;
  }
}

const readError = (err: unknown): Parsed<LogFacts> => unrecognized(LOG_KIND, `read error: ${err instanceof Error ? err.message : String(err)}`);

/** Feeds every chunk of `stream` to a fresh accumulator and returns the facts. */
export async function readLogStream(stream: AsyncIterable<LogPiece>, opts: ReadLogOptions = {}): Promise<Parsed<LogFacts>> {
  const feed = new LogFeed(opts);
  try {
    for await (const raw of stream) {
      if (opts.signal?.aborted) return unrecognized(LOG_KIND, 'aborted');
      if (!feed.take(raw)) break;
    }
  } catch (err) {
    return readError(err);
  }
  return feed.finish();
}

/**
 * Bytes taken between two turns of the event loop by readLogPiecesBlocking: a signal (Ctrl-C) or an abort waits
 * at most this much parsing (~40 ms) to be seen.
 */
const BLOCKING_TURN_BYTES = 4 * 1024 * 1024;

/**
 * readLogStream over pieces read with blocking calls (readFileChunksBlocking): no promise per chunk and no wait
 * for the thread pool, ~60 ms less on a 100 MB log (bench/sperf.mjs). For a process that does nothing else
 * meanwhile — the CLI; a server keeps readLogStream, where one slow disk must not hold its other calls. The event
 * loop is let in every BLOCKING_TURN_BYTES, so an abort is still seen.
 */
export async function readLogPiecesBlocking(pieces: Iterable<LogPiece>, opts: ReadLogOptions = {}): Promise<Parsed<LogFacts>> {
  const feed = new LogFeed(opts);
  let sinceTurn = 0;
  try {
    for (const raw of pieces) {
      if (!feed.take(raw)) break;
      if (raw !== NEXT_SOURCE && (sinceTurn += raw.length) >= BLOCKING_TURN_BYTES) {
        sinceTurn = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      if (opts.signal?.aborted) return unrecognized(LOG_KIND, 'aborted');
    }
  } catch (err) {
    return readError(err);
  }
  return feed.finish();
}

/** The bytes of a plain (not .gz) opened file in chunks read with readSync; each chunk is valid until the next is asked for. */
export function* readFileChunksBlocking(file: OpenedFile, size = DEFAULT_CHUNK): Generator<Uint8Array> {
  const buf = Buffer.allocUnsafe(size);
  for (;;) {
    const n = readSync(file.handle.fd, buf, 0, size, null);
    if (n === 0) return;
    yield buf.subarray(0, n);
  }
}

/**
 * The bytes of a plain file in chunks, each read ahead while the one before is decoded: two buffers used in turn,
 * so a chunk is valid until the next one is asked for (every caller decodes it first). About 70 ms less on a 100 MB
 * log than a ReadStream (its per-chunk buffers and events). Abort throws, as the stream did.
 */
async function* readAhead(file: OpenedFile, size: number, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const bufs = [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
  let k = 0;
  let pending: Promise<{ bytesRead: number }> | null = file.handle.read(bufs[0]!, 0, size, null);
  try {
    for (;;) {
      const { bytesRead } = await pending;
      pending = null;
      signal?.throwIfAborted();
      if (bytesRead === 0) return;
      const cur = bufs[k]!;
      k ^= 1;
      pending = file.handle.read(bufs[k]!, 0, size, null);
      yield cur.subarray(0, bytesRead);
    }
  } finally {
    // a read still under way when the reader stops finishes before the handle can be closed
    if (pending) await pending.catch(() => {});
  }
}

/**
 * The bytes of an opened log file, inflated on the way when its name ends in .gz (rotated logs; .zip is not read).
 * destroy() ends the reading and closes the file; a read error surfaces on `stream`.
 */
export function streamLogFile(
  name: string,
  file: OpenedFile,
  opts: { signal?: AbortSignal; chunkBytes?: number } = {},
): { stream: AsyncIterable<Uint8Array>; destroy: () => void } {
  if (!isGzipLog(name)) {
    const chunks = readAhead(file, opts.chunkBytes ?? DEFAULT_CHUNK, opts.signal);
    return {
      stream: chunks,
      destroy: () => {
        // return() waits for a read under way (the finally above), then the handle is closed
        void chunks.return(undefined).finally(() => file.handle.close().catch(() => {}));
      },
    };
  }
  const raw = streamOpened(file, { highWaterMark: opts.chunkBytes ?? DEFAULT_CHUNK, ...(opts.signal ? { signal: opts.signal } : {}) });
  const gunzip = createGunzip({ chunkSize: opts.chunkBytes ?? DEFAULT_CHUNK });
  raw.on('error', (e) => gunzip.destroy(e));
  raw.pipe(gunzip);
  return {
    stream: gunzip,
    destroy: () => {
      raw.destroy();
      gunzip.destroy();
    },
  };
}

/**
 * Reads one file; *.gz is decompressed while streaming. The path is opened through safe-file.ts like every
 * named file: a device, FIFO or /proc entry is refused (ok:false) before anything is read.
 */
export async function readLogFile(path: string, opts: ReadLogOptions = {}): Promise<Parsed<LogFacts>> {
  const opened = await openNamedFile(path);
  if (!opened.ok) return unrecognized(LOG_KIND, `${path} ${opened.reason}`);
  const file = streamLogFile(path, opened, opts);
  const source = opts.source ?? basename(path);
  try {
    return await readLogStream(file.stream, { ...opts, source, sources: 1 });
  } finally {
    file.destroy();
    await opened.handle.close().catch(() => {});
  }
}

/** Reads standard input to its end. */
export function readLogStdin(opts: ReadLogOptions = {}): Promise<Parsed<LogFacts>> {
  return readLogStream(process.stdin, { source: 'stdin', sources: 1, ...opts });
}
