import { dirname, join } from 'node:path';
import { ChunkDecoder, NEXT_SOURCE, readLogStream, streamLogFile } from '../collect/log-reader.js';
import { openBundleFile, openNamedFile, type OpenedFile } from '../collect/safe-file.js';
import type { LogFacts } from '../core/parse/logs/types.js';
import { SinceLineFilter, type SinceCut } from '../core/diagnosis/since-filter.js';

/**
 * A node's log files read as one stream (system.log, debug.log, gc.log), so one LogFacts describes the node; a
 * marker between files lets the reader count an event that two files both logged (debug.log repeats system.log) once.
 */
async function* concatFiles(
  files: { name: string; file: OpenedFile }[],
  signal?: AbortSignal,
  since?: SinceCut,
): AsyncIterable<Uint8Array | string | typeof NEXT_SOURCE> {
  let first = true;
  for (const { name, file } of files) {
    if (!first) yield NEXT_SOURCE;
    first = false;
    const { stream, destroy } = streamLogFile(name, file, signal ? { signal } : {});
    // --since: only the lines of the incident window go on (core/diagnosis/since-filter.ts).
    const filter = since ? new SinceLineFilter(since) : null;
    const decoder = filter ? new ChunkDecoder() : null;
    try {
      for await (const chunk of stream) yield filter ? filter.push(decoder!.decode(chunk)) : chunk;
      if (filter) yield filter.push(decoder!.flush()) + filter.flush();
    } finally {
      destroy();
    }
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
    const r = await readLogStream(concatFiles(opened, signal, since), {
      node,
      source: opened.map((o) => o.name).join(' + '),
      sources: opened.length,
      ...(signal ? { signal } : {}),
    });
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
