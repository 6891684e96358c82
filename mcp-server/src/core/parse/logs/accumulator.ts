/**
 * One-pass, bounded-memory log reader: feed it chunks (bytes or text, split anywhere, even inside a line or a
 * UTF-8 sequence), then call end() for the facts. Only counters, capped maps, top-5 lists, quantile sketches and
 * the current partial line are kept, so memory does not grow with the size of the input.
 *
 * Per line: the prefix is read with character checks (header.ts), one alternation regex run from the message start
 * decides whether any pattern can apply (classify.ts), and a Cassandra line's date is only read when its time is
 * needed (an event, the first and the last line).
 *
 * Pure: no I/O, no clock. TextDecoder is the platform's UTF-8 decoder (no I/O).
 */
import { parsedOk, unrecognized, type Parsed } from '../../parsed.js';
import {
  classify,
  closeGcRecord,
  configError,
  configErrorDetail,
  exceptionLine,
  startupFailure,
  passesCassandraGate,
  openGcRecord,
  type ClassifyMode,
  type ConfigErrorType,
  type DiskFullKind,
  type Hit,
} from './classify.js';
import {
  LEVEL_DEBUG,
  LEVEL_ERROR,
  LEVEL_INFO,
  LEVEL_TRACE,
  LEVEL_WARN,
  newHeader,
  newHeaderState,
  readCassandraInPlace,
  readGrepPrefixed,
  readHeader,
  resolveDate,
} from './header.js';
import { SeenLines } from './seen-lines.js';
import { SlowQueryReader } from './slow-queries.js';
import { mayBeStartupLine, StartupReader } from './startup.js';
import { isReadyLine, StartupWindows } from './startup-window.js';
import { parsePoolRow } from './pool-row.js';
import { BucketCounter, bucketLevelForSpan, BUCKET_SIZES, clip, detach, FirstN, formatLogTime, Quantiles, TopN } from './stats.js';
import { byCodeUnits } from '../../text-order.js';
import {
  LOG_EVENT_KINDS,
  type KindSummary,
  type LineFormat,
  type LogEventKind,
  type LogExample,
  type LogFacts,
  type LogReadOptions,
  type MagnitudeUnit,
  type ThreadPoolStats,
  type TimeBasis,
} from './types.js';

export const LOG_KIND = 'logs';
const MAX_LINE = 1024 * 1024;
const TOP = 5;
const CAP_COLLECTORS = 32;
const CAP_TABLES = 500;
const CAP_POOLS = 300;
/** Busiest memtables kept in the facts (StatusLogger's per-table section lists every table, system ones included). */
const MEMTABLES_KEPT = 20;
const CAP_SMALL = 100;
const CAP_SESSIONS = 10_000;
const RECENT = 16;

/** What plainLine did with a line: counted it, or left it to the full reader with or without its header read. */
type Lane = 0 | 1 | 2;
const LANE_NOT_PLAIN = 0;
const LANE_COUNTED = 1;
const LANE_HEADER_READ = 2;
const OTHER = '(other)';

const UNITS: Record<LogEventKind, MagnitudeUnit> = {
  gcPause: 'ms',
  safepoint: 'ms',
  dropped: 'messages',
  threadPools: 'tasks',
  tombstoneWarn: 'tombstones',
  tombstoneAbort: 'tombstones',
  largePartition: 'bytes',
  largeRowCell: 'bytes',
  oom: null,
  localPause: 'ms',
  hintFailure: null,
  repairFailure: null,
  bufferPoolFull: null,
  commitlogSync: 'ms',
  flushTimeout: null,
  diskFull: null,
  commitlogFailure: null,
  reactorStall: 'ms',
  scyllaTimeout: null,
  configError: null,
  startupFailure: null,
  largeBatch: 'bytes',
};

const FORMATS: readonly LineFormat[] = ['cassandra', 'scylla', 'journald', 'gcUnified', 'gcJdk8', 'isoPrefix'];
const FORMAT_INDEX = Object.fromEntries(FORMATS.map((f, i) => [f, i])) as Record<LineFormat, number>;
const FORMAT_CASSANDRA = FORMAT_INDEX.cassandra;
const FAMILY_CASSANDRA = 0;
const FAMILY_SCYLLA = 1;
const FAMILY_GC = 2;
const FAMILY_OTHER = 3;

const KIND_BIT: Record<LogEventKind, number> = Object.fromEntries(LOG_EVENT_KINDS.map((k, i) => [k, 1 << i])) as Record<LogEventKind, number>;

class KindState {
  count = 0;
  firstT: number | null = null;
  lastT: number | null = null;
  readonly buckets = new BucketCounter();
  readonly top = new TopN<LogExample>(TOP);
  readonly first = new FirstN<LogExample>(TOP);
  constructor(readonly unit: MagnitudeUnit) {}
}

interface PoolAgg {
  snapshots: number;
  withPending: number;
  maxActive: number | null;
  maxPending: number | null;
  maxBlocked: number | null;
  maxAllTimeBlocked: number | null;
  maxDelayed: number | null;
  lastPending: number | null;
  lastCompleted: number | null;
  maxPendingT: number | null;
}

interface Snapshot {
  t: number | null;
  time: string | null;
  lineNo: number;
  headerLine: string;
  /** dse68: DSE 6.8 "Active Pending Backpressure Delayed Shared Stolen Completed Blocked All Time Blocked". */
  layout: 'dse68' | 'dse' | 'full' | 'short';
  rows: number;
  pending: number;
  worstPending: number;
  worstPool: string;
  worstLine: string;
  worstLineNo: number;
}

const maxOrNull = (a: number | null, b: number | null) => (b === null ? a : a === null ? b : Math.max(a, b));

/**
 * UTF-8 size of text handed over as strings. A surrogate pair counts 4 bytes on its high half; a low half counts
 * nothing (when a chunk boundary splits a pair, the halves land in two calls and still add up to 4).
 */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n++;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00) n += 4;
    else if (c < 0xdc00 || c >= 0xe000) n += 3;
  }
  return n;
}

const CONTINUATION_PREFIXES = ['at ', 'Caused by', '...', 'java.', 'javax.', 'org.', 'com.', 'io.', 'net.', 'sun.', 'jdk.', 'Exception', 'Error', 'Suppressed'];

function looksLikeContinuation(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c === 32 || c === 9) return true;
  for (const p of CONTINUATION_PREFIXES) if (s.startsWith(p)) return true;
  return false;
}

/** Drops the backticks around a line pasted as markdown inline code (a fence line "```" becomes blank). */
function unquoteInlineCode(s: string): string {
  let b = 0;
  while (s.charCodeAt(b) === 96) b++;
  let e = s.length;
  while (e > b && (s.charCodeAt(e - 1) === 96 || s.charCodeAt(e - 1) === 32)) e--;
  return s.slice(b, e);
}

/** Adds `by` to a counter in a map that takes no new key past `cap` (later keys fold into "(other)"). */
function bump(map: Map<string, number>, key: string, by: number, cap: number): void {
  const cur = map.get(key);
  if (cur !== undefined) map.set(key, cur + by);
  else if (map.size < cap) map.set(detach(key), by);
  else map.set(OTHER, (map.get(OTHER) ?? 0) + by);
}

/**
 * Remembers the entries looked up at each position of a repeating sequence (the pools of a StatusLogger table, the
 * memory pools of a GCInspector line): when the same name comes back at the same position, the entry is reused
 * without hashing a freshly cut string.
 */
class PositionMemo<V> {
  private readonly names: string[] = [];
  private readonly values: V[] = [];
  get(i: number, name: string): V | undefined {
    return this.names[i] === name ? this.values[i] : undefined;
  }
  set(i: number, name: string, value: V): void {
    if (i > 512) return;
    this.names[i] = name;
    this.values[i] = value;
  }
}

/** The value for `key`, created by `make` unless the map is at its cap (then the "(other)" entry). */
function slot<V>(map: Map<string, V>, key: string, cap: number, make: () => V): V {
  let v = map.get(key);
  if (v !== undefined) return v;
  const k = map.size < cap ? detach(key) : OTHER;
  v = map.get(k);
  if (v === undefined) map.set(k, (v = make()));
  return v;
}

/**
 * How far a start-up "local pause" may differ from the time since the boot line: the detector is created a few
 * seconds before or after "JVM Arguments" is logged (lab 4.1.10: 1.1 s and 1.8 s; DSE 6.7.7: 3.8 s).
 */
const SINCE_BOOT_SLACK_MS = 15_000;

export class LogAccumulator {
  private readonly opts: LogReadOptions;
  private decoder: InstanceType<typeof TextDecoder> | null = null;
  private tail = '';
  private skippingOverlong = false;
  private ended = false;
  private readonly h = newHeader();
  private readonly hs = newHeaderState();

  // line counters
  private total = 0;
  private bytes = 0;
  private blank = 0;
  private headed = 0;
  private continuation = 0;
  private bare = 0;
  private unrecognisedLines = 0;
  private overlong = 0;
  /** Indexed by LEVEL_* (0 = none). */
  private readonly levelCounts = new Float64Array(6);
  /** Indexed by FORMAT_INDEX. */
  private readonly formatCounts = new Float64Array(FORMATS.length);
  /** Indexed by FAMILY_*. */
  private readonly familyCounts = new Float64Array(4);
  private dseHints = 0;

  // time
  private basis: TimeBasis = 'none';
  private firstT: number | null = null;
  private lastT: number | null = null;
  private zoned = 0;
  private unzoned = 0;
  private otherBasisLines = 0;

  // entries (a headed line and the header-less lines under it)
  private entryOpen = false;
  /** The entry's time; undefined while its logback date is still unread (read on demand by entryTime). */
  private entryT: number | null | undefined = null;
  private entryLine = '';
  private entryDateAt = -1;
  private lastLazyLine = '';
  private lastLazyDateAt = -1;
  private readonly th = newHeader();
  private entryKinds = 0;
  /** The entry is a startup failure whose exception is on the next line. */
  private entryStartupOpen = false;
  /**
   * A WARN/ERROR line that classified as nothing: its message may go on in the next line when the paste wrapped it
   * (a terminal or a quote cut "Batch of prepared" | "statements for …"); the two are classified once more together.
   */
  private entryWrapHead: string | null = null;
  private entryWrapStart = 0;
  private entryWrapMode: ClassifyMode = 'any';
  /** The exceptions startups ended on, as printed, distinct, at most 5. */
  private readonly startupExceptions: string[] = [];
  private scyllaStartupFatal = 0;
  /** The entry's configError named nothing yet ("Invalid yaml: file:…"): the lines under it may say what. */
  private entryConfigOther = false;
  private entryIsStatus = false;
  /** The entry is a header-less line that matched a pattern: only stack-trace-like lines continue it. */
  private entryBare = false;
  private entryOomWhat: string | null = null;
  /** The entry repeats a line already counted (debug.log after system.log): it and its continuation are skipped. */
  private entryDup = false;
  /** The last RECENT timestamped lines (text, and where the date starts), for the silence before a local pause. */
  private readonly recentLines: string[] = new Array<string>(RECENT).fill('');
  private readonly recentDateAt = new Int32Array(RECENT).fill(-1);
  private recentPos = 0;
  private readonly seenLines = new SeenLines();
  /** Which input (file) the lines come from, 0 for the first: see nextSource. */
  private sourceIndex = 0;
  private duplicates = 0;
  private readonly startup = new StartupReader();
  private readonly slow = new SlowQueryReader();
  /** A JDK 8 pause record whose times come on a later line (PrintTenuringDistribution); null when none is open. */
  private gcOpen: { collector: string; t: number | null; line: string } | null = null;
  private gcOpenLost = 0;

  private readonly kinds = new Map<LogEventKind, KindState>(LOG_EVENT_KINDS.map((k) => [k, new KindState(UNITS[k])]));

  // gc
  private readonly gcAll = new Quantiles();
  private gcTotal = 0;
  private readonly gcBy = new Map<string, { from: 'GCInspector' | 'gc.log'; count: number; total: number; max: number; q: Quantiles }>();
  private readonly gcConcurrent = new Map<string, { count: number; total: number; max: number }>();
  private gcLogCollector: string | null = null;
  private readonly poolAfter = new Map<string, { min: number; max: number; samples: number }>();

  // safepoints
  private sp = { count: 0, stopped: 0, ttsp: 0, maxStopped: 0, maxTtsp: 0, domCount: 0, domStopped: 0, domMax: 0 };
  private readonly spStopped = new Quantiles();
  private readonly spTtsp = new Quantiles();
  private readonly spOps = new Map<string, { count: number; total: number; max: number }>();
  private readonly spWorstTtsp = new TopN<LogExample>(TOP);
  private readonly spStartup = new StartupWindows();

  // dropped
  private readonly droppedBy = new Map<
    string,
    { lines: number; internal: number; cross: number; maxLine: number; latInt: number | null; latCross: number | null }
  >();
  private readonly droppedTables = new Map<string, number>();

  // thread pools
  private statusMode: 0 | 1 | 2 | 3 = 0; // 0 off, 1 pool rows, 2 trailer (caches), 3 per-table memtable rows
  private snap: Snapshot | null = null;
  private snapshots = 0;
  private readonly pools = new Map<string, PoolAgg>();
  private readonly memtables = new Map<string, { snapshots: number; maxOps: number; maxData: number }>();
  private readonly poolMemo = new PositionMemo<PoolAgg>();
  private readonly gcMemo = new PositionMemo<{ from: 'GCInspector' | 'gc.log'; count: number; total: number; max: number; q: Quantiles }>();
  private readonly poolAfterMemo = new PositionMemo<{ min: number; max: number; samples: number }>();

  // tombstones / large data
  private readonly tombTables = new Map<string, { warnings: number; aborts: number; max: number; maxLive: number | null; total: number }>();
  private readonly largeTables = new Map<
    string,
    { table: string; what: 'partition' | 'row' | 'cell' | 'collection'; count: number; maxBytes: number; maxKey: string | null }
  >();

  // scylla
  private readonly stallAll = new Quantiles();
  private stallTotal = 0;
  private readonly stallShards = new Map<number, { count: number; total: number; max: number }>();
  private readonly timeoutTypes = new Map<'write' | 'read' | 'semaphore' | 'other', number>();
  private readonly timeoutTables = new Map<string, number>();
  private readonly configErrorTypes = new Map<string, number>();
  private readonly configSettings = new Set<string>();

  // the rest
  private readonly bufferPools = new Map<string, { limit: number | null; count: number }>();
  private readonly batchTables = new Map<string, { count: number; rejected: number; maxBytes: number | null; thresholdBytes: number | null }>();
  private batchRejected = 0;
  private localPause = { count: 0, total: 0, max: 0, startupSetAside: 0, startupMaxMs: 0, gossipOffSetAside: 0, gossipOffMaxMs: 0 };
  /**
   * The failure detector since the last boot line. Its clock starts with the node, but it only measures between
   * checks of a peer it has heard from (FailureDetector.interpret returns before moving lastInterpret while no peer
   * has arrival samples), so its first check after start reports the whole time the node was alone as a "local
   * pause". A node's first report since boot whose length is the time since boot is that, not a pause: set aside
   * like start-up safepoint stops. (Lab 4.1.10: 12.2 s and 5.5 s at 3-node start; sperf's DSE 6.7 node: 50.8 min.)
   */
  private fd: { bootT: number | null; pauseSinceBoot: boolean; gossipStopT: number | null; gossipStartT: number | null } = {
    bootT: null,
    pauseSinceBoot: false,
    gossipStopT: null,
    gossipStartT: null,
  };
  private readonly oomKinds = new Map<string, number>();
  private readonly diskFullKinds = new Map<DiskFullKind, number>();
  private readonly commitPolicies = new Set<string>();
  private hintPartial = 0;
  private readonly hintEndpoints = new Map<string, number>();
  private readonly repairSessions = new Set<string>();
  private repairTerminated = 0;
  private commitlog = { warnings: 0, lagging: 0, maxAvg: 0, maxExceeded: 0 };

  constructor(opts: LogReadOptions = {}) {
    this.opts = opts;
  }

  /**
   * Adds a chunk: bytes (UTF-8, split anywhere) or text. A caller that decoded the bytes itself passes their
   * count as `byteLength` (otherwise the text's UTF-8 length is computed).
   */
  push(chunk: string | Uint8Array, byteLength?: number): void {
    if (this.ended) return;
    let text: string;
    if (typeof chunk === 'string') {
      this.bytes += byteLength ?? utf8Length(chunk);
      text = chunk;
    } else {
      this.bytes += chunk.byteLength;
      this.decoder ??= new TextDecoder('utf-8');
      text = this.decoder.decode(chunk, { stream: true });
    }
    this.feed(text);
  }

  /**
   * The input that follows is another file of the same node (debug.log after system.log, a rotated file): an
   * entry does not continue across it, and an event line that an earlier file already had is counted once.
   */
  nextSource(): void {
    if (this.ended) return;
    if (this.decoder) this.feed(this.decoder.decode());
    if (this.tail !== '' && !this.skippingOverlong) this.line(this.tail);
    this.tail = '';
    this.skippingOverlong = false;
    this.closeSnapshot();
    this.entryOpen = false;
    this.entryDup = false;
    this.recentDateAt.fill(-1);
    if (this.gcOpen !== null) {
      this.gcOpenLost++;
      this.gcOpen = null;
    }
    this.sourceIndex++;
  }

  private feed(text: string): void {
    if (text.length === 0) return;
    let start = 0;
    if (this.skippingOverlong) {
      const nl = text.indexOf('\n');
      if (nl < 0) return;
      this.skippingOverlong = false;
      start = nl + 1;
    }
    let nl = text.indexOf('\n', start);
    if (nl >= 0 && this.tail !== '') {
      this.line(this.tail + text.slice(start, nl));
      this.tail = '';
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    const fast = this.opts.fastLane !== false;
    while (nl >= 0) {
      const lane = fast && this.statusMode === 0 && this.basis !== 'none' ? this.plainLine(text, start, nl) : LANE_NOT_PLAIN;
      if (lane !== LANE_COUNTED) {
        const s = start === 0 && nl === text.length - 1 ? text.slice(0, nl) : text.slice(start, nl);
        if (lane === LANE_HEADER_READ) this.lineWithHeader(s, start);
        else this.line(s);
      }
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (start < text.length) {
      this.tail = this.tail === '' ? text.slice(start) : this.tail + text.slice(start);
      if (this.tail.length > MAX_LINE) {
        this.overlong++;
        this.line(this.tail.slice(0, MAX_LINE));
        this.tail = '';
        this.skippingOverlong = true;
      }
    }
  }

  /**
   * The fast lane: a logback line in the common shape (readCassandraInPlace) that the full reader would only count
   * — INFO/WARN/DEBUG/TRACE, not from a logger read by name, not a start-up or ready line, nothing for classify's
   * gate — is counted in place, with no slice: its chunk and offsets stand in for the line where a date may be
   * read later (the entry, the recent lines, the span's end). Otherwise the line goes to the full reader: with its
   * header already read (LANE_HEADER_READ: readCassandraInPlace gives what readHeader would) or not.
   */
  private plainLine(text: string, a: number, end: number): Lane {
    const h = this.h;
    if (!readCassandraInPlace(text, a, end, h)) return LANE_NOT_PLAIN;
    const level = h.level;
    const m = h.msgStart;
    const fs = h.fileStart;
    const f = text.charCodeAt(fs);
    if ((f === 83 && text.startsWith('StatusLogger', fs)) || (f === 68 && (text.startsWith('Dse', fs) || text.startsWith('DroppedMessages', fs))))
      return LANE_HEADER_READ;
    const c = text.charCodeAt(m);
    if (c === 80 && text.startsWith('Pool Name', m)) return LANE_HEADER_READ;
    if (level === LEVEL_INFO && (mayBeStartupLine(text, m) || (c === 83 && isReadyLine(text, m)))) return LANE_HEADER_READ;
    // WARN lines are few: the message is cut out to look in it only
    let wrapHead: string | null = null;
    if (level !== LEVEL_DEBUG && level !== LEVEL_TRACE) {
      const msg = text.slice(m, end);
      if (passesCassandraGate(msg) || (level === LEVEL_WARN && msg.includes(' gossip by operator request'))) return LANE_HEADER_READ;
      if (level === LEVEL_WARN) wrapHead = msg;
    }
    this.total++;
    // the slow-query reader's loggers, handed the line as line() does
    if (f === 77 && text.startsWith('MonitoringTask', fs)) this.slow.line(text.slice(a, end), this.total);
    else if (f === 78 && (c === 83 || (c >= 48 && c <= 57)) && text.startsWith('NoSpamLogger', fs)) this.slow.line(text.slice(a, end), this.total);
    this.headed++;
    this.formatCounts[FORMAT_CASSANDRA] = this.formatCounts[FORMAT_CASSANDRA]! + 1;
    this.levelCounts[level] = this.levelCounts[level]! + 1;
    this.familyCounts[FAMILY_CASSANDRA] = this.familyCounts[FAMILY_CASSANDRA]! + 1;
    this.datedEntry(text, h.dateAt);
    this.lastLazyLine = text;
    this.lastLazyDateAt = h.dateAt;
    this.openEntry();
    if (wrapHead !== null) this.holdWrapHead(wrapHead, 0, 'cassandra');
    return LANE_COUNTED;
  }

  private holdWrapHead(s: string, start: number, mode: ClassifyMode): void {
    this.entryWrapHead = s;
    this.entryWrapStart = start;
    this.entryWrapMode = mode;
  }

  /** The line under a WARN/ERROR that named nothing, read as the rest of its message; true when together they are an event. */
  private joinWrapped(s: string): boolean {
    const head = this.entryWrapHead!;
    this.entryWrapHead = null;
    const c = s.charCodeAt(0);
    // indented lines and stack frames are the entry's own continuation, not a message cut by the paste
    if (c === 9 || c === 32 || s.startsWith('Caused by') || head.length + s.length > 2000) return false;
    const joined = `${head} ${s}`;
    const hit = classify(joined, this.entryWrapStart, this.entryWrapMode);
    if (!hit) return false;
    this.continuation++;
    this.record(hit, this.entryTime(), joined);
    return true;
  }

  /**
   * A timestamped line (or the chunk holding it, with the date's offset) becomes the entry and joins the recent lines;
   * its date is kept unread: only an event or a local pause reads it back.
   */
  private datedEntry(text: string, dateAt: number): void {
    this.recentLines[this.recentPos] = text;
    this.recentDateAt[this.recentPos] = dateAt;
    this.recentPos = (this.recentPos + 1) % RECENT;
    this.entryLine = text;
    this.entryDateAt = dateAt;
    this.entryT = undefined;
  }

  /** A headed line starts an entry: what the lines under it may continue. */
  private openEntry(): void {
    this.entryOpen = true;
    this.entryBare = false;
    this.entryKinds = 0;
    this.entryIsStatus = false;
    this.entryOomWhat = null;
    this.entryConfigOther = false;
    this.entryStartupOpen = false;
    this.entryDup = false;
    this.entryWrapHead = null;
  }

  /**
   * line() for a line whose header plainLine already read in its chunk (at offset `a`): the same header readHeader
   * would give (readCassandraInPlace's contract), moved to the line's own offsets. Such a line has no CR, no
   * backtick and no "<"/"." start, so line()'s steps before the header have nothing to do.
   */
  private lineWithHeader(s: string, a: number): void {
    this.total++;
    const h = this.h;
    h.t = NaN;
    h.basis = 'none';
    h.hasZone = false;
    h.msgStart -= a;
    h.dateAt -= a;
    h.fileStart -= a;
    h.fileEnd -= a;
    h.node = '';
    h.program = '';
    h.shard = -1;
    h.grepSource = '';
    this.slowLoggers(s);
    this.headedLine(s);
  }

  /** MonitoringTask and NoSpamLogger lines go to the slow-query reader too (NoSpamLogger's other lines are not its). */
  private slowLoggers(s: string): void {
    const h = this.h;
    const f = s.charCodeAt(h.fileStart);
    if (f === 77 && s.startsWith('MonitoringTask', h.fileStart)) this.slow.line(s, this.total);
    else if (f === 78 && s.startsWith('NoSpamLogger', h.fileStart)) {
      const m = s.charCodeAt(h.msgStart);
      if (m === 83 || (m >= 48 && m <= 57)) this.slow.line(s, this.total);
    }
  }

  private line(raw: string): void {
    this.total++;
    let s = raw.length > 0 && raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    // a line pasted as markdown inline code: `INFO  [main] … - msg`
    if (s.charCodeAt(0) === 96) s = unquoteInlineCode(s);
    if (s.length === 0 || (s.charCodeAt(0) <= 32 && s.trim() === '')) {
      this.blank++;
      return;
    }
    // debug.log slow/timed-out read reports: the operation lines under a MonitoringTask header carry no prefix and
    // start with "<" (or "... (N were dropped)"); only those and the two loggers' own lines are looked at, by first char
    const c0 = s.charCodeAt(0);
    if (c0 === 60 || c0 === 46) this.slow.line(s, this.total);
    const h = this.h;
    let headed = readHeader(s, h, this.hs);
    if (!headed) {
      const c = s.charCodeAt(0);
      if (c !== 32 && c !== 9 && s.indexOf(':') > 0) headed = readGrepPrefixed(s, h, this.hs);
    }
    // NoSpamLogger logs much else (chunk cache, …): its slow-query lines open with "Some operations" or a count
    if (headed && h.fileStart >= 0) this.slowLoggers(s);
    if (headed) this.headedLine(s);
    else this.unheadedLine(s);
  }

  // ------------------------------------------------------------------ headed lines

  private headedLine(s: string): void {
    const h = this.h;
    this.headed++;
    const fi = FORMAT_INDEX[h.format!];
    this.formatCounts[fi] = this.formatCounts[fi]! + 1;
    this.levelCounts[h.level] = this.levelCounts[h.level]! + 1;
    const fam = this.family();
    this.familyCounts[fam] = this.familyCounts[fam]! + 1;
    if (h.fileStart >= 0 && s.charCodeAt(h.fileStart) === 68 && (s.startsWith('Dse', h.fileStart) || s.startsWith('DroppedMessages', h.fileStart)))
      this.dseHints++;

    if (h.dateAt >= 0) {
      this.datedEntry(s, h.dateAt);
      // the first timestamped line fixes the basis; the last one closes the span (read in end())
      if (this.basis === 'none') this.entryTime();
      else {
        this.lastLazyLine = s;
        this.lastLazyDateAt = h.dateAt;
      }
    } else {
      this.entryDateAt = -1;
      this.entryT = this.lineTime(h.t, h.basis, h.hasZone);
    }
    this.openEntry();

    const fromStatusLogger = h.fileStart >= 0 && s.charCodeAt(h.fileStart) === 83 && s.startsWith('StatusLogger', h.fileStart);
    if (this.statusMode !== 0 && !fromStatusLogger) this.closeSnapshot();
    if (fromStatusLogger || (s.charCodeAt(h.msgStart) === 80 && s.startsWith('Pool Name', h.msgStart))) {
      if (h.dateAt >= 0 && this.repeatsEarlier(s)) {
        this.closeSnapshot();
        this.skipDuplicate();
        return;
      }
      this.entryIsStatus = true;
      this.statusText(s, h.msgStart, s);
      return;
    }
    // DEBUG/TRACE lines (debug.log) carry nothing the facts need, and "Still not marking nodes down" is one of them
    if (h.level === LEVEL_DEBUG || h.level === LEVEL_TRACE) return;
    // `nodetool disablegossip` / `enablegossip`: the detector's first report after gossip restarts is the time it was off
    if (fam === FAMILY_CASSANDRA && h.level === LEVEL_WARN && s.includes(' gossip by operator request', h.msgStart)) {
      if (s.startsWith('Stopping gossip', h.msgStart)) this.fd.gossipStopT = this.entryTime();
      else if (s.startsWith('Starting gossip', h.msgStart) && this.fd.gossipStopT !== null) this.fd.gossipStartT = this.entryTime();
    }
    if (fam === FAMILY_CASSANDRA && h.level === LEVEL_INFO) {
      // boot and ready lines bound the start-up window whose safepoint stops are set aside (startup-window.ts)
      if (isReadyLine(s, h.msgStart)) this.spStartup.ready(this.entryTime());
      else if (s.startsWith('JVM Arguments:', h.msgStart)) {
        this.spStartup.boot(this.entryTime());
        this.fd = { bootT: this.entryTime(), pauseSinceBoot: false, gossipStopT: null, gossipStartT: null };
      }
      if (this.startup.offer(s, h.msgStart, this.total, this.isNewLine)) return;
    }
    const mode: ClassifyMode = fam === FAMILY_CASSANDRA ? 'cassandra' : fam === FAMILY_GC ? 'gc' : fam === FAMILY_SCYLLA ? 'scylla' : 'any';
    // a refused cassandra.yaml is logged at ERROR, the only level worth the extra look
    const hit =
      classify(s, h.msgStart, mode) ?? (h.level === LEVEL_ERROR && mode === 'cassandra' ? (configError(s, h.msgStart) ?? startupFailure(s, h.msgStart)) : null);
    if (hit) {
      // the same line seen before (system.log and debug.log of one node read together) is one event
      if (h.dateAt >= 0 && this.repeatsEarlier(s)) this.skipDuplicate();
      else this.record(hit, this.entryTime(), s);
    } else if (fam !== FAMILY_GC && (h.level === LEVEL_WARN || h.level === LEVEL_ERROR)) {
      this.holdWrapHead(s, h.msgStart, mode);
    } else if (fam === FAMILY_GC) {
      const collector = openGcRecord(s, h.msgStart);
      if (collector !== null) {
        if (this.gcOpen) this.gcOpenLost++;
        this.gcOpen = { collector, t: this.entryTime(), line: s };
      }
    }
  }

  /** False (and the entry skipped) when this timestamped line was already read. */
  private readonly isNewLine = (s: string): boolean => {
    if (this.h.dateAt < 0 || !this.repeatsEarlier(s)) return true;
    this.skipDuplicate();
    return false;
  };

  /** The same line came in an earlier file of this stream; lines of the stream's last file are not remembered. */
  private repeatsEarlier(s: string): boolean {
    const sources = this.opts.sources;
    return this.seenLines.repeatsEarlier(s, this.sourceIndex, sources === undefined || this.sourceIndex < sources - 1);
  }

  /**
   * A line under an "Invalid yaml" that named nothing: the detail snakeyaml printed on it (the Config could not be
   * built, a property could not be set) makes the entry's one error that kind instead of "other".
   */
  private addStartupException(e: string): void {
    if (this.startupExceptions.length < 5 && !this.startupExceptions.includes(e)) this.startupExceptions.push(detach(e));
  }

  private refineConfigError(s: string): void {
    const d = configErrorDetail(s);
    if (!d) return;
    this.entryConfigOther = false;
    const left = (this.configErrorTypes.get('other') ?? 1) - 1;
    if (left > 0) this.configErrorTypes.set('other', left);
    else this.configErrorTypes.delete('other');
    bump(this.configErrorTypes, d.error, 1, CAP_SMALL);
    for (const key of d.settings) if (this.configSettings.size < CAP_SMALL) this.configSettings.add(detach(key));
  }

  private skipDuplicate(): void {
    this.duplicates++;
    this.entryDup = true;
    this.entryIsStatus = false;
  }

  /** A header-less line that may close an open JDK 8 pause record; true when it did. */
  private closeGcOpen(s: string): boolean {
    const secs = closeGcRecord(s);
    if (!Number.isFinite(secs)) return false;
    const open = this.gcOpen!;
    this.gcOpen = null;
    const line = open.line.length + s.length < 400 ? `${open.line} ${s.trim()}` : open.line;
    // the generation is named on the closing line when the opening one had only "[GC (Allocation Failure)"
    const collector = open.collector === 'GC' && s.includes('PSYoungGen') ? 'PS Scavenge' : open.collector;
    this.record({ kind: 'gcPause', ms: secs * 1000, collector, from: 'gc.log', concurrent: false, pools: null }, open.t, line);
    return true;
  }

  /** The current entry's time in the facts' basis, reading a deferred logback date now if need be. */
  private entryTime(): number | null {
    if (this.entryT !== undefined) return this.entryT;
    const th = this.th;
    th.dateAt = this.entryDateAt;
    th.t = NaN;
    th.basis = 'none';
    th.hasZone = false;
    resolveDate(this.entryLine, th, this.hs);
    this.entryT = this.lineTime(th.t, th.basis, th.hasZone);
    return this.entryT;
  }

  /**
   * The longest gap between consecutive timestamped lines among the recent ones that end at `t` and reach back over
   * `windowMs`: how long the node logged nothing during a pause it reports. null when fewer than two lines are known.
   */
  private longestSilence(t: number, windowMs: number): number | null {
    const th = this.th;
    let newer = t;
    let best: number | null = null;
    for (let k = 2; k <= RECENT; k++) {
      // k = 1 is the current line
      const i = (this.recentPos - k + RECENT) % RECENT;
      const at = this.recentDateAt[i]!;
      if (at < 0) break;
      th.dateAt = at;
      th.t = NaN;
      th.basis = 'none';
      if (!resolveDate(this.recentLines[i]!, th, this.hs) || th.basis !== this.basis) continue;
      const gap = newer - th.t;
      if (gap >= 0 && (best === null || gap > best)) best = gap;
      newer = th.t;
      if (th.t < t - windowMs) break;
    }
    return best;
  }

  private family(): number {
    const h = this.h;
    switch (h.format) {
      case 'cassandra':
        return FAMILY_CASSANDRA;
      case 'scylla':
        return FAMILY_SCYLLA;
      case 'gcUnified':
      case 'gcJdk8':
        return FAMILY_GC;
      default:
        if (h.program.includes('scylla') || h.shard >= 0) return FAMILY_SCYLLA;
        if (h.fileStart >= 0 || h.program.includes('cassandra') || h.program.includes('dse')) return FAMILY_CASSANDRA;
        return FAMILY_OTHER;
    }
  }

  /** The line's time in the facts' basis (null when none or another basis), updating the overall span. */
  private lineTime(t: number, basis: TimeBasis, hasZone: boolean): number | null {
    if (basis === 'none' || !Number.isFinite(t)) return null;
    if (this.basis === 'none') this.basis = basis;
    else if (basis !== this.basis) {
      this.otherBasisLines++;
      return null;
    }
    if (basis === 'absolute') {
      if (hasZone) this.zoned++;
      else this.unzoned++;
    }
    if (this.firstT === null || t < this.firstT) this.firstT = t;
    if (this.lastT === null || t > this.lastT) this.lastT = t;
    return t;
  }

  // ------------------------------------------------------------------ header-less lines

  private unheadedLine(s: string): void {
    if (this.entryDup) {
      this.continuation++;
      return;
    }
    if (this.gcOpen !== null && this.closeGcOpen(s)) {
      this.continuation++;
      return;
    }
    if (this.statusMode !== 0 || (this.entryOpen && this.entryIsStatus)) {
      this.continuation++;
      this.statusText(s, 0, s);
      return;
    }
    if (this.entryWrapHead !== null && this.joinWrapped(s)) return;
    if (this.entryOpen && ((this.entryKinds !== 0 && !this.entryBare) || looksLikeContinuation(s))) {
      this.continuation++;
      if (this.entryKinds & KIND_BIT.dropped) {
        const m = /^(\S+) - (\d+) messages?\s*$/.exec(s);
        if (m) {
          bump(this.droppedTables, m[1]!, Number(m[2]), CAP_TABLES);
          return;
        }
      }
      const c = s.charCodeAt(0);
      // stack frames ("\tat …") carry class names, not messages
      if ((c === 9 || c === 32) && s.trimStart().startsWith('at ')) return;
      if (this.entryConfigOther) this.refineConfigError(s);
      if (this.entryStartupOpen) {
        const e = exceptionLine(s);
        if (e !== null) {
          this.entryStartupOpen = false;
          this.addStartupException(e);
        }
      }
      const hit = classify(s, 0, 'any');
      if (hit) this.record(hit, this.entryTime(), s);
      return;
    }
    const hit = classify(s, 0, 'any');
    if (hit) {
      this.bare++;
      this.entryOpen = true;
      this.entryBare = true;
      this.entryT = null;
      this.entryDateAt = -1;
      this.entryKinds = 0;
      this.entryIsStatus = false;
      this.entryOomWhat = null;
      this.entryConfigOther = false;
      this.entryStartupOpen = false;
      this.record(hit, null, s);
    } else {
      this.unrecognisedLines++;
      // a JDK 8 gc.log header (JRE banner, memory, command line flags) is not an entry but says what ran
      this.startup.offerGcHeader(s, this.total);
      // a line we cannot read ends the entry: what follows is not its continuation
      this.entryOpen = false;
    }
  }

  // ------------------------------------------------------------------ StatusLogger tables

  private statusText(s: string, start: number, line: string): void {
    if (start >= s.length) return;
    const header = s.indexOf('Pool Name', start);
    if (header >= 0 && header - start < 8) {
      const i = header;
      this.closeSnapshot();
      const layout = s.includes('Stolen', i) ? 'dse68' : s.includes('Delayed', i) ? 'dse' : s.includes('Completed', i) ? 'full' : 'short';
      const t = this.entryTime();
      this.snap = {
        t,
        time: formatLogTime(t, this.basis),
        lineNo: this.total,
        headerLine: clip(line),
        layout,
        rows: 0,
        pending: 0,
        worstPending: -1,
        worstPool: '',
        worstLine: '',
        worstLineNo: 0,
      };
      this.statusMode = 1;
      return;
    }
    if (this.statusMode === 1 && this.snap) {
      const row = parsePoolRow(s, start);
      if (row) {
        if (row.numbers > 0) this.poolRow(row.name, row.v, line);
        return;
      }
      this.statusMode = 2;
    }
    // The per-table section: "Table  Memtable ops,data" (ColumnFamily before 3.0), then "ks.table  ops,data" rows.
    if (this.statusMode >= 2 && this.snap) {
      const rest = s.slice(start).trim();
      if (/^(Table|ColumnFamily)\s+Memtable ops,data$/.test(rest)) {
        this.statusMode = 3;
        return;
      }
      if (this.statusMode === 3) {
        const m = /^(\S+)\s+(\d+),(\d+)$/.exec(rest);
        if (!m) return;
        const t = slot(this.memtables, m[1]!, CAP_TABLES, () => ({ snapshots: 0, maxOps: 0, maxData: 0 }));
        t.snapshots++;
        t.maxOps = Math.max(t.maxOps, Number(m[2]));
        t.maxData = Math.max(t.maxData, Number(m[3]));
      }
    }
  }

  private poolRow(name: string, v: (number | null)[], line: string): void {
    const snap = this.snap!;
    if (name.startsWith('TPC/')) this.dseHints++;
    let active: number | null = v[0] ?? null;
    let pending: number | null = v[1] ?? null;
    let completed: number | null = null;
    let blocked: number | null = null;
    let allTime: number | null = null;
    let delayed: number | null = null;
    if (v.length > 2) {
      // DSE 6.8: Shared and Stolen count TPC tasks moved between cores; they are not blocked work
      if (snap.layout === 'dse68')
        [active, pending, delayed, completed, blocked, allTime] = [v[0] ?? null, v[1] ?? null, v[3] ?? null, v[6] ?? null, v[7] ?? null, v[8] ?? null];
      else if (snap.layout === 'dse')
        [active, pending, delayed, completed, blocked, allTime] = [v[0] ?? null, v[1] ?? null, v[2] ?? null, v[3] ?? null, v[4] ?? null, v[5] ?? null];
      else if (snap.layout === 'full') [active, pending, completed, blocked, allTime] = [v[0] ?? null, v[1] ?? null, v[2] ?? null, v[3] ?? null, v[4] ?? null];
      else [active, pending, blocked] = [v[0] ?? null, v[1] ?? null, v[2] ?? null];
    }
    let p = this.poolMemo.get(snap.rows, name);
    if (!p) {
      p = slot(this.pools, name, CAP_POOLS, () => ({
        snapshots: 0,
        withPending: 0,
        maxActive: null,
        maxPending: null,
        maxBlocked: null,
        maxAllTimeBlocked: null,
        maxDelayed: null,
        lastPending: null,
        lastCompleted: null,
        maxPendingT: null,
      }));
      this.poolMemo.set(snap.rows, name, p);
    }
    p.snapshots++;
    if (pending !== null && pending > 0) p.withPending++;
    if (pending !== null && (p.maxPending === null || pending > p.maxPending)) {
      p.maxPending = pending;
      p.maxPendingT = snap.t;
    }
    p.maxActive = maxOrNull(p.maxActive, active);
    p.maxBlocked = maxOrNull(p.maxBlocked, blocked);
    p.maxAllTimeBlocked = maxOrNull(p.maxAllTimeBlocked, allTime);
    p.maxDelayed = maxOrNull(p.maxDelayed, delayed);
    p.lastPending = pending;
    p.lastCompleted = completed;
    snap.rows++;
    if (pending !== null) {
      snap.pending += pending;
      if (pending > snap.worstPending) {
        snap.worstPending = pending;
        snap.worstPool = detach(name);
        snap.worstLine = clip(line);
        snap.worstLineNo = this.total;
      }
    }
  }

  private closeSnapshot(): void {
    const snap = this.snap;
    this.snap = null;
    this.statusMode = 0;
    if (!snap || snap.rows === 0) return;
    this.snapshots++;
    const k = this.kinds.get('threadPools')!;
    const ex: LogExample = {
      t: snap.t,
      time: snap.time,
      magnitude: snap.pending,
      lineNo: snap.worstLineNo || snap.lineNo,
      line: snap.worstLine || snap.headerLine,
      detail: { pool: snap.worstPool, pending: Math.max(0, snap.worstPending), pools: snap.rows },
      ...this.origin(),
    };
    this.count(k, snap.t, snap.pending, ex);
  }

  // ------------------------------------------------------------------ events

  private origin(): { node?: string; source?: string } {
    const h = this.h;
    const o: { node?: string; source?: string } = {};
    const node = h.node || this.opts.node;
    const source = h.grepSource || this.opts.source;
    if (node) o.node = detach(node);
    if (source) o.source = detach(source);
    return o;
  }

  /** Counts one event; the example is built only when it would be kept (top 5 by magnitude, or first 5). */
  private count(k: KindState, t: number | null, magnitude: number | null, ex: LogExample | (() => LogExample)): void {
    k.count++;
    if (t !== null) {
      if (k.firstT === null || t < k.firstT) k.firstT = t;
      if (k.lastT === null || t > k.lastT) k.lastT = t;
      k.buckets.add(t);
    }
    if (k.unit === null) {
      if (!k.first.full) k.first.offer(typeof ex === 'function' ? ex() : ex);
    } else if (k.top.wants(magnitude ?? -Infinity)) {
      k.top.offer(typeof ex === 'function' ? ex() : ex);
    }
  }

  private example(t: number | null, line: string, magnitude: number | null, detail?: Record<string, string | number>): LogExample {
    const h = this.h;
    const e: LogExample = {
      t,
      time: t !== null ? formatLogTime(t, this.basis) : formatLogTime(Number.isFinite(h.t) ? h.t : null, h.basis),
      magnitude: magnitude === null ? null : round3(magnitude),
      lineNo: this.total,
      line: clip(line),
      ...this.origin(),
    };
    if (detail) {
      for (const k of Object.keys(detail)) if (typeof detail[k] === 'string') detail[k] = detach(detail[k]);
      e.detail = detail;
    }
    return e;
  }

  private record(hit: Hit, t: number | null, line: string): void {
    if (hit.kind === 'gcUsing') {
      this.gcLogCollector ??= detach(hit.collector);
      return;
    }
    if (hit.kind === 'gcPause' && hit.concurrent) {
      const c = slot(this.gcConcurrent, hit.collector, CAP_COLLECTORS, () => ({ count: 0, total: 0, max: 0 }));
      c.count++;
      c.total += hit.ms;
      c.max = Math.max(c.max, hit.ms);
      return;
    }
    const kind = hit.kind;
    const bit = KIND_BIT[kind];
    if (this.entryKinds & bit) {
      // one event per kind per log entry: an ERROR line and the exception text under it are one failure
      if (kind === 'oom' && this.entryOomWhat === 'unspecified' && hit.what !== 'unspecified') {
        this.oomKinds.set('unspecified', (this.oomKinds.get('unspecified') ?? 1) - 1);
        if (this.oomKinds.get('unspecified') === 0) this.oomKinds.delete('unspecified');
        bump(this.oomKinds, hit.what, 1, CAP_SMALL);
        this.entryOomWhat = hit.what;
      }
      return;
    }
    this.entryKinds |= bit;
    const k = this.kinds.get(kind)!;
    switch (hit.kind) {
      case 'gcPause': {
        this.gcAll.add(hit.ms);
        this.gcTotal += hit.ms;
        let c = this.gcMemo.get(0, hit.collector);
        if (!c) {
          c = slot(this.gcBy, hit.collector, CAP_COLLECTORS, () => ({ from: hit.from, count: 0, total: 0, max: 0, q: new Quantiles() }));
          this.gcMemo.set(0, hit.collector, c);
        }
        c.count++;
        c.total += hit.ms;
        c.max = Math.max(c.max, hit.ms);
        c.q.add(hit.ms);
        if (hit.pools) {
          for (let i = 0; i < hit.pools.length; i++) {
            const [pool, after] = hit.pools[i]!;
            let p = this.poolAfterMemo.get(i, pool);
            if (!p) {
              p = slot(this.poolAfter, pool, CAP_SMALL, () => ({ min: after, max: after, samples: 0 }));
              this.poolAfterMemo.set(i, pool, p);
            }
            if (after < p.min) p.min = after;
            if (after > p.max) p.max = after;
            p.samples++;
          }
        }
        this.count(k, t, hit.ms, () => this.example(t, line, hit.ms, { collector: hit.collector }));
        return;
      }
      case 'safepoint': {
        const sp = this.sp;
        sp.count++;
        sp.stopped += hit.stoppedMs;
        sp.ttsp += hit.ttspMs;
        sp.maxStopped = Math.max(sp.maxStopped, hit.stoppedMs);
        sp.maxTtsp = Math.max(sp.maxTtsp, hit.ttspMs);
        this.spStopped.add(hit.stoppedMs);
        this.spTtsp.add(hit.ttspMs);
        if (hit.stoppedMs > 0 && hit.ttspMs * 2 >= hit.stoppedMs) {
          sp.domCount++;
          sp.domStopped += hit.stoppedMs;
          sp.domMax = Math.max(sp.domMax, hit.stoppedMs);
        }
        if (hit.operation) {
          const o = slot(this.spOps, hit.operation, CAP_SMALL, () => ({ count: 0, total: 0, max: 0 }));
          o.count++;
          o.total += hit.stoppedMs;
          o.max = Math.max(o.max, hit.stoppedMs);
        }
        const detail = (): Record<string, string | number> => {
          const d: Record<string, string | number> = { stoppedMs: round3(hit.stoppedMs), ttspMs: round3(hit.ttspMs) };
          if (hit.operation) d.operation = hit.operation;
          return d;
        };
        if (this.spWorstTtsp.wants(hit.ttspMs)) this.spWorstTtsp.offer(this.example(t, line, hit.ttspMs, detail()));
        this.spStartup.stop(t, line, hit.ttspMs, hit.stoppedMs, () => this.example(t, line, hit.ttspMs, detail()));
        this.count(k, t, hit.stoppedMs, () => this.example(t, line, hit.stoppedMs, detail()));
        return;
      }
      case 'dropped': {
        const d = slot(this.droppedBy, hit.type, CAP_SMALL, () => ({
          lines: 0,
          internal: 0,
          cross: 0,
          maxLine: 0,
          latInt: null as number | null,
          latCross: null as number | null,
        }));
        d.lines++;
        d.internal += hit.internal;
        d.cross += hit.crossNode;
        d.maxLine = Math.max(d.maxLine, hit.internal + hit.crossNode);
        d.latInt = maxOrNull(d.latInt, hit.meanInternalMs);
        d.latCross = maxOrNull(d.latCross, hit.meanCrossNodeMs);
        this.count(k, t, hit.internal + hit.crossNode, () =>
          this.example(t, line, hit.internal + hit.crossNode, { type: hit.type, internal: hit.internal, crossNode: hit.crossNode }),
        );
        return;
      }
      case 'tombstoneWarn':
      case 'tombstoneAbort': {
        const tt = slot(this.tombTables, hit.table, CAP_TABLES, () => ({ warnings: 0, aborts: 0, max: 0, maxLive: null as number | null, total: 0 }));
        if (hit.kind === 'tombstoneWarn') {
          tt.warnings++;
          tt.maxLive = maxOrNull(tt.maxLive, hit.live);
        } else tt.aborts++;
        if (hit.tombstones !== null) {
          tt.max = Math.max(tt.max, hit.tombstones);
          tt.total += hit.tombstones;
        }
        const detail: Record<string, string | number> = { table: hit.table };
        if (hit.kind === 'tombstoneWarn') {
          if (hit.live !== null) detail.liveRows = hit.live;
          detail.phase = hit.phase;
        }
        this.count(k, t, hit.tombstones, () => this.example(t, line, hit.tombstones, detail));
        return;
      }
      case 'largePartition':
      case 'largeRowCell': {
        const id = `${hit.what} ${hit.table}`;
        const l = slot(this.largeTables, id, CAP_TABLES, () => ({
          table: this.largeTables.size < CAP_TABLES ? detach(hit.table) : OTHER,
          what: hit.what,
          count: 0,
          maxBytes: 0,
          maxKey: null as string | null,
        }));
        l.count++;
        if (hit.bytes !== null && hit.bytes >= l.maxBytes) {
          l.maxBytes = hit.bytes;
          l.maxKey = hit.key === null ? null : detach(hit.key);
        }
        const detail: Record<string, string | number> = { table: hit.table, what: hit.what, via: hit.via };
        if (hit.key) detail.key = hit.key;
        this.count(k, t, hit.bytes, () => this.example(t, line, hit.bytes, detail));
        return;
      }
      case 'oom': {
        bump(this.oomKinds, hit.what, 1, CAP_SMALL);
        this.entryOomWhat = hit.what;
        this.count(k, t, null, () => this.example(t, line, null, { what: hit.what }));
        return;
      }
      case 'localPause': {
        const lp = this.localPause;
        const fd = this.fd;
        const first = !fd.pauseSinceBoot;
        fd.pauseSinceBoot = true;
        if (first && t !== null && fd.bootT !== null && Math.abs(hit.ms - (t - fd.bootT)) <= SINCE_BOOT_SLACK_MS) {
          lp.startupSetAside++;
          lp.startupMaxMs = Math.max(lp.startupMaxMs, hit.ms);
          return;
        }
        // the first report after an operator restarted gossip, as long as gossip was off (lab 4.1.10: off 33.8 s, 32.5 s)
        const { gossipStopT: off, gossipStartT: on } = fd;
        if (t !== null && off !== null && on !== null && t >= on && t - on <= SINCE_BOOT_SLACK_MS && Math.abs(hit.ms - (t - off)) <= SINCE_BOOT_SLACK_MS) {
          fd.gossipStopT = fd.gossipStartT = null;
          lp.gossipOffSetAside++;
          lp.gossipOffMaxMs = Math.max(lp.gossipOffMaxMs, hit.ms);
          return;
        }
        lp.count++;
        lp.total += hit.ms;
        lp.max = Math.max(lp.max, hit.ms);
        const detail: Record<string, string | number> = {};
        if (hit.thresholdMs !== null) detail.thresholdMs = hit.thresholdMs;
        // how long the log was silent during the "pause": a node that logged nothing for about as long was idle,
        // suspended or alone (the failure detector only measures between two checks of a peer)
        const silence = t !== null && this.entryOpen && !this.entryBare && this.entryDateAt >= 0 ? this.longestSilence(t, hit.ms) : null;
        if (silence !== null) detail.longestSilenceMs = silence;
        this.count(k, t, hit.ms, () => this.example(t, line, hit.ms, detail));
        return;
      }
      case 'hintFailure': {
        if (hit.partial) this.hintPartial++;
        if (hit.endpoint) bump(this.hintEndpoints, hit.endpoint, 1, CAP_SMALL);
        this.count(k, t, null, () =>
          this.example(t, line, null, hit.endpoint ? { endpoint: hit.endpoint, partial: hit.partial ? 'yes' : 'no' } : { partial: hit.partial ? 'yes' : 'no' }),
        );
        return;
      }
      case 'repairFailure': {
        if (hit.terminated) this.repairTerminated++;
        if (hit.session && this.repairSessions.size < CAP_SESSIONS && !this.repairSessions.has(hit.session)) this.repairSessions.add(detach(hit.session));
        this.count(k, t, null, () => this.example(t, line, null, hit.session ? { session: hit.session } : undefined));
        return;
      }
      case 'bufferPoolFull': {
        const b = slot(this.bufferPools, hit.pool, CAP_SMALL, () => ({ limit: hit.limitBytes, count: 0 }));
        b.count++;
        b.limit = maxOrNull(b.limit, hit.limitBytes);
        this.count(k, t, null, () =>
          this.example(t, line, null, hit.limitBytes !== null ? { pool: hit.pool, limitBytes: hit.limitBytes } : { pool: hit.pool }),
        );
        return;
      }
      case 'commitlogSync': {
        const c = this.commitlog;
        c.warnings++;
        c.lagging += hit.lagging;
        c.maxAvg = Math.max(c.maxAvg, hit.averageMs);
        c.maxExceeded = Math.max(c.maxExceeded, hit.exceededByMs);
        this.count(k, t, hit.exceededByMs, () => this.example(t, line, hit.exceededByMs, { syncs: hit.syncs, lagging: hit.lagging, averageMs: hit.averageMs }));
        return;
      }
      case 'flushTimeout':
        this.count(k, t, null, () => this.example(t, line, null));
        return;
      case 'diskFull':
        bump(this.diskFullKinds, hit.what, 1, CAP_SMALL);
        this.count(k, t, null, () => this.example(t, line, null, { what: hit.what }));
        return;
      case 'commitlogFailure':
        if (hit.policy && this.commitPolicies.size < CAP_SMALL) this.commitPolicies.add(detach(hit.policy));
        this.count(k, t, null, () => this.example(t, line, null));
        return;
      case 'reactorStall': {
        this.stallAll.add(hit.ms);
        this.stallTotal += hit.ms;
        if (hit.shard !== null && (this.stallShards.has(hit.shard) || this.stallShards.size < 1024)) {
          const sh = this.stallShards.get(hit.shard) ?? { count: 0, total: 0, max: 0 };
          sh.count++;
          sh.total += hit.ms;
          sh.max = Math.max(sh.max, hit.ms);
          this.stallShards.set(hit.shard, sh);
        }
        this.count(k, t, hit.ms, () => this.example(t, line, hit.ms, hit.shard !== null ? { shard: hit.shard } : undefined));
        return;
      }
      case 'largeBatch': {
        const b = slot(this.batchTables, hit.tables, CAP_TABLES, () => ({ count: 0, rejected: 0, maxBytes: null, thresholdBytes: null }));
        b.count++;
        if (hit.rejected) {
          b.rejected++;
          this.batchRejected++;
        }
        b.maxBytes = maxOrNull(b.maxBytes, hit.bytes);
        // the lowest threshold named: the warn threshold when both kinds of line are there
        if (hit.thresholdBytes !== null && (b.thresholdBytes === null || hit.thresholdBytes < b.thresholdBytes)) b.thresholdBytes = hit.thresholdBytes;
        this.count(k, t, hit.bytes, () => this.example(t, line, hit.bytes, { tables: hit.tables, rejected: hit.rejected ? 'yes' : 'no' }));
        return;
      }
      case 'startupFailure': {
        if (hit.scylla) this.scyllaStartupFatal++;
        if (hit.exception !== null) this.addStartupException(hit.exception);
        else this.entryStartupOpen = true;
        this.count(k, t, null, () => this.example(t, line, null));
        return;
      }
      case 'configError': {
        this.entryConfigOther = hit.error === 'other';
        bump(this.configErrorTypes, hit.error, 1, CAP_SMALL);
        for (const key of hit.settings) if (this.configSettings.size < CAP_SMALL) this.configSettings.add(detach(key));
        this.count(k, t, null, () =>
          this.example(t, line, null, hit.settings.length ? { error: hit.error, settings: hit.settings.join(', ') } : { error: hit.error }),
        );
        return;
      }
      case 'scyllaTimeout': {
        this.timeoutTypes.set(hit.type, (this.timeoutTypes.get(hit.type) ?? 0) + 1);
        if (hit.table) bump(this.timeoutTables, hit.table, 1, CAP_TABLES);
        this.count(k, t, null, () => this.example(t, line, null, hit.table ? { type: hit.type, table: hit.table } : { type: hit.type }));
        return;
      }
    }
  }

  // ------------------------------------------------------------------ the end

  /** Flushes the last partial line and returns the facts. Further pushes are ignored. */
  end(): Parsed<LogFacts> {
    if (!this.ended) {
      if (this.decoder) this.feed(this.decoder.decode());
      if (this.tail !== '' && !this.skippingOverlong) this.line(this.tail);
      this.tail = '';
      this.closeSnapshot();
      if (this.lastLazyDateAt >= 0) {
        const th = this.th;
        th.dateAt = this.lastLazyDateAt;
        if (resolveDate(this.lastLazyLine, th, this.hs)) this.lineTime(th.t, th.basis, th.hasZone);
        this.lastLazyLine = '';
      }
      this.ended = true;
    }
    const nonBlank = this.total - this.blank;
    if (nonBlank === 0) return unrecognized(LOG_KIND, 'empty input: no log lines');
    const eventCount = [...this.kinds.values()].reduce((a, k) => a + k.count, 0);
    if (this.headed === 0 && this.bare === 0 && eventCount === 0) {
      return unrecognized(LOG_KIND, `no Cassandra, ScyllaDB or GC log line recognised in ${nonBlank} line(s)`);
    }
    const facts = this.facts();
    const warnings: string[] = [];
    if (this.unrecognisedLines > 0) warnings.push(`${this.unrecognisedLines} of ${nonBlank} non-blank lines were not recognised`);
    if (this.overlong > 0) warnings.push(`${this.overlong} line(s) longer than 1 MiB were cut`);
    return parsedOk(LOG_KIND, facts, [
      ...warnings,
      ...facts.notes.filter((n) => n.startsWith('timestamps have no year') || n.startsWith('timestamps are JVM uptime')),
    ]);
  }

  private facts(): LogFacts {
    const notes: string[] = [];
    const span = this.firstT !== null && this.lastT !== null ? this.lastT - this.firstT : null;
    let level = span !== null ? bucketLevelForSpan(span) : 0;
    for (const k of this.kinds.values()) level = Math.max(level, k.buckets.level);
    const bucketMs = span !== null ? BUCKET_SIZES[level]! : null;

    const events = {} as Record<LogEventKind, KindSummary>;
    for (const kind of LOG_EVENT_KINDS) {
      const k = this.kinds.get(kind)!;
      k.buckets.coarsen(level);
      events[kind] = {
        kind,
        count: k.count,
        unit: k.unit,
        firstT: k.firstT,
        lastT: k.lastT,
        firstTime: formatLogTime(k.firstT, this.basis),
        lastTime: formatLogTime(k.lastT, this.basis),
        timeline: k.count > 0 && k.firstT !== null ? k.buckets.timeline() : null,
        worst: k.unit === null ? k.first.items : k.top.items,
      };
    }

    if (this.basis === 'no-year')
      notes.push(
        'timestamps have no year (journald/syslog): times are relative, in a nominal year 2000; ordering, spans and buckets hold, calendar dates do not',
      );
    if (this.basis === 'uptime') notes.push('timestamps are JVM uptime only: times are ms since the JVM started');
    if (this.basis === 'absolute' && this.unzoned > 0)
      notes.push("timestamps carry no zone and were read as UTC: shift by the node's zone before comparing with other sources");
    if (this.otherBasisLines > 0)
      notes.push(
        `${this.otherBasisLines} line(s) carried a different kind of timestamp than the first one (${this.basis}); their events are counted but left out of timelines`,
      );
    if (this.basis === 'none' && this.headed > 0) notes.push('no line carried a usable timestamp: no timelines');

    const fc = this.familyCounts;
    const famEntries = (
      [
        ['cassandra', fc[FAMILY_CASSANDRA]!],
        ['scylla', fc[FAMILY_SCYLLA]!],
        ['gc', fc[FAMILY_GC]!],
      ] as [string, number][]
    ).sort((a, b) => b[1] - a[1]);
    const formats = Object.fromEntries(FORMATS.map((f, i) => [f, this.formatCounts[i]!])) as Record<LineFormat, number>;
    const lc = this.levelCounts;
    const levels = { error: lc[LEVEL_ERROR]!, warn: lc[LEVEL_WARN]!, info: lc[LEVEL_INFO]!, debug: lc[LEVEL_DEBUG]!, trace: lc[LEVEL_TRACE]! };
    const top = famEntries[0]!;
    const second = famEntries[1]!;
    let kind: LogFacts['source']['kind'] = 'unknown';
    let product: LogFacts['source']['product'] = 'unknown';
    if (top[1] > 0) {
      if (top[0] === 'cassandra') {
        kind = levels.debug + levels.trace > 0 ? 'cassandra.debug' : 'cassandra.system';
        product = this.dseHints > 0 || this.startup.facts.dseVersion !== null ? 'dse' : 'cassandra';
      } else if (top[0] === 'scylla') {
        kind = formats.journald > 0 ? 'scylla.journal' : 'scylla.log';
        product = 'scylla';
      } else {
        kind = 'gc.log';
        product = 'jvm';
      }
    }
    const mixed = second[1] > 0.1 * this.headed;
    if (mixed)
      notes.push(
        `mixed input: ${famEntries
          .filter(([, n]) => n > 0)
          .map(([f, n]) => `${n} ${f} lines`)
          .join(', ')}`,
      );

    const gcBy = [...this.gcBy.entries()]
      .map(([collector, c]) => ({ collector, from: c.from, count: c.count, totalMs: round3(c.total), maxMs: round3(c.max), p99Ms: round3(c.q.quantile(0.99)) }))
      .sort((a, b) => b.totalMs - a.totalMs);
    const gcCount = this.gcAll.count;
    const sp = this.sp;

    const pools: ThreadPoolStats[] = [...this.pools.entries()]
      .map(([pool, p]) => ({
        pool,
        snapshots: p.snapshots,
        snapshotsWithPending: p.withPending,
        maxActive: p.maxActive,
        maxPending: p.maxPending,
        maxBlocked: p.maxBlocked,
        maxAllTimeBlocked: p.maxAllTimeBlocked,
        maxDelayed: p.maxDelayed,
        lastPending: p.lastPending,
        lastCompleted: p.lastCompleted,
        maxPendingT: p.maxPendingT,
      }))
      .sort((a, b) => (b.maxPending ?? -1) - (a.maxPending ?? -1) || (b.maxBlocked ?? -1) - (a.maxBlocked ?? -1) || byCodeUnits(a.pool, b.pool));

    const droppedBy = [...this.droppedBy.entries()]
      .map(([type, d]) => ({
        type,
        lines: d.lines,
        internal: d.internal,
        crossNode: d.cross,
        maxPerLine: d.maxLine,
        maxMeanInternalLatencyMs: d.latInt,
        maxMeanCrossNodeLatencyMs: d.latCross,
      }))
      .sort((a, b) => b.internal + b.crossNode - (a.internal + a.crossNode));

    const stallShards = [...this.stallShards.entries()]
      .map(([shard, s]) => ({ shard, count: s.count, totalMs: s.total, maxMs: s.max }))
      .sort((a, b) => a.shard - b.shard);

    if (this.pools.has(OTHER) || this.tombTables.has(OTHER) || this.largeTables.has(OTHER) || this.gcBy.has(OTHER))
      notes.push(`some breakdowns hit their size cap; the rest is summed under "${OTHER}"`);

    const byCount = <K>(m: Map<K, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
    if (this.duplicates > 0) notes.push(`${this.duplicates} event line(s) repeated an earlier line exactly (debug.log repeats system.log): counted once`);
    if (this.seenLines.full) notes.push('more than a million distinct event lines: repeats past that point were not looked for');
    const unclosed = this.gcOpenLost + (this.gcOpen ? 1 : 0);
    if (unclosed > 0) notes.push(`${unclosed} gc.log pause record(s) never got their times line: not counted`);
    const slowQueries = this.slow.result();

    return {
      source: { kind, product, gcLogFormat: formats.gcUnified > 0 ? 'unified' : formats.gcJdk8 > 0 ? 'jdk8' : null, formats, mixed },
      time: {
        basis: this.basis,
        zone: this.basis !== 'absolute' ? 'n/a' : this.unzoned > 0 ? 'unspecified' : 'offset',
        firstT: this.firstT,
        lastT: this.lastT,
        spanMs: span,
        firstTime: formatLogTime(this.firstT, this.basis),
        lastTime: formatLogTime(this.lastT, this.basis),
        bucketMs,
      },
      lines: {
        total: this.total,
        bytes: this.bytes,
        blank: this.blank,
        headed: this.headed,
        continuation: this.continuation,
        bare: this.bare,
        unrecognised: this.unrecognisedLines,
        overlong: this.overlong,
        duplicates: this.duplicates,
      },
      startup: { ...this.startup.facts },
      levels,
      events,
      gc: {
        pauses: gcCount,
        totalPauseMs: round3(this.gcTotal),
        maxPauseMs: gcCount ? round3(this.gcAll.max) : 0,
        meanPauseMs: gcCount ? round3(this.gcTotal / gcCount) : 0,
        p50PauseMs: round3(this.gcAll.quantile(0.5)),
        p99PauseMs: round3(this.gcAll.quantile(0.99)),
        byCollector: gcBy,
        concurrentCycles: [...this.gcConcurrent.entries()].map(([collector, c]) => ({ collector, count: c.count, totalMs: c.total, maxMs: c.max })),
        gcLogCollector: this.gcLogCollector,
        poolAfterBytes: [...this.poolAfter.entries()].map(([pool, p]) => ({ pool, min: p.min, max: p.max, samples: p.samples })),
      },
      safepoint: {
        count: sp.count,
        totalStoppedMs: round3(sp.stopped),
        totalTtspMs: round3(sp.ttsp),
        totalOperationMs: round3(Math.max(0, sp.stopped - sp.ttsp)),
        maxStoppedMs: round3(sp.maxStopped),
        maxTtspMs: round3(sp.maxTtsp),
        p99StoppedMs: round3(this.spStopped.quantile(0.99)),
        p99TtspMs: round3(this.spTtsp.quantile(0.99)),
        ttspShare: sp.stopped > 0 ? round3(sp.ttsp / sp.stopped) : 0,
        ttspDominated: { count: sp.domCount, totalStoppedMs: round3(sp.domStopped), maxStoppedMs: round3(sp.domMax) },
        byOperation: [...this.spOps.entries()]
          .map(([operation, o]) => ({ operation, count: o.count, totalMs: round3(o.total), maxMs: round3(o.max) }))
          .sort((a, b) => b.totalMs - a.totalMs),
        worstTtsp: this.spWorstTtsp.items,
        ...spStartupPart(this.spStartup.result()),
      },
      dropped: {
        total: droppedBy.reduce((a, d) => a + d.internal + d.crossNode, 0),
        internal: droppedBy.reduce((a, d) => a + d.internal, 0),
        crossNode: droppedBy.reduce((a, d) => a + d.crossNode, 0),
        byType: droppedBy,
        byTable: byCount(this.droppedTables).map(([table, messages]) => ({ table, messages })),
      },
      threadPools: {
        snapshots: this.snapshots,
        pools,
        memtables: [...this.memtables.entries()]
          .map(([table, m]) => ({ table, snapshots: m.snapshots, maxOps: m.maxOps, maxDataBytes: m.maxData }))
          .sort((a, b) => b.maxOps - a.maxOps || b.maxDataBytes - a.maxDataBytes || byCodeUnits(a.table, b.table))
          .slice(0, MEMTABLES_KEPT),
      },
      tombstones: {
        warnings: this.kinds.get('tombstoneWarn')!.count,
        aborts: this.kinds.get('tombstoneAbort')!.count,
        byTable: [...this.tombTables.entries()]
          .map(([table, x]) => ({ table, warnings: x.warnings, aborts: x.aborts, maxTombstones: x.max, maxLiveRows: x.maxLive, totalTombstones: x.total }))
          .sort((a, b) => b.maxTombstones - a.maxTombstones),
      },
      largeData: {
        partitions: this.kinds.get('largePartition')!.count,
        rowsOrCells: this.kinds.get('largeRowCell')!.count,
        byTable: [...this.largeTables.values()].map((l) => ({ ...l })).sort((a, b) => b.maxBytes - a.maxBytes),
      },
      reactorStalls: {
        count: this.stallAll.count,
        totalMs: this.stallTotal,
        maxMs: this.stallAll.count ? this.stallAll.max : 0,
        p99Ms: this.stallAll.quantile(0.99),
        byShard: stallShards,
      },
      bufferPool: {
        count: this.kinds.get('bufferPoolFull')!.count,
        byPool: [...this.bufferPools.entries()].map(([pool, b]) => ({ pool, limitBytes: b.limit, count: b.count })),
      },
      localPauses: {
        count: this.localPause.count,
        totalMs: round3(this.localPause.total),
        maxMs: round3(this.localPause.max),
        startupSetAside: this.localPause.startupSetAside,
        startupMaxMs: round3(this.localPause.startupMaxMs),
        gossipOffSetAside: this.localPause.gossipOffSetAside,
        gossipOffMaxMs: round3(this.localPause.gossipOffMaxMs),
      },
      oom: { count: this.kinds.get('oom')!.count, byKind: byCount(this.oomKinds).map(([k, count]) => ({ kind: k, count })) },
      diskFull: { count: this.kinds.get('diskFull')!.count, byKind: byCount(this.diskFullKinds).map(([kind, count]) => ({ kind, count })) },
      commitlogFailures: { count: this.kinds.get('commitlogFailure')!.count, policies: [...this.commitPolicies] },
      hints: {
        failures: this.kinds.get('hintFailure')!.count,
        partial: this.hintPartial,
        byEndpoint: byCount(this.hintEndpoints).map(([endpoint, count]) => ({ endpoint, count })),
      },
      repair: { failures: this.kinds.get('repairFailure')!.count, distinctSessions: this.repairSessions.size, terminated: this.repairTerminated },
      commitlogSync: {
        warnings: this.commitlog.warnings,
        laggingSyncs: this.commitlog.lagging,
        maxAverageSyncMs: this.commitlog.maxAvg,
        maxExceededByMs: this.commitlog.maxExceeded,
      },
      configErrors: {
        count: this.kinds.get('configError')!.count,
        byType: byCount(this.configErrorTypes).map(([type, count]) => ({ type: type as ConfigErrorType, count })),
        settings: [...this.configSettings],
      },
      startupFailures: { count: this.kinds.get('startupFailure')!.count, exceptions: [...this.startupExceptions], scylla: this.scyllaStartupFatal },
      largeBatches: {
        count: this.kinds.get('largeBatch')!.count,
        rejected: this.batchRejected,
        byTables: [...this.batchTables.entries()]
          .map(([tables, b]) => ({ tables, ...b }))
          .sort((a, b) => b.rejected - a.rejected || (b.maxBytes ?? 0) - (a.maxBytes ?? 0)),
      },
      scyllaTimeouts: {
        count: this.kinds.get('scyllaTimeout')!.count,
        byType: byCount(this.timeoutTypes).map(([type, count]) => ({ type, count })),
        byTable: byCount(this.timeoutTables).map(([table, count]) => ({ table, count })),
      },
      notes,
      ...(slowQueries ? { slowQueries } : {}),
    };
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Present only when some stops fell in a start-up window, so facts read without one are unchanged. */
function spStartupPart(r: ReturnType<StartupWindows['result']>): { startup?: NonNullable<ReturnType<StartupWindows['result']>> } {
  return r ? { startup: r } : {};
}
