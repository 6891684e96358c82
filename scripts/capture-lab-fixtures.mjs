#!/usr/bin/env node
// Captures the project's own fixtures from its own local lab: for each scenario it starts a real Cassandra with
// `cql-tuner lab start`, puts a little schema and load on it, then records every allow-listed nodetool output and
// every CQL virtual table of every node under tests/fixtures/lab/<scenario>/<node>/, with a manifest.json.
//
//   node scripts/capture-lab-fixtures.mjs                         # all scenarios
//   node scripts/capture-lab-fixtures.mjs cassandra-4.1-1node     # only the named ones
//   node scripts/capture-lab-fixtures.mjs cassandra-5.0-2dc       # 3 nodes: 1–2 in datacenter1, 3 in datacenter2
//
// Progress goes to stderr, one line per step. Needs the built bundle (npm run build), Java 17 and Maven (or the
// jars already in the default cache). The lab state lives in a temp CQL_TUNER_HOME, so a user's lab is untouched.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import cassandra from 'cassandra-driver';
import { execa } from 'execa';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'mcp-server', 'dist', 'cql-tuner.js');
const OUT = join(ROOT, 'tests', 'fixtures', 'lab');

const SCENARIOS = [
  { name: 'cassandra-5.0-1node', version: '5.0', nodes: 1 },
  { name: 'cassandra-4.1-1node', version: '4.1', nodes: 1 },
  { name: 'cassandra-5.0-3node', version: '5.0', nodes: 3 },
  { name: 'cassandra-4.1-3node', version: '4.1', nodes: 3 },
  // `lab start --dcs 2`: nodes 1–2 in datacenter1, node 3 in datacenter2 (GossipingPropertyFileSnitch).
  { name: 'cassandra-5.0-2dc', version: '5.0', nodes: 3, dcs: 2 },
];

const DC2 = 'datacenter2';

/** fixture_ks replication: RF = node count in one DC; in two DCs each DC holds a full copy (2 + 1). */
function replicationFor(sc) {
  return sc.dcs === 2 ? { [DC]: 2, [DC2]: 1 } : { [DC]: sc.nodes };
}

function labStartArgs(sc) {
  return ['--nodes', String(sc.nodes), ...(sc.dcs === 2 ? ['--dcs', '2'] : [])];
}

const KS = 'fixture_ks';
const TABLE = 'readings';
const DC = 'datacenter1';
const CQL_PORT = 9042;

const MAX_FILE_BYTES = 200 * 1024;
const MAX_TOTAL_BYTES = 5 * 1024 * 1024;
// system_logs can hold the whole log; the first lines are enough to test a parser.
const ROW_CAPS = { 'system_views.system_logs': 200 };
const WAIT_POLL_MS = 10_000;
const WAIT_MAX_MS = 10 * 60_000;
const NODETOOL_TIMEOUT_MS = 120_000;

const t0 = Date.now();
function log(msg) {
  const secs = ((Date.now() - t0) / 1000).toFixed(0).padStart(5);
  process.stderr.write(`[capture ${secs}s] ${msg}\n`);
}

/** The temp lab home of the scenario running now, for the signal handler. */
let currentHome = null;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// Processes

/** Env for the CLI: our temp lab home, and no external nodetool, so nodetool runs from the lab's own jars. */
function cliEnv(home) {
  const env = { ...process.env, CQL_TUNER_HOME: home };
  for (const k of [
    'CASSANDRA_HOME',
    'CQL_TUNER_NODETOOL',
    'CQL_TUNER_JMX_USERNAME',
    'CQL_TUNER_JMX_PASSWORD',
    'CQL_TUNER_JMX_PASSWORD_FILE',
    'CQL_TUNER_JMX_SSL',
  ]) {
    delete env[k];
  }
  return env;
}

async function cli(home, args, { timeoutMs = 60_000, forwardStderr = false } = {}) {
  const started = Date.now();
  const child = execa(process.execPath, [CLI, ...args], {
    env: cliEnv(home),
    extendEnv: false,
    reject: false,
    timeout: timeoutMs,
    stdin: 'ignore',
    stripFinalNewline: false,
  });
  if (forwardStderr) {
    child.stderr.on('data', (d) => {
      for (const line of String(d).split('\n')) if (line.trim()) process.stderr.write(`           | ${line.trim()}\n`);
    });
  }
  const r = await child;
  return {
    stdout: String(r.stdout ?? ''),
    stderr: String(r.stderr ?? ''),
    exitCode: r.exitCode ?? null,
    timedOut: r.timedOut === true,
    ms: Date.now() - started,
  };
}

/** `pgrep -af CassandraDaemon` lines (pid + command line); [] when none. */
function cassandraProcesses() {
  try {
    return execFileSync('pgrep', ['-af', 'CassandraDaemon'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim() !== '');
  } catch (e) {
    if (e.status === 1) return []; // pgrep: no match
    throw e;
  }
}

/** Another engineer's tests may hold the lab ports: wait for their Cassandra to go away instead of failing. */
async function waitForNoCassandra(deadline) {
  for (;;) {
    const procs = cassandraProcesses();
    if (procs.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`another Cassandra is still running after ${WAIT_MAX_MS / 60_000} min: ${procs.map((p) => p.split(' ')[0]).join(', ')}`);
    }
    log(`another Cassandra is running (pids ${procs.map((p) => p.split(' ')[0]).join(', ')}); waiting ${WAIT_POLL_MS / 1000}s`);
    await sleep(WAIT_POLL_MS);
  }
}

function errorCodeOf(stdout) {
  try {
    return JSON.parse(stdout)?.error?.code ?? null;
  } catch {
    return null;
  }
}

/**
 * Starts the lab; on a port race with someone else's Cassandra it goes back to waiting (same 10-min budget).
 * `during(isStarting)` runs alongside the start (used to catch the nodes before their first read).
 */
async function startLab(home, sc, deadline, during) {
  for (;;) {
    await waitForNoCassandra(deadline);
    // `--version=V`, not `--version V`: commander lets the root program's own --version (print 0.1.0 and exit
    // 0) take the separated form even after the subcommand.
    log(`${sc.name}: lab start ${labStartArgs(sc).join(' ')} --version=${sc.version}`);
    let starting = true;
    const startP = cli(home, ['lab', 'start', ...labStartArgs(sc), `--version=${sc.version}`, '--json'], {
      timeoutMs: 20 * 60_000,
      forwardStderr: true,
    }).finally(() => {
      starting = false;
    });
    const [r, duringResult] = await Promise.all([startP, during ? during(() => starting) : Promise.resolve(null)]);
    if (r.exitCode === 0) {
      const status = JSON.parse(r.stdout);
      if (!status.running) throw new Error(`lab start exited 0 but no lab runs: ${r.stdout.slice(0, 500)}`);
      return { ms: r.ms, status, duringResult };
    }
    const code = errorCodeOf(r.stdout);
    if ((code === 'PORT_IN_USE' || code === 'ALREADY_RUNNING') && Date.now() < deadline) {
      log(`${sc.name}: lab start refused (${code}); waiting for the ports`);
      await sleep(WAIT_POLL_MS);
      continue;
    }
    throw new Error(`lab start failed (exit ${r.exitCode}, ${code ?? 'no code'}): ${(r.stdout + r.stderr).slice(-2000)}`);
  }
}

async function labStatus(home) {
  const r = await cli(home, ['lab', 'status', '--json']);
  if (r.exitCode !== 0) throw new Error(`lab status failed: ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Our daemons are the ones whose command line carries a node dir under our temp home (the lab's marker). */
function ourCassandraPids(home) {
  return cassandraProcesses()
    .filter((l) => l.includes(`-Dcql_tuner.lab_node_dir=${home}`))
    .map((l) => Number(l.split(' ')[0]));
}

async function stopLab(home, { wipe }) {
  const r = await cli(home, ['lab', 'stop', '--json', ...(wipe ? ['--wipe', '--yes'] : [])], { timeoutMs: 120_000, forwardStderr: true });
  if (r.exitCode !== 0) throw new Error(`lab stop failed (exit ${r.exitCode}): ${r.stdout}${r.stderr}`);
  // Stop works by recorded PID; check by our marker too, and finish off only our own leftovers.
  let left = ourCassandraPids(home);
  for (let i = 0; left.length > 0 && i < 20; i++) {
    await sleep(500);
    left = ourCassandraPids(home);
  }
  for (const pid of left) {
    log(`pid ${pid} of our lab survived lab stop; SIGKILL`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return r.ms;
}

// ---------------------------------------------------------------------------------------------------------------
// Output files

/** Cut at a line boundary under the cap and say so on a final marker line. */
function capText(text) {
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_FILE_BYTES) return { text, truncated: false, originalBytes: bytes };
  const budget = MAX_FILE_BYTES - 200;
  let cut = Buffer.from(text).subarray(0, budget).toString('utf8');
  const nl = cut.lastIndexOf('\n');
  if (nl > 0) cut = cut.slice(0, nl + 1);
  const kept = Buffer.byteLength(cut);
  return {
    text: `${cut}# [truncated by capture-lab-fixtures.mjs: kept ${kept} of ${bytes} bytes]\n`,
    truncated: true,
    originalBytes: bytes,
  };
}

class ScenarioOutput {
  constructor(dir, manifest) {
    this.dir = dir;
    this.manifest = manifest;
  }

  async write(node, name, text, entry) {
    const capped = capText(text);
    const rel = `${node}/${name}`;
    await mkdir(join(this.dir, node), { recursive: true });
    await writeFile(join(this.dir, rel), capped.text, 'utf8');
    this.manifest.files.push({
      file: rel,
      node,
      ...entry,
      bytes: Buffer.byteLength(capped.text),
      ...(capped.truncated ? { truncated: true, originalBytes: capped.originalBytes } : {}),
    });
  }

  fail(node, what, error) {
    this.manifest.failures.push({ node, what, error: String(error).slice(0, 2000) });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// nodetool

/** Every allow-listed subcommand, plus the argument variants a parser must also handle. */
function nodetoolCalls() {
  return [
    ['status'],
    ['status', KS],
    ['info'],
    ['version'],
    ['tpstats'],
    ['tablestats'],
    ['tablestats', '-H'],
    ['tablestats', KS, TABLE],
    ['compactionstats'],
    ['compactionstats', '-H'],
    ['tablehistograms', KS, TABLE],
    ['tablehistograms'],
    ['proxyhistograms'],
    ['gcstats'],
    ['describecluster'],
    ['netstats'],
    ['ring'],
    ['gossipinfo'],
    ['statusbinary'],
    ['getcompactionthroughput'],
    ['getstreamthroughput'],
    ['compactionhistory'],
  ];
}

function nodetoolFileName(args, suffix = '') {
  return `nodetool-${args.map((a) => a.replace(/^-+/, '')).join('-')}${suffix}.txt`;
}

async function runNodetoolCli(home, node, args, timeoutMs = NODETOOL_TIMEOUT_MS) {
  const argv = ['nodetool', ...args, '--host', '127.0.0.1', '-p', String(node.jmxPort), '--raw', '--timeout', String(timeoutMs)];
  const r = await cli(home, argv, { timeoutMs: timeoutMs + 30_000 });
  // On failure the CLI still prints nodetool's own error text on stdout; only its own refusals go to stderr.
  let text = r.stdout;
  if (r.exitCode !== 0 && text.trim() === '') text = r.stderr;
  return { argv, r, text };
}

async function recordNodetool(out, node, args, suffix, { argv, r, text }, extra = {}) {
  const flags = args.filter((a) => a.startsWith('-'));
  const [sub, ...targets] = args.filter((a) => !a.startsWith('-'));
  const ntTargets = sub === 'tablestats' && targets.length === 2 ? [`${targets[0]}.${targets[1]}`] : targets;
  await out.write(`node${node.index}`, nodetoolFileName(args, suffix), text, {
    kind: 'nodetool',
    command: ['nodetool', '-h', '127.0.0.1', '-p', String(node.jmxPort), sub, ...flags, ...ntTargets].join(' '),
    argv: ['cql-tuner', ...argv].join(' '),
    exitCode: r.exitCode,
    durationMs: r.ms,
    ...(r.timedOut ? { timedOut: true } : {}),
    ...extra,
  });
  if (r.exitCode !== 0) {
    const firstLine = text.split('\n').find((l) => l.trim()) ?? '(no output)';
    out.fail(`node${node.index}`, `nodetool ${args.join(' ')}${suffix ? ` (${suffix.slice(1)})` : ''}`, `exit ${r.exitCode}: ${firstLine}`);
  }
  log(`  node${node.index} nodetool ${args.join(' ')}${suffix ? ` [${suffix.slice(1)}]` : ''}: exit ${r.exitCode}, ${r.ms} ms`);
}

async function captureNodetool(home, out, node, args, suffix = '') {
  await recordNodetool(out, node, args, suffix, await runNodetoolCli(home, node, args));
}

function tcpOpen(host, port) {
  return new Promise((resolve) => {
    const sock = connect({ host, port });
    const done = (ok) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

const NOT_YET_LISTENING = /Failed to connect|Connection refused|ConnectException|ConnectIOException|NoSuchObjectException/i;
const NOT_INITIALIZED = /Server is not initialized yet/;

/**
 * `lab start` only returns once its CQL readiness probe (a read of system.local) has answered, and on 4.1 the
 * first coordinator read is what registers the ClientRequest latency MBeans. So "before any reads" can only be
 * seen while the nodes are still starting: poll each node's JMX and keep its first real answer, noting whether
 * its CQL port was already open when that nodetool call began.
 */
async function proxyhistogramsDuringStart(home, sc, isStarting) {
  const labJson = join(home, 'lab', 'lab.json');
  const nodes = [];
  for (let i = 1; i <= sc.nodes; i++) nodes.push({ index: i, host: `127.0.0.${i}`, jmxPort: 7199 + 100 * (i - 1) });
  const t = Date.now();
  const got = new Map();
  const notInitialized = new Map();
  await Promise.all(
    nodes.map(async (node) => {
      while (isStarting()) {
        // Until lab.json exists nodetool would run from the newest cached jars, maybe of another version.
        if (!existsSync(labJson) || !(await tcpOpen('127.0.0.1', node.jmxPort))) {
          await sleep(250);
          continue;
        }
        const cqlOpen = await tcpOpen(node.host, CQL_PORT);
        const res = await runNodetoolCli(home, node, ['proxyhistograms'], 30_000);
        if (res.r.exitCode !== 0 && NOT_YET_LISTENING.test(res.text)) {
          await sleep(250);
          continue;
        }
        const extra = { sinceStartMs: Date.now() - t, cqlPortOpenBeforeCall: cqlOpen, labStartStillRunning: isStarting() };
        // 5.0's nodetool refuses until the node is initialised: a real output worth keeping, then poll on.
        if (res.r.exitCode !== 0 && NOT_INITIALIZED.test(res.text)) {
          if (!notInitialized.has(node.index)) notInitialized.set(node.index, { node, res, extra });
          await sleep(250);
          continue;
        }
        got.set(node.index, { node, res, extra });
        return;
      }
    }),
  );
  return { got, notInitialized };
}

// ---------------------------------------------------------------------------------------------------------------
// CQL

function clientFor(hosts, { allowOnly } = {}) {
  const { Client, policies } = cassandra;
  const opts = {
    contactPoints: hosts,
    localDataCenter: DC,
    protocolOptions: { port: CQL_PORT },
    socketOptions: { connectTimeout: 10_000, readTimeout: 60_000 },
    queryOptions: { consistency: cassandra.types.consistencies.localQuorum },
  };
  if (allowOnly) {
    // Virtual tables and system.local/peers answer for the node that serves the query, so pin it. Round robin under
    // the allow-list, not DC-aware: DCAwareRoundRobinPolicy marks a datacenter2 node "ignored" and never queries it.
    delete opts.localDataCenter;
    opts.policies = {
      loadBalancing: new policies.loadBalancing.AllowListPolicy(new policies.loadBalancing.RoundRobinPolicy(), [`${allowOnly}:${CQL_PORT}`]),
    };
  }
  return new Client(opts);
}

/** Runs tasks with at most `limit` in flight, in chunks: the simple "batches of concurrent inserts". */
async function inChunks(items, limit, fn) {
  for (let i = 0; i < items.length; i += limit) await Promise.all(items.slice(i, i + limit).map(fn));
}

const SENSORS = 200;
const ROWS_PER_SENSOR = 100; // 20 000 rows

function payloadFor(sensor, seq) {
  // ~120 bytes of text so partitions have some size without the fixtures' tables being big.
  return `sensor-${sensor}-reading-${seq}-`.padEnd(120, 'abcdefghij');
}

/** Phase 1 (before the restart that flushes): schema, 20k rows, and tombstones of every kind. */
async function loadPhase1(hosts, replication) {
  const client = clientFor(hosts);
  const stats = {};
  try {
    await client.connect();
    const perDc = Object.entries(replication)
      .map(([dc, rf]) => `'${dc}': ${rf}`)
      .join(', ');
    await client.execute(`CREATE KEYSPACE IF NOT EXISTS ${KS} WITH replication = {'class': 'NetworkTopologyStrategy', ${perDc}}`);
    await client.execute(
      `CREATE TABLE IF NOT EXISTS ${KS}.${TABLE} (sensor_id int, seq int, ts timestamp, value double, payload text, ` +
        'PRIMARY KEY (sensor_id, seq)) WITH CLUSTERING ORDER BY (seq DESC)',
    );
    const insert = `INSERT INTO ${KS}.${TABLE} (sensor_id, seq, ts, value, payload) VALUES (?, ?, ?, ?, ?)`;
    const rows = [];
    const base = Date.UTC(2026, 0, 1);
    for (let s = 0; s < SENSORS; s++) {
      for (let q = 0; q < ROWS_PER_SENSOR; q++)
        rows.push([s, q, new Date(base + (s * ROWS_PER_SENSOR + q) * 1000), ((s * 7 + q) % 1000) / 10, payloadFor(s, q)]);
    }
    let t = Date.now();
    await inChunks(rows, 200, (p) => client.execute(insert, p, { prepare: true }));
    stats.rowsInserted = rows.length;
    stats.insertMs = Date.now() - t;
    log(`  inserted ${rows.length} rows in ${stats.insertMs} ms`);

    t = Date.now();
    // Row tombstones: every 10th row of the first 20 sensors.
    const rowDeletes = [];
    for (let s = 0; s < 20; s++) for (let q = 0; q < ROWS_PER_SENSOR; q += 10) rowDeletes.push([s, q]);
    await inChunks(rowDeletes, 100, (p) => client.execute(`DELETE FROM ${KS}.${TABLE} WHERE sensor_id = ? AND seq = ?`, p, { prepare: true }));
    // Range tombstones: a slice of sensors 20..39.
    const rangeDeletes = [];
    for (let s = 20; s < 40; s++) rangeDeletes.push([s, 40, 60]);
    await inChunks(rangeDeletes, 50, (p) => client.execute(`DELETE FROM ${KS}.${TABLE} WHERE sensor_id = ? AND seq >= ? AND seq < ?`, p, { prepare: true }));
    // Cell tombstones: payload set to null on sensors 40..49.
    const cellDeletes = [];
    for (let s = 40; s < 50; s++) for (let q = 0; q < ROWS_PER_SENSOR; q += 2) cellDeletes.push([s, q]);
    await inChunks(cellDeletes, 100, (p) => client.execute(`UPDATE ${KS}.${TABLE} SET payload = null WHERE sensor_id = ? AND seq = ?`, p, { prepare: true }));
    // Partition tombstones: sensors 190..199.
    const partitionDeletes = [];
    for (let s = 190; s < 200; s++) partitionDeletes.push([s]);
    await inChunks(partitionDeletes, 10, (p) => client.execute(`DELETE FROM ${KS}.${TABLE} WHERE sensor_id = ?`, p, { prepare: true }));
    stats.deletes = { rows: rowDeletes.length, ranges: rangeDeletes.length, cells: cellDeletes.length, partitions: partitionDeletes.length };
    stats.deleteMs = Date.now() - t;
    log(`  deletes: ${JSON.stringify(stats.deletes)} in ${stats.deleteMs} ms`);
  } finally {
    await client.shutdown().catch(() => {});
  }
  return stats;
}

/** Phase 2 (after the restart): a few more writes into the memtable, then reads of every coordinator kind. */
async function loadPhase2(hosts) {
  const client = clientFor(hosts);
  const stats = {};
  try {
    await client.connect();
    let t = Date.now();
    const insert = `INSERT INTO ${KS}.${TABLE} (sensor_id, seq, ts, value, payload) VALUES (?, ?, ?, ?, ?)`;
    const rows = [];
    for (let s = 0; s < 50; s++) for (let q = ROWS_PER_SENSOR; q < ROWS_PER_SENSOR + 20; q++) rows.push([s, q, new Date(), q / 3, payloadFor(s, q)]);
    await inChunks(rows, 200, (p) => client.execute(insert, p, { prepare: true }));
    stats.rowsInserted = rows.length;

    const reads = [];
    for (let i = 0; i < 1000; i++) reads.push((i * 37) % SENSORS);
    await inChunks(reads, 100, (s) => client.execute(`SELECT * FROM ${KS}.${TABLE} WHERE sensor_id = ? LIMIT 50`, [s], { prepare: true }));
    const slices = [];
    for (let i = 0; i < 300; i++) slices.push([(i * 13) % SENSORS, 30, 70]);
    await inChunks(slices, 100, (p) =>
      client.execute(`SELECT seq, value FROM ${KS}.${TABLE} WHERE sensor_id = ? AND seq >= ? AND seq < ?`, p, { prepare: true }),
    );
    // Whole partitions that hold tombstones, so the tombstones-per-read histograms are not all zero.
    const full = [];
    for (let s = 0; s < 50; s++) full.push(s);
    for (let s = 190; s < 200; s++) full.push(s);
    await inChunks(full, 20, (s) => client.execute(`SELECT * FROM ${KS}.${TABLE} WHERE sensor_id = ?`, [s], { prepare: true }));
    // A range scan (coordinator RangeSlice latency).
    let scanned = 0;
    const rs = await client.execute(`SELECT sensor_id, seq FROM ${KS}.${TABLE} LIMIT 5000`, [], { fetchSize: 1000 });
    for await (const _row of rs) scanned++;
    // A few lightweight transactions (coordinator CAS read/write latency).
    const lwt = [];
    for (let i = 0; i < 20; i++) lwt.push(i);
    await inChunks(lwt, 5, (i) =>
      client.execute(`INSERT INTO ${KS}.${TABLE} (sensor_id, seq, value) VALUES (?, ?, ?) IF NOT EXISTS`, [1000 + i, 0, i], { prepare: true }),
    );
    await inChunks(lwt, 5, (i) =>
      client.execute(`SELECT * FROM ${KS}.${TABLE} WHERE sensor_id = ?`, [1000 + i], {
        prepare: true,
        consistency: cassandra.types.consistencies.serial,
      }),
    );
    stats.reads = {
      partitionLimit50: reads.length,
      slices: slices.length,
      fullPartitions: full.length,
      rangeScanRows: scanned,
      lwtInserts: lwt.length,
      serialReads: lwt.length,
    };
    stats.ms = Date.now() - t;
    log(`  phase 2: ${rows.length} more rows, reads ${JSON.stringify(stats.reads)} in ${stats.ms} ms`);
  } finally {
    await client.shutdown().catch(() => {});
  }
  return stats;
}

// TSV as the project's parser reads it (core/parse/tsv.ts): null = empty cell, '' = \0, \ tab CR LF escaped.
function escapeCell(s) {
  if (s === '') return '\\0';
  return s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** Driver values inside collections, as JSON-able values (driver objects become their string form). */
function jsonable(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
  if (Array.isArray(v)) return v.map(jsonable);
  if (v instanceof cassandra.types.Tuple) return v.values().map(jsonable);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(jsonable(k)), jsonable(x)]));
  if (v instanceof Set) return [...v].map(jsonable);
  if (Object.getPrototypeOf(v) === Object.prototype) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonable(x)]));
  return v.toString(); // Long, BigDecimal, Integer (varint), Uuid, TimeUuid, InetAddress, LocalDate, LocalTime, Duration
}

function tsvCell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return escapeCell(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
  const isCollection =
    Array.isArray(v) || v instanceof Map || v instanceof Set || v instanceof cassandra.types.Tuple || Object.getPrototypeOf(v) === Object.prototype;
  if (isCollection) return escapeCell(JSON.stringify(jsonable(v)));
  return escapeCell(v.toString());
}

const quoteId = (id) => `"${id.replace(/"/g, '""')}"`;

/** One table as TSV, reading pages until the row cap or the byte cap (so a huge table is never held whole). */
async function tableAsTsv(client, ks, table) {
  const rs = await client.execute(`SELECT * FROM ${quoteId(ks)}.${quoteId(table)}`, [], { fetchSize: 500, prepare: false });
  const columns = (rs.columns ?? []).map((c) => c.name);
  const lines = [columns.map(escapeCell).join('\t')];
  const rowCap = ROW_CAPS[`${ks}.${table}`] ?? Infinity;
  let bytes = Buffer.byteLength(lines[0]) + 1;
  let rows = 0;
  let stoppedAt = null;
  for await (const row of rs) {
    if (rows >= rowCap) {
      stoppedAt = `row cap ${rowCap}`;
      break;
    }
    const line = columns.map((c) => tsvCell(row[c])).join('\t');
    bytes += Buffer.byteLength(line) + 1;
    lines.push(line);
    rows++;
    // A little over the file cap is enough for capText to cut at a clean line.
    if (bytes > MAX_FILE_BYTES + 4096) {
      stoppedAt = 'byte cap';
      break;
    }
  }
  let text = `${lines.join('\n')}\n`;
  if (stoppedAt === `row cap ${rowCap}`) text += `# [truncated by capture-lab-fixtures.mjs: first ${rowCap} rows kept]\n`;
  return { text, rows, columns: columns.length, stoppedAt };
}

async function captureCqlTables(out, node) {
  const nodeName = `node${node.index}`;
  const client = clientFor([node.host], { allowOnly: node.host });
  try {
    await client.connect();
    const list = await client.execute('SELECT keyspace_name, table_name FROM system_virtual_schema.tables');
    const vts = list.rows.map((r) => [r.keyspace_name, r.table_name]).sort((a, b) => `${a[0]}.${a[1]}`.localeCompare(`${b[0]}.${b[1]}`));
    log(`  ${nodeName}: ${vts.length} virtual tables`);
    const targets = [
      ...vts.map(([ks, t]) => ({ ks, t, name: `vt-${ks}.${t}.tsv`, kind: 'virtual-table' })),
      ...['local', 'peers_v2', 'peers'].map((t) => ({ ks: 'system', t, name: `table-system.${t}.tsv`, kind: 'system-table' })),
    ];
    for (const { ks, t, name, kind } of targets) {
      const query = `SELECT * FROM ${ks}.${t}`;
      const started = Date.now();
      try {
        const r = await tableAsTsv(client, ks, t);
        const ms = Date.now() - started;
        await out.write(nodeName, name, r.text, {
          kind,
          query,
          host: node.host,
          exitCode: 0,
          durationMs: ms,
          rows: r.rows,
          ...(r.stoppedAt ? { stoppedAt: r.stoppedAt } : {}),
        });
      } catch (e) {
        const ms = Date.now() - started;
        const msg = e instanceof Error ? e.message : String(e);
        // Skipped on purpose: a table that fails to read gets no file, only this record.
        out.manifest.skipped.push({ node: nodeName, kind, query, durationMs: ms, error: msg.slice(0, 1000) });
        out.fail(nodeName, query, msg);
        log(`  ${nodeName} ${query}: FAILED ${msg.split('\n')[0]}`);
      }
    }
    const rv = await client.execute('SELECT release_version FROM system.local');
    return rv.first()?.release_version ?? null;
  } finally {
    await client.shutdown().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Machine and scenario

function machineInfo() {
  const uname = execFileSync('uname', ['-sr'], { encoding: 'utf8' }).trim();
  return { uname, java: null, cpus: availableParallelism(), memGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
}

async function javaVersionLine() {
  const r = await execa('java', ['-version'], { reject: false });
  // java -version prints on stderr.
  return (String(r.stderr || r.stdout).split('\n')[0] ?? '').trim() || '(java not found)';
}

async function runScenario(sc, machine) {
  const scT0 = Date.now();
  const finalDir = join(OUT, sc.name);
  const partial = join(OUT, `.${sc.name}.partial`);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const manifest = {
    scenario: sc.name,
    cassandraVersion: null,
    labVersion: sc.version,
    nodes: sc.nodes,
    datacenters: sc.dcs ?? 1,
    capturedAt: new Date().toISOString(),
    producedBy: `node scripts/capture-lab-fixtures.mjs ${sc.name}`,
    machine,
    load: {},
    timingsMs: {},
    files: [],
    skipped: [],
    failures: [],
    notes: [],
  };
  const out = new ScenarioOutput(partial, manifest);
  const home = await mkdtemp(join(tmpdir(), 'cql-tuner-fixtures-'));
  currentHome = home;
  const deadline = Date.now() + WAIT_MAX_MS;
  let started = false;
  log(`${sc.name}: begin (lab home ${home})`);
  try {
    log(`${sc.name}: proxyhistograms polled on JMX during the first start, before the lab's first CQL read`);
    const start1 = await startLab(home, sc, deadline, (isStarting) => proxyhistogramsDuringStart(home, sc, isStarting));
    started = true;
    manifest.timingsMs.firstStart = start1.ms;
    manifest.cassandraVersion = start1.status.version;
    const nodes = start1.status.nodes;
    const hosts = nodes.map((n) => n.host);
    log(`${sc.name}: up in ${(start1.ms / 1000).toFixed(1)}s: Cassandra ${manifest.cassandraVersion}, pids ${nodes.map((n) => n.pid).join(', ')}`);

    const early = start1.duringResult ?? { got: new Map(), notInitialized: new Map() };
    for (const n of nodes) {
      const ni = early.notInitialized.get(n.index);
      if (ni) await recordNodetool(out, ni.node, ['proxyhistograms'], '-while-starting', ni.res, ni.extra);
      const g = early.got.get(n.index);
      // An answer that began after the CQL port opened may already include the lab probe's reads: not kept.
      if (g && !g.extra.cqlPortOpenBeforeCall) await recordNodetool(out, g.node, ['proxyhistograms'], '-before-reads', g.res, g.extra);
      else {
        manifest.notes.push(
          `node${n.index}: no proxyhistograms answer before its CQL port opened (5.0 nodetool refuses with "Server is not ` +
            'initialized yet" until then; see -while-starting), so there is no -before-reads file; -after-start is the earliest',
        );
      }
    }
    // After start, before our load: only the lab's own readiness probes have read by now.
    log(`${sc.name}: proxyhistograms right after start, before the load`);
    for (const n of nodes) await captureNodetool(home, out, n, ['proxyhistograms'], '-after-start');

    log(`${sc.name}: load phase 1 (schema, ${SENSORS * ROWS_PER_SENSOR} rows, tombstones)`);
    let t = Date.now();
    manifest.load.replication = replicationFor(sc);
    manifest.load.phase1 = await loadPhase1(hosts, replicationFor(sc));
    manifest.timingsMs.loadPhase1 = Date.now() - t;

    // nodetool flush is not on the read-only allow-list; a clean restart drains, which flushes every memtable
    // into SSTables, so tablestats/tablehistograms show real SSTables and tombstones on disk.
    log(`${sc.name}: restart (drain on shutdown flushes memtables to SSTables)`);
    t = Date.now();
    await stopLab(home, { wipe: false });
    started = false;
    const start2 = await startLab(home, sc, deadline);
    started = true;
    manifest.timingsMs.restart = Date.now() - t;

    log(`${sc.name}: load phase 2 (more writes, reads, range scan, LWT)`);
    t = Date.now();
    manifest.load.phase2 = await loadPhase2(hosts);
    manifest.timingsMs.loadPhase2 = Date.now() - t;

    const status = await labStatus(home);
    const live = status.nodes ?? start2.status.nodes;
    t = Date.now();
    for (const n of live) {
      log(`${sc.name}: node${n.index} (${n.host}, JMX ${n.jmxPort}): nodetool`);
      for (const args of nodetoolCalls()) await captureNodetool(home, out, n, args);
      log(`${sc.name}: node${n.index}: CQL tables`);
      const rv = await captureCqlTables(out, n);
      if (rv && manifest.cassandraVersion && rv !== manifest.cassandraVersion) {
        out.fail(`node${n.index}`, 'release_version', `node reports ${rv}, lab says ${manifest.cassandraVersion}`);
      }
    }
    manifest.timingsMs.capture = Date.now() - t;
  } finally {
    if (started || ourCassandraPids(home).length > 0) {
      log(`${sc.name}: lab stop --wipe`);
      const t = Date.now();
      try {
        await stopLab(home, { wipe: true });
      } catch (e) {
        log(`${sc.name}: stop failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      manifest.timingsMs.stop = Date.now() - t;
    }
    const left = ourCassandraPids(home);
    if (left.length > 0) log(`${sc.name}: WARNING our Cassandra pids still alive: ${left.join(', ')}`);
    else await rm(home, { recursive: true, force: true });
    currentHome = null;
  }
  manifest.timingsMs.total = Date.now() - scT0;
  manifest.files.sort((a, b) => a.file.localeCompare(b.file));
  await writeFile(join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // Swap in only a complete capture, so a failed run never leaves half a scenario behind.
  await rm(finalDir, { recursive: true, force: true });
  await rename(partial, finalDir);
  log(`${sc.name}: done in ${(manifest.timingsMs.total / 1000).toFixed(0)}s: ${manifest.files.length} files, ${manifest.failures.length} failures`);
  return manifest;
}

// ---------------------------------------------------------------------------------------------------------------
// README

async function dirBytes(dir) {
  let total = 0;
  let files = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const r = await dirBytes(p);
      total += r.total;
      files += r.files;
    } else {
      total += (await stat(p)).size;
      files++;
    }
  }
  return { total, files };
}

async function writeReadme() {
  const manifests = [];
  for (const sc of SCENARIOS) {
    const p = join(OUT, sc.name, 'manifest.json');
    if (existsSync(p)) manifests.push(JSON.parse(await readFile(p, 'utf8')));
  }
  const rows = manifests.map((m) => {
    const nodetool = m.files.filter((f) => f.kind === 'nodetool').length;
    const cql = m.files.length - nodetool;
    return `| \`${m.scenario}\` | ${m.cassandraVersion} | ${m.nodes}${m.datacenters === 2 ? ' (2 DCs)' : ''} | ${m.capturedAt.slice(0, 16).replace('T', ' ')} UTC | ${nodetool} | ${cql} | ${m.failures.length} | ${m.machine.uname}; ${m.machine.java}; ${m.machine.cpus} CPUs, ${m.machine.memGiB} GiB |`;
  });
  const failures = manifests.flatMap((m) => m.failures.map((f) => `- \`${m.scenario}\` ${f.node}: ${f.what} — ${f.error.split('\n')[0].slice(0, 200)}`));
  const notes = manifests.flatMap((m) => (m.notes ?? []).map((n) => `- \`${m.scenario}\` ${n}`));
  const truncated = manifests.flatMap((m) =>
    m.files
      .filter((f) => f.truncated || f.stoppedAt)
      .map((f) => `- \`${m.scenario}/${f.file}\`: ${f.truncated ? `kept ${f.bytes} of ${f.originalBytes} bytes` : f.stoppedAt}`),
  );
  const text = `# Lab fixtures: the project's own captures

Raw outputs that cql-tuner captured from its own local lab (\`cql-tuner lab start\`, real Apache Cassandra from
Maven Central jars on 127.0.0.1–3), so parser and rule tests also run on outputs this project produced itself,
not only on the shared corpus. They are the project's own captures, not copied from anywhere.

Produced by:

\`\`\`
npm run build
node scripts/capture-lab-fixtures.mjs            # all scenarios; or name some, e.g. cassandra-4.1-1node
\`\`\`

Per scenario the script starts the lab in a temp \`CQL_TUNER_HOME\` (default jar cache), creates keyspace
\`${KS}\` (NetworkTopologyStrategy, RF = node count; in the 2-DC scenario ${DC}: 2, ${DC2}: 1) with table \`${KS}.${TABLE}\` (partition key \`sensor_id\`,
clustering key \`seq\`), writes ${SENSORS * ROWS_PER_SENSOR} rows in chunks of 200 concurrent inserts, deletes rows, a range, cells and whole
partitions (tombstones), restarts the lab (nodetool flush is not on the read-only allow-list; the drain on
shutdown flushes the memtables, so SSTables exist), writes 1000 more rows, reads (single-partition, slices,
whole partitions with tombstones, a range scan, 20 LWT inserts and SERIAL reads), and then captures on every node:

- \`nodeN/nodetool-*.txt\`: every allow-listed nodetool subcommand through
  \`cql-tuner nodetool <sub> [ks] [table] --host 127.0.0.1 -p <jmx> --raw\` (JMX 7199/7299/7399 for nodes 1/2/3),
  plus \`tablestats -H\`, \`compactionstats -H\`, \`status ${KS}\`, \`tablestats ${KS}.${TABLE}\`,
  \`tablehistograms ${KS} ${TABLE}\` and \`tablehistograms\` without arguments. A failed command keeps its
  error text (the manifest has its exit code). proxyhistograms is also taken around the first start:
  \`lab start\` itself reads \`system.local\` through CQL to see that a node is up, so the only moment before
  any read is while the node is still starting. The script polls each node's JMX during \`lab start\`:
  \`-while-starting\` is 5.0's refusal (\`Server is not initialized yet, cannot run nodetool.\`), \`-before-reads\`
  the first answer given before the node's CQL port opened (on 4.1 the known
  \`InstanceNotFoundException … ClientRequest,scope=Read,name=Latency\` failure; 5.0 refuses nodetool until CQL
  is open, so it has none), and \`-after-start\` the answer right after \`lab start\` returned, before the load
  (only the lab's own probe reads in it).
- \`nodeN/vt-<keyspace>.<table>.tsv\`: every table listed in \`system_virtual_schema.tables\` of that node, and
  \`nodeN/table-system.{local,peers_v2,peers}.tsv\`, read with the driver pinned to that node.
- \`manifest.json\`: scenario, Cassandra version, node count, capture date, machine, load done, timings, and per
  file: node, command or query, exit code, duration (ms), bytes, rows, truncation; \`skipped\` lists tables that
  failed to read (no file written), \`failures\` every non-zero exit or error.

TSV format (the one \`core/parse/tsv.ts\` reads): header line of column names, one row per line, tab-separated;
null = empty cell, empty string = \`\\0\`; backslash, tab, CR and LF inside values escaped as \`\\\\ \\t \\r \\n\`;
timestamps ISO 8601; bigint/decimal/varint/uuid/inet/duration/date/time via the driver's \`toString()\`;
maps, sets, lists and tuples as JSON (driver objects inside them as strings); blobs as \`0x…\` hex.

Size caps: each file at most 200 KB (cut at a line boundary, with a final \`# [truncated by
capture-lab-fixtures.mjs …]\` line, and \`truncated: true\` in the manifest); \`system_views.system_logs\` keeps
its first 200 rows.

| scenario | Cassandra | nodes | captured | nodetool files | CQL files | failures | machine |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

${failures.length ? `Recorded failures (the outputs are kept; these are what the real tools said):\n\n${failures.join('\n')}\n` : 'No failures recorded.\n'}
${truncated.length ? `Truncated:\n\n${truncated.join('\n')}\n` : 'Nothing truncated.\n'}
${notes.length ? `Notes:\n\n${notes.join('\n')}\n` : ''}`;
  await writeFile(join(OUT, 'README.md'), text);
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !SCENARIOS.some((s) => s.name === w));
  if (unknown.length) {
    process.stderr.write(`unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}\n`);
    process.exit(2);
  }
  const scenarios = wanted.length ? SCENARIOS.filter((s) => wanted.includes(s.name)) : SCENARIOS;
  if (!existsSync(CLI)) {
    process.stderr.write(`${relative(process.cwd(), CLI)} is missing: run \`npm run build\` first\n`);
    process.exit(2);
  }
  const machine = machineInfo();
  machine.java = await javaVersionLine();
  log(`machine: ${machine.uname}; ${machine.java}; ${machine.cpus} CPUs; ${machine.memGiB} GiB; node ${machine.node}`);
  await mkdir(OUT, { recursive: true });

  const results = [];
  let failed = 0;
  for (const sc of scenarios) {
    try {
      const m = await runScenario(sc, machine);
      results.push({ scenario: sc.name, ok: true, files: m.files.length, failures: m.failures.length, seconds: Math.round(m.timingsMs.total / 1000) });
    } catch (e) {
      failed++;
      await rm(join(OUT, `.${sc.name}.partial`), { recursive: true, force: true });
      log(`${sc.name}: FAILED: ${e instanceof Error ? e.stack : String(e)}`);
      results.push({ scenario: sc.name, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
  await writeReadme();

  const leftovers = cassandraProcesses();
  log(
    leftovers.length
      ? `CassandraDaemon processes still running (not started by this run unless listed above): ${leftovers.map((l) => l.split(' ')[0]).join(', ')}`
      : 'no CassandraDaemon process left',
  );
  const size = await dirBytes(OUT);
  log(`fixtures: ${size.files} files, ${(size.total / 1024).toFixed(0)} KiB in ${relative(ROOT, OUT)}`);
  if (size.total > MAX_TOTAL_BYTES) log(`WARNING: fixtures exceed ${MAX_TOTAL_BYTES / 2 ** 20} MiB`);
  for (const r of results) log(`${r.scenario}: ${r.ok ? `ok, ${r.files} files, ${r.failures} failures, ${r.seconds}s` : `FAILED: ${r.error}`}`);
  process.exitCode = failed ? 1 : 0;
}

// Ctrl-C / kill: a default signal exit would skip the finally blocks and leave the lab's detached daemons
// running, so stop the current lab first. A second signal exits at once.
let signalled = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (signalled) process.exit(130);
    signalled = true;
    log(`${sig}: stopping the lab of the current scenario, then exiting (send again to exit now)`);
    const home = currentHome;
    (home ? stopLab(home, { wipe: true }) : Promise.resolve())
      .catch((e) => log(`stop failed: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => process.exit(130));
  });
}

await main();
