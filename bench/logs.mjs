// Log analysis throughput: a 100 MB synthetic system.log built from the corpus' real lines (fresh timestamps and
// varied numbers), read by the project's streaming reader (bundled from TypeScript with esbuild into a temp
// module), against a plain fs.createReadStream newline count of the same file, measured in the same run.
// Goal: ≥ 200 MB/s (10^6 bytes per second; MiB/s shown too). Also checks that the facts count exactly the events
// that were written. Wall-clock figures depend on what else the machine runs: the process CPU time is printed beside.
import { createReadStream, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = join(root, '../shared/corpus/logs');
const TARGET_MB = Number(process.env.BENCH_LOG_MB ?? 100);
const RUNS = Number(process.env.BENCH_LOG_RUNS ?? 3);
const GOAL_MBS = 200;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Deterministic PRNG so every run writes the same file.
function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const pad = (n, w = 2) => String(n).padStart(w, '0');
function stamp(ms) {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())},${pad(d.getUTCMilliseconds(), 3)}`;
}

const HEAD = /^(INFO|WARN|ERROR|DEBUG) +\[[^\]]+\] \d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} /;

/** Real lines from the corpus, split into templates: [kind, text]. */
function templates() {
  const read = (f) =>
    readFileSync(join(CORPUS, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
  const g1 = read('systemlog_g1_young_gc_200_729ms_solr_dse677.txt');
  const tomb = read('systemlog_tombstones_large_partition_chunkcache_montecristo.txt');
  const status = readFileSync(join(CORPUS, 'statuslogger_dse6_dropped_rangeslice_write_remote_pending.txt'), 'utf8').replace(/\n+$/, '').split('\n');
  const all = [...g1, ...tomb];
  const kindOf = (l) =>
    l.includes(' GC in ')
      ? 'gc'
      : l.includes('tombstone cells')
        ? 'tomb'
        : l.includes('large partition')
          ? 'large'
          : l.includes('Maximum memory usage')
            ? 'chunk'
            : 'boring';
  return {
    boring: all.filter((l) => kindOf(l) === 'boring'),
    gc: all.filter((l) => kindOf(l) === 'gc'),
    tomb: all.filter((l) => kindOf(l) === 'tomb'),
    large: all.filter((l) => kindOf(l) === 'large'),
    chunk: all.filter((l) => kindOf(l) === 'chunk'),
    status, // one DroppedMessages line + one StatusLogger block with its table
  };
}

/** Writes ~TARGET_MB of system.log; returns what it wrote, per kind. */
export function writeSyntheticSystemLog(path) {
  const t = templates();
  const rand = rng(42);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const fd = openSync(path, 'w');
  const want = TARGET_MB * 1024 * 1024;
  let bytes = 0;
  let clock = Date.UTC(2024, 4, 1, 0, 0, 0);
  const wrote = { lines: 0, gc: 0, tomb: 0, large: 0, chunk: 0, dropped: 0, statusSnapshots: 0, boring: 0 };
  let buf = [];
  let bufLen = 0;
  const emit = (line) => {
    buf.push(line);
    bufLen += line.length + 1;
    wrote.lines++;
    if (bufLen > 1 << 20) flush();
  };
  const flush = () => {
    const s = buf.join('\n') + '\n';
    writeSync(fd, s);
    bytes += Buffer.byteLength(s);
    buf = [];
    bufLen = 0;
  };
  const restamp = (line) => {
    clock += 1 + Math.floor(rand() * 60);
    return line.replace(HEAD, (m) => m.replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}/, stamp(clock)));
  };
  while (bytes + bufLen < want) {
    const r = rand();
    if (r < 0.9) {
      // ordinary lines, thread ids and waits varied
      emit(restamp(pick(t.boring)).replace(/Waited \d+ milliseconds/, `Waited ${1 + Math.floor(rand() * 40)} milliseconds`));
      wrote.boring++;
    } else if (r < 0.97) {
      emit(restamp(pick(t.gc)).replace(/GC in \d+ms/, `GC in ${201 + Math.floor(rand() * 800)}ms`));
      wrote.gc++;
    } else if (r < 0.985) {
      emit(restamp(pick(t.tomb)).replace(/and \d+ tombstone cells/, `and ${1001 + Math.floor(rand() * 9000)} tombstone cells`));
      wrote.tomb++;
    } else if (r < 0.99) {
      emit(restamp(pick(t.large)));
      wrote.large++;
    } else if (r < 0.999) {
      emit(restamp(pick(t.chunk)));
      wrote.chunk++;
    } else {
      for (const l of t.status) emit(HEAD.test(l) ? restamp(l) : l);
      wrote.dropped++;
      wrote.statusSnapshots++;
    }
  }
  flush();
  closeSync(fd);
  return { bytes, wrote };
}

async function bundleReader(dir) {
  const outfile = join(dir, 'log-reader.mjs');
  await build({
    entryPoints: [join(root, 'mcp-server/src/collect/log-reader.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

function countNewlines(path) {
  return new Promise((resolve, reject) => {
    let n = 0;
    const s = createReadStream(path, { highWaterMark: 1024 * 1024 });
    s.on('data', (b) => {
      for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) n++;
    });
    s.on('end', () => resolve(n));
    s.on('error', reject);
  });
}

export async function benchLogs() {
  if (!existsSync(CORPUS)) return { name: 'Log analysis throughput', lines: [`skipped: ${CORPUS} is absent`], ok: true };
  const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-bench-logs-'));
  try {
    const file = join(dir, 'system.log');
    const g0 = performance.now();
    const { bytes, wrote } = writeSyntheticSystemLog(file);
    const genMs = performance.now() - g0;
    const mib = statSync(file).size / (1024 * 1024);
    const { readLogFile } = await bundleReader(dir);

    await countNewlines(file); // page cache warm
    const base = [];
    const parse = [];
    const cpu = [];
    let facts = null;
    let lineCount = 0;
    const rss0 = process.memoryUsage().rss;
    let peakRss = rss0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      lineCount = await countNewlines(file);
      base.push(performance.now() - t0);
      t0 = performance.now();
      const c0 = process.cpuUsage();
      const r = await readLogFile(file);
      parse.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (!r.ok) throw new Error(`reader failed: ${r.reason}`);
      facts = r.value;
    }
    clearInterval(sampler);
    const pMs = median(parse);
    const bMs = median(base);
    const pRate = mib / (pMs / 1000);
    const bRate = mib / (bMs / 1000);
    const mbs = bytes / 1e6 / (pMs / 1000);
    const e = facts.events;
    const checks = [
      ['lines', facts.lines.total, wrote.lines],
      ['gcPause', e.gcPause.count, wrote.gc],
      ['tombstoneWarn', e.tombstoneWarn.count, wrote.tomb],
      ['largePartition', e.largePartition.count, wrote.large],
      ['bufferPoolFull', e.bufferPoolFull.count, wrote.chunk],
      ['dropped', e.dropped.count, wrote.dropped],
      ['threadPools', facts.threadPools.snapshots, wrote.statusSnapshots],
      ['newline count', lineCount, wrote.lines],
    ];
    const bad = checks.filter(([, got, want]) => got !== want);
    const ok = mbs >= GOAL_MBS && bad.length === 0;
    return {
      name: 'Log analysis: streaming LogFacts vs a plain createReadStream line count',
      lines: [
        `synthetic system.log: ${mib.toFixed(1)} MiB, ${wrote.lines} lines (${wrote.gc} GC, ${wrote.tomb} tombstone, ${wrote.large} large-partition, ${wrote.chunk} chunk-cache, ${wrote.dropped} dropped+StatusLogger blocks; the rest ordinary) written in ${(genMs / 1000).toFixed(1)} s`,
        `LogFacts (readLogFile): median ${pMs.toFixed(0)} ms over ${RUNS} runs → ${mbs.toFixed(0)} MB/s = ${pRate.toFixed(0)} MiB/s (${(((wrote.lines / pMs) * 1000) / 1e6).toFixed(2)} M lines/s); best run ${Math.min(...parse).toFixed(0)} ms; process CPU median ${median(cpu).toFixed(0)} ms (all threads; wall above CPU means the machine was busy)`,
        `createReadStream newline count: median ${bMs.toFixed(0)} ms → ${bRate.toFixed(0)} MiB/s; LogFacts runs at ${(pRate / bRate).toFixed(2)}× its throughput (${(pMs / bMs).toFixed(1)}× its time)`,
        `peak RSS during the runs: ${(peakRss / 2 ** 20).toFixed(0)} MiB (start ${(rss0 / 2 ** 20).toFixed(0)} MiB) for a ${mib.toFixed(0)} MiB file`,
        `facts: gc p99 ${facts.gc.p99PauseMs} ms, max ${facts.gc.maxPauseMs} ms; ${facts.tombstones.byTable.length} tombstone table(s); bucket ${facts.time.bucketMs / 60000} min over ${(facts.time.spanMs / 3600000).toFixed(1)} h`,
        bad.length ? `count mismatch: ${bad.map(([k, got, want]) => `${k} ${got} ≠ ${want}`).join(', ')}` : 'event counts match what was written',
        `goal ≥ ${GOAL_MBS} MB/s: ${mbs >= GOAL_MBS ? 'met' : 'NOT met'} (${(mbs / GOAL_MBS).toFixed(2)}× the goal)`,
      ],
      ok,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await benchLogs();
  process.stdout.write(`## ${r.name}\n${r.lines.map((l) => `  ${l}`).join('\n')}\n`);
  process.exitCode = r.ok ? 0 : 1;
}
