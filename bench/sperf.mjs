// cql-tuner beside DataStax sperf (github.com/datastax-labs/sperf, Apache-2.0) on sperf's own test data, in one run.
// Both run as the command a user types (process start included; cql-tuner's entry executed as the npm bin runs it,
// through its shebang line): `cql-tuner logs|interpret|review-schema` against
// `sperf core gc|statuslogger|slowquery|schema`, `sperf sysbottle` and `sperf ttop`. Per feature: median wall time
// of N runs of each, the ratio, and whether the numbers both print agree. Then one ≥ 100 MB system.log (the logs
// bench's synthetic file, built from real lines) through `cql-tuner logs` and `sperf core gc` / `core statuslogger`.
// sperf is set up by scripts/setup-sperf.sh (source at a pinned commit and a venv under ~/.cache/cql-tuner/sperf);
// when it is absent the bench says so and skips. The numbers cql-tuner's CLI does not print as JSON (iostat, ttop)
// come from the same parser the CLI runs, bundled in-process with esbuild.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const SPERF_HOME = process.env.CQL_TUNER_SPERF_HOME ?? join(homedir(), '.cache/cql-tuner/sperf');
const SPERF = join(SPERF_HOME, 'venv/bin/sperf');
const SRC = join(SPERF_HOME, 'src');
const DATA = join(SRC, 'tests/testdata');
// BENCH_SPERF_CLI: another build's entry (e.g. an older dist copied aside), to compare builds in the same conditions.
const CLI = process.env.BENCH_SPERF_CLI ?? join(root, 'mcp-server/dist/cql-tuner.js');
const RUNS = Number(process.env.BENCH_SPERF_RUNS ?? 5);
const BIG_RUNS = Number(process.env.BENCH_SPERF_BIG_RUNS ?? 1);
const TIME = '/usr/bin/time';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const node = (ip) => join('diag/DSE_CLUSTER/nodes', ip, 'logs/cassandra');

/** Runs a command once; wall ms, stdout, exit status and (with GNU time) peak RSS in KiB. */
function run(cmd, args, cwd) {
  const rssFile = join(tmpdir(), `cql-tuner-bench-sperf-rss-${process.pid}`);
  const timed = existsSync(TIME);
  const t0 = performance.now();
  const r = timed
    ? spawnSync(TIME, ['-f', '%M', '-o', rssFile, cmd, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  let rssKiB = null;
  if (timed && existsSync(rssFile)) {
    const m = /(\d+)\s*$/.exec(readFileSync(rssFile, 'utf8'));
    rssKiB = m ? Number(m[1]) : null;
    rmSync(rssFile, { force: true });
  }
  return { ms, out: r.stdout ?? '', err: r.stderr ?? '', status: r.status, rssKiB };
}

/** N runs after one untimed warm-up (cql-tuner's first start after a build writes its code cache); the median wall time, the last output. */
function timed(cmd, args, cwd, n) {
  run(cmd, args, cwd);
  const ms = [];
  let last = null;
  let rss = 0;
  for (let i = 0; i < n; i++) {
    last = run(cmd, args, cwd);
    ms.push(last.ms);
    rss = Math.max(rss, last.rssKiB ?? 0);
  }
  return { ms: median(ms), out: last.out, err: last.err, status: last.status, rssKiB: rss || null };
}

// The entry run the way `cql-tuner …` runs it (its shebang line holds the Node options the CLI starts with).
const ours = (args, n = RUNS, cwd = DATA) => timed(CLI, args, cwd, n);
const theirs = (args, n = RUNS) => timed(SPERF, ['-x', ...args], DATA, n);
const json = (r) => {
  try {
    return JSON.parse(r.out);
  } catch {
    return null;
  }
};
const num = (re, s) => {
  const m = re.exec(s);
  return m ? Number(m[1].replace(/,/g, '')) : null;
};
/** sperf's "ms  max p99 …" row of a GC pause table: the max. */
const sperfGcMax = (s) => num(/^ms\s+(\d+)/m, s);

async function bundleParsers(dir) {
  const outfile = join(dir, 'host-parsers.mjs');
  await build({
    // only the two parsers: the host index pulls in modules that need CommonJS packages
    stdin: {
      contents: "export { parseIostat } from './iostat.ts'; export { parseTtop } from './ttop.ts';",
      resolveDir: join(root, 'mcp-server/src/core/parse/host'),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

const mib = (r) => (r.rssKiB ? `${(r.rssKiB / 1024).toFixed(0)} MiB` : 'n/a');

/** One feature: both timings, and [label, ours, sperf's] figures compared exactly (or within `tol`). */
function feature(name, a, b, figures, tol = 0) {
  const agree = figures.filter(([, x, y]) => x !== null && y !== null && (typeof x === 'number' ? Math.abs(x - y) <= tol : x === y));
  const ok = a.status !== null && b.status === 0 && agree.length === figures.length;
  const fig = figures.map(([k, x, y]) => `${k} ${x}${x === y || (typeof x === 'number' && Math.abs(x - y) <= tol) ? '' : ` ≠ sperf ${y}`}`).join(', ');
  return {
    ok,
    line:
      `${name}: cql-tuner ${a.ms.toFixed(0)} ms, sperf ${b.ms.toFixed(0)} ms (cql-tuner takes ${(a.ms / b.ms).toFixed(2)}× sperf's time); ` +
      `peak RSS cql-tuner ${mib(a)}, sperf ${mib(b)}${a.rssKiB && b.rssKiB ? ` (${(a.rssKiB / b.rssKiB).toFixed(2)}×)` : ''}; ` +
      `${agree.length}/${figures.length} figures agree: ${fig}`,
  };
}

function smallFeatures(host) {
  const out = [];
  // GC pauses from GCInspector lines: sperf core gc (tests/commands/core/test_gc.py reads the same diag).
  {
    const f = `${node('10.101.35.71')}/system.log`;
    const a = ours(['logs', '--json', f]);
    const b = theirs(['core', 'gc', '-r', 'nodes', '-f', f]);
    const j = json(a);
    out.push(
      feature('gc (10.101.35.71 system.log)', a, b, [
        ['pauses', j?.facts.gc.pauses ?? null, num(/\* G1 Young: (\d+)/, b.out)],
        ['worst ms', j?.facts.gc.maxPauseMs ?? null, sperfGcMax(b.out)],
      ]),
    );
  }
  // StatusLogger: GC events, worst pause, busiest pending stage.
  {
    const f = `${node('10.101.35.102')}/system.log`;
    const a = ours(['logs', '--json', f]);
    const b = theirs(['core', 'statuslogger', '-f', f]);
    const j = json(a);
    const pools = j?.facts.threadPools.pools ?? [];
    const top = pools.reduce((m, p) => ((p.maxPending ?? 0) > (m?.maxPending ?? 0) ? p : m), null);
    const sp = /busiest stages in PENDING\s*\n-+\n[^\n]*\n\s*([^:]+):\s*(\d+)/.exec(b.out);
    out.push(
      feature('statuslogger (10.101.35.102 system.log)', a, b, [
        ['GC events', j?.facts.gc.pauses ?? null, num(/total GC events: ([\d,]+)/, b.out)],
        ['worst GC ms', j?.facts.gc.maxPauseMs ?? null, sperfGcMax(b.out)],
        ['most pending stage', top ? `${top.pool}=${top.maxPending}` : null, sp ? `${sp[1].trim()}=${sp[2]}` : null],
      ]),
    );
  }
  // Slow queries (MonitoringTask) in debug.log: sperf core slowquery (tests/core/test_slowquery.py).
  {
    const f = `${node('10.101.35.102')}/debug.log`;
    const a = ours(['logs', '--json', f]);
    const b = theirs(['core', 'slowquery', '-f', f]);
    const t = json(a)?.facts.slowQueries;
    const m = /(\d+) total, (\d+) cross-node, (\d+) timeouts/.exec(b.out);
    out.push(
      feature('slowquery (10.101.35.102 debug.log)', a, b, [
        ['slow', t ? t.totals.slow + t.totals.timedOut : null, m ? Number(m[1]) : null],
        ['cross-node', t?.totals.crossNode ?? null, m ? Number(m[2]) : null],
        ['timed out', t?.totals.timedOut ?? null, m ? Number(m[3]) : null],
        ['worst ms', t?.operations[0]?.maxMs ?? null, num(/^(\d+)ms: /m, b.out)],
      ]),
    );
  }
  // iostat -x: sperf sysbottle's per-device maxima (tests/commands/test_sysbottle.py reads testdata/iostat).
  for (const file of ['iostat', 'busy-iostat']) {
    const a = ours(['interpret', '--json', file]);
    const b = theirs(['sysbottle', file]);
    const p = host.parseIostat(readFileSync(join(DATA, file), 'utf8'));
    const reports = p.ok ? p.value.reports : [];
    const figs = [['records', reports.length, num(/total records: (\d+)/, b.out)]];
    // sperf prints each device's "- r_await:  max p99 …" rows under the device name.
    for (const m of b.out.matchAll(/^(\S+)\n- r_await:\s+([\d.]+).*\n- w_await:\s+([\d.]+).*\n- aqu-sz:\s+([\d.]+)/gm)) {
      const devs = reports.flatMap((r) => r.devices.filter((d) => d.device === m[1]));
      const max = (k) => (devs.length ? Number(Math.max(...devs.map((d) => d[k] ?? 0)).toFixed(2)) : null);
      figs.push(
        [`${m[1]} max r_await`, max('readAwaitMs'), Number(m[2])],
        [`max w_await`, max('writeAwaitMs'), Number(m[3])],
        [`max aqu-sz`, max('queueSize'), Number(m[4])],
      );
    }
    // sperf's bottleneck-time figures, from cql-tuner's host.bottleneck-time finding (its "as sperf counts it" line)
    const bt = json(a)?.findings?.find((f) => f.id === 'host.bottleneck-time');
    const asSperf = bt?.evidence.find((e) => e.startsWith('as sperf sysbottle counts it')) ?? '';
    const ourPct = (re) => num(re, asSperf);
    figs.push(
      ['bottleneck %', ourPct(/bottleneck ([\d.]+) %/), num(/total bottleneck time: ([\d.]+)%/, b.out)],
      ['cpu-bound %', ourPct(/CPU ([\d.]+) %/), num(/steal time > [\d.]+%: ([\d.]+)%/, b.out)],
      ['iowait %', ourPct(/iowait ([\d.]+) %/), num(/iowait time > [\d.]+%: ([\d.]+)%/, b.out)],
    );
    out.push(feature(`iostat → sysbottle (${file})`, a, b, figs, 0.005));
  }
  // sjk ttop: per sample, the busiest thread group and its CPU (tests/test_ttop.py reads testdata/ttop-cpu.out).
  {
    const a = ours(['interpret', '--json', 'ttop-cpu.out']);
    const b = theirs(['ttop', 'ttop-cpu.out']);
    const p = host.parseTtop(readFileSync(join(DATA, 'ttop-cpu.out'), 'utf8'));
    const samples = p.ok ? p.value.samples : [];
    const oursTop = samples.map((s) => {
      const g = new Map();
      for (const t of s.threads) g.set(t.group, (g.get(t.group) ?? 0) + t.userPct + t.sysPct);
      const [name, cpu] = [...g].sort((x, y) => y[1] - x[1])[0] ?? ['', 0];
      return `${name} ${cpu.toFixed(2)}`;
    });
    const sperfTop = [...b.out.matchAll(/={20,}\n(.+?)\s{2,}\d+\s+([\d.]+)/g)].map((m) => `${m[1].trim()} ${Number(m[2]).toFixed(2)}`);
    out.push(
      feature('ttop (ttop-cpu.out)', a, b, [
        ['samples', samples.length, sperfTop.length],
        ...oursTop.map((o, i) => [`sample ${i + 1} top group`, o, sperfTop[i] ?? null]),
      ]),
    );
  }
  // Schema: counts from the diag's driver/schema (sperf core schema, tests/core/test_schema.py).
  {
    const f = 'diag/DSE_CLUSTER/nodes/10.101.33.205/driver/schema';
    const a = ours(['review-schema', '--json', f]);
    const b = theirs(['core', 'schema', '-f', f]);
    const c = json(a)?.counts;
    const idx = (num(/2i Count\s*:\s*(\d+)/, b.out) ?? 0) + (num(/Solr Index Count:\s*(\d+)/, b.out) ?? 0);
    out.push(
      feature('schema (driver/schema)', a, b, [
        ['keyspaces', c?.keyspaces ?? null, num(/Keyspace Count\s*:\s*(\d+)/, b.out)],
        ['tables', c?.tables ?? null, num(/Table Count\s*:\s*(\d+)/, b.out)],
        ['indexes (2i + Solr)', c?.indexes ?? null, idx],
        ['types', c?.types ?? null, num(/UDT Count\s*:\s*(\d+)/, b.out)],
      ]),
    );
  }
  return out;
}

/** The logs bench's ≥ 100 MB file, placed under nodes/<ip>/ because sperf names the node from the path. */
async function bigLog(dir) {
  const { writeSyntheticSystemLog } = await import('./logs.mjs');
  const logDir = join(dir, 'nodes/10.0.0.1/logs/cassandra');
  mkdirSync(logDir, { recursive: true });
  const file = join(logDir, 'system.log');
  return { file, ...writeSyntheticSystemLog(file) };
}

/** The first tenth of the big log (cut at a line end) beside it: peak RSS must not grow with the file's size. */
function tenthOf(file, bytes, dir) {
  const logDir = join(dir, 'nodes/10.0.0.2/logs/cassandra');
  mkdirSync(logDir, { recursive: true });
  const head = Buffer.alloc(Math.floor(bytes / 10));
  const fd = openSync(file, 'r');
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const out = join(logDir, 'system.log');
  writeFileSync(out, head.subarray(0, head.lastIndexOf(0x0a) + 1));
  return out;
}

async function bigFeatures(dir) {
  const { file, bytes, wrote } = await bigLog(dir);
  const mb = bytes / 1e6;
  const a = ours(['logs', '--json', file], BIG_RUNS, dir);
  const tenth = ours(['logs', '--json', tenthOf(file, bytes, dir)], BIG_RUNS, dir);
  const g = timed(SPERF, ['-x', 'core', 'gc', '-r', 'nodes', '-f', file], dir, BIG_RUNS);
  const s = timed(SPERF, ['-x', 'core', 'statuslogger', '-f', file], dir, BIG_RUNS);
  const j = json(a);
  const rate = (r) => `${(mb / (r.ms / 1000)).toFixed(0)} MB/s`;
  const rss = (r) => (r.rssKiB ? `${(r.rssKiB / 1024).toFixed(0)} MiB` : 'n/a');
  const gcOurs = j?.facts.gc.pauses ?? null;
  const gcSperf = num(/\* G1 Young: (\d+)/, g.out);
  const gcStatus = num(/total GC events: ([\d,]+)/, s.out);
  const maxOurs = j?.facts.gc.maxPauseMs ?? null;
  const counts = gcOurs === wrote.gc && gcSperf === wrote.gc && gcStatus === wrote.gc && maxOurs === sperfGcMax(g.out);
  const lines = [
    `${mb.toFixed(0)} MB system.log (${wrote.gc} GC lines, ${wrote.statusSnapshots} StatusLogger blocks written), ${BIG_RUNS} run(s) each:`,
    `  cql-tuner logs: ${a.ms.toFixed(0)} ms = ${rate(a)}, peak RSS ${rss(a)} (on its first tenth: ${rss(tenth)}, ${tenth.ms.toFixed(0)} ms)`,
    `  sperf core gc: ${g.ms.toFixed(0)} ms = ${rate(g)}, peak RSS ${rss(g)} → cql-tuner is ${(g.ms / a.ms).toFixed(1)}× faster`,
    `  sperf core statuslogger: ${s.ms.toFixed(0)} ms = ${rate(s)}, peak RSS ${rss(s)} → cql-tuner is ${(s.ms / a.ms).toFixed(1)}× faster`,
    `  GC events: cql-tuner ${gcOurs}, sperf gc ${gcSperf}, sperf statuslogger ${gcStatus}, written ${wrote.gc}; ` +
      `worst ms cql-tuner ${maxOurs}, sperf ${sperfGcMax(g.out)}` +
      ` → ${counts ? 'agree' : 'DISAGREE'}`,
  ];
  const speedup = Math.min(g.ms, s.ms) / a.ms;
  const mbps = mb / (a.ms / 1000);
  const rssOk = a.rssKiB && g.rssKiB && s.rssKiB ? a.rssKiB <= 2 * Math.max(g.rssKiB, s.rssKiB) : null;
  // flat in file size: the whole file may not need much more than its first tenth (1.5×, or 16 MiB of slack)
  const flat = a.rssKiB && tenth.rssKiB ? a.rssKiB <= Math.max(1.5 * tenth.rssKiB, tenth.rssKiB + 16 * 1024) : null;
  const say = (ok) => (ok === null ? 'not measured (no GNU time)' : ok ? 'met' : 'NOT met');
  lines.push(
    `  goals: ≥ 200 MB/s ${say(mbps >= 200)} (${mbps.toFixed(0)} MB/s); ≥ 10× sperf ${say(speedup >= 10)} (${speedup.toFixed(1)}×); ` +
      `peak RSS ≤ 2× sperf's ${say(rssOk)}; peak RSS flat in file size ${say(flat)}; same counts ${say(counts)}`,
  );
  // every goal is a gate; one that could not be measured is not met
  return { ok: counts, goals: mbps >= 200 && speedup >= 10 && rssOk === true && flat === true, lines };
}

export async function benchSperf() {
  const name = "cql-tuner beside sperf on sperf's own test data (same run)";
  if (!existsSync(SPERF) || !existsSync(DATA)) {
    // not measured is not met: the goals line of the bench must not count a comparison that never ran
    return { name, lines: [`NOT measured: sperf is not set up (${SPERF} or ${DATA} is absent); run scripts/setup-sperf.sh`], ok: false };
  }
  if (!existsSync(CLI)) return { name, lines: [`NOT measured: ${CLI} is absent; run npm run build`], ok: false };
  const commit = existsSync(join(SRC, '.commit')) ? readFileSync(join(SRC, '.commit'), 'utf8').trim() : 'unknown commit';
  const dir = mkdtempSync(join(tmpdir(), 'cql-tuner-bench-sperf-'));
  try {
    const host = await bundleParsers(dir);
    const floor = [ours(['--version']), timed(SPERF, ['version'], DATA, RUNS)];
    const bare = timed(process.execPath, ['-e', '0'], DATA, RUNS);
    const small = smallFeatures(host);
    const lines = [
      `sperf ${commit.slice(0, 12)} (${SPERF}); median of ${RUNS} runs per command, process start included`,
      `start-up floor: cql-tuner --version ${floor[0].ms.toFixed(0)} ms / ${mib(floor[0])}, sperf version ${floor[1].ms.toFixed(0)} ms / ${mib(floor[1])}` +
        ` (node -e 0: ${bare.ms.toFixed(0)} ms / ${mib(bare)})`,
      ...small.map((f) => f.line),
    ];
    const agreeing = small.filter((f) => f.ok).length;
    lines.push(`features where every figure agrees: ${agreeing}/${small.length}`);
    const big = process.env.BENCH_SPERF_BIG === '0' ? null : await bigFeatures(dir);
    if (big) lines.push(...big.lines);
    else lines.push('large-log comparison skipped (BENCH_SPERF_BIG=0)');
    return { name, lines, ok: agreeing === small.length && (big ? big.ok && big.goals : false) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await benchSperf();
  process.stdout.write(`## ${r.name}\n${r.lines.map((l) => `  ${l}`).join('\n')}\n`);
  process.exitCode = r.ok ? 0 : 1;
}
