import { parsedOk, total, unrecognized } from '../../parsed.js';
import { splitLines } from '../../text.js';
import { parseDataSizeBytes } from './units.js';
import { pushAll } from '../../arrays.js';

export const JVM_OPTIONS_KIND = 'config.jvm-options';

export interface JvmFlag {
  /** The token as written, e.g. "-XX:MaxGCPauseMillis=500". */
  raw: string;
  /** 'XX' for -XX:…, 'X' for -Xms/-Xmx/-Xss/-Xloggc/-Xlog…, 'D' for system properties, 'other' (-ea, -javaagent, --add-opens …). */
  type: 'XX' | 'X' | 'D' | 'other';
  /** "MaxGCPauseMillis", "UseG1GC", "Xmx", "Xloggc", "Xlog", "cassandra.logdir", "ea", "javaagent", "add-opens" … */
  name: string;
  /** "500", "4G", the path of -Xloggc, the selector of -Xlog; null for boolean flags and bare options. */
  value: string | null;
  /** true for -XX:+Name, false for -XX:-Name, null otherwise. */
  enabled: boolean | null;
  /** 1-based line of the input. */
  line: number;
}

export type GcCollector = 'G1' | 'CMS' | 'ParNew' | 'Parallel' | 'Serial' | 'ZGC' | 'Shenandoah' | 'Epsilon';

export interface JvmOptions {
  /** How the text looked: one flag per line (jvm*.options), cassandra-env.sh assignments, or a java command line. */
  format: 'options-file' | 'env-sh' | 'command-line' | 'mixed';
  /** Every active flag in order (later occurrences win in the JVM; all are kept here). */
  flags: JvmFlag[];
  /** Flags found on commented-out lines ("#-Xmx4G"): present in the file but NOT in effect. */
  commentedFlags: JvmFlag[];
  heap: {
    /** Bytes; null = not set (JVM/cassandra-env auto-sizing applies). */
    xmsBytes: number | null;
    xmxBytes: number | null;
    xmnBytes: number | null;
    xssBytes: number | null;
    /** The commented-out value when the flag only appears commented ("4G" from "#-Xmx4G"), else null. */
    xmsCommented: string | null;
    xmxCommented: string | null;
    xmnCommented: string | null;
    /** Where the heap came from when set via cassandra-env.sh MAX_HEAP_SIZE / HEAP_NEWSIZE. */
    fromEnv: { maxHeapSize: string | null; heapNewsize: string | null };
  };
  gc: {
    /** The collector in effect; CMS covers ParNew+CMS. null = none selected (the JVM default applies). */
    collector: GcCollector | null;
    /** Every collector flag switched on, in order; more than one old-gen collector is a conflict the JVM rejects. */
    selected: GcCollector[];
    maxGCPauseMillis: number | null;
    initiatingHeapOccupancyPercent: number | null;
    cmsInitiatingOccupancyFraction: number | null;
    useCMSInitiatingOccupancyOnly: boolean | null;
    maxTenuringThreshold: number | null;
    survivorRatio: number | null;
    parallelGCThreads: number | null;
    concGCThreads: number | null;
    parallelRefProcEnabled: boolean | null;
  };
  alwaysPreTouch: boolean | null;
  useLargePages: boolean | null;
  useTransparentHugePages: boolean | null;
  useNUMA: boolean | null;
  gcLogging: {
    /** -Xloggc, an -Xlog:gc… selector, or -XX:+PrintGC/PrintGCDetails is active. */
    enabled: boolean;
    xloggc: string | null;
    /** -Xlog selectors that mention gc, e.g. "gc*,safepoint:file=/var/log/cassandra/gc.log:time,uptime:filecount=10,filesize=10485760". */
    xlog: string[];
    /** Names of the JDK 8 logging flags that are on (PrintGCDetails, PrintGCDateStamps, UseGCLogFileRotation …). */
    flags: string[];
  };
  exitOnOutOfMemoryError: boolean | null;
  crashOnOutOfMemoryError: boolean | null;
  heapDumpOnOutOfMemoryError: boolean | null;
  heapDumpPath: string | null;
  /** -Dname=value (last wins); "" for -Dname without a value. */
  systemProperties: Record<string, string>;
  /** Tokens that could not be resolved (shell variables such as -Xms${MAX_HEAP_SIZE}). */
  unresolved: string[];
  /**
   * In a one-flag-per-line file: lines that hold a bare value ("66") or a flag without its dash ("XX:+UseG1GC"),
   * which the start script skips (it takes only lines starting with "-"). Empty for other formats.
   */
  strayLines: { line: number; text: string }[];
  /** Comment lines seen: a stock options file has many, a pasted fragment usually none. */
  commentLines: number;
}

/** -XX:+Use…GC flag → the collector it selects (also read from a log's JVM Arguments line). */
export const GC_FLAGS: Readonly<Record<string, GcCollector>> = {
  UseG1GC: 'G1',
  UseConcMarkSweepGC: 'CMS',
  UseParNewGC: 'ParNew',
  UseParallelGC: 'Parallel',
  UseParallelOldGC: 'Parallel',
  UseSerialGC: 'Serial',
  UseZGC: 'ZGC',
  UseShenandoahGC: 'Shenandoah',
  UseEpsilonGC: 'Epsilon',
};

const GC_LOG_FLAGS =
  /^(?:PrintGC\w*|PrintHeapAtGC|PrintTenuringDistribution|PrintPromotionFailure|PrintFLSStatistics|UseGCLogFileRotation|NumberOfGCLogFiles|GCLogFileSize)$/;

// Options that take the next token as their argument.
const WITH_ARG = new Set([
  '-cp',
  '-classpath',
  '--class-path',
  '--module-path',
  '-p',
  '--add-exports',
  '--add-opens',
  '--add-modules',
  '--add-reads',
  '--patch-module',
]);

/** Whitespace split that keeps quoted runs together and drops the quotes. */
function tokenize(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let has = false;
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

function isJvmToken(t: string): boolean {
  return /^-(?:X|D[\w.$-]|ea\b|da\b|esa\b|dsa\b|enableassertions|disableassertions|server$|client$|javaagent:|agentpath:|agentlib:|verbose\b)|^--(?:add-(?:exports|opens|modules|reads)|patch-module|illegal-access)/.test(
    t,
  );
}

function toFlag(raw: string, arg: string | null, line: number): JvmFlag {
  let m = /^-XX:([+-])(\w+)$/.exec(raw);
  if (m) return { raw, type: 'XX', name: m[2]!, value: null, enabled: m[1] === '+', line };
  m = /^-XX:(\w+)=(.*)$/.exec(raw);
  if (m) return { raw, type: 'XX', name: m[1]!, value: m[2]!, enabled: null, line };
  m = /^-XX:(.*)$/.exec(raw);
  if (m) return { raw, type: 'XX', name: m[1]!, value: null, enabled: null, line };
  m = /^-X(ms|mx|mn|ss)(.*)$/.exec(raw);
  if (m) return { raw, type: 'X', name: `X${m[1]}`, value: m[2]!, enabled: null, line };
  m = /^-X(loggc|log):(.*)$/.exec(raw);
  if (m) return { raw, type: 'X', name: `X${m[1]}`, value: m[2]!, enabled: null, line };
  m = /^-X(\w[\w-]*)(?:[:=](.*))?$/.exec(raw);
  if (m) return { raw, type: 'X', name: `X${m[1]}`, value: m[2] ?? null, enabled: null, line };
  m = /^-D([^=]+)(?:=(.*))?$/.exec(raw);
  if (m) return { raw, type: 'D', name: m[1]!, value: m[2] ?? null, enabled: null, line };
  m = /^--?([\w-]+)(?:[:=](.*))?$/.exec(raw);
  const value = arg ?? m?.[2] ?? null;
  return { raw: arg ? `${raw} ${arg}` : raw, type: 'other', name: m?.[1] ?? raw, value, enabled: null, line };
}

/** JVM tokens of one line (or of a shell string), in order; `unresolved` collects tokens with shell variables. */
function flagsOf(s: string, line: number, unresolved: string[]): JvmFlag[] {
  const toks = tokenize(s);
  const out: JvmFlag[] = [];
  for (let i = 0; i < toks.length; i++) {
    // a Java list as logged ("JVM Arguments: [-Xms3759M, -Xmx3759M]"): the comma and brackets are the list's
    const t = toks[i]!.replace(/^\[|[,\]]+$/g, '');
    if (WITH_ARG.has(t)) {
      const arg = toks[i + 1] ?? null;
      i++;
      if (t.startsWith('--add') || t === '--patch-module') out.push(toFlag(t, arg, line));
      continue;
    }
    if (!isJvmToken(t)) continue;
    if (t.includes('$')) {
      unresolved.push(t);
      continue;
    }
    out.push(toFlag(t, null, line));
  }
  return out;
}

// One token that is a bare number, or a flag that lost its dash ("XX:+UseG1GC", "Xmx4G", "Dcassandra.x=1"): what a
// template leaves when a value lands under the wrong key. A prompt, a file name or prose has spaces or neither shape.
const STRAY = /^(?:\d+(?:\.\d+)?[a-zA-Z%]{0,2}|XX:[+-]?\w+(?:=\S*)?|X(?:m[sxn]|ss)\d+[kKmMgGtT]?|D\w+(?:\.[\w$-]+)+(?:=\S*)?|D\w+=\S*)$/;

// cassandra-env.sh: JVM_OPTS="$JVM_OPTS -XX:+UseG1GC", MAX_HEAP_SIZE="8G", HEAP_NEWSIZE="800M"
const SHELL_OPTS = /^(?:export\s+)?(?:JVM_OPTS|JVM_EXTRA_OPTS|JAVA_OPTS|JVM_ARGS)\s*\+?=\s*(.*)$/;
const SHELL_HEAP = /^(?:export\s+)?(MAX_HEAP_SIZE|HEAP_NEWSIZE)\s*=\s*["']?([^"'\s#]*)["']?/;

export const parseJvmOptions = total<JvmOptions>(JVM_OPTIONS_KIND, (text) => {
  const lines = splitLines(text);
  const flags: JvmFlag[] = [];
  const commentedFlags: JvmFlag[] = [];
  const unresolved: string[] = [];
  const warnings: string[] = [];
  const env = { maxHeapSize: null as string | null, heapNewsize: null as string | null };
  const envCommented = { maxHeapSize: null as string | null, heapNewsize: null as string | null };
  let sawOptionsLine = false;
  let sawShell = false;
  let sawCommandLine = false;
  let commentLines = 0;
  const strayCandidates: { line: number; text: string }[] = [];

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let line = lines[i]!.trim();
    if (line === '') continue;
    let commented = false;
    if (line.startsWith('#')) {
      commented = true;
      commentLines++;
      line = line.replace(/^#+\s*/, '');
    }
    const target = commented ? commentedFlags : flags;
    const heap = SHELL_HEAP.exec(line);
    if (heap) {
      sawShell = true;
      const which = heap[1] === 'MAX_HEAP_SIZE' ? 'maxHeapSize' : 'heapNewsize';
      if (heap[2] && !heap[2].includes('$')) (commented ? envCommented : env)[which] = heap[2];
      continue;
    }
    const opts = SHELL_OPTS.exec(line);
    if (opts) {
      sawShell = true;
      // The assignment's outer quotes hold the whole list: JVM_OPTS="$JVM_OPTS -XX:+UseG1GC -Xss256k"
      const rhs = opts[1]!.replace(/\s+#.*$/, '').replace(/^\s*(["'])(.*)\1\s*$/, '$2');
      pushAll(target, flagsOf(rhs, lineNo, commented ? [] : unresolved));
      continue;
    }
    if (commented) {
      // Only a line that IS a flag counts ("#-Xmx4G"); prose mentioning "-Xmx" does not.
      if (/^-{1,2}[A-Za-z]/.test(line) && isJvmToken(line.split(/\s+/)[0]!)) pushAll(commentedFlags, flagsOf(line, lineNo, []));
      continue;
    }
    if (/^-{1,2}[A-Za-z]/.test(line) && isJvmToken(line.split(/\s+/)[0]!)) {
      const f = flagsOf(line, lineNo, unresolved);
      if (f.length > 1) sawCommandLine = true;
      else sawOptionsLine = true;
      pushAll(flags, f);
      continue;
    }
    // A command line: "java -Xms… Class", a ps row, "jvm_args: -ea …".
    const f = flagsOf(line, lineNo, unresolved);
    if (f.length > 0) {
      sawCommandLine = true;
      pushAll(flags, f);
    } else if (STRAY.test(line)) strayCandidates.push({ line: lineNo, text: line });
  }

  if (flags.length === 0 && commentedFlags.length === 0 && !env.maxHeapSize && !env.heapNewsize && !envCommented.maxHeapSize) {
    return unrecognized(JVM_OPTIONS_KIND, text.trim() === '' ? 'empty text' : 'no JVM options (-X…, -XX:…, -D…) found');
  }
  const styles = [sawOptionsLine, sawShell, sawCommandLine].filter(Boolean).length;
  const format: JvmOptions['format'] = styles > 1 ? 'mixed' : sawShell ? 'env-sh' : sawCommandLine ? 'command-line' : 'options-file';
  const strayLines = format === 'options-file' ? strayCandidates : [];

  // Last occurrence wins, as in the JVM.
  const last = (pred: (f: JvmFlag) => boolean, list = flags): JvmFlag | undefined => {
    for (let i = list.length - 1; i >= 0; i--) if (pred(list[i]!)) return list[i];
    return undefined;
  };
  const xx = (name: string, list = flags) => last((f) => f.type === 'XX' && f.name === name, list);
  const boolFlag = (name: string): boolean | null => {
    const f = xx(name);
    return f ? (f.enabled ?? (f.value !== null ? /^true$/i.test(f.value) : null)) : null;
  };
  const intFlag = (name: string): number | null => {
    const f = xx(name);
    if (!f || f.value === null) return null;
    const n = Number(f.value);
    if (!Number.isFinite(n)) {
      warnings.push(`-XX:${name}: not a number (${f.value})`);
      return null;
    }
    return n;
  };
  const xOpt = (name: string, list = flags) => last((f) => f.type === 'X' && f.name === name, list);
  const size = (name: string): number | null => {
    const f = xOpt(name);
    if (!f) return null;
    const b = parseDataSizeBytes(f.value ?? '', 1);
    if (b === null) warnings.push(`-${name}: cannot read size ${JSON.stringify(f.value)}`);
    return b;
  };

  let xmsBytes = size('Xms');
  let xmxBytes = size('Xmx');
  let xmnBytes = size('Xmn');
  // cassandra-env.sh turns MAX_HEAP_SIZE into -Xms/-Xmx and HEAP_NEWSIZE into -Xmn (explicit flags win here).
  if (env.maxHeapSize) {
    const b = parseDataSizeBytes(env.maxHeapSize, 1);
    xmsBytes ??= b;
    xmxBytes ??= b;
  }
  if (env.heapNewsize) xmnBytes ??= parseDataSizeBytes(env.heapNewsize, 1);
  const commentedValue = (name: string, envValue: string | null): string | null =>
    (name === 'Xmn' ? xmnBytes : name === 'Xms' ? xmsBytes : xmxBytes) !== null ? null : (xOpt(name, commentedFlags)?.value ?? envValue);

  const selected: GcCollector[] = [];
  for (const f of flags) {
    const c = f.type === 'XX' ? GC_FLAGS[f.name] : undefined;
    if (!c) continue;
    const idx = selected.indexOf(c);
    if (idx >= 0) selected.splice(idx, 1);
    if (f.enabled) selected.push(c);
  }
  const oldGen = [...new Set(selected.filter((c) => c !== 'ParNew'))];
  const collector: GcCollector | null = oldGen.length ? oldGen[oldGen.length - 1]! : selected.includes('ParNew') ? 'ParNew' : null;
  if (oldGen.length > 1) warnings.push(`conflicting collectors selected: ${oldGen.join(', ')} (the JVM refuses to start)`);

  const xloggc = xOpt('Xloggc')?.value ?? null;
  const xlog = flags.filter((f) => f.type === 'X' && f.name === 'Xlog' && /(?:^|[,*:])gc\b|^gc/.test(f.value ?? '')).map((f) => f.value!);
  const logFlags = [...new Set(flags.filter((f) => f.type === 'XX' && GC_LOG_FLAGS.test(f.name) && f.enabled !== false).map((f) => f.name))].filter(
    (n) => xx(n)?.enabled !== false,
  );
  const printGc = boolFlag('PrintGCDetails') === true || boolFlag('PrintGC') === true;

  const systemProperties: Record<string, string> = {};
  for (const f of flags) if (f.type === 'D') systemProperties[f.name] = f.value ?? '';
  if (unresolved.length) warnings.push(`unresolved shell variables in: ${unresolved.slice(0, 5).join(' ')}`);

  return parsedOk<JvmOptions>(
    JVM_OPTIONS_KIND,
    {
      format,
      flags,
      commentedFlags,
      heap: {
        xmsBytes,
        xmxBytes,
        xmnBytes,
        xssBytes: size('Xss'),
        xmsCommented: commentedValue('Xms', envCommented.maxHeapSize),
        xmxCommented: commentedValue('Xmx', envCommented.maxHeapSize),
        xmnCommented: commentedValue('Xmn', envCommented.heapNewsize),
        fromEnv: env,
      },
      gc: {
        collector,
        selected,
        maxGCPauseMillis: intFlag('MaxGCPauseMillis'),
        initiatingHeapOccupancyPercent: intFlag('InitiatingHeapOccupancyPercent'),
        cmsInitiatingOccupancyFraction: intFlag('CMSInitiatingOccupancyFraction'),
        useCMSInitiatingOccupancyOnly: boolFlag('UseCMSInitiatingOccupancyOnly'),
        maxTenuringThreshold: intFlag('MaxTenuringThreshold'),
        survivorRatio: intFlag('SurvivorRatio'),
        parallelGCThreads: intFlag('ParallelGCThreads'),
        concGCThreads: intFlag('ConcGCThreads'),
        parallelRefProcEnabled: boolFlag('ParallelRefProcEnabled'),
      },
      alwaysPreTouch: boolFlag('AlwaysPreTouch'),
      useLargePages: boolFlag('UseLargePages'),
      useTransparentHugePages: boolFlag('UseTransparentHugePages'),
      useNUMA: boolFlag('UseNUMA'),
      gcLogging: { enabled: xloggc !== null || xlog.length > 0 || printGc, xloggc, xlog, flags: logFlags },
      exitOnOutOfMemoryError: boolFlag('ExitOnOutOfMemoryError'),
      crashOnOutOfMemoryError: boolFlag('CrashOnOutOfMemoryError'),
      heapDumpOnOutOfMemoryError: boolFlag('HeapDumpOnOutOfMemoryError'),
      heapDumpPath: xx('HeapDumpPath')?.value ?? null,
      systemProperties,
      unresolved,
      strayLines,
      commentLines,
    },
    warnings,
  );
});
