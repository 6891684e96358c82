/**
 * Line classifiers: one message (the text after the line prefix) → at most one typed hit. Each pattern sits
 * behind a plain substring check, so a line that mentions none of them costs a handful of indexOf calls.
 *
 * Formats, by the source that prints them:
 * - GCInspector.java (Cassandra 2.1+): "<collector> GC in <ms>ms.  <pool>: <before> -> <after>; …"; collector names
 *   are the JVM MXBean names (ParNew, ConcurrentMarkSweep, G1 Young/Old Generation, ZGC Pauses/Cycles, Shenandoah
 *   Pauses/Cycles); 1.2/2.0 printed "GC for <collector>: <ms> ms for <n> collections, …".
 * - JDK 9+ unified logging: "GC(7) Pause Young (Normal) (G1 Evacuation Pause) 169M->38M(512M) 22.050ms",
 *   "Safepoint \"G1CollectForAllocation\", Time since last: … ns, Reaching safepoint: … ns, Cleanup: … ns,
 *   At safepoint: … ns, Total: … ns" (JDK 17+), "Total time for which application threads were stopped: X seconds,
 *   Stopping threads took: Y seconds" (JDK 8 -XX:+PrintGCApplicationStoppedTime and JDK 9-16 safepoint tag).
 * - JDK 8 -XX:+PrintGCDetails: "[GC (Allocation Failure) [ParNew: …, 0.0123 secs] … , 0.0130 secs] [Times: …]",
 *   "[Full GC (…) …, 5.1 secs]", G1 "[GC pause (G1 Evacuation Pause) (young), 0.0291 secs]".
 * - MessagingService.java / MessagingMetrics.java (3.x-5.0) and DSE 6 DroppedMessages.java:
 *   "<VERB> messages were dropped in last 5000 ms: <n> internal and <m> cross node. Mean internal dropped latency:
 *   <a> ms and Mean cross-node dropped latency: <b> ms" (DSE: "in the last 5 s"; 2.x: "for internal timeout").
 * - ReadCommand.java: "Read <live> live rows and <n> tombstone cells for query <cql> (see tombstone_warn_threshold)";
 *   2.x SliceQueryFilter "Read <live> live and <n> tombstone cells in <ks>.<cf> …"; StorageProxy / ReadCommand
 *   "Scanned over <n> tombstones during query '<cql>' …; query aborted" (2.x "… tombstones in <ks>.<cf>; query
 *   aborted"), TombstoneOverwhelmingException; 4.0 BigTableWriter "Writing <n> tombstones to <ks>/<cf>:<key> …".
 * - BigTableWriter.java: "Writing large partition <ks>/<cf>:<key> (<size>) [to sstable <file>]"; 2.x
 *   CompactionController "Compacting large partition|row <ks>/<cf>:<key> (<n> bytes) incrementally"; 4.1+/5.0
 *   guardrail "Guardrail partition_size violated: Partition <key> in <ks>.<cf> has size <v>, this exceeds the
 *   warning threshold of <t>."
 * - ScyllaDB large_data_handler.cc: "Writing large {partition|row|cell|collection} <ks>/<cf>: <path> (<n> bytes) to
 *   <sstable>" and "Large data guardrail: <metric> <v> exceeds soft limit <t> (keyspace=…, table=…, …)".
 * - FailureDetector.java: "Not marking nodes down due to local pause of <ns>[ns] > <ns>[ns]".
 * - HintsDispatchExecutor.java: "Finished hinted handoff of file <f> to endpoint <ep>[: <hostId>], partially";
 *   2.x HintedHandOffManager "Failed|Timed out replaying hints to <ep>; aborting (<n> delivered)".
 * - RepairSession / RepairRunnable: "[repair #<id>] session completed with the following error", "Repair session
 *   <id> for range … failed with error …", "Repair <id> failed:", "Repair command #<n> failed with error …".
 * - BufferPool.java (via NoSpamLogger): "Maximum memory usage reached (<limit>), cannot allocate chunk of <size>"
 *   (4.0+: "… (<limit>) for <name> buffer pool, cannot allocate chunk of <size>"; the networking pool of the
 *   cassandra/pull/2123 era: "… (<limit>) for networking, cannot allocate chunk of <size>").
 * - AbstractCommitLogService.java: "Out of <n> commit log syncs over the past <s>s with average duration of <ms>ms,
 *   <k> have exceeded the configured commit interval by an average of <ms>ms".
 * - JVMStabilityInspector / the JVM: "java.lang.OutOfMemoryError: <what>"; Scylla: "std::bad_alloc".
 * - Seastar reactor (ScyllaDB): "Reactor stalled for <ms> ms on shard <n>[, in scheduling group <g>]. Backtrace: …".
 * - YamlConfigurationLoader / DatabaseDescriptor (startup, every version): "Invalid yaml. Please remove properties
 *   [<keys>] from your cassandra.yaml", 4.1+ "Config contains both old and new keys for the same configuration
 *   parameters, migrate old -> new: [<old> -> <new>]", "Invalid yaml: … Cannot create property=<key> for
 *   JavaBean=…", "Unable to find property '<key>' on class …", and free-text ConfigurationException messages.
 * - ScyllaDB querier (6.x): "Read <n> live cells and <m> dead cells/tombstones for <ks>.<cf> …" (and rows).
 * - CommitLog.handleCommitError (every version): "Failed managing commit log segments|Failed to persist commits to disk|
 *   Failed commit log replay. Commit disk failure policy is <policy>; terminating thread" (the policy part absent
 *   under ignore).
 * - A full disk, in every product: the OS's ENOSPC text "No space left on device" (Java IOException, ScyllaDB
 *   "storage_io_error (Storage I/O error: 28: No space left on device)"); Cassandra's own FSDiskFullWriteError
 *   "Insufficient disk space to write <n> bytes into the <ks> keyspace", streaming "Insufficient disk space to store
 *   <size>" / "Not enough disk space to stream|for stream|to store", and CompactionTask "Not enough space for
 *   compaction (<id>) of <ks>.<cf>, estimated sstables = <n>, expected write size = <bytes>".
 * - ScyllaDB storage_proxy: "exceptions::mutation_write_timeout_exception (Operation timed out for <ks>.<cf> -
 *   received only …)", "read_timeout_exception", "seastar::semaphore_timed_out".
 */
import { SIZE_FACTORS } from '../../units.js';

export type ClassifyMode = 'cassandra' | 'scylla' | 'gc' | 'any';

export type Hit =
  | { kind: 'gcPause'; ms: number; collector: string; from: 'GCInspector' | 'gc.log'; concurrent: boolean; pools: [string, number][] | null }
  | { kind: 'gcUsing'; collector: string }
  | { kind: 'safepoint'; stoppedMs: number; ttspMs: number; operation: string | null }
  | { kind: 'dropped'; type: string; internal: number; crossNode: number; meanInternalMs: number | null; meanCrossNodeMs: number | null }
  | { kind: 'tombstoneWarn'; tombstones: number; live: number | null; table: string; phase: 'read' | 'compaction' }
  | { kind: 'tombstoneAbort'; tombstones: number | null; table: string }
  | {
      kind: 'largePartition' | 'largeRowCell';
      bytes: number | null;
      table: string;
      key: string | null;
      what: 'partition' | 'row' | 'cell' | 'collection';
      via: string;
    }
  | { kind: 'oom'; what: string }
  | { kind: 'localPause'; ms: number; thresholdMs: number | null }
  | { kind: 'hintFailure'; partial: boolean; endpoint: string | null }
  | { kind: 'repairFailure'; session: string | null; terminated: boolean }
  | { kind: 'bufferPoolFull'; pool: string; limitBytes: number | null }
  | { kind: 'commitlogSync'; syncs: number; lagging: number; averageMs: number; exceededByMs: number }
  | { kind: 'flushTimeout' }
  | { kind: 'diskFull'; what: DiskFullKind }
  | { kind: 'commitlogFailure'; policy: string | null }
  | { kind: 'reactorStall'; ms: number; shard: number | null }
  | { kind: 'scyllaTimeout'; type: 'write' | 'read' | 'semaphore' | 'other'; table: string | null }
  | { kind: 'configError'; error: ConfigErrorType; settings: string[] }
  | { kind: 'startupFailure'; exception: string | null; scylla?: true }
  | { kind: 'largeBatch'; tables: string; bytes: number | null; thresholdBytes: number | null; rejected: boolean };

/** Which message said the disk is full: the OS (ENOSPC), a write, a stream, or a compaction that had to shrink. */
export type DiskFullKind = 'enospc' | 'write' | 'stream' | 'compaction';

/** What a startup ConfigurationException says is wrong with cassandra.yaml. */
export type ConfigErrorType = 'unknown-keys' | 'old-and-new-keys' | 'invalid-value' | 'config-construct' | 'other';

/** "1,5" or "1.5" or "1234" → number; NaN when not a number. */
export function num(text: string | undefined): number {
  if (text === undefined) return NaN;
  const t = text.trim();
  if (t === '') return NaN;
  return Number(/^\d+,\d+$/.test(t) ? t.replace(',', '.') : t.replace(/,/g, ''));
}

/**
 * "895.549MiB", "1.000GiB", "93368360 bytes", "7996951" → bytes (Cassandra's prettyPrintMemory divides by 1024
 * whatever the label); null when not a size.
 */
export function sizeToBytes(text: string): number | null {
  // The unit takes its own blanks (as in core/units.ts): `\s*([A-Za-z]*)\s*$` splits a run of blanks n² ways.
  const m = /^\s*(\d+(?:[.,]\d+)?)(?:\s*([A-Za-z]+))?\s*$/.exec(text);
  if (!m) return null;
  const f = m[2] === undefined ? 1 : SIZE_FACTORS[m[2].toLowerCase()];
  if (f === undefined) return null;
  const n = num(m[1]);
  return Number.isFinite(n) ? Math.round(n * f) : null;
}

// quoted CQL identifiers may hold any letter: "Carts", "menü"
const FROM_TABLE = /\bFROM\s+("?[\p{L}\p{N}_]+"?)\s*\.\s*("?[\p{L}\p{N}_]+"?)/iu;
const unquote = (s: string) => s.replace(/"/g, '');

/** "ks.tbl" from a CQL text, "?" when none. */
export function tableFromQuery(q: string): string {
  const m = FROM_TABLE.exec(q);
  return m ? `${unquote(m[1]!)}.${unquote(m[2]!)}` : '?';
}

// ---------------------------------------------------------------- GC (system.log GCInspector)

const CONCURRENT_COLLECTORS = /Cycles$|^ZGC$|^G1 Concurrent GC$/;

/** "ms.  G1 Old Gen: 1206429760 -> 1254765136; G1 Eden Space: 2168455168 -> 0" → [[pool, after], …]. */
function poolPairs(s: string, from: number): [string, number][] | null {
  let out: [string, number][] | null = null;
  let p = from;
  for (;;) {
    const arrow = s.indexOf(' -> ', p);
    if (arrow < 0) break;
    const colon = s.lastIndexOf(': ', arrow);
    if (colon < p) break;
    let n = p;
    for (let c = s.charCodeAt(n); c === 32 || c === 59 || c === 46; c = s.charCodeAt(++n)) {
      /* skip ".", "; " and padding */
    }
    const semi = s.indexOf(';', arrow);
    const end = semi < 0 ? s.length : semi;
    const after = Number(s.slice(arrow + 4, end));
    if (n < colon && Number.isFinite(after)) (out ??= []).push([s.slice(n, colon), after]);
    p = end + 1;
  }
  return out;
}

function gcInspector(s: string, start: number): Hit | null {
  const at = s.indexOf(' GC in ', start);
  if (at > start && at - start < 64) {
    let i = at + 7;
    let ms = 0;
    const d0 = i;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) ms = ms * 10 + (s.charCodeAt(i++) - 48);
    if (i === d0 || !s.startsWith('ms', i)) return null;
    const collector = s.slice(start, at).trim();
    return { kind: 'gcPause', ms, collector, from: 'GCInspector', concurrent: CONCURRENT_COLLECTORS.test(collector), pools: poolPairs(s, i + 2) };
  }
  // Cassandra 1.2/2.0: "GC for ParNew: 245 ms for 1 collections, 123 used; max is 456"
  const old = s.indexOf('GC for ', start);
  if (old >= start) {
    const m = /^GC for ([^:]{1,64}): (\d+) ms for (\d+) collections?/.exec(s.slice(old, old + 160));
    if (m) {
      const collector = m[1]!.trim();
      return { kind: 'gcPause', ms: Number(m[2]), collector, from: 'GCInspector', concurrent: CONCURRENT_COLLECTORS.test(collector), pools: null };
    }
  }
  return null;
}

// ---------------------------------------------------------------- gc.log

const G1_YOUNG_TYPES = new Set(['Normal', 'Mixed', 'Concurrent Start', 'Prepare Mixed', 'Concurrent End']);

/** Trailing "<n>ms" of a unified pause line; NaN when the line is a start marker without a duration. */
function trailingMs(s: string): number {
  let e = s.length;
  while (e > 0 && s.charCodeAt(e - 1) === 32) e--;
  if (!s.endsWith('ms', e) || e < 3) return NaN;
  let b = e - 2;
  while (b > 0 && ((s.charCodeAt(b - 1) >= 48 && s.charCodeAt(b - 1) <= 57) || s.charCodeAt(b - 1) === 46 || s.charCodeAt(b - 1) === 44)) b--;
  if (b === e - 2 || (b > 0 && s.charCodeAt(b - 1) !== 32)) return NaN;
  return num(s.slice(b, e - 2));
}

function pausePhase(s: string, at: number): string {
  const words = ['Pause'];
  let i = at + 6;
  while (i < s.length) {
    const sp = s.indexOf(' ', i);
    const word = s.slice(i, sp < 0 ? s.length : sp);
    const c = word.charCodeAt(0);
    if (word === '' || c === 40 || (c >= 48 && c <= 57) || word.includes('->')) {
      if (c === 40 && words[1] === 'Young' && words.length === 2) {
        const close = s.indexOf(')', i);
        const sub = close > i ? s.slice(i + 1, close) : '';
        if (G1_YOUNG_TYPES.has(sub)) words.push(`(${sub})`);
      }
      break;
    }
    words.push(word);
    if (sp < 0) break;
    i = sp + 1;
  }
  return words.join(' ');
}

/** "…: 6.5037022 seconds" style value after a label. */
function secondsAfter(s: string, label: string, from: number): number {
  const at = s.indexOf(label, from);
  if (at < 0) return NaN;
  let i = at + label.length;
  while (s.charCodeAt(i) === 32) i++;
  let e = i;
  while (e < s.length && ((s.charCodeAt(e) >= 48 && s.charCodeAt(e) <= 57) || s.charCodeAt(e) === 46 || s.charCodeAt(e) === 44)) e++;
  return e > i ? num(s.slice(i, e)) : NaN;
}

function jdk8Collector(s: string, start: number): string {
  if (s.includes('[Full GC', start)) return 'Full GC';
  if (s.includes('CMS Initial Mark', start) || s.includes('CMS-initial-mark', start)) return 'CMS Initial Mark';
  if (s.includes('CMS Final Remark', start) || s.includes('CMS-remark', start)) return 'CMS Final Remark';
  if (s.includes('ParNew', start)) return 'ParNew';
  if (s.includes('PSYoungGen', start)) return 'PS Scavenge';
  if (s.includes('(mixed)', start)) return 'G1 mixed';
  if (s.includes('(young)', start)) return 'G1 young';
  if (s.includes('[GC remark', start)) return 'G1 remark';
  if (s.includes('[GC cleanup', start)) return 'G1 cleanup';
  return 'GC';
}

function gcLog(s: string, start: number): Hit | null {
  const c = s.charCodeAt(start);
  if (c === 84 && s.startsWith('Total time for which application threads were stopped', start)) {
    const stopped = secondsAfter(s, 'were stopped:', start);
    const ttsp = secondsAfter(s, 'Stopping threads took:', start);
    if (!Number.isFinite(stopped)) return null;
    return { kind: 'safepoint', stoppedMs: stopped * 1000, ttspMs: Number.isFinite(ttsp) ? ttsp * 1000 : 0, operation: null };
  }
  if (c === 83 && s.startsWith('Safepoint "', start)) {
    const close = s.indexOf('"', start + 11);
    const operation = close > 0 ? s.slice(start + 11, close) : null;
    const reaching = secondsAfter(s, 'Reaching safepoint:', start);
    const total = secondsAfter(s, 'Total:', start);
    if (!Number.isFinite(total)) return null;
    return { kind: 'safepoint', stoppedMs: total / 1e6, ttspMs: Number.isFinite(reaching) ? reaching / 1e6 : 0, operation };
  }
  if (c === 85 && s.startsWith('Using ', start)) return { kind: 'gcUsing', collector: s.slice(start + 6).trim() };
  const pause = s.indexOf('Pause ', start);
  if (pause >= 0 && s.lastIndexOf('GC(', pause) >= start) {
    const ms = trailingMs(s);
    if (!Number.isFinite(ms)) return null;
    return { kind: 'gcPause', ms, collector: pausePhase(s, pause), from: 'gc.log', concurrent: false, pools: null };
  }
  // JDK 8
  const gc = s.indexOf('[GC', start);
  const full = s.indexOf('[Full GC', start);
  if ((gc >= 0 || full >= 0) && !s.includes('concurrent', start)) {
    const secs = totalSecs(s, start);
    if (!Number.isFinite(secs)) return null;
    return { kind: 'gcPause', ms: secs * 1000, collector: jdk8Collector(s, start), from: 'gc.log', concurrent: false, pools: null };
  }
  return null;
}

/** The record's total: the last "N secs]" before "[Times" (inner phases come first); NaN when none. */
function totalSecs(s: string, start: number): number {
  const times = s.indexOf('[Times', start);
  const end = times > 0 ? times : s.length;
  const k = s.lastIndexOf(' secs]', end);
  if (k <= start) return NaN;
  let b = k;
  while (b > start && ((s.charCodeAt(b - 1) >= 48 && s.charCodeAt(b - 1) <= 57) || s.charCodeAt(b - 1) === 46 || s.charCodeAt(b - 1) === 44)) b--;
  return num(s.slice(b, k));
}

/**
 * A JDK 8 pause record left open at the end of its line: with -XX:+PrintTenuringDistribution (Cassandra 3.x and
 * DSE defaults) "[GC pause (G1 Evacuation Pause) (young)" or "[GC (Allocation Failure) … [ParNew" is followed by
 * "Desired survivor size …" and age lines, and the times come on a later header-less line (", 0.0257 secs]" or
 * ": 327680K->40960K(368640K), 0.0234 secs] …"). Returns the collector, or null when the line is not such a start.
 */
export function openGcRecord(s: string, start: number): string | null {
  const gc = s.indexOf('[GC', start);
  const full = s.indexOf('[Full GC', start);
  if ((gc < 0 && full < 0) || s.includes('concurrent', start) || s.includes(' secs]', start)) return null;
  return jdk8Collector(s, start);
}

/** The total seconds of a header-less line that closes an open JDK 8 record (", 0.0257 secs]"); NaN otherwise. */
export function closeGcRecord(s: string): number {
  const c = s.charCodeAt(0);
  // ", …" (G1), ": …" (ParNew / CMS young), "[PSYoungGen: …" (Parallel)
  if (c !== 44 && c !== 58 && c !== 91) return NaN;
  return totalSecs(s, 0);
}

// ---------------------------------------------------------------- Cassandra messages

// Anchored on the literal: a leading "(\w+) messages …" regex backtracks over every word of a long line (quadratic
// on a 170 kB line of one word run, found by the fuzz suite); the verb is read backwards from the literal instead.
const DROPPED_AT = ' messages were dropped in ';
const DROPPED_TAIL =
  /^ messages were dropped in (?:the )?last (\d+) (ms|s): (\d+) (?:internal|for internal timeout) and (\d+) (?:cross node|for cross node timeout)/;
const DROPPED_LATENCY = /Mean internal dropped latency: (\d+) ms and Mean cross-node dropped latency: (\d+) ms/;

const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

function dropped(s: string, start: number): Hit | null {
  for (let at = s.indexOf(DROPPED_AT, start), tries = 0; at >= 0 && tries < 8; at = s.indexOf(DROPPED_AT, at + 1), tries++) {
    let b = at;
    while (b > start && isWordChar(s.charCodeAt(b - 1))) b--;
    if (b === at) continue;
    const m = DROPPED_TAIL.exec(s.slice(at, at + 200));
    if (!m) continue;
    const lat = DROPPED_LATENCY.exec(s);
    return {
      kind: 'dropped',
      type: s.slice(b, at),
      internal: Number(m[3]),
      crossNode: Number(m[4]),
      meanInternalMs: lat ? Number(lat[1]) : null,
      meanCrossNodeMs: lat ? Number(lat[2]) : null,
    };
  }
  return null;
}

const READ_TOMBSTONES = /Read (\d+) live rows and (\d+) tombstone cells for query (.*)/;
const READ_TOMBSTONES_2X = /Read (\d+) live and (\d+) tombstone(?:d)? cells in ([\w]+)\.([\w]+)/;
// ScyllaDB 5.x+: an unpaged read stopped at query_tombstone_page_limit (storage_proxy names the table it read).
const SCYLLA_UNPAGED = /Tombstones processed by unpaged query exceeds limit of (\d+)/;
const SCYLLA_READ_FROM = /to read from ([\w]+)\.([\w]+):/;
const SCANNED_OVER = /Scanned over (\d+) tombstones(?: during query '?(.*)| in ([\w]+)\.([\w]+))/;
const WRITING_TOMBSTONES = /Writing (\d+) tombstones to ([^\s/]+)\/([^\s:]+):/;
const SCYLLA_QUERIER = /Read (\d+) live (?:rows|cells) and (\d+) (?:dead (?:rows|cells)(?:\/tombstones)?|tombstones) for ([\w]+)\.([\w]+)/;

function tombstones(s: string, start: number): Hit | null {
  const text = start ? s.slice(start) : s;
  let m = READ_TOMBSTONES.exec(text);
  if (m) return { kind: 'tombstoneWarn', tombstones: Number(m[2]), live: Number(m[1]), table: tableFromQuery(m[3]!), phase: 'read' };
  m = READ_TOMBSTONES_2X.exec(text);
  if (m) return { kind: 'tombstoneWarn', tombstones: Number(m[2]), live: Number(m[1]), table: `${m[3]}.${m[4]}`, phase: 'read' };
  m = SCANNED_OVER.exec(text);
  if (m) return { kind: 'tombstoneAbort', tombstones: Number(m[1]), table: m[2] !== undefined ? tableFromQuery(m[2]) : `${m[3]}.${m[4]}` };
  m = SCYLLA_QUERIER.exec(text);
  if (m) return { kind: 'tombstoneWarn', tombstones: Number(m[2]), live: Number(m[1]), table: `${m[3]}.${m[4]}`, phase: 'read' };
  m = WRITING_TOMBSTONES.exec(text);
  if (m) return { kind: 'tombstoneWarn', tombstones: Number(m[1]), live: null, table: `${m[2]}.${m[3]}`, phase: 'compaction' };
  if (text.includes('TombstoneOverwhelmingException')) return { kind: 'tombstoneAbort', tombstones: null, table: tableFromQuery(text) };
  m = SCYLLA_UNPAGED.exec(text);
  if (m) {
    const t = SCYLLA_READ_FROM.exec(text);
    return { kind: 'tombstoneAbort', tombstones: Number(m[1]), table: t ? `${t[1]}.${t[2]}` : '?' };
  }
  return null;
}

const LARGE = /(Writing|Compacting) large (partition|row|cell|collection) ([^\s/:]+)\/([^\s:]+):\s*(.*)$/;
const SIZE_IN_PARENS = /\((\d+(?:[.,]\d+)?\s*(?:[KMGTP]i?B|B|bytes))\)/g;
const GUARDRAIL_PARTITION = /Guardrail partition_size violated: Partition (.+?) has size ([^,]+), this exceeds the (warning|failure) threshold/;
const SCYLLA_GUARDRAIL = /Large data guardrail: (\w+) (\d+) exceeds (soft|hard) limit (\d+) \(keyspace=([^,]+), table=([^,)]+)/;

function largeData(s: string, start: number): Hit | null {
  const text = start ? s.slice(start) : s;
  const m = LARGE.exec(text);
  if (m) {
    const what = m[2] as 'partition' | 'row' | 'cell' | 'collection';
    const rest = m[5]!;
    let size: RegExpExecArray | null = null;
    SIZE_IN_PARENS.lastIndex = 0;
    for (let x = SIZE_IN_PARENS.exec(rest); x; x = SIZE_IN_PARENS.exec(rest)) size = x;
    const key = size ? rest.slice(0, size.index).trim() : rest.trim();
    // Cassandra "large row" (2.x) is a partition; Scylla rows/cells/collections are their own kind
    const partition = what === 'partition' || (what === 'row' && m[1] === 'Compacting');
    return {
      kind: partition ? 'largePartition' : 'largeRowCell',
      bytes: size ? sizeToBytes(size[1]!) : null,
      table: `${m[3]}.${m[4]}`,
      key: key === '' ? null : key.slice(0, 120),
      what: partition ? 'partition' : what,
      via: m[1] === 'Compacting' ? 'compaction' : 'write',
    };
  }
  const g = GUARDRAIL_PARTITION.exec(text);
  if (g) {
    const subject = g[1]!.replace(/ on sstable .*$/, '');
    const inAt = subject.lastIndexOf(' in ');
    let table = '?';
    let key: string | null = subject;
    if (inAt > 0) {
      table = subject.slice(inAt + 4).trim();
      key = subject.slice(0, inAt).trim();
    } else if (subject.includes(':')) {
      table = subject.slice(0, subject.indexOf(':'));
      key = subject.slice(subject.indexOf(':') + 1);
    }
    return { kind: 'largePartition', bytes: sizeToBytes(g[2]!), table, key: key ? key.slice(0, 120) : null, what: 'partition', via: `guardrail ${g[3]}` };
  }
  const sg = SCYLLA_GUARDRAIL.exec(text);
  if (sg) {
    const metric = sg[1]!;
    const what = metric.startsWith('partition')
      ? 'partition'
      : metric.startsWith('row')
        ? 'row'
        : metric.startsWith('cell')
          ? 'cell'
          : metric.startsWith('collection')
            ? 'collection'
            : null;
    if (!what) return null;
    return {
      kind: what === 'partition' ? 'largePartition' : 'largeRowCell',
      bytes: metric.endsWith('_size') ? Number(sg[2]) : null,
      table: `${sg[5]!.trim()}.${sg[6]!.trim()}`,
      key: null,
      what,
      via: `guardrail ${sg[3]}`,
    };
  }
  return null;
}

function oom(s: string, start: number): Hit | null {
  // "java.lang.OutOfMemoryError: …", not JVM flags such as -XX:+ExitOnOutOfMemoryError / -XX:OnOutOfMemoryError=…
  const at = s.indexOf('java.lang.OutOfMemoryError', start);
  if (at >= 0) {
    const colon = s.startsWith(': ', at + 26) ? at + 28 : -1;
    const what = colon > 0 ? s.slice(colon, colon + 80).trim() : 'unspecified';
    return { kind: 'oom', what: what === '' ? 'unspecified' : what };
  }
  if (s.startsWith('OutOfMemoryError', start)) {
    const at = start;
    const colon = s.startsWith(': ', at + 16) ? at + 18 : -1;
    const what = colon > 0 ? s.slice(colon, colon + 80).trim() : 'unspecified';
    return { kind: 'oom', what: what === '' ? 'unspecified' : what };
  }
  if (s.includes('OutOfMemory error', start)) return { kind: 'oom', what: 'unspecified' };
  return null;
}

// Cassandra prints nanoseconds ("… of 10587289306 > 5000000000"); early ScyllaDB milliseconds, said at the end
// ("… of 128306 > 5000 (milliseconds)", scylladb/scylladb#900).
const LOCAL_PAUSE = /local pause of (\d+)(?:\s*ns)? > (\d+)(?:\s*ns)?( \(milliseconds\))?/;

const HINT_PARTIAL = /hinted handoff of file \S+ to endpoint \/?([^\s,:;]+)[^,]*, partially/;
const HINT_ENDPOINT = /(?:endpoint|hints? to) \/?([^\s,:;]+)/;
const HINT_FAILURE =
  /(?:Failed|Timed out) replaying hints|[Ff]ailed to (?:dispatch|deliver|send|read|write|replay|apply)(?: a| the)? hints?\b|[Cc]orrupted hints? file|hints? file \S+ (?:is )?corrupt|hints? (?:dispatch|delivery|replay) failed/;

function hints(s: string, start: number): Hit | null {
  const text = start ? s.slice(start) : s;
  const p = HINT_PARTIAL.exec(text);
  if (p) return { kind: 'hintFailure', partial: true, endpoint: p[1]! };
  if (!HINT_FAILURE.test(text)) return null;
  const e = HINT_ENDPOINT.exec(text);
  return { kind: 'hintFailure', partial: false, endpoint: e ? e[1]! : null };
}

const REPAIR_FAILURE = /[Ff]ailed|following error|RepairException/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * What says the failure is a repair's. ScyllaDB: "repair - repair_tracker run for repair id 4 failed: … Failed to
 * repair for keyspace=…" (scylladb#6120); 4.x per shard: "repair id [id=1, uuid=…] on shard 0 failed:
 * std::runtime_error (… failed to repair 165 sub ranges)" (scylladb#7025).
 */
const REPAIR_SUBJECT = new RegExp(
  [
    String.raw`[Rr]epair (?:#|session|command|job|\w{8}-)|\[repair #|RepairException|repair failed|[Rr]epair\[`,
    String.raw`repair id (?:\d+|\[id=\d+[^\]]{0,60}\](?: on shard \d+)?) failed|Failed to repair for keyspace=`,
  ].join('|'),
);

function repair(s: string, start: number): Hit | null {
  const text = start ? s.slice(start) : s;
  if (!REPAIR_FAILURE.test(text)) return null;
  if (!REPAIR_SUBJECT.test(text)) return null;
  const id = UUID.exec(text);
  // ActiveRepairService.terminateSessions (JMX forceTerminateAllRepairSessions: `nodetool repair --stop`-like tools,
  // Reaper aborting a segment) fails every running session with this cause: stopped on request, not a fault
  return { kind: 'repairFailure', session: id ? id[0] : null, terminated: text.includes('Terminate session is called') };
}

// 4.0: "… for chunk cache buffer pool, …"; 4.1+ networking pool: "… (1.000MiB) for networking, cannot allocate …"
const MAX_MEMORY = /Maximum memory usage reached \(([^)]+)\)(?: for ([^,()]{1,40}?)(?: buffer pool)?)?, cannot allocate chunk of/;

const COMMITLOG_SYNC =
  /Out of (\d+) commit log syncs over the past ([\d.,]+)s with average duration of ([\d.,]+)ms, (\d+) have exceeded the configured commit interval by an average of ([\d.,]+)ms/;

const REACTOR = /Reactor stalled for (\d+) ms on shard (\d+)/;

function scyllaTimeout(s: string, start: number): Hit | null {
  const text = start ? s.slice(start) : s;
  let type: 'write' | 'read' | 'semaphore' | 'other' | null = null;
  if (text.includes('mutation_write_timeout')) type = 'write';
  else if (text.includes('read_timeout')) type = 'read';
  else if (/semaphore_timed_out|[Ss]emaphore timed ?out/.test(text)) type = 'semaphore';
  else if (/[Oo]peration timed out|timed out/.test(text)) type = 'other';
  if (!type) return null;
  const t = /timed out for ([\w]+\.[\w]+)/.exec(text);
  return { kind: 'scyllaTimeout', type, table: t ? t[1]! : null };
}

const REMOVE_PROPERTIES = /Please remove propert(?:y|ies) \[([^\]]*)\]/;
const OLD_AND_NEW = /old and new keys[^[]*\[([^\]]*)\]?/;
const CANNOT_CREATE = /Cannot create property=(\w+)/g;
const UNABLE_TO_FIND = /Unable to find property '(\w+)'/;
/** snakeyaml could not build Cassandra's Config object itself (its constructor threw): no property of the file is at fault. */
const CONFIG_CONSTRUCT =
  /Can't construct a java object for tag:yaml\.org,2002:org\.apache\.cassandra\.config\.Config; exception=java\.lang\.reflect\.InvocationTargetException/;
const SNAKE_KEY = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

const keyList = (text: string) => [...new Set(text.match(SNAKE_KEY) ?? [])].slice(0, 20);

// CassandraDaemon.activate (every version): a ConfigurationException that logs no stack trace is logged as
// "Exception encountered during startup: <message>"; any other startup exception is logged as "Exception encountered
// during startup" with its stack trace (the exception on the next line). Every startup failure is also printed to
// stdout as "Exception (<class>) encountered during startup: <message>"; then the process exits with status 3.
// Groups: the class (stdout form only), the message.
const STARTUP_EXCEPTION = /(?:^|\s)Exception (?:\((\S{1,200})\) )?encountered during startup: (.{0,300})/;
const isConfigClass = (cls: string | undefined) => cls === undefined || cls.endsWith('ConfigurationException');

// ScyllaDB main.cc (any release since 2015): an exception out of its start-up is printed to stderr, outside the
// logger, as "FATAL: Exception during startup, aborting: <exception>", and the process exits with status 7.
const SCYLLA_STARTUP_FATAL = /FATAL: Exception during startup, aborting: (.{1,300})/;

/** A startup that ended on an exception that is not a refused configuration, or null. */
export function startupFailure(s: string, start: number): Hit | null {
  if (s.startsWith('Exception encountered during startup', start) && s.slice(start + 36).trim() === '') return { kind: 'startupFailure', exception: null };
  if (s.includes('Exception during startup, aborting', start)) {
    const f = SCYLLA_STARTUP_FATAL.exec(start ? s.slice(start) : s);
    return f ? { kind: 'startupFailure', exception: f[1]!.trim(), scylla: true } : null;
  }
  if (!s.includes('encountered during startup: ', start)) return null;
  const m = STARTUP_EXCEPTION.exec(start ? s.slice(start) : s);
  if (!m || isConfigClass(m[1])) return null;
  return { kind: 'startupFailure', exception: `${m[1]}: ${m[2]!.trim()}` };
}

/** The exception line under "Exception encountered during startup" ("java.lang.X: message"), or null. */
export function exceptionLine(s: string): string | null {
  const t = s.trim();
  return /^(?:Caused by: )?[a-z][\w$]*(?:\.[\w$]+)+(?:Exception|Error|Throwable)\b/.test(t) ? t.slice(0, 300) : null;
}

export function configError(s: string, start: number): Hit | null {
  const startup = s.includes('encountered during startup: ', start);
  if (
    !startup &&
    !s.includes('ConfigurationException', start) &&
    !s.includes('Invalid yaml', start) &&
    !s.includes('old and new keys', start) &&
    !s.includes('Cannot create property=', start)
  ) {
    return null;
  }
  const text = start ? s.slice(start) : s;
  const named = configErrorDetail(text);
  if (named) return named;
  // a refused cassandra.yaml, with the settings the message names
  const em = startup ? STARTUP_EXCEPTION.exec(text) : null;
  const sm = em && isConfigClass(em[1]) ? em : null;
  let at = sm ? sm.index + sm[0].length - sm[2]!.length : text.indexOf('ConfigurationException: ');
  if (sm) {
    /* the message follows the startup wording */
  } else if (at >= 0) at += 24;
  else at = text.indexOf('Invalid yaml');
  if (at >= 0) {
    const msg = text.slice(at);
    // "Invalid yaml" without a detail names nothing; a message naming snake_case settings names them
    return { kind: 'configError', error: 'other', settings: keyList(msg.replace(/\S*\.(?:yaml|java)\S*/g, '')) };
  }
  return null;
}

/**
 * What a refused cassandra.yaml message says precisely (unknown keys, old and new names, a bad value, a Config that
 * could not be built), or null. Also read on the lines under an "Invalid yaml" line: older loaders print the
 * snakeyaml detail on the next line (" Error: Can't construct a java object for …").
 */
export function configErrorDetail(text: string): Extract<Hit, { kind: 'configError' }> | null {
  let m = REMOVE_PROPERTIES.exec(text);
  if (m)
    return {
      kind: 'configError',
      error: 'unknown-keys',
      settings: m[1]!
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== '')
        .slice(0, 20),
    };
  m = OLD_AND_NEW.exec(text);
  if (m) return { kind: 'configError', error: 'old-and-new-keys', settings: m[1] === undefined ? [] : keyList(m[1]) };
  m = UNABLE_TO_FIND.exec(text);
  if (m) return { kind: 'configError', error: 'unknown-keys', settings: [m[1]!] };
  // snakeyaml names each enclosing property: "Cannot create property=server_encryption_options …; Cannot create
  // property=internode_encryption …; Unable to find enum value '/none'"
  const created = [...text.matchAll(CANNOT_CREATE)].map((x) => x[1]!);
  if (created.length) return { kind: 'configError', error: 'invalid-value', settings: [...new Set(created)].slice(0, 20) };
  if (CONFIG_CONSTRUCT.test(text)) return { kind: 'configError', error: 'config-construct', settings: [] };
  return null;
}

/**
 * Classifies one message. `start` is where the message begins in `s` (after the line prefix). The mode limits the
 * patterns to those the line's format can carry; 'any' (lines without a prefix) tries them all.
 */
/** Startup dumps (the whole yaml, the classpath, JVM flags) mention every setting name: never events. */
function isDump(s: string, start: number): boolean {
  return (
    s.startsWith('Node configuration', start) || s.startsWith('JVM Arguments', start) || s.startsWith('Classpath', start) || s.startsWith('JVM vendor', start)
  );
}

/**
 * One scan of the message for any of the substrings the patterns below are gated on: most lines match none,
 * and a single alternation run from the message start is about three times cheaper than a dozen indexOf calls.
 */
const GATE_CASSANDRA =
  /GC |dropped|ombstone|arge |uardrail|OutOfMemory|local pause|hint|epair|Maximum memory usage|commit log syncs|imed out waiting| space |ommit disk failure|ommit log segments|ommits to disk|Batch /g;
const GATE_ALL =
  /GC |dropped|ombstone|arge |uardrail|OutOfMemory|local pause|hint|epair|Maximum memory usage|commit log syncs|imed out waiting| space |ommit disk failure|ommit log segments|ommits to disk|Batch |Reactor stalled|bad_alloc|timed|timeout|Pause |Total time|Safepoint|ConfigurationException|Invalid yaml|old and new keys|Cannot create property=|encountered during startup|during startup, aborting/g;

/**
 * False when classify in 'cassandra' mode finds nothing in this message, judged by its gate alone (the message cut
 * out of its line: run over a whole chunk the gate would also scan every line's prefix, twice the characters).
 */
export function passesCassandraGate(msg: string): boolean {
  return GATE_CASSANDRA_ONCE.test(msg);
}
// without the g flag: about a quarter faster on a whole message (no lastIndex to keep)
const GATE_CASSANDRA_ONCE = new RegExp(GATE_CASSANDRA.source);

const DISK_FULL =
  /No space left on device|Insufficient disk space to (write|store)|Not enough disk space (?:to stream|for stream|to store)|Not enough space for compaction/;

// CommitLog.handleCommitError: "<what>. Commit disk failure policy is <policy>; terminating thread" (stop, die,
// stop_commit), just "<what>" under ignore; <what> is one of the commit log's own failures.
const COMMIT_FAILURE =
  /(?:Failed managing commit log segments|Failed to persist commits to disk|Failed commit log replay)(?:\. Commit disk failure policy is (\w+))?|Commit disk failure policy is (\w+)/;

function diskFull(s: string, start: number): Hit | null {
  const m = DISK_FULL.exec(start === 0 ? s : s.slice(start));
  if (!m) return null;
  const what: DiskFullKind = m[0].startsWith('No space') ? 'enospc' : m[0].endsWith('compaction') ? 'compaction' : m[1] === 'write' ? 'write' : 'stream';
  return { kind: 'diskFull', what };
}

// BatchStatement.verifyBatchSize: a batch over batch_size_warn_threshold is logged at WARN, one over
// batch_size_fail_threshold at ERROR with "(see batch_size_fail_threshold…)" and refused ("Batch too large").
// Cassandra 4.1/5.0 "Batch for [ks.t] is of size 9.766KiB, exceeding specified threshold of 5.000KiB by 4.766KiB.";
// before 3.x "Batch of prepared statements for [ks.t] is of size 26000, …" (bytes); ScyllaDB "Batch modifying 3
// partitions in ks.t is of size 9000 bytes, exceeding specified FAIL threshold of 1048576 by …".
const LARGE_BATCH =
  /Batch (?:of prepared statements for|for|modifying \d{1,9} partitions in) (.{1,400}?) is of size (\d[\d.,]{0,20}(?: ?[A-Za-z]{1,5})?), exceeding specified (?:(WARN|FAIL) )?threshold of (\d[\d.,]{0,20}(?: ?[A-Za-z]{1,5})?) by [^.]{0,40}\.(.{0,60})/;

function largeBatch(s: string, start: number): Hit | null {
  const m = LARGE_BATCH.exec(start === 0 ? s : s.slice(start));
  if (!m) return null;
  const rejected = m[3] === 'FAIL' || m[5]!.includes('batch_size_fail_threshold');
  return { kind: 'largeBatch', tables: m[1]!.trim(), bytes: sizeToBytes(m[2]!), thresholdBytes: sizeToBytes(m[4]!), rejected };
}

export function classify(s: string, start: number, mode: ClassifyMode): Hit | null {
  if (mode === 'gc') return gcLog(s, start);
  const gate = mode === 'cassandra' ? GATE_CASSANDRA : GATE_ALL;
  gate.lastIndex = start;
  if (!gate.test(s)) return null;
  if (s.length - start > 1000 && isDump(s, start)) return null;
  let hit: Hit | null = null;
  if (mode !== 'scylla' && s.includes('GC ', start)) {
    hit = gcInspector(s, start);
    if (hit) return hit;
  }
  if (s.includes('dropped', start)) {
    hit = dropped(s, start);
    if (hit) return hit;
  }
  if (s.includes('ombstone', start)) {
    hit = tombstones(s, start);
    if (hit) return hit;
  }
  if (s.includes('arge ', start) || s.includes('uardrail', start)) {
    hit = largeData(s, start);
    if (hit) return hit;
  }
  if (s.includes('OutOfMemory', start)) {
    hit = oom(s, start);
    if (hit) return hit;
  }
  if (s.includes('local pause', start)) {
    const m = LOCAL_PAUSE.exec(s);
    if (m && !s.includes('Still not marking', start)) {
      const per = m[3] ? 1 : 1e6;
      return { kind: 'localPause', ms: Number(m[1]) / per, thresholdMs: Number(m[2]) / per };
    }
  }
  if (s.includes('hint', start)) {
    hit = hints(s, start);
    if (hit) return hit;
  }
  if (s.includes('epair', start)) {
    hit = repair(s, start);
    if (hit) return hit;
  }
  if (s.includes('Maximum memory usage', start)) {
    const m = MAX_MEMORY.exec(s);
    if (m) return { kind: 'bufferPoolFull', pool: m[2] ?? 'buffer pool', limitBytes: sizeToBytes(m[1]!) };
  }
  if (s.includes('commit log syncs', start)) {
    const m = COMMITLOG_SYNC.exec(s);
    if (m) return { kind: 'commitlogSync', syncs: Number(m[1]), lagging: Number(m[4]), averageMs: num(m[3]), exceededByMs: num(m[5]) };
  }
  if (s.includes('imed out waiting', start) && /flush|[Mm]emtable|commit ?log|CommitLog/.test(s)) return { kind: 'flushTimeout' };
  if (s.includes(' space ', start)) {
    hit = diskFull(s, start);
    if (hit) return hit;
  }
  if (s.includes('ommit', start)) {
    const m = COMMIT_FAILURE.exec(s);
    if (m) return { kind: 'commitlogFailure', policy: m[1] ?? m[2] ?? null };
  }
  if (s.includes('Batch ', start)) {
    hit = largeBatch(s, start);
    if (hit) return hit;
  }
  if (mode === 'cassandra') return null;
  hit = configError(s, start) ?? startupFailure(s, start);
  if (hit) return hit;
  if (s.includes('Reactor stalled', start)) {
    const m = REACTOR.exec(s);
    if (m) return { kind: 'reactorStall', ms: Number(m[1]), shard: Number(m[2]) };
  }
  if (s.includes('bad_alloc', start)) return { kind: 'oom', what: 'std::bad_alloc' };
  if (mode === 'scylla' && (s.includes('timed', start) || s.includes('timeout', start))) return scyllaTimeout(s, start);
  if (mode === 'any') {
    // a pasted gc.log message without its decorators
    const c = s.charCodeAt(start);
    if (c === 84 || c === 83 || s.includes('Pause ', start) || s.includes('[GC', start) || s.includes('[Full GC', start)) {
      const g = gcLog(s, start);
      if (g && g.kind !== 'gcUsing') return g;
    }
  }
  return null;
}
