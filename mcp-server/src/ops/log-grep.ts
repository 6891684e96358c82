/**
 * `logs --grep` / MCP grep_logs: a pattern searched through log files, matches counted per time bucket
 * (core/parse/logs/grep.ts). The pattern may come from an MCP argument, so a regex runs on RE2 semantics (re2js:
 * linear time, no backtracking), never on JavaScript's backtracking engine; a literal (the default) is a substring.
 * Files are opened like every named file (collect/safe-file.ts); .gz files are inflated on the way.
 */
import { z } from 'zod';
import { ChunkDecoder, streamLogFile } from '../collect/log-reader.js';
import { openNamedFile } from '../collect/safe-file.js';
import { LogGrep } from '../core/parse/logs/grep.js';
import type { GrepFilesResult } from '../core/reports/logs.js';
import { OpError } from './errors.js';

export type { GrepFilesResult };

export interface GrepRequest {
  pattern: string;
  /** RE2 syntax when true; a plain substring when false. */
  regex?: boolean;
  caseSensitive?: boolean;
  bucketSeconds?: number;
}

export const GREP_PATTERN_MAX = 500;
export const GREP_BUCKET_MAX_S = 31 * 86_400;

/** The input of grep_logs and of `cql-tuner logs --grep` (the CLI words its flags into this). */
export const grepLogsInputSchema = z.object({
  paths: z.array(z.string().min(1).max(4096)).min(1).max(16).describe('Log files of one node on the machine the server runs on (.gz too)'),
  pattern: z.string().min(1).max(GREP_PATTERN_MAX).describe('Text to find in each line; with regex: true an RE2 regular expression'),
  regex: z.boolean().default(false).describe('RE2 syntax (linear time: no backreferences or lookaround)'),
  caseSensitive: z.boolean().default(false).describe('Match case (ignored by default, as sperf bgrep does)'),
  bucketSeconds: z.number().int().min(1).max(GREP_BUCKET_MAX_S).default(3600).describe('Matches are counted per bucket of this many seconds'),
});

/** The line test for a request; a regex that RE2 refuses is a BAD_ARGUMENT naming RE2's reason. */
export async function grepMatcher(req: GrepRequest): Promise<(line: string) => boolean> {
  if (!req.pattern || req.pattern.length > GREP_PATTERN_MAX) {
    throw new OpError('BAD_ARGUMENT', `the grep pattern must be 1 to ${GREP_PATTERN_MAX} characters`, 'Give a shorter pattern.');
  }
  if (!req.regex) {
    const needle = req.caseSensitive ? req.pattern : req.pattern.toLowerCase();
    return req.caseSensitive ? (s) => s.includes(needle) : (s) => s.toLowerCase().includes(needle);
  }
  const { RE2JS } = await import('re2js');
  let re: InstanceType<typeof RE2JS>;
  try {
    re = RE2JS.compile(req.pattern, req.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (e) {
    throw new OpError(
      'BAD_ARGUMENT',
      `the grep pattern is not a valid RE2 regular expression: ${e instanceof Error ? e.message : String(e)}`,
      'Use RE2 syntax (no backreferences or lookaround), or drop --regex to search for the text as written.',
    );
  }
  return (s) => re.matcher(s).find();
}

/** Searches the files one after another (a node's logs: times run on across them). */
export async function grepLogFiles(paths: string[], req: GrepRequest, opts: { signal?: AbortSignal } = {}): Promise<GrepFilesResult> {
  const grep = new LogGrep(await grepMatcher(req), req.bucketSeconds ?? 3600);
  const files: GrepFilesResult['files'] = [];
  for (const path of paths) {
    const f = await openNamedFile(path);
    if (!f.ok) {
      files.push({ path, read: false, error: f.reason });
      continue;
    }
    const { stream, destroy } = streamLogFile(path, f, opts.signal ? { signal: opts.signal } : {});
    try {
      const decoder = new ChunkDecoder();
      for await (const chunk of stream) {
        if (opts.signal?.aborted) throw new OpError('CANCELLED', 'the log search was cancelled', 'Run it again.');
        grep.push(decoder.decode(chunk));
      }
      grep.push(`${decoder.flush()}\n`);
      files.push({ path, read: true });
    } catch (e) {
      if (e instanceof OpError) throw e;
      files.push({ path, read: false, error: e instanceof Error ? e.message : String(e) });
    } finally {
      destroy();
      await f.handle.close().catch(() => {});
    }
  }
  if (!files.some((x) => x.read)) {
    throw new OpError('LOG_UNREADABLE', `no log file could be read: ${files.map((x) => `${x.path} ${x.error ?? ''}`).join('; ')}`, 'Check the paths.');
  }
  return { pattern: req.pattern, regex: req.regex === true, files, ...grep.end() };
}
