import { NODETOOL_PARSERS } from './parse/nodetool/index.js';
import { TABLE_FIELDS_SIGNATURE } from './parse/nodetool/tablestats.js';
import type { Parsed } from './parsed.js';
import { parseTsv } from './parse/tsv.js';
import { parseLogs } from './parse/logs/index.js';
import { cqlSchemaSignature, parseCqlSchema } from './parse/schema/index.js';
import { CONFIG_PARSERS, configSignature, type ConfigKind } from './parse/config/index.js';
import { STORAGE_PARSERS, storageSignature, type StorageKind } from './parse/storage/index.js';
import { STRESS_PARSERS, stressSignature, type StressKind } from './parse/stress/index.js';
import { HOST_PARSERS, hostSignature, type HostKind } from './parse/host/index.js';
import { cqlshTableSignature, parseCqlshTables } from './parse/cqlsh-table.js';
import { cleanPaste, type WrapperName } from './parse/paste/clean.js';
import { remapLineNumbers } from './parse/paste/line-map.js';
import { parseSlowQueries, SLOW_QUERIES_KIND, slowQueriesSignature } from './parse/logs/slow-queries.js';
import { K8S_SIGNATURE, parseK8sResources } from './parse/k8s/resources.js';
import { KIND_MODULES } from './kinds/registry.js';
import type { KindModule } from './kinds/types.js';
import type { KindRules } from './rules/per-kind.js';
import { STORAGE_KIND_RULES } from './rules/storage.js';
import { STRESS_KIND_RULES } from './rules/stress.js';
import { SCHEMA_KIND_RULES } from './rules/schema.js';
import { CONFIG_KIND_RULES } from './rules/config.js';
import { CQL_TABLE_RULES, CQL_TSV_RULES } from './rules/cql-table-kind.js';
import { HOST_KIND_RULES } from './rules/host.js';
import { SLOW_QUERY_KIND_RULES } from './rules/slow-queries.js';
import { K8S_KIND_RULES } from './rules/k8s-config.js';

const byRules = (rules: KindRules): KindJudge => ({ by: 'kind-rules', rules });
const stressKinds = (Object.keys(STRESS_PARSERS) as StressKind[]).map((kind): KindSpec => ({
  kind,
  signature: stressSignature[kind],
  parse: STRESS_PARSERS[kind],
  strong: true,
  judge: byRules(STRESS_KIND_RULES),
}));
const storageKinds = (Object.keys(STORAGE_PARSERS) as StorageKind[]).map((kind): KindSpec => ({
  kind,
  signature: storageSignature[kind],
  parse: STORAGE_PARSERS[kind],
  strong: true,
  judge: byRules(STORAGE_KIND_RULES),
}));
const hostKinds = (Object.keys(HOST_PARSERS) as HostKind[]).map((kind): KindSpec => ({
  kind,
  signature: hostSignature[kind],
  parse: HOST_PARSERS[kind],
  strong: true,
  judge: byRules(HOST_KIND_RULES),
}));
const config = (kind: ConfigKind, strong: boolean): KindSpec => ({
  kind,
  signature: configSignature[kind],
  parse: CONFIG_PARSERS[kind],
  strong,
  judge: byRules(CONFIG_KIND_RULES),
});

/**
 * How interpret judges a kind's parsed value: a node's nodetool output through the node rules (as diagnose
 * does), a log through the log rules, anything else through the rules registered with the kind.
 */
export type KindJudge = { by: 'node-rules' } | { by: 'log-rules' } | { by: 'kind-rules'; rules: KindRules };

/**
 * What kind of output is this text? Signatures are cheap regexes tried in order (most specific first);
 * a kind is accepted only when its parser also reads the text. The table is data: later issues add
 * stress, storage, log and config kinds here.
 */
export interface KindSpec {
  kind: string;
  signature: RegExp;
  parse: (text: string) => Parsed<unknown>;
  /** Tried before logs even when lines carry log prefixes (a syslog-wrapped mkfs output is still mkfs output). */
  strong?: boolean;
  /** Which rules read it: every kind says so here, the one list interpret goes by. */
  judge: KindJudge;
}

/** The registered kind modules of one detection slot, as KINDS entries. */
function moduleKinds(order: KindModule['order']): KindSpec[] {
  return KIND_MODULES.filter((m) => m.order === order).map((m) => ({
    kind: m.kind,
    signature: m.signature,
    parse: m.parse,
    strong: m.order === 'before-logs',
    judge: byRules(m.judge),
  }));
}

const NODE_RULES: KindJudge = { by: 'node-rules' };
/** A nodetool output: its parser, judged by the node rules. */
const nt = (kind: string, signature: RegExp): KindSpec => ({ kind: `nodetool.${kind}`, signature, parse: NODETOOL_PARSERS[kind]!, judge: NODE_RULES });

/**
 * The status header, or node rows alone (a table cut to its rows, issue #14): status, address, load, tokens, owns,
 * then the host ID column.
 */
const STATUS_SIGNATURE =
  /--\s+Address\s+Load\s|^[ \t]*[UD?][NLJM][ \t]+\S+[ \t]+(?:\?|-?\d[\d.,]*(?:[ \t]*(?:bytes|[KMGTP]i?B|B))?)[ \t]+(?:\d+|\?)[ \t]+(?:\?|-?\d[\d.,]*[ \t]*%)[ \t]+\S/m;

export const KINDS: KindSpec[] = [
  nt('proxyhistograms', /Percentile\s+(?:Read Latency\s+Write Latency\s+Range Latency|Read Latency\s+Write Latency\s+Range Latency)/),
  nt('tablehistograms', /Percentile[ \t]+[^\n]{0,400}?(?:SSTables|Partition Size|Cell Count)/),
  nt('tpstats', /Pool(?:s| Name)\s+Active\s+Pending/),
  nt('gcstats', /Interval \(ms\)\s*Max GC Elapsed|Interval \(ms\)\s+\d/),
  // also the schema-versions map a client prints: {<uuid>=[endpoints], UNREACHABLE=[…]}
  nt('describecluster', /Cluster Information:|^\{[0-9a-fA-F]{8}-[0-9a-fA-F-]{27}=\[/m),
  nt('compactionhistory', /Compaction History:|There is no compaction history|^[ \t]*id[ \t]+keyspace_name[ \t]+columnfamily_name[ \t]+compacted_at\b/m),
  nt('compactionstats', /pending tasks/i),
  // the headers, or two known field lines of a table pasted without them (issue #14)
  nt(
    'tablestats',
    new RegExp(
      String.raw`^[ \t]*(?:Keyspace\s*:|Total number of tables:)|^[ \t]*(?:Table|Column Family)(?: \(index\))?:\s|${TABLE_FIELDS_SIGNATURE.source}`,
      'm',
    ),
  ),
  nt('status', STATUS_SIGNATURE),
  nt('ring', /Address\s+(?:DC\s+)?Rack\s+Status\s+State\s+Load/),
  nt('netstats', /^[ \t]*Mode:\s*[A-Z_]+/m),
  nt('gossipinfo', /^[ \t]*(?:\S*\/[0-9a-f.:]+|\d{1,3}(?:\.\d{1,3}){3})[ \t]*$(?:\n[^\n]{0,400}){0,20}?\n[ \t]*generation:/m),
  nt('info', /Generation No\s*:/),
  nt('version', /ReleaseVersion\s*:/),
  nt('getcompactionthroughput', /Current compaction throughput/i),
  nt('getstreamthroughput', /Current stream throughput|stream throughput/i),
  nt('statusbinary', /^[ \t]*(?:\$ [^\n]*\n[ \t]*)?(?:not running|running)[ \t]*$/m),
  ...stressKinds,
  ...storageKinds,
  ...hostKinds,
  // Kind modules (core/kinds/): distinctive headers before CQL schema, configs and logs.
  ...moduleKinds('before-logs'),
  { kind: 'cql.schema', signature: cqlSchemaSignature, parse: parseCqlSchema, judge: byRules(SCHEMA_KIND_RULES) },
  // Operator resources are YAML that a cassandra.yaml reader would half-read: tried first.
  { kind: 'k8s.resources', signature: K8S_SIGNATURE, parse: parseK8sResources, strong: true, judge: byRules(K8S_KIND_RULES) },
  config('config.cassandra-yaml', true),
  // Logs last among the text kinds: a log can quote nodetool-looking lines (StatusLogger tables), never the reverse.
  {
    kind: 'logs',
    // prefixes (also `inline code`, log4j's " INFO", a lost "[", time-only 1.x/2.x lines, SCT's `host !WARNING | `
    // journal, a journal line cut to its program or to its time of day), a syslog line of the product inside another
    // prefix, or a message only these logs print (a bare line pasted without its prefix)
    signature:
      /^(?:`? ?(?:INFO|WARN|ERROR|DEBUG|TRACE)\]?\s+(?:\[|\d{4}-|\d\d:\d\d:\d\d)|\[\d{4}-\d\d-\d\dT[^\]\n]*\]|[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d \S+ \S+\[\d+\]:|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[.\d]*[+-]\d{4}: |\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[.\d]*(?:Z|[+-]\d\d:?\d\d) +\S+ +! *[A-Z]{3,7} *\| |[\w.-]{1,64}(?:\[\d{1,10}\])?: +\[shard +\d|\d\d:\d\d:\d\d(?:\.\d+)? \S+ (?:scylla|cassandra|dse)\S*\[\d+\]: )|[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d \S+ (?:scylla|cassandra|dse)\S*\[\d+\]: |Reactor stalled for \d+ ms on shard \d|Maximum memory usage reached \(|Scanned over \d+ tombstones|Read \d+ live (?:rows and \d+ tombstone cells|(?:rows|cells) and \d+ dead)|TombstoneOverwhelmingException|Repair session [0-9a-f-]{36} for range \S{1,200} failed with error |java\.lang\.OutOfMemoryError|Exception (?:\(\S{1,200}\) )?encountered during startup|messages were dropped in (?:the )?last|ConfigurationException: |Invalid yaml|Cannot create property=\w+ for JavaBean=org\.apache\.cassandra|\bstd::bad_alloc\b|^\[shard \d+(?::\w+)?\] \w+ - /m,
    parse: parseLogs,
    judge: { by: 'log-rules' },
  },
  // debug.log slow-read report lines pasted without any log line (a log carries them in LogFacts.slowQueries)
  { kind: SLOW_QUERIES_KIND, signature: slowQueriesSignature, parse: parseSlowQueries, judge: byRules(SLOW_QUERY_KIND_RULES) },
  // JVM flags also appear inside logs and stress output, so this broad signature comes after them.
  config('config.jvm-options', false),
  { kind: 'cql.table', signature: cqlshTableSignature, parse: parseCqlshTables, judge: byRules(CQL_TABLE_RULES) },
  { kind: 'cql.tsv', signature: /^[A-Za-z_][A-Za-z0-9_]*(?:\t[A-Za-z_][A-Za-z0-9_]*)+[ \t\r]*$/m, parse: parseTsv, judge: byRules(CQL_TSV_RULES) },
  // Kind modules whose signature is broad enough that a log or a table could match it: last.
  ...moduleKinds('after-logs'),
];

export type Detection =
  | {
      ok: true;
      kind: string;
      parsed: Parsed<unknown> & { ok: true };
      tried: string[];
      /** Wrappers stripped before the text could be read, outermost first; absent when it was read as given. */
      cleaned?: WrapperName[];
      /** The text that was read, when it is not the text as given (re-parse this one, not the paste). */
      cleanedText?: string;
    }
  | { ok: false; reason: string; tried: { kind: string; reason: string }[]; supported: string[]; cleaned?: WrapperName[] };

export const SUPPORTED_KINDS = KINDS.map((k) => k.kind);

/** How a detected kind is judged (undefined for a kind detect() never returns). */
export function judgeOf(kind: string): KindJudge | undefined {
  return KINDS.find((k) => k.kind === kind)?.judge;
}

/** Wrappers that are a log transport: the lines under them are log lines, whatever the log signature says. */
const LOG_TRANSPORTS: ReadonlySet<WrapperName> = new Set(['syslog', 'journald']);

/**
 * The kind of a text. The text as given is tried first (a clean capture, and the log bench, never pay for
 * cleaning); when nothing reads it, the paste's wrappers are stripped one at a time (parse/paste/clean.ts) and
 * each stage is tried, and `cleaned` says what was stripped. Line numbers in the parsed value are mapped back to
 * the lines of the text as given.
 */
export function detect(text: string): Detection {
  const first = detectAsGiven(text);
  if (first.ok || typeof text !== 'string' || text.trim() === '') return first;
  const c = cleanPaste(text);
  // When no stage reads either, the failure that got furthest (a parser that was tried) says the most.
  let failure: Detection = first;
  for (let i = 0; i < c.stages.length; i++) {
    const stage = c.stages[i]!;
    const d = detectAsGiven(stage.text);
    // Under a syslog/journald prefix the lines are log lines, and the prefix holds their time and node: unless
    // the stripped text is another kind of output, the log parser reads the text just outside the prefix, even
    // in a form the log signature does not know (`scylla:` without a pid, SCT's `!WARNING | scylla:`).
    if (LOG_TRANSPORTS.has(stage.applied.at(-1)!) && (!d.ok || d.kind === 'logs')) {
      const outer = i === 0 ? { text, lineMap: [] as number[], applied: [] as WrapperName[] } : c.stages[i - 1]!;
      const p = parseLogs(outer.text);
      if (p.ok) {
        const parsed = outer.applied.length ? remapLineNumbers(p, outer.lineMap) : p;
        const how = outer.applied.length ? { cleaned: outer.applied, cleanedText: outer.text } : {};
        return { ok: true, kind: 'logs', parsed, tried: first.tried.map((t) => t.kind), ...how };
      }
    }
    if (!d.ok) {
      if (d.tried.length > 0 && failure.tried.length === 0) failure = { ...d, cleaned: stage.applied };
      continue;
    }
    const tried = [...first.tried.map((t) => t.kind), ...d.tried];
    return { ...d, parsed: remapLineNumbers(d.parsed, stage.lineMap), tried, cleaned: stage.applied, cleanedText: stage.text };
  }
  return failure;
}

/** Signatures then parsers on the text exactly as given. */
function detectAsGiven(text: string): Detection {
  const tried: { kind: string; reason: string }[] = [];
  if (typeof text !== 'string' || text.trim() === '') {
    return { ok: false, reason: 'the text is empty', tried, supported: SUPPORTED_KINDS };
  }
  // Signatures only look at the head: a 100 MB paste must not be scanned by every regex.
  const head = text.length > 200_000 ? text.slice(0, 200_000) : text;
  // A log quotes nodetool-like tables (StatusLogger prints the tpstats table): when most lines carry a log
  // prefix, the text is a log first.
  const logKind = KINDS.find((k) => k.kind === 'logs')!;
  const lines = head.split('\n').filter((l) => l.trim() !== '');
  const prefixed = lines.filter((l) => logKind.signature.test(l)).length;
  const logFirst = (lines[0] !== undefined && logKind.signature.test(lines[0])) || (prefixed >= 3 && prefixed * 5 >= lines.length);
  const order = logFirst ? [...KINDS.filter((k) => k.strong), logKind, ...KINDS.filter((k) => k !== logKind && !k.strong)] : KINDS;
  for (const k of order) {
    if (!k.signature.test(head)) continue;
    const p = k.parse(text);
    if (p.ok) return { ok: true, kind: k.kind, parsed: p, tried: tried.map((t) => t.kind) };
    tried.push({ kind: k.kind, reason: p.reason });
  }
  return {
    ok: false,
    reason: tried.length ? `looked like ${tried.map((t) => t.kind).join(', ')} but could not be read` : 'no supported output kind recognised',
    tried,
    supported: SUPPORTED_KINDS,
  };
}
