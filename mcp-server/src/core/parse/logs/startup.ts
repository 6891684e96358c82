/**
 * What a node says about itself when it starts: product and version, JVM, heap, collector, CPU threads and memory.
 * Read from system.log/debug.log banner lines (CassandraDaemon, DseDaemon, StorageService, DseConfig) and from the
 * JDK 8 gc.log header (JRE banner, "Memory:", "CommandLine flags:"). Later lines override earlier ones, so the last
 * start in the input wins. Pure.
 */
import { GC_FLAGS } from '../config/jvm-options.js';
import { SIZE_FACTORS } from '../../units.js';
import { sizeToBytes } from './classify.js';
import { parseNodeConfiguration } from './node-configuration.js';
import type { StartupFacts } from './types.js';

export function newStartupFacts(): StartupFacts {
  return {
    starts: 0,
    dseVersion: null,
    cassandraVersion: null,
    jvm: null,
    heapMaxBytes: null,
    heapFrom: null,
    heapMinBytes: null,
    gc: null,
    maxGcPauseMillis: null,
    cpuThreads: null,
    threadsPerCore: null,
    memoryMb: null,
    diskAccessMode: null,
    indexAccessMode: null,
    commitlogAccessMode: null,
    nodeConfiguration: null,
    classpathJars: null,
    lineNo: null,
  };
}

/** "3759M", "8g", "8589934592" (a -Xmx / -Xms value) → bytes; null when not a size. */
export function jvmSizeToBytes(v: string): number | null {
  const m = /^(\d+)([kKmMgGtT]?)$/.exec(v);
  if (!m) return null;
  return m[2] ? Number(m[1]) * SIZE_FACTORS[m[2].toLowerCase()]! : Number(m[1]);
}

/**
 * The arguments of a "JVM Arguments: [-a, -b, …]" message: Java prints the list as "[a, b]", so every argument
 * but the last is followed by a comma that belongs to the list, not to the value ("-Xmx3759M," is -Xmx3759M).
 */
export function jvmArgumentList(s: string, start: number): string[] {
  const open = s.indexOf('[', start);
  if (open < 0) return [];
  const close = s.lastIndexOf(']');
  const inner = s.slice(open + 1, close > open ? close : s.length);
  const out: string[] = [];
  for (const raw of inner.split(',')) {
    const t = raw.trim();
    if (t !== '') out.push(t);
  }
  return out;
}

/**
 * Applies JVM flags to the facts. A comma split also cuts values that hold one (-XX:OnOutOfMemoryError="a, b"):
 * such pieces are not flags that matter here.
 */
function applyFlags(f: StartupFacts, flags: string[], from: 'jvm-arguments' | 'gc-log-flags'): void {
  for (const a of flags) {
    if (a.startsWith('-Xmx')) {
      const b = jvmSizeToBytes(a.slice(4));
      if (b !== null) {
        f.heapMaxBytes = b;
        f.heapFrom = from;
      }
    } else if (a.startsWith('-Xms')) {
      const b = jvmSizeToBytes(a.slice(4));
      if (b !== null) f.heapMinBytes = b;
    } else if (a.startsWith('-XX:')) {
      const body = a.slice(4);
      const sign = body.charCodeAt(0);
      // ParNew is CMS's young collector: with CMS the collector to name is CMS, whatever the flag order.
      const gc = sign === 43 /* + */ ? GC_FLAGS[body.slice(1)] : undefined;
      if (gc !== undefined && gc !== 'ParNew') f.gc = gc;
      else if (body.startsWith('MaxGCPauseMillis=')) f.maxGcPauseMillis = intOrNull(body.slice(17));
      else if (body.startsWith('MaxHeapSize=') && (f.heapFrom === null || f.heapFrom === from)) {
        const b = jvmSizeToBytes(body.slice(12));
        if (b !== null) {
          f.heapMaxBytes = b;
          f.heapFrom = from;
        }
      } else if (body.startsWith('InitialHeapSize=')) f.heapMinBytes = jvmSizeToBytes(body.slice(16)) ?? f.heapMinBytes;
    } else if (a.startsWith('-Ddse.system_memory_in_mb=')) f.memoryMb = intOrNull(a.slice(26)) ?? f.memoryMb;
  }
}

function intOrNull(v: string): number | null {
  return /^\d+$/.test(v) ? Number(v) : null;
}

const THREADS = /appears to have (\d+) threads? per CPU core and (\d+) total CPU threads/;
const JRE_BANNER = /^(.+?) \([^)]*\) for \S+ JRE \(([^)]+)\)/;
const GC_MEMORY = /^Memory: \S+ page, physical (\d+)k/;
// 2.0–4.x "DiskAccessMode 'auto' determined to be mmap, indexAccessMode is mmap", "DiskAccessMode is standard, indexAccessMode
// is mmap", DSE 6 adding ", commitlogAccessMode is standard"; 1.x "Auto DiskAccessMode determined to be mmap".
const MODE = '(mmap_index_only|mmap|standard|direct|legacy)\\b';
const ACCESS_MODE = new RegExp(
  `^(?:Auto )?DiskAccessMode (?:'auto' determined to be|determined to be|is) ${MODE}(?:, indexAccessMode is ${MODE})?(?:, commitlogAccessMode is ${MODE})?`,
);

const MAX_JARS = 5000;

/** The jar file names of a "Classpath: /a/b.jar:/c/d.jar:conf" message, each once, in order (Windows ';' too). */
export function classpathJars(s: string, start: number): string[] {
  const out = new Set<string>();
  for (const entry of s.slice(start).trim().split(/[:;]/)) {
    const name = entry.slice(Math.max(entry.lastIndexOf('/'), entry.lastIndexOf('\\')) + 1).trim();
    if (name.endsWith('.jar') && out.size < MAX_JARS) out.add(name);
  }
  return [...out];
}

/** The message openings offer() reads (it reads no other): the line reader's fast lane leaves these to it. */
const STARTUP_OPENINGS = [
  'JVM Arguments:',
  'JVM vendor/version: ',
  'Heap size: ',
  'DSE version: ',
  'DiskAccessMode ',
  'Auto DiskAccessMode ',
  'Cassandra version: ',
  'Classpath: ',
  'Node configuration:',
  'This instance appears to have ',
];
const STARTUP_FIRST = new Set(STARTUP_OPENINGS.map((o) => o.charCodeAt(0)));

/** True when offer() may take the message at `start` (checked by its opening only). */
export function mayBeStartupLine(s: string, start: number): boolean {
  if (!STARTUP_FIRST.has(s.charCodeAt(start))) return false;
  for (const o of STARTUP_OPENINGS) if (s.startsWith(o, start)) return true;
  return false;
}

export class StartupReader {
  readonly facts = newStartupFacts();

  /**
   * A Cassandra/DSE INFO message at `start`; true when it was a startup line (never an event). Dispatches on the
   * first character so the other lines pay one comparison.
   */
  offer(s: string, start: number, lineNo: number, isNew: (line: string) => boolean): boolean {
    // Only the openings the fast lane leaves to this reader: an opening read below but missing from the list
    // would never be reached, so the list and this switch cannot drift apart unnoticed.
    if (!mayBeStartupLine(s, start)) return false;
    const f = this.facts;
    switch (s.charCodeAt(start)) {
      case 74: // J
        if (s.startsWith('JVM Arguments:', start)) {
          if (!isNew(s)) return true; // debug.log repeating system.log's banner: one start
          f.starts++;
          f.lineNo = lineNo;
          applyFlags(f, jvmArgumentList(s, start + 14), 'jvm-arguments');
          return true;
        }
        if (s.startsWith('JVM vendor/version: ', start)) {
          f.jvm = s.slice(start + 20, start + 200).trim();
          return true;
        }
        return false;
      case 72: // H
        if (s.startsWith('Heap size: ', start)) {
          const slash = s.indexOf('/', start + 11);
          const max = slash > 0 ? sizeToBytes(s.slice(slash + 1, slash + 40)) : null;
          if (max !== null && f.heapFrom !== 'jvm-arguments') {
            f.heapMaxBytes = max;
            f.heapFrom = 'heap-size-line';
          }
          return true;
        }
        return false;
      case 68: // D
        if (s.startsWith('DSE version: ', start)) {
          f.dseVersion = s.slice(start + 13, start + 60).trim();
          return true;
        }
        if (s.startsWith('DiskAccessMode ', start)) return this.accessModes(s.slice(start, start + 200));
        return false;
      case 65: // A
        if (s.startsWith('Auto DiskAccessMode ', start)) return this.accessModes(s.slice(start, start + 200));
        return false;
      case 67: // C
        if (s.startsWith('Cassandra version: ', start)) {
          f.cassandraVersion = s.slice(start + 19, start + 60).trim();
          return true;
        }
        if (s.startsWith('Classpath: ', start)) {
          f.classpathJars = classpathJars(s, start + 11);
          return true;
        }
        return false;
      case 78: // N
        if (s.startsWith('Node configuration:', start)) {
          f.nodeConfiguration = parseNodeConfiguration(s, start + 19) ?? f.nodeConfiguration;
          return true;
        }
        return false;
      case 84: // T
        if (s.startsWith('This instance appears to have ', start)) {
          const m = THREADS.exec(s);
          if (m) {
            f.threadsPerCore = Number(m[1]);
            f.cpuThreads = Number(m[2]);
          }
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  private accessModes(msg: string): boolean {
    const m = ACCESS_MODE.exec(msg);
    if (!m) return false;
    const f = this.facts;
    f.diskAccessMode = m[1]!;
    f.indexAccessMode = m[2] ?? null;
    f.commitlogAccessMode = m[3] ?? null;
    return true;
  }

  /** A header-less line of a JDK 8 gc.log header; true when it was one. */
  offerGcHeader(s: string, lineNo: number): boolean {
    const f = this.facts;
    const c = s.charCodeAt(0);
    if (c === 32 || c === 9 || c === 91 || c === 123) return false; // heap details, "[Times", "{Heap before GC"
    if (s.startsWith('CommandLine flags: ')) {
      f.starts++;
      f.lineNo = lineNo;
      applyFlags(f, s.slice(19).split(' '), 'gc-log-flags');
      return true;
    }
    if (s.startsWith('Memory: ')) {
      const m = GC_MEMORY.exec(s);
      if (m) f.memoryMb = Math.floor(Number(m[1]) / 1024);
      return m !== null;
    }
    if (s.includes(' JRE (')) {
      const m = JRE_BANNER.exec(s.slice(0, 300));
      if (m) f.jvm = `${m[1]}/${m[2]}`;
      return m !== null;
    }
    return false;
  }
}
