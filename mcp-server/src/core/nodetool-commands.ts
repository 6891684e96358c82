import { checkCqlIdentifier, checkHost, checkPort } from './validate.js';

/**
 * The read-only nodetool subcommands the tool may run, and the arguments each accepts.
 * Anything else (repair, cleanup, drain, set*, …) changes the cluster and is refused.
 */
export interface NodetoolCommandSpec {
  /** What keyspace/table arguments mean for this subcommand. */
  target: 'none' | 'keyspace' | 'keyspace-table' | 'keyspace.table';
  // keyspace-table: two arguments (tablehistograms ks t); keyspace.table: one dotted argument (tablestats ks.t).
  /** The flag that prints sizes with units, where the subcommand has one. */
  humanReadableFlag?: '-H';
  /** Run once more with these arguments when the output matches (a version that insists on a flag). */
  retry?: { when: RegExp; addArgs: string[]; why: string };
  summary: string;
  /** Set when running it changes the node (gcstats resets its GC interval): not offered by the read-only MCP tool. */
  resetsState?: string;
  /**
   * Set for a sampler that runs for a duration (profileload): a fixed argument list plus a bounded duration in ms,
   * run by diagnose inside its window only, never offered by the MCP tool (it holds a JMX call open for seconds).
   */
  samplesFor?: { fixedArgs: readonly string[]; minMs: number; maxMs: number; why: string };
}

export const NODETOOL_ALLOW_LIST = {
  status: { target: 'keyspace', summary: 'ring membership, state, load and ownership per node' },
  info: { target: 'none', summary: 'this node: uptime, heap, load, caches, gossip/native state' },
  version: { target: 'none', summary: 'release version' },
  tpstats: { target: 'none', summary: 'thread pools (active/pending/blocked) and dropped messages' },
  tablestats: { target: 'keyspace.table', humanReadableFlag: '-H', summary: 'per-table statistics' },
  compactionstats: { target: 'none', humanReadableFlag: '-H', summary: 'pending and running compactions' },
  tablehistograms: { target: 'keyspace-table', summary: 'per-table latency, SSTables per read, partition sizes' },
  proxyhistograms: { target: 'none', summary: 'coordinator read/write/range latency percentiles' },
  gcstats: {
    target: 'none',
    summary: 'GC pauses since the last call (resets the interval)',
    resetsState: "every call resets the node's GC interval counters, so a second call (or anyone else's monitoring) sees a shorter interval",
  },
  describecluster: { target: 'none', summary: 'cluster name, snitch, partitioner, schema versions' },
  netstats: { target: 'none', humanReadableFlag: '-H', summary: 'streaming and internode message pools' },
  ring: { target: 'keyspace', summary: 'tokens per node' },
  gossipinfo: { target: 'none', summary: 'gossip state per endpoint' },
  statusbinary: { target: 'none', summary: 'whether the native (CQL) transport runs' },
  getcompactionthroughput: { target: 'none', summary: 'compaction throughput cap' },
  getstreamthroughput: {
    target: 'none',
    summary: 'stream throughput cap',
    // 4.1+ refuses to print a MiB/s cap that is not a whole number of megabits unless given -d (4.0 has no -d).
    retry: { when: /Use the -d flag/, addArgs: ['-d'], why: '4.1+ needs -d to print a cap that is not a whole number of megabits/s' },
  },
  compactionhistory: { target: 'none', summary: 'recent compactions' },
  profileload: {
    target: 'none',
    summary: 'the most read and written partitions of every table, sampled for a duration (4.0+)',
    // Top 10 keys of the read and write samplers, all keyspaces; the duration (ms) is the only variable argument.
    samplesFor: {
      fixedArgs: ['-a', 'READS,WRITES', '-k', '10'],
      minMs: 1000,
      maxMs: 10_000,
      why: 'samples every table for several seconds: diagnose runs it once per node inside its window',
    },
  },
} as const satisfies Record<string, NodetoolCommandSpec>;

export type NodetoolSubcommand = keyof typeof NODETOOL_ALLOW_LIST;
export const NODETOOL_SUBCOMMANDS = Object.keys(NODETOOL_ALLOW_LIST) as NodetoolSubcommand[];

/**
 * What the `nodetool` MCP tool offers: the allow-list minus subcommands that change the node, so its
 * readOnlyHint / idempotentHint stay true. diagnose and cluster_snapshot still collect gcstats themselves.
 */
export const NODETOOL_TOOL_SUBCOMMANDS = NODETOOL_SUBCOMMANDS.filter((s) => {
  const spec: NodetoolCommandSpec = NODETOOL_ALLOW_LIST[s];
  return !spec.resetsState && !spec.samplesFor;
});

export function isAllowedSubcommand(s: string): s is NodetoolSubcommand {
  return Object.prototype.hasOwnProperty.call(NODETOOL_ALLOW_LIST, s);
}

export interface NodetoolRequest {
  subcommand: string;
  host: string;
  port: number;
  keyspace?: string;
  table?: string;
  humanReadable?: boolean;
  /** Sampling duration in ms, for a samplesFor subcommand only (a whole number within its bounds). */
  durationMs?: number;
}

export type NodetoolArgs =
  | { ok: true; subcommand: NodetoolSubcommand; connectionArgs: string[]; commandArgs: string[] }
  | { ok: false; code: 'NOT_ALLOWED' | 'BAD_HOST' | 'BAD_PORT' | 'BAD_IDENTIFIER' | 'BAD_ARGUMENTS'; message: string };

/**
 * Turns a request into nodetool's own arguments: connection options (credentials go after them), then
 * the subcommand and its validated arguments. Pure, so the refusal rules are tested without running anything.
 */
export function buildNodetoolArgs(req: NodetoolRequest): NodetoolArgs {
  const sub = String(req.subcommand ?? '')
    .trim()
    .toLowerCase();
  // cfstats/cfhistograms are the pre-4.0 names of the same commands.
  const canonical = sub === 'cfstats' ? 'tablestats' : sub === 'cfhistograms' ? 'tablehistograms' : sub;
  if (!isAllowedSubcommand(canonical)) {
    return {
      ok: false,
      code: 'NOT_ALLOWED',
      message: `nodetool subcommand ${JSON.stringify(String(req.subcommand).slice(0, 60))} is not on the read-only allow-list. Allowed: ${NODETOOL_SUBCOMMANDS.join(', ')}.`,
    };
  }
  const host = checkHost(req.host);
  if (!host.ok) return { ok: false, code: 'BAD_HOST', message: host.reason };
  const port = checkPort(req.port);
  if (!port.ok) return { ok: false, code: 'BAD_PORT', message: port.reason };
  for (const [what, value] of [
    ['keyspace', req.keyspace],
    ['table', req.table],
  ] as const) {
    if (value !== undefined && value !== '') {
      const c = checkCqlIdentifier(what, value);
      if (!c.ok) return { ok: false, code: 'BAD_IDENTIFIER', message: c.reason };
    }
  }
  const spec: NodetoolCommandSpec = NODETOOL_ALLOW_LIST[canonical];
  const ks = req.keyspace || undefined;
  const table = req.table || undefined;
  const connectionArgs = ['-h', req.host, '-p', String(req.port)];
  const args: string[] = [canonical];
  if (req.humanReadable && spec.humanReadableFlag) args.push(spec.humanReadableFlag);
  if (table && !ks) {
    return { ok: false, code: 'BAD_ARGUMENTS', message: `a table needs its keyspace: give keyspace as well as table "${table}"` };
  }
  switch (spec.target) {
    case 'none':
      if (ks || table) {
        return { ok: false, code: 'BAD_ARGUMENTS', message: `nodetool ${canonical} takes no keyspace or table` };
      }
      break;
    case 'keyspace':
      if (table) return { ok: false, code: 'BAD_ARGUMENTS', message: `nodetool ${canonical} takes a keyspace but no table` };
      if (ks) args.push(ks);
      break;
    case 'keyspace.table':
      if (ks) args.push(table ? `${ks}.${table}` : ks);
      break;
    case 'keyspace-table':
      if (ks && !table) {
        return { ok: false, code: 'BAD_ARGUMENTS', message: `nodetool ${canonical} needs a table with the keyspace (or neither, on 4.0+)` };
      }
      if (ks && table) args.push(ks, table);
      break;
  }
  const sampled = spec.samplesFor;
  if (sampled) {
    const ms = req.durationMs;
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < sampled.minMs || ms > sampled.maxMs) {
      const message = `nodetool ${canonical} needs a duration of ${sampled.minMs}–${sampled.maxMs} ms as a whole number (got ${String(ms).slice(0, 30)})`;
      return { ok: false, code: 'BAD_ARGUMENTS', message };
    }
    args.push(...sampled.fixedArgs, String(ms));
  } else if (req.durationMs !== undefined) {
    return { ok: false, code: 'BAD_ARGUMENTS', message: `nodetool ${canonical} takes no duration` };
  }
  return { ok: true, subcommand: canonical, connectionArgs, commandArgs: args };
}
