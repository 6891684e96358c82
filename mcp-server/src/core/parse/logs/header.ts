/**
 * Line prefixes (timestamp, level, thread/shard/decorators) read with character checks, no regex: this runs on
 * every line of files that can be 100 MB. The formats:
 *
 * - Cassandra/DSE logback (conf/logback.xml, "%-5level [%thread] %date{ISO8601} %F:%L - %msg%n"):
 *   `INFO  [main] 2024-05-01 10:00:00,123 StorageService.java:123 - msg` (DSE puts two spaces before the file)
 * - Cassandra console/old pattern: `WARN  22:20:27 msg` (time of day only: no timestamp kept); 0.6-1.2 log4j
 *   (" %5p [%t] %d{ISO8601} %F (line %L) %m"): ` INFO [main] 2013-01-07 10:00:00,123 StorageService.java (line 427) msg`
 *   and the console's ` INFO 23:35:22,740 msg` (the level padded to five characters, so INFO/WARN start with a space)
 * - a paste that lost the opening bracket of a "[LEVEL]" prefix: `ERROR] [thread] date File.java:N - msg`
 * - a Scylla line without its timestamp and level: `[shard 17] compaction_manager - compaction failed: …`
 * - ScyllaDB's own format (seastar logger): `WARN  2022-09-22 17:33:11,075 [shard 1] large_data - msg`,
 *   newer `[shard 1:stmt]` with a scheduling group
 * - journald/syslog short format: `May 01 10:00:00 host scylla[123]: [shard 3] seastar - msg` (no year), with
 *   `short-precise` fractions and `short-iso` (`2024-05-01T10:00:00+0000 host prog[pid]: msg`)
 * - JDK 9+ unified GC logging (`-Xlog:gc…:decorators`): `[2024-05-01T10:00:00.123+0000][0.565s][pid][tid][info] msg`,
 *   any subset of time/uptime(millis)/level/tags decorators, in brackets
 * - JDK 8 GC logging (-XX:+PrintGCDateStamps / -XX:+PrintGCTimeStamps):
 *   `2018-07-27T04:52:27.413+0000: 187831.482: msg` or `187831.482: msg`
 * - any of the above behind an ISO timestamp (kubectl logs --timestamps) or a grep file prefix (`system.log:INFO  …`)
 */
import type { LineFormat, TimeBasis } from './types.js';

export const LEVEL_NONE = 0;
export const LEVEL_TRACE = 1;
export const LEVEL_DEBUG = 2;
export const LEVEL_INFO = 3;
export const LEVEL_WARN = 4;
export const LEVEL_ERROR = 5;

/** Mutable, reused for every line to avoid allocation. */
export interface LineHeader {
  format: LineFormat | null;
  /** NaN when the line has no usable timestamp. */
  t: number;
  basis: TimeBasis;
  hasZone: boolean;
  level: number;
  msgStart: number;
  /**
   * Where an unread logback date starts ("2024-05-01 10:00:00,123"), -1 when none. Cassandra lines keep their
   * date unread until something needs the time (an event, the first and last line): see resolveDate.
   */
  dateAt: number;
  /** Cassandra source file and line ("GCInspector.java:313") as [fileStart, fileEnd); -1 when absent. */
  fileStart: number;
  fileEnd: number;
  /** journald host / program, '' when absent. */
  node: string;
  program: string;
  /** Scylla shard, -1 when absent. */
  shard: number;
  /** grep -H style file prefix, '' when absent. */
  grepSource: string;
}

export function newHeader(): LineHeader {
  return {
    format: null,
    t: NaN,
    basis: 'none',
    hasZone: false,
    level: 0,
    msgStart: 0,
    dateAt: -1,
    fileStart: -1,
    fileEnd: -1,
    node: '',
    program: '',
    shard: -1,
    grepSource: '',
  };
}

/** State that spans lines: journald has no year, so month wrap-arounds advance a nominal year. */
export interface HeaderState {
  nominalYear: number;
  lastMonth: number;
  /**
   * "YYYY-MM-DD HH:MM:SS" of the last absolute timestamp and its epoch ms (zone not applied): consecutive lines
   * mostly share the second, and nearly always the minute, so the digits are read once.
   */
  secondPrefix: string;
  secondMs: number;
  minutePrefix: string;
  minuteMs: number;
}

export function newHeaderState(): HeaderState {
  return { nominalYear: 2000, lastMonth: -1, secondPrefix: '', secondMs: 0, minutePrefix: '', minuteMs: 0 };
}

const isDigit = (c: number) => c >= 48 && c <= 57;
/** A character of a program name in a journal line: a letter, a digit, '_', '-' or '.'. */
const isNameChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95 || c === 45 || c === 46;
const dig = (s: string, i: number) => s.charCodeAt(i) - 48;
const two = (s: string, i: number) => dig(s, i) * 10 + dig(s, i + 1);

function allDigits(s: string, i: number, n: number): boolean {
  for (let k = i; k < i + n; k++) if (!isDigit(s.charCodeAt(k))) return false;
  return true;
}

function skipSpaces(s: string, i: number): number {
  while (i < s.length && s.charCodeAt(i) === 32) i++;
  return i;
}

/** Reads "INFO", "WARN", "WARNING", "ERROR", "DEBUG", "TRACE", "FATAL" at i: level * 16 + length, or 0. */
function readLevel(s: string, i: number): number {
  switch (s.charCodeAt(i)) {
    case 73: // I
      return s.startsWith('INFO', i) ? LEVEL_INFO * 16 + 4 : 0;
    case 87: // W
      if (!s.startsWith('WARN', i)) return 0;
      return s.startsWith('ING', i + 4) ? LEVEL_WARN * 16 + 7 : LEVEL_WARN * 16 + 4;
    case 69: // E
      return s.startsWith('ERROR', i) ? LEVEL_ERROR * 16 + 5 : 0;
    case 68: // D
      return s.startsWith('DEBUG', i) ? LEVEL_DEBUG * 16 + 5 : 0;
    case 84: // T
      return s.startsWith('TRACE', i) ? LEVEL_TRACE * 16 + 5 : 0;
    case 70: // F
      return s.startsWith('FATAL', i) ? LEVEL_ERROR * 16 + 5 : 0;
    default:
      return 0;
  }
}

function unifiedLevel(s: string, i: number, end: number): number {
  const n = end - i;
  if (n === 4 && s.startsWith('info', i)) return LEVEL_INFO;
  if (n === 7 && s.startsWith('warning', i)) return LEVEL_WARN;
  if (n === 5 && s.startsWith('error', i)) return LEVEL_ERROR;
  if (n === 5 && s.startsWith('debug', i)) return LEVEL_DEBUG;
  if (n === 5 && s.startsWith('trace', i)) return LEVEL_TRACE;
  return LEVEL_NONE;
}

/**
 * "YYYY-MM-DD[ T]HH:MM:SS[.,fraction][Z|±HH[:]MM]" at i. Sets h.t (epoch ms) and h.hasZone; returns the index
 * after it, or -1. A time without a zone is read as UTC (the caller notes it).
 */
export function readDateTime(s: string, i: number, h: LineHeader, cache?: HeaderState): number {
  if (i + 19 > s.length) return -1;
  let secondMs: number;
  if (cache !== undefined && cache.secondPrefix !== '' && s.startsWith(cache.secondPrefix, i)) {
    secondMs = cache.secondMs;
  } else {
    let minuteMs: number;
    if (cache !== undefined && cache.minutePrefix !== '' && s.startsWith(cache.minutePrefix, i)) {
      minuteMs = cache.minuteMs;
    } else {
      if (!allDigits(s, i, 4) || s.charCodeAt(i + 4) !== 45 || !allDigits(s, i + 5, 2) || s.charCodeAt(i + 7) !== 45 || !allDigits(s, i + 8, 2)) return -1;
      const sep = s.charCodeAt(i + 10);
      if (sep !== 32 && sep !== 84) return -1;
      if (!allDigits(s, i + 11, 2) || s.charCodeAt(i + 13) !== 58 || !allDigits(s, i + 14, 2)) return -1;
      const year = dig(s, i) * 1000 + dig(s, i + 1) * 100 + two(s, i + 2);
      const month = two(s, i + 5);
      const day = two(s, i + 8);
      const hh = two(s, i + 11);
      const mm = two(s, i + 14);
      if (month < 1 || month > 12 || day < 1 || day > 31 || hh > 23 || mm > 59) return -1;
      minuteMs = Date.UTC(year, month - 1, day, hh, mm);
      if (cache !== undefined) {
        cache.minutePrefix = s.slice(i, i + 16);
        cache.minuteMs = minuteMs;
      }
    }
    if (s.charCodeAt(i + 16) !== 58 || !allDigits(s, i + 17, 2)) return -1;
    const ss = two(s, i + 17);
    if (ss > 60) return -1;
    secondMs = minuteMs + ss * 1000;
    if (cache !== undefined) {
      cache.secondPrefix = s.slice(i, i + 19);
      cache.secondMs = secondMs;
    }
  }
  let j = i + 19;
  let ms = 0;
  let z = s.charCodeAt(j);
  if (z === 44 || z === 46) {
    // ",123" (logback) / ".123" (ISO, JDK); microseconds and nanoseconds are dropped
    const a = s.charCodeAt(j + 1) - 48;
    const b = s.charCodeAt(j + 2) - 48;
    const c = s.charCodeAt(j + 3) - 48;
    if (a >= 0 && a <= 9 && b >= 0 && b <= 9 && c >= 0 && c <= 9) {
      ms = a * 100 + b * 10 + c;
      j += 4;
      z = s.charCodeAt(j);
      while (z >= 48 && z <= 57) z = s.charCodeAt(++j);
    } else if (a >= 0 && a <= 9) {
      let scale = 100;
      j++;
      while (((z = s.charCodeAt(j)), z >= 48 && z <= 57)) {
        ms += (z - 48) * scale;
        scale /= 10;
        j++;
      }
      ms = Math.floor(ms);
    }
  }
  let offsetMin = 0;
  h.hasZone = false;
  if (z === 90) {
    h.hasZone = true;
    j++;
  } else if ((z === 43 || z === 45) && allDigits(s, j + 1, 2)) {
    let k = j + 3;
    if (s.charCodeAt(k) === 58) k++;
    if (allDigits(s, k, 2)) {
      offsetMin = (two(s, j + 1) * 60 + two(s, k)) * (z === 45 ? -1 : 1);
      h.hasZone = true;
      j = k + 2;
    }
  }
  h.t = secondMs + ms - offsetMin * 60_000;
  h.basis = 'absolute';
  return j;
}

/**
 * The end of a "YYYY-MM-DD[ T]HH:MM:SS…" token at i, checked by its separators only (the digits are read later,
 * by resolveDate, if the time is needed); -1 when the shape does not match.
 */
function dateShapeEnd(s: string, i: number): number {
  if (s.charCodeAt(i + 4) !== 45 || s.charCodeAt(i + 7) !== 45 || s.charCodeAt(i + 13) !== 58 || s.charCodeAt(i + 16) !== 58 || !isDigit(s.charCodeAt(i)))
    return -1;
  const e = s.indexOf(' ', i + 19);
  return e < 0 ? s.length : e;
}

/** Reads the date left unread at h.dateAt into h.t / h.basis / h.hasZone; false when it is not a valid date. */
export function resolveDate(s: string, h: LineHeader, st: HeaderState): boolean {
  if (h.dateAt < 0) return h.basis !== 'none';
  const at = h.dateAt;
  h.dateAt = -1;
  if (readDateTime(s, at, h, st) < 0) {
    h.t = NaN;
    h.basis = 'none';
    return false;
  }
  return true;
}

/** "HH:MM:SS[,mmm]" at i (time of day only): returns the index after it or -1. */
function skipTimeOfDay(s: string, i: number): number {
  if (!allDigits(s, i, 2) || s.charCodeAt(i + 2) !== 58 || !allDigits(s, i + 3, 2) || s.charCodeAt(i + 5) !== 58 || !allDigits(s, i + 6, 2)) return -1;
  let j = i + 8;
  const c = s.charCodeAt(j);
  if ((c === 44 || c === 46) && isDigit(s.charCodeAt(j + 1))) {
    j++;
    while (isDigit(s.charCodeAt(j))) j++;
  }
  return j;
}

/** After a level word: Cassandra "[thread] date File.java:N - msg" or Scylla "date [shard N] logger - msg". */
function readAfterLevel(s: string, i: number, level: number, h: LineHeader, st?: HeaderState): boolean {
  // "ERROR] [thread] date …": a paste that lost the bracket before the level keeps the one after it
  if (s.charCodeAt(i) === 93) i++;
  let j = skipSpaces(s, i);
  if (j === i) return false;
  const c = s.charCodeAt(j);
  if (c === 91 && s.startsWith('[shard ', j)) {
    // Scylla without its date ("WARN  [shard 3] compaction - msg", a paste that cut it): level, shard, no time
    readShardPrefix(s, j, h);
    if (h.shard < 0) return false;
    h.t = NaN;
    h.basis = 'none';
    h.format = 'scylla';
    h.level = level;
    return true;
  }
  if (c === 91) {
    // Cassandra: [thread]
    const close = s.indexOf('] ', j + 1);
    if (close < 0) return false;
    j = skipSpaces(s, close + 2);
    const afterDate = dateShapeEnd(s, j);
    if (afterDate < 0) {
      // "[thread] HH:MM:SS,mmm msg" or a non-standard layout: keep the level, no time
      const tod = skipTimeOfDay(s, j);
      h.t = NaN;
      h.basis = 'none';
      h.msgStart = tod >= 0 ? skipSpaces(s, tod) : j;
    } else {
      h.dateAt = j;
      const f = skipSpaces(s, afterDate);
      // the source file token has no spaces and is short ("ColumnFamilyStore.java:1055"), then " - "
      // ("File.java:173 -" at the end of the line has lost its trailing space to an editor or a trim)
      const e = s.indexOf(' ', f);
      if (e > f && e - f < 80 && s.charCodeAt(e + 1) === 45 && (e + 2 === s.length || s.charCodeAt(e + 2) === 32)) {
        h.fileStart = f;
        h.fileEnd = e; // "File.java:123"
        h.msgStart = Math.min(e + 3, s.length);
      } else if (e > f && e - f < 80 && s.startsWith('(line ', e + 1)) {
        // 1.0-1.2 log4j pattern "%F (line %L) %m": "StatusLogger.java (line 53) Pool Name …"
        const close = s.indexOf(')', e + 7);
        h.fileStart = f;
        h.fileEnd = e;
        h.msgStart = close > 0 && close - e < 16 ? skipSpaces(s, close + 1) : f;
      } else h.msgStart = f;
    }
    h.format = 'cassandra';
    h.level = level;
    return true;
  }
  if (isDigit(c)) {
    const afterDate = readDateTime(s, j, h, st);
    if (afterDate >= 0) {
      // Scylla: date [shard N(:group)] logger - msg
      let k = skipSpaces(s, afterDate);
      if (s.startsWith('[shard ', k)) {
        const p = readShardNumber(s, k + 7, h);
        const close = s.indexOf(']', p);
        if (close > 0) k = skipSpaces(s, close + 1);
        const dash = s.indexOf(' - ', k);
        h.msgStart = dash > 0 && dash - k < 64 ? dash + 3 : k;
        h.format = 'scylla';
      } else {
        // "LEVEL date msg": a Cassandra-like layout without a thread
        const dash = s.indexOf(' - ', k);
        h.msgStart = dash > 0 && dash - k < 80 && s.lastIndexOf(' ', dash - 1) < k ? dash + 3 : k;
        h.format = 'cassandra';
      }
      h.level = level;
      return true;
    }
    const tod = skipTimeOfDay(s, j);
    if (tod >= 0) {
      h.t = NaN;
      h.basis = 'none';
      h.msgStart = skipSpaces(s, tod);
      // DSE 5.0 "INFO 11:15:02,584 DatabaseDescriptor.java:320 - msg": the source file between the time and the message
      const e = s.indexOf(' ', h.msgStart);
      if (e > h.msgStart && e - h.msgStart < 80 && s.startsWith(' - ', e) && SOURCE_FILE.test(s.slice(h.msgStart, e))) {
        h.fileStart = h.msgStart;
        h.fileEnd = e;
        h.msgStart = e + 3;
      }
      h.level = level;
      h.format = 'cassandra';
      return true;
    }
  }
  return false;
}

/** "DatabaseDescriptor.java:320": a source file and line, as log4j/logback print %F:%L. */
const SOURCE_FILE = /^[A-Za-z_$][\w$]{0,78}\.(?:java|scala|kt):\d{1,6}$/;

/**
 * The shard number at i (after "[shard "), into h.shard; returns the index after it. Scylla pads it to the width of
 * the largest shard ("[shard  7:comp]" next to "[shard 22:comp]"), so spaces before the digits are skipped.
 */
function readShardNumber(s: string, i: number, h: LineHeader): number {
  let p = i;
  while (s.charCodeAt(p) === 32 && p - i < 4) p++;
  const d0 = p;
  let n = 0;
  while (isDigit(s.charCodeAt(p)) && p - d0 < 6) n = n * 10 + dig(s, p++);
  if (p > d0) h.shard = n;
  return p;
}

/** "[shard N] logger - msg" / "[shard N:grp] logger - msg" inside a journald line. */
function readShardPrefix(s: string, i: number, h: LineHeader): void {
  if (!s.startsWith('[shard ', i)) return;
  const p = readShardNumber(s, i + 7, h);
  const close = s.indexOf(']', p);
  if (close < 0) return;
  const k = skipSpaces(s, close + 1);
  const dash = s.indexOf(' - ', k);
  h.msgStart = dash > 0 && dash - k < 64 ? dash + 3 : k;
}

function monthAt(s: string, i: number): number {
  switch (s.charCodeAt(i)) {
    case 74: // J
      return s.startsWith('Jan', i) ? 0 : s.startsWith('Jun', i) ? 5 : s.startsWith('Jul', i) ? 6 : -1;
    case 70: // F
      return s.startsWith('Feb', i) ? 1 : -1;
    case 77: // M
      return s.startsWith('Mar', i) ? 2 : s.startsWith('May', i) ? 4 : -1;
    case 65: // A
      return s.startsWith('Apr', i) ? 3 : s.startsWith('Aug', i) ? 7 : -1;
    case 83: // S
      return s.startsWith('Sep', i) ? 8 : -1;
    case 79: // O
      return s.startsWith('Oct', i) ? 9 : -1;
    case 78: // N
      return s.startsWith('Nov', i) ? 10 : -1;
    case 68: // D
      return s.startsWith('Dec', i) ? 11 : -1;
    default:
      return -1;
  }
}

/** After a syslog timestamp: "host prog[pid]: msg" (pid optional). Returns false when it is not that shape. */
function readSyslogTail(s: string, i: number, h: LineHeader, st: HeaderState): boolean {
  const hostEnd = s.indexOf(' ', i);
  if (hostEnd <= i || hostEnd - i > 255) return false;
  const mark = skipSpaces(s, hostEnd);
  if (s.charCodeAt(mark) === 33) return readSeverityMarked(s, i, hostEnd, mark, h, st);
  const colon = s.indexOf(': ', hostEnd + 1);
  if (colon < 0 || colon - hostEnd > 128) return false;
  const progEnd = s.charCodeAt(colon - 1) === 93 ? s.lastIndexOf('[', colon) : colon;
  if (progEnd <= hostEnd + 1) return false;
  if (s.lastIndexOf(' ', colon - 1) > hostEnd) return false; // a space inside "prog[pid]" means it is not syslog
  h.node = s.slice(i, hostEnd);
  h.program = s.slice(hostEnd + 1, progEnd);
  h.format = 'journald';
  const m = skipSpaces(s, colon + 2);
  h.msgStart = m;
  readNested(s, m, h, st);
  return true;
}

/**
 * SCT's syslog layout puts the severity between host and program, padded: `host !WARNING | scylla:  [shard 0] …`,
 * `host     !INFO | prog[123]: msg`, and a kernel line has no program at all (`host !  NOTICE | Linux version …`).
 * The marker's severity is the line's level unless the line under it names its own.
 */
function readSeverityMarked(s: string, i: number, hostEnd: number, mark: number, h: LineHeader, st: HeaderState): boolean {
  const w = skipSpaces(s, mark + 1);
  let e = w;
  while (e - w < 8 && s.charCodeAt(e) >= 65 && s.charCodeAt(e) <= 90) e++;
  const level = severityLevel(s.slice(w, e));
  const bar = skipSpaces(s, e);
  if (level === LEVEL_NONE || s.charCodeAt(bar) !== 124) return false;
  const r = skipSpaces(s, bar + 1);
  h.node = s.slice(i, hostEnd);
  h.level = level;
  h.format = 'journald';
  h.msgStart = r;
  const colon = s.indexOf(': ', r);
  if (colon > r && colon - r <= 128) {
    const progEnd = s.charCodeAt(colon - 1) === 93 ? s.lastIndexOf('[', colon) : colon;
    if (progEnd > r && s.lastIndexOf(' ', colon - 1) < r) {
      h.program = s.slice(r, progEnd);
      h.msgStart = skipSpaces(s, colon + 2);
    }
  }
  readNested(s, h.msgStart, h, st);
  return true;
}

/** syslog severity names (as SCT prints them) to levels; NOTICE is informational, CRIT and worse are errors. */
function severityLevel(word: string): number {
  switch (word) {
    case 'DEBUG':
      return LEVEL_DEBUG;
    case 'INFO':
    case 'NOTICE':
      return LEVEL_INFO;
    case 'WARN':
    case 'WARNING':
      return LEVEL_WARN;
    case 'ERR':
    case 'ERROR':
    case 'CRIT':
    case 'ALERT':
    case 'EMERG':
      return LEVEL_ERROR;
    default:
      return LEVEL_NONE;
  }
}

/**
 * A Cassandra or Scylla line carried inside another prefix (journald, kubectl timestamps): adopts its level,
 * shard and message start, and its timestamp when that one has a year.
 */
function readNested(s: string, i: number, h: LineHeader, st: HeaderState): void {
  if (s.charCodeAt(i) === 91) {
    readShardPrefix(s, i, h);
    return;
  }
  const lv = readLevel(s, i);
  if (lv === 0) return;
  const outer = { t: h.t, basis: h.basis, hasZone: h.hasZone, format: h.format };
  const inner: LineHeader = { ...h, t: NaN, basis: 'none', dateAt: -1, fileStart: -1, fileEnd: -1 };
  if (!readAfterLevel(s, i + (lv & 15), lv >> 4, inner, st)) return;
  resolveDate(s, inner, st);
  h.level = inner.level;
  h.msgStart = inner.msgStart;
  h.fileStart = inner.fileStart;
  h.fileEnd = inner.fileEnd;
  h.shard = inner.shard;
  if (inner.basis === 'absolute' && outer.basis !== 'absolute') {
    h.t = inner.t;
    h.basis = inner.basis;
    h.hasZone = inner.hasZone;
  }
  // the outer format names the transport; Scylla/Cassandra lines inside journald stay 'journald'
  if (outer.format === 'isoPrefix') h.format = inner.format;
}

function readJournald(s: string, h: LineHeader, st: HeaderState, month: number): boolean {
  // "May 01 10:00:00" or "May  1 10:00:00", optional ".123456"
  let i = 3;
  if (s.charCodeAt(i) !== 32) return false;
  i = skipSpaces(s, i);
  let day = 0;
  const d0 = i;
  while (isDigit(s.charCodeAt(i)) && i - d0 < 2) day = day * 10 + dig(s, i++);
  if (i === d0 || s.charCodeAt(i) !== 32 || day < 1 || day > 31) return false;
  i++;
  const tod = skipTimeOfDay(s, i);
  if (tod < 0 || s.charCodeAt(tod) !== 32) return false;
  const hh = two(s, i);
  const mm = two(s, i + 3);
  const ss = two(s, i + 6);
  let ms = 0;
  if (tod > i + 9) {
    let scale = 100;
    for (let k = i + 9; k < tod && scale >= 1; k++, scale /= 10) ms += dig(s, k) * scale;
  }
  if (st.lastMonth >= 0 && month < st.lastMonth - 6) st.nominalYear++;
  st.lastMonth = month;
  h.t = Date.UTC(st.nominalYear, month, day, hh, mm, ss, Math.floor(ms));
  h.basis = 'no-year';
  h.hasZone = false;
  return readSyslogTail(s, tod + 1, h, st);
}

/** JDK 9+ "[decorator][decorator]… msg". */
function readUnified(s: string, h: LineHeader, st: HeaderState): boolean {
  let j = 0;
  let recognised = false;
  let uptime = NaN;
  let absolute = false;
  while (j < s.length && s.charCodeAt(j) === 91) {
    const close = s.indexOf(']', j + 1);
    if (close < 0 || close - j > 64) break;
    const a = j + 1;
    const c = s.charCodeAt(a);
    if (isDigit(c)) {
      if (close - a >= 19 && s.charCodeAt(a + 4) === 45) {
        if (readDateTime(s, a, h, st) > 0) {
          absolute = true;
          recognised = true;
        }
      } else {
        // uptime "0.565s" / uptimemillis "565ms" / pid / tid
        const last = s.charCodeAt(close - 1);
        if (last === 115) {
          const msUnit = s.charCodeAt(close - 2) === 109;
          const num = Number(s.slice(a, msUnit ? close - 2 : close - 1));
          if (Number.isFinite(num)) {
            uptime = msUnit ? num : num * 1000;
            recognised = true;
          }
        }
      }
    } else {
      const lv = unifiedLevel(s, a, close);
      if (lv) {
        h.level = lv;
        recognised = true;
      }
    }
    j = close + 1;
  }
  if (!recognised) return false;
  if (!absolute) {
    if (Number.isFinite(uptime)) {
      h.t = uptime;
      h.basis = 'uptime';
    } else {
      h.t = NaN;
      h.basis = 'none';
    }
  }
  h.msgStart = skipSpaces(s, j);
  h.format = 'gcUnified';
  return true;
}

/** Reads "123.456: " (JDK 8 uptime seconds) at i; returns the index after it or -1. Sets uptime into out[0]. */
function readJdk8Uptime(s: string, i: number, out: number[]): number {
  let j = i;
  while (isDigit(s.charCodeAt(j))) j++;
  if (j === i || s.charCodeAt(j) !== 46) return -1;
  const frac = ++j;
  while (isDigit(s.charCodeAt(j))) j++;
  if (j === frac || s.charCodeAt(j) !== 58) return -1;
  out[0] = Number(s.slice(i, j)) * 1000;
  return skipSpaces(s, j + 1);
}

const uptimeOut = [0];

/**
 * Reads the prefix of one line (no trailing newline) into h. Returns false when no known prefix is found,
 * in which case h.msgStart is 0.
 */
export function readHeader(s: string, h: LineHeader, st: HeaderState): boolean {
  h.format = null;
  h.t = NaN;
  h.basis = 'none';
  h.hasZone = false;
  h.level = LEVEL_NONE;
  h.msgStart = 0;
  h.dateAt = -1;
  h.fileStart = -1;
  h.fileEnd = -1;
  h.node = '';
  h.program = '';
  h.shard = -1;
  h.grepSource = '';
  const c = s.charCodeAt(0);
  if (c === 91) {
    // "[shard 17] sstable - msg": a Scylla line pasted without its timestamp and level
    if (s.startsWith('[shard ', 0)) {
      readShardPrefix(s, 0, h);
      if (h.shard >= 0) {
        h.format = 'scylla';
        return true;
      }
    }
    return readUnified(s, h, st);
  }
  if (isDigit(c)) {
    const afterDate = readDateTime(s, 0, h, st);
    if (afterDate > 0) {
      if (s.charCodeAt(afterDate) === 58 && s.charCodeAt(afterDate + 1) === 32) {
        // JDK 8: "date: uptime: msg" or "date: msg"
        const abs = h.t;
        const j = readJdk8Uptime(s, afterDate + 2, uptimeOut);
        h.t = abs;
        h.msgStart = j > 0 ? j : afterDate + 2;
        h.format = 'gcJdk8';
        return true;
      }
      if (s.charCodeAt(afterDate) === 32) {
        const m = skipSpaces(s, afterDate);
        h.msgStart = m;
        h.format = 'isoPrefix';
        // kubectl --timestamps in front of a Cassandra/Scylla line, or journald short-iso "host prog[pid]:"
        if (readLevel(s, m) !== 0) readNested(s, m, h, st);
        else readSyslogTail(s, m, h, st);
        return true;
      }
      h.t = NaN;
      h.basis = 'none';
      return false;
    }
    const j = readJdk8Uptime(s, 0, uptimeOut);
    if (j > 0) {
      h.t = uptimeOut[0]!;
      h.basis = 'uptime';
      h.msgStart = j;
      h.format = 'gcJdk8';
      return true;
    }
    return readTimeOnly(s, h, st);
  }
  let lv = readLevel(s, 0);
  let at = 0;
  if (c === 32 && s.charCodeAt(1) !== 32) {
    // log4j "%5p" pads INFO and WARN to " INFO" / " WARN" (Cassandra 0.6-1.2): one space, then the level
    lv = readLevel(s, 1);
    at = 1;
  }
  if (lv !== 0 && readAfterLevel(s, at + (lv & 15), lv >> 4, h, st)) return true;
  const month = monthAt(s, 0);
  if (month >= 0 && readJournald(s, h, st, month)) return true;
  return readProgramOnly(s, h, st);
}

/**
 * A line that kept only its time of day: a journal pasted without its date (`11:26:23 scylla1 systemd[1]: msg`) or
 * a message behind a bare time (`11:22:01 Reactor stalled for …`). The line is read with no time at all: the day is
 * not known, and none is made up.
 */
function readTimeOnly(s: string, h: LineHeader, st: HeaderState): boolean {
  const tod = skipTimeOfDay(s, 0);
  if (tod < 0 || s.charCodeAt(tod) !== 32 || two(s, 0) > 23 || two(s, 3) > 59 || two(s, 6) > 60) return false;
  const m = skipSpaces(s, tod);
  if (readSyslogTail(s, m, h, st)) {
    // a dated line nested under the program keeps its date (readNested); the outer time of day gives none
    if (h.basis !== 'absolute') {
      h.t = NaN;
      h.basis = 'none';
    }
    return true;
  }
  h.node = '';
  h.program = '';
  // a message starts with a word or a bracket; a row of numbers after a time is some other table
  const c = s.charCodeAt(m);
  if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 91)) return false;
  h.t = NaN;
  h.basis = 'none';
  h.msgStart = m;
  h.format = 'isoPrefix';
  return true;
}

/**
 * A journal line pasted without its date and host: `scylla[1234]:  [shard 3] repair - msg`, `scylla:  [shard 0] …`,
 * `cassandra[99]: INFO  [main] …`. Taken only when a Scylla or Cassandra line follows the program, so text such as
 * `Command: …` or `java.lang.OutOfMemoryError: Java heap space` is not mistaken for one.
 */
function readProgramOnly(s: string, h: LineHeader, st: HeaderState): boolean {
  let p = 0;
  while (p < 64 && isNameChar(s.charCodeAt(p))) p++;
  if (p === 0) return false;
  let end = p;
  if (s.charCodeAt(p) === 91) {
    const close = s.indexOf(']', p);
    if (close <= p + 1 || close - p > 11 || !allDigits(s, p + 1, close - p - 1)) return false;
    end = close + 1;
  }
  if (s.charCodeAt(end) !== 58 || s.charCodeAt(end + 1) !== 32) return false;
  const m = skipSpaces(s, end + 2);
  if (!s.startsWith('[shard ', m) && readLevel(s, m) === 0) return false;
  h.t = NaN;
  h.basis = 'none';
  h.program = s.slice(0, p);
  h.format = 'journald';
  h.msgStart = m;
  readNested(s, m, h, st);
  if (h.shard < 0 && h.level === LEVEL_NONE) {
    h.program = '';
    h.format = null;
    h.msgStart = 0;
    return false;
  }
  return true;
}

/**
 * `grep -H` output ("system.log:INFO  [main] 2024-…", "logs/system.log.1:WARN …"): finds the file prefix and reads
 * the line after it. Only tried on lines that have no prefix of their own.
 */
export function readGrepPrefixed(s: string, h: LineHeader, st: HeaderState): boolean {
  const colon = s.indexOf(':');
  if (colon <= 0 || colon > 512 || s.lastIndexOf(' ', colon) >= 0) return false;
  const rest = s.slice(colon + 1);
  if (readLevel(rest, 0) === 0 && rest.charCodeAt(0) !== 91 && !isDigit(rest.charCodeAt(0))) return false;
  if (!readHeader(rest, h, st)) return false;
  h.msgStart += colon + 1;
  if (h.dateAt >= 0) h.dateAt += colon + 1;
  if (h.fileStart >= 0) {
    h.fileStart += colon + 1;
    h.fileEnd += colon + 1;
  }
  h.grepSource = s.slice(0, colon);
  return true;
}

/**
 * The common logback line read in place inside a chunk, without slicing it out: `LEVEL [thread] YYYY-MM-DD
 * HH:MM:SS,mmm File.java:N - msg` between `a` and `end` (its newline). True only when readHeader on the line alone
 * would give format 'cassandra' with the same level, date, file and message (offsets here are into `s`); every
 * other shape (ERROR] pastes, "[shard", a time of day, no file token, a CR, "File.java:N -" at the end) is false and
 * left to readHeader. The line reader's fast lane (LogAccumulator) uses it for the lines that carry no event.
 */
export function readCassandraInPlace(s: string, a: number, end: number, h: LineHeader): boolean {
  // character codes, not startsWith: this runs on nearly every line of a big log
  let level: number;
  let i: number;
  const c0 = s.charCodeAt(a);
  if (c0 === 73) {
    // "INFO "
    if (s.charCodeAt(a + 1) !== 78 || s.charCodeAt(a + 2) !== 70 || s.charCodeAt(a + 3) !== 79 || s.charCodeAt(a + 4) !== 32) return false;
    level = LEVEL_INFO;
    i = a + 4;
  } else if (c0 === 87) {
    // "WARN " (not WARNING: readLevel reads that as a level of its own)
    if (s.charCodeAt(a + 1) !== 65 || s.charCodeAt(a + 2) !== 82 || s.charCodeAt(a + 3) !== 78 || s.charCodeAt(a + 4) !== 32) return false;
    level = LEVEL_WARN;
    i = a + 4;
  } else if (c0 === 68) {
    // "DEBUG "
    if (s.charCodeAt(a + 1) !== 69 || s.charCodeAt(a + 2) !== 66 || s.charCodeAt(a + 3) !== 85 || s.charCodeAt(a + 4) !== 71 || s.charCodeAt(a + 5) !== 32)
      return false;
    level = LEVEL_DEBUG;
    i = a + 5;
  } else if (c0 === 84) {
    // "TRACE "
    if (s.charCodeAt(a + 1) !== 82 || s.charCodeAt(a + 2) !== 65 || s.charCodeAt(a + 3) !== 67 || s.charCodeAt(a + 4) !== 69 || s.charCodeAt(a + 5) !== 32)
      return false;
    level = LEVEL_TRACE;
    i = a + 5;
  } else return false;
  if (s.charCodeAt(end - 1) === 13) return false;
  let j = i;
  while (s.charCodeAt(j) === 32) j++;
  if (s.charCodeAt(j) !== 91 || (s.charCodeAt(j + 1) === 115 && s.startsWith('[shard ', j))) return false;
  const close = s.indexOf('] ', j + 1);
  if (close < 0 || close >= end) return false;
  j = close + 2;
  while (j < end && s.charCodeAt(j) === 32) j++;
  if (j + 19 > end || dateShapeEnd(s, j) < 0) return false;
  // the first space after the seconds: logback's ",mmm" then one, else looked for
  const afterDate =
    s.charCodeAt(j + 23) === 32 && s.charCodeAt(j + 19) !== 32 && s.charCodeAt(j + 20) !== 32 && s.charCodeAt(j + 21) !== 32 && s.charCodeAt(j + 22) !== 32
      ? j + 23
      : s.indexOf(' ', j + 19);
  if (afterDate < 0 || afterDate >= end) return false;
  let f = afterDate + 1;
  while (f < end && s.charCodeAt(f) === 32) f++;
  const e = s.indexOf(' ', f);
  if (e <= f || e - f >= 80 || e + 2 >= end || s.charCodeAt(e + 1) !== 45 || s.charCodeAt(e + 2) !== 32) return false;
  h.format = 'cassandra';
  h.level = level;
  h.dateAt = j;
  h.fileStart = f;
  h.fileEnd = e;
  h.msgStart = e + 3;
  return true;
}
