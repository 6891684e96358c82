import { z } from 'zod';
import {
  buildNodetoolArgs,
  isAllowedSubcommand,
  NODETOOL_ALLOW_LIST,
  NODETOOL_SUBCOMMANDS,
  NODETOOL_TOOL_SUBCOMMANDS,
  type NodetoolCommandSpec,
} from '../core/nodetool-commands.js';
import { classifyNodetoolFailure } from '../core/nodetool-errors.js';
import { NODETOOL_PARSERS } from '../core/parse/nodetool/index.js';
import { entryFor, isLoopback } from '../core/credential-hosts.js';
import { allowHostFix, clearTextWarning, loadCredentialHosts } from '../collect/credential-hosts.js';
import { jmxAuthFromEnv, scrub } from '../collect/jmx-credentials.js';
import { LocalTarget } from '../collect/local-target.js';
import { locateNodetool, remoteNodetool } from '../collect/nodetool-locate.js';
import type { NodetoolBatchPool } from '../collect/nodetool-batch.js';
import type { RunOptions, RunResult, Target } from '../collect/target.js';
import { DEFAULT_MAX_BYTES } from '../collect/target.js';
import { OpError } from './errors.js';
import type { ProgressFn } from './progress.js';
import type { NodetoolReport } from '../core/reports/nodetool.js';
import { labNodetoolArgv } from '../lab/index.js';
export type { NodetoolReport } from '../core/reports/nodetool.js';

export interface NodetoolInput {
  subcommand: string;
  host?: string;
  port?: number;
  keyspace?: string;
  table?: string;
  humanReadable?: boolean;
  nodetoolPath?: string;
  timeoutMs?: number;
  /** Include the whole raw output in the report (otherwise a short excerpt when unparsed). */
  raw?: boolean;
  /** Sampling duration (ms) of a samplesFor subcommand (profileload); set by diagnose's window only. */
  durationMs?: number;
}

export const DEFAULT_NODETOOL_TIMEOUT_MS = 60_000;
export const MAX_NODETOOL_TIMEOUT_MS = 600_000;

/** Allow-listed subcommands the nodetool tool leaves out because running them changes the node (gcstats). */
export const NODETOOL_STATEFUL = NODETOOL_SUBCOMMANDS.filter((s) => !!(NODETOOL_ALLOW_LIST[s] as NodetoolCommandSpec).resetsState);
export const NODETOOL_STATEFUL_NOTE = NODETOOL_STATEFUL.map((s) => `${s}: ${(NODETOOL_ALLOW_LIST[s] as NodetoolCommandSpec).resetsState}`).join('; ');

/** Why a subcommand is refused: the node-changing ones get their reason and where to get the data instead. */
function refusal(input: unknown): string {
  if (typeof input === 'string' && (NODETOOL_STATEFUL as string[]).includes(input)) {
    return `${input} is not run by this read-only tool (${NODETOOL_STATEFUL_NOTE}); diagnose and cluster_snapshot collect it once per call and report it`;
  }
  // A sampler (profileload) holds JMX for seconds: diagnose runs it inside its window, never this tool.
  const sampler = typeof input === 'string' && isAllowedSubcommand(input) ? (NODETOOL_ALLOW_LIST[input] as NodetoolCommandSpec).samplesFor : undefined;
  if (sampler) return `${String(input)} is not run by this tool: it ${sampler.why}`;
  return `not on the read-only allow-list; allowed: ${NODETOOL_TOOL_SUBCOMMANDS.join(', ')}`;
}

/** The nodetool tool's input (untrusted arguments). The CLI widens it (cli/commands/nodetool.ts). */
export const nodetoolInputSchema = z.object({
  subcommand: z.enum(NODETOOL_TOOL_SUBCOMMANDS as [string, ...string[]], { error: (iss) => refusal(iss.input) }).describe('Read-only nodetool subcommand'),
  host: z.string().max(253).default('127.0.0.1').describe('Node JMX host (IP or name)'),
  port: z.number().int().min(1).max(65535).default(7199).describe('Node JMX port (Cassandra default 7199; ScyllaDB REST 10000)'),
  keyspace: z.string().max(222).optional().describe('Keyspace for status/ring/tablestats/tablehistograms'),
  table: z.string().max(222).optional().describe('Table, with keyspace, for tablestats/tablehistograms'),
  humanReadable: z.boolean().default(false).describe('Sizes with units (-H) where supported'),
  nodetoolPath: z.string().max(4096).optional().describe('Absolute path of a nodetool script to use'),
  timeoutMs: z.number().int().min(1000).max(MAX_NODETOOL_TIMEOUT_MS).default(60_000),
  raw: z.boolean().default(false).describe('Also return the complete raw output'),
});
const EXCERPT_LINES = 40;
// Lines can be huge too (one 16 MiB line): the excerpt that goes into a tool result is capped in characters.
const EXCERPT_CHARS = 8_000;

function excerptOf(lines: string[]): string {
  const head = lines.slice(0, EXCERPT_LINES).join('\n');
  const cut = head.length > EXCERPT_CHARS ? `${head.slice(0, EXCERPT_CHARS)}\n… ${head.length - EXCERPT_CHARS} more characters` : head;
  return cut + (lines.length > EXCERPT_LINES ? `\n… ${lines.length - EXCERPT_LINES} more lines (raw: true for all)` : '');
}

export interface NodetoolDeps {
  target?: Target;
  signal?: AbortSignal;
  onProgress?: ProgressFn;
  env?: NodeJS.ProcessEnv;
  /** Run the lab's java nodetool for several commands in one JVM (a sweep passes one pool per node). */
  batch?: NodetoolBatchPool;
  /**
   * The node a loopback JMX host stands for when nodetool runs on a remote target (a sweep passes the node's
   * address): JMX credentials go there only when that node is allowed to receive them.
   */
  credentialHost?: string;
}

/**
 * May the JMX credentials go to this call's JMX endpoint? Loopback on a remote target is that target's node.
 * Returns the host the decision was about and whether to withhold them.
 */
async function jmxCredentialDecision(
  host: string,
  port: number,
  remote: boolean,
  deps: NodetoolDeps,
  env: NodeJS.ProcessEnv,
): Promise<{ credHost: string; withhold: boolean }> {
  const credHost = remote && isLoopback(host) ? (deps.credentialHost ?? host) : host;
  if (!env['CQL_TUNER_JMX_USERNAME']) return { credHost, withhold: false };
  return { credHost, withhold: (await loadCredentialHosts(env)).allows(credHost, port) === null };
}

/** What to do about each refusal, so the fix names the argument that was wrong. */
const NODETOOL_REFUSAL_FIX: Record<'NOT_ALLOWED' | 'BAD_HOST' | 'BAD_PORT' | 'BAD_IDENTIFIER' | 'BAD_ARGUMENTS', string> = {
  NOT_ALLOWED: 'Use one of the allowed read-only subcommands listed in the message; anything that changes a node is not run here.',
  BAD_HOST: 'Give the JMX host as a hostname or an IPv4/IPv6 address (no spaces, not starting with "-").',
  BAD_PORT: 'Give the JMX port as a whole number between 1 and 65535 (7199 by default).',
  BAD_IDENTIFIER: 'Give keyspace and table names exactly as in the schema, without quotes (only A–Z, a–z, 0–9 and _ are valid names).',
  BAD_ARGUMENTS: 'Pass keyspace and table as the message says this subcommand takes them.',
};

/** Runs one allow-listed, read-only nodetool subcommand against a node's JMX port and parses the answer. */
export async function runNodetool(input: NodetoolInput, deps: NodetoolDeps = {}): Promise<NodetoolReport> {
  const host = input.host ?? '127.0.0.1';
  const port = input.port ?? 7199;
  const built = buildNodetoolArgs({ ...input, host, port });
  if (!built.ok) throw new OpError(built.code, built.message, NODETOOL_REFUSAL_FIX[built.code]);
  const timeoutMs = input.timeoutMs ?? DEFAULT_NODETOOL_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1000 || timeoutMs > MAX_NODETOOL_TIMEOUT_MS) {
    throw new OpError(
      'BAD_TIMEOUT',
      `timeoutMs ${String(timeoutMs)} is outside 1000–${MAX_NODETOOL_TIMEOUT_MS}`,
      'Give a timeout in milliseconds between 1 s and 10 min.',
    );
  }
  const env = deps.env ?? process.env;
  const target = deps.target ?? new LocalTarget();
  const remote = target.kind !== 'local';
  const located = remote ? remoteNodetool(input.nodetoolPath) : await locateNodetool(input.nodetoolPath, env, labNodetoolArgv);
  const decision = await jmxCredentialDecision(host, port, remote, deps, env);
  const auth = await jmxAuthFromEnv(env, { remote, withhold: decision.withhold });
  const warnings: string[] = [];
  if (auth.withheld) {
    const where = entryFor(decision.credHost, port);
    warnings.push(`JMX credentials were not sent to ${where}: it is not in CQL_TUNER_CREDENTIAL_HOSTS. ${allowHostFix(decision.credHost, port)}`);
  } else if (env['CQL_TUNER_JMX_USERNAME'] && !auth.args.includes('--ssl')) {
    const w = clearTextWarning('the JMX password', host, port, 'CQL_TUNER_JMX_SSL');
    if (w) warnings.push(w);
  }
  deps.onProgress?.({ message: `nodetool ${built.subcommand} on ${host}:${port}${remote ? ` via ${target.describe()}` : ''}` });
  try {
    // The lab's java NodeTool class has no --ssl (bin/nodetool's wrapper turns it into -Dssl.enable=true, which
    // NodeProbe reads; checked in the 4.1.10 and 5.0.9 jars): give the JVM the property instead.
    const javaSsl = located.source === 'lab' && auth.args.includes('--ssl');
    const prefix = javaSsl ? [located.argvPrefix[0]!, '-Dssl.enable=true', ...located.argvPrefix.slice(1)] : located.argvPrefix;
    const args = [...built.connectionArgs, ...(javaSsl ? auth.args.filter((a) => a !== '--ssl') : auth.args), ...built.commandArgs];
    const batcher = !remote && deps.batch ? await deps.batch.batcherFor(prefix) : null;
    const run = (a: string[], o: RunOptions): Promise<RunResult> => (batcher ? batcher.run(a, o) : target.run([...prefix, ...a], o));
    let res = await run(args, { timeoutMs, signal: deps.signal, env: auth.env });
    const retry = (NODETOOL_ALLOW_LIST[built.subcommand] as NodetoolCommandSpec).retry;
    if (retry && res.exitCode !== 0 && !res.timedOut && !res.cancelled && retry.when.test(`${res.stdout}\n${res.stderr}`)) {
      res = await run([...args, ...retry.addArgs], { timeoutMs, signal: deps.signal, env: auth.env });
    }
    const stdout = scrub(res.stdout, auth.secrets);
    const stderr = scrub(res.stderr, auth.secrets);
    const combined = stderr.trim() ? `${stdout}${stdout.endsWith('\n') || !stdout ? '' : '\n'}${stderr}` : stdout;
    // A cut output is never a success, even when the writer's parent exits 0 first (its child got SIGPIPE when the
    // pipe closed at the cap, before the kill landed: seen once under CI load).
    const ok = res.exitCode === 0 && !res.timedOut && !res.cancelled && !res.spawnError && !res.truncated;
    let error: NodetoolReport['error'];
    // A sweep's per-node deadline arrives as an abort (AbortSignal.timeout): that is a timeout, not the client.
    const deadline = res.cancelled && (deps.signal?.reason as { name?: string } | undefined)?.name === 'TimeoutError';
    if (res.cancelled && !deadline) error = { code: 'CANCELLED', message: 'cancelled by the client', fix: 'Run it again when needed.' };
    else if (res.timedOut || deadline) {
      error = {
        code: 'TIMEOUT',
        message: `nodetool ${built.subcommand} on ${host}:${port} did not finish within ${deadline ? 'the node deadline' : `${timeoutMs} ms`}`,
        fix: 'The node may be overloaded (long GC pauses) or JMX blocked by a firewall; raise timeoutMs or try the CQL virtual tables.',
      };
    } else if (res.truncated) {
      error = {
        code: 'OUTPUT_TOO_LARGE',
        message: `nodetool ${built.subcommand} on ${host}:${port} printed more than the ${DEFAULT_MAX_BYTES / 1024 ** 2} MiB output cap: it was stopped and its output cut at ${DEFAULT_MAX_BYTES / 1024 ** 2} MiB`,
        fix: 'Narrow the command (a keyspace or table for tablestats/tablehistograms) so its output fits.',
      };
    } else if (res.spawnError) {
      error = {
        code: 'SPAWN_FAILED',
        message: `could not start ${located.path}: ${res.spawnError}`,
        fix: 'Check that nodetool (and java) are installed and executable.',
      };
    } else if (!ok) error = classifyNodetoolFailure(built.subcommand, host, port, combined);
    if (error?.code === 'JMX_AUTH' && auth.withheld) {
      error = {
        code: 'JMX_CREDENTIALS_NOT_ALLOWED',
        message: `JMX at ${host}:${port} wants credentials; cql-tuner does not send them to ${entryFor(decision.credHost, port)}: not in CQL_TUNER_CREDENTIAL_HOSTS`,
        fix: allowHostFix(decision.credHost, port),
      };
    }

    const parser = NODETOOL_PARSERS[built.subcommand];
    const parsedRaw = ok && parser ? parser(stdout) : null;
    const parsed: NodetoolReport['parsed'] = parsedRaw
      ? parsedRaw.ok
        ? { kind: parsedRaw.kind, ok: true, value: parsedRaw.value, warnings: parsedRaw.warnings }
        : { kind: parsedRaw.kind, ok: false, reason: parsedRaw.reason }
      : null;
    const lines = combined.split('\n');
    return {
      subcommand: built.subcommand,
      host,
      port,
      ok,
      exitCode: res.exitCode,
      durationMs: res.ms,
      timedOut: res.timedOut || deadline,
      nodetool: { source: located.source, path: located.path },
      parsed,
      ...(error ? { error } : {}),
      ...(warnings.length ? { warnings } : {}),
      output: {
        chars: combined.length,
        lines: combined === '' ? 0 : lines.length,
        truncated: res.truncated,
        excerpt: excerptOf(lines),
        ...(input.raw ? { raw: combined } : {}),
      },
    };
  } finally {
    await auth.cleanup();
  }
}
