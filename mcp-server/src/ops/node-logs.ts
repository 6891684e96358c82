import { dirname, join } from 'node:path';
import {
  ChunkDecoder,
  isGzipLog,
  NEXT_SOURCE,
  readFileChunksBlocking,
  readLogPiecesBlocking,
  readLogStream,
  streamLogFile,
  type LogPiece,
} from '../collect/log-reader.js';
import { openBundleFile, openNamedFile, type OpenedFile } from '../collect/safe-file.js';
import type { LogFacts } from '../core/parse/logs/types.js';
import { SinceLineFilter, type SinceCut } from '../core/diagnosis/since-filter.js';

/** --since: only the lines of the incident window go on (core/diagnosis/since-filter.ts); null when there is no cut. */
function sinceStep(since?: SinceCut): { take: (chunk: Uint8Array) => string; rest: () => string } | null {
  if (!since) return null;
  const filter = new SinceLineFilter(since);
  const decoder = new ChunkDecoder();
  return { take: (chunk) => filter.push(decoder.decode(chunk)), rest: () => filter.push(decoder.flush()) + filter.flush() };
}

/**
 * A node's log files read as one stream (system.log, debug.log, gc.log), so one LogFacts describes the node; a
 * marker between files lets the reader count an event that two files both logged (debug.log repeats system.log) once.
 */
async function* concatFiles(files: { name: string; file: OpenedFile }[], signal?: AbortSignal, since?: SinceCut): AsyncIterable<LogPiece> {
  let first = true;
  for (const { name, file } of files) {
    if (!first) yield NEXT_SOURCE;
    first = false;
    const { stream, destroy } = streamLogFile(name, file, signal ? { signal } : {});
    const step = sinceStep(since);
    try {
      for await (const chunk of stream) yield step ? step.take(chunk) : chunk;
      if (step) yield step.rest();
    } finally {
      destroy();
    }
    yield '\n';
  }
}

/** concatFiles for plain files read with blocking calls (the CLI: readLogPiecesBlocking). */
function* concatFilesBlocking(files: { name: string; file: OpenedFile }[], since?: SinceCut): Iterable<LogPiece> {
  let first = true;
  for (const { file } of files) {
    if (!first) yield NEXT_SOURCE;
    first = false;
    const step = sinceStep(since);
    for (const chunk of readFileChunksBlocking(file)) yield step ? step.take(chunk) : chunk;
    if (step) yield step.rest();
    yield '\n';
  }
}

/**
 * Reads the log files of one node. The paths come from a caller (analyze_logs, diagnose logFiles): each is opened
 * through collect/safe-file.ts like every named file, so a device, FIFO or /proc entry (/dev/zero, /dev/stdin,
 * /proc/self/environ) is refused before a byte is read; a missing file is skipped and named in notFound.
 */
export async function readNodeLogs(
  node: string,
  paths: string[],
  signal?: AbortSignal,
  since?: SinceCut,
  /** Paths relative to this folder (a diagnostic tree), opened as bundle files: no link, nothing outside it. */
  root?: string,
  /** Read with blocking calls (only a process that does nothing else meanwhile: the CLI); .gz files are always streamed. */
  blocking = false,
): Promise<{ logs?: LogFacts; error?: string; notFound: string[] }> {
  const opened: { name: string; file: OpenedFile }[] = [];
  const notFound: string[] = [];
  try {
    for (const p of paths) {
      const f = root === undefined ? await openNamedFile(p) : await openBundleFile(root, p);
      if (f.ok) opened.push({ name: p, file: f });
      else if (f.code === 'NOT_FOUND') notFound.push(p);
      else return { error: `${node}: ${p} ${f.reason}`, notFound };
    }
    if (!opened.length) return { error: `no log file found for ${node} (looked for ${paths.join(', ')})`, notFound };
    const opts = { node, source: opened.map((o) => o.name).join(' + '), sources: opened.length, ...(signal ? { signal } : {}) };
    const r =
      blocking && !opened.some((o) => isGzipLog(o.name))
        ? await readLogPiecesBlocking(concatFilesBlocking(opened, since), opts)
        : await readLogStream(concatFiles(opened, signal, since), opts);
    return r.ok ? { logs: r.value, notFound } : { error: `${node}: ${r.reason}`, notFound };
  } finally {
    // Streams close their handle when they end; the ones never streamed (an early return, an abort) close here.
    await Promise.all(opened.map((o) => o.file.handle.close().catch(() => {})));
  }
}

/** The lab's own logs: each node's system.log and gc.log, by node address. */
export async function labLogPaths(): Promise<Record<string, string[]>> {
  // Loaded here: `cql-tuner logs` on the user's files never needs the lab (and its YAML parser).
  const { labStatus } = await import('../lab/index.js');
  const s = await labStatus();
  return Object.fromEntries(s.nodes.map((n) => [n.host, [n.logFile, join(dirname(n.logFile), 'gc.log')]]));
}
