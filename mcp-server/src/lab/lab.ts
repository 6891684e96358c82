// A detached daemon that outlives this call: Node's spawn (argv array, no shell) rather than execa, whose
// promise would settle (and reject on our own SIGTERM) long after the caller has moved on.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProgressFn } from '../core/progress.js';
import { agentFlag, JMX_EXPORTER_VERSION, LAB_METRICS_PORT, resolveJmxExporterAgent, writeAgentConfig } from './metrics-agent.js';
import {
  LAB_CQL_PORT,
  LAB_SEED,
  LAB_STORAGE_PORT,
  renderCassandraYaml,
  renderClientLogbackXml,
  renderNodeLogbackXml,
  renderRackDcProperties,
} from './config-files.js';
import { probeCql } from './cql-probe.js';
import { LabError } from './errors.js';
import { tailLines, writeFileAtomic, writeFileIfChanged } from './fs-util.js';
import { heapToMb, normalizeHeap } from './heap.js';
import { DAEMON_CLASS, NODETOOL_CLASS, findJammJar, nodetoolJvmFlags, serverJvmFlags } from './jvm-flags.js';
import { NODE_SUBDIRS, cassandraCacheRoot, labNet, labPaths, nodeAddressOn, nodeDirFor, nodeFiles } from './paths.js';
import { type LabClientAuth, labClientAuth, setUpLabRoles } from './auth-setup.js';
import {
  type LabSecrets,
  type LabSecurityOptions,
  LAB_BENCH_ROLE,
  LAB_JMX_USER,
  LAB_TOOL_ROLE,
  ensureLabSecrets,
  isSecured,
  wipeLabSecrets,
} from './security.js';
import { type PortNeed, checkJava, checkPortsFree, findJava } from './preflight.js';
import { isAlive, isLabProcess, procEntryExists, signalLabProcess } from './proc.js';
import { type ResolvedJars, cachedJars, resolveCassandraJars } from './resolve.js';
import { readLabState, removeLabState, writeLabState } from './state.js';
import { type LabDatacenters, checkTopology, nodePlacement } from './topology.js';
import type { LabNode, LabNodeStatus, LabSecurityState, LabState, LabStatus } from './types.js';
import { type LabVersion, SUPPORTED_LAB_VERSIONS, labVersionsNewestFirst, normalizeLabVersion } from './versions.js';
import { inheritedEnv } from '../collect/child-env.js';

export const DEFAULT_NODE_TIMEOUT_MS = 180_000;
export const DEFAULT_STOP_TIMEOUT_MS = 30_000;
const MAX_NODES = 3;
const DATA_MARKER = 'data.json';

const noop: ProgressFn = () => {};

/** A caller's progress callback must not be able to break a start or a stop half-way. */
function safeProgress(fn: ProgressFn | undefined): ProgressFn {
  if (!fn) return noop;
  return (e) => {
    try {
      fn(e);
    } catch {
      // ignored on purpose
    }
  };
}

/**
 * One start at a time per state dir (an MCP client may well call start twice): an O_EXCL lock file holding the
 * starter's PID; a lock whose owner is gone is stale and taken over.
 */
async function acquireStartLock(stateDir: string): Promise<() => Promise<void>> {
  await mkdir(stateDir, { recursive: true });
  const path = join(stateDir, '.start.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(path, 'wx');
      try {
        await fh.writeFile(`${process.pid}\n`);
      } finally {
        await fh.close();
      }
      return () => rm(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number.parseInt((await readFile(path, 'utf8').catch(() => '')).trim(), 10);
      if (Number.isInteger(owner) && owner > 0 && (await isAlive(owner))) {
        throw new LabError(
          'ALREADY_RUNNING',
          `Another lab start is in progress (pid ${owner}, state in ${stateDir}).`,
          'Wait for it to finish, then use `cql-tuner lab status`.',
        );
      }
      await rm(path, { force: true });
    }
  }
  throw new LabError('ALREADY_RUNNING', `Could not take the start lock in ${stateDir}.`, 'Retry in a moment.');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function secondsSince(t: number): string {
  return ((Date.now() - t) / 1000).toFixed(1);
}

function abortedError(): LabError {
  return new LabError('ABORTED', 'Lab start was cancelled; the nodes it had started were stopped.', 'Start the lab again when ready.');
}

/** PIDs from lab.json that are still our daemons (a reused PID does not count). */
async function liveLabPids(state: LabState): Promise<number[]> {
  const live: number[] = [];
  for (const n of state.nodes) if (n.pid !== null && (await isLabProcess(n.pid, n.dir))) live.push(n.pid);
  return live;
}

/**
 * Node data is only reusable by the same release and cluster shape: 5.0 sstables cannot be read by 4.1, and a
 * 1-node lab started on a former 3-node node1 would keep waiting for peers. Anything else is wiped first.
 */
async function prepareDataDirs(stateDir: string, fullVersion: string, nodes: number, dcs: LabDatacenters, progress: ProgressFn): Promise<void> {
  const marker = join(stateDir, DATA_MARKER);
  // A node refuses to start in another DC than its data says (and SimpleSnitch data under GossipingPropertyFileSnitch
  // is another snitch), so the DC count is part of the shape. 1-DC markers keep their old form.
  const want = dcs === 2 ? { fullVersion, nodes, datacenters: dcs } : { fullVersion, nodes };
  const shape = (n: unknown, d: unknown): string => `${String(n)}-node${d === 2 ? ' 2-DC' : ''}`;
  const raw = await readFile(marker, 'utf8').catch(() => null);
  let same = false;
  if (raw !== null) {
    try {
      const have = JSON.parse(raw) as { fullVersion?: unknown; nodes?: unknown; datacenters?: unknown };
      same = have.fullVersion === fullVersion && have.nodes === nodes && (have.datacenters ?? 1) === dcs;
      if (!same) {
        progress({
          message: `Wiping data of an earlier ${shape(have.nodes, have.datacenters)} ${String(have.fullVersion)} lab (not reusable by a ${shape(nodes, dcs)} ${fullVersion} lab)`,
        });
      }
    } catch {
      same = false;
    }
  }
  if (!same) {
    for (let i = 1; i <= MAX_NODES; i++) await rm(nodeDirFor(stateDir, i), { recursive: true, force: true });
  }
  await writeFileAtomic(marker, `${JSON.stringify(want)}\n`);
}

interface NodeSecurity {
  options: LabSecurityOptions;
  secrets: LabSecrets | null;
  /** Nodes in the lab (internode TLS only between several). */
  count: number;
}

function yamlSecurity(node: LabNode, sec: NodeSecurity): NonNullable<Parameters<typeof renderCassandraYaml>[0]['security']> | undefined {
  const { options: o, secrets } = sec;
  if (!isSecured(o) || !secrets) return undefined;
  if (!o.auth && !o.tls) return undefined;
  const tls = o.tls
    ? {
        keystore: secrets.nodeKeystore(node.index),
        truststore: secrets.truststore,
        password: secrets.passwords.store,
        requireClientAuth: o.clientCertAuth,
        internode: sec.count > 1,
      }
    : null;
  return { auth: o.auth, tls };
}

async function writeNodeFiles(stateDir: string, node: LabNode, version: LabVersion, dcs: LabDatacenters, seed: string, sec: NodeSecurity): Promise<void> {
  const f = nodeFiles(stateDir, node.index);
  for (const sub of NODE_SUBDIRS) await mkdir(join(f.dir, sub), { recursive: true });
  const host = node.host;
  const security = yamlSecurity(node, sec);
  const extra = { ...(seed === LAB_SEED ? {} : { seed }), ...(security ? { security } : {}) };
  // One DC: exactly the files of a single-DC lab (SimpleSnitch, no rackdc file), so its data and outputs are unchanged.
  if (dcs === 2) {
    await writeFileAtomic(f.yaml, renderCassandraYaml({ version, host, nodeDir: f.dir, snitch: 'GossipingPropertyFileSnitch', ...extra }));
    await writeFileAtomic(f.rackDc, renderRackDcProperties(node));
  } else {
    await writeFileAtomic(f.yaml, renderCassandraYaml({ version, host, nodeDir: f.dir, ...extra }));
    await rm(f.rackDc, { force: true });
  }
  await writeFileAtomic(f.logback, renderNodeLogbackXml());
}

interface Spawned {
  child: ChildProcess;
  pid: number;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
}

async function spawnNode(java: string, argv: string[], cwd: string, consoleLog: string): Promise<Spawned> {
  // Truncated per start, so its tail in a NODE_DIED message is about this start only.
  const fd = openSync(consoleLog, 'w');
  let child: ChildProcess;
  try {
    // Detached = own session and process group: the daemon outlives the CLI, and stop can signal the group.
    // cql-tuner's own credentials (CQL_TUNER_*PASSWORD/TOKEN) are not the node's business
    child = spawn(java, argv, { cwd, detached: true, stdio: ['ignore', fd, fd], env: inheritedEnv() });
  } finally {
    closeSync(fd); // the child holds its own copy
  }
  if (child.pid === undefined) {
    const err = await new Promise<Error>((resolve) => child.once('error', resolve));
    throw new LabError('NO_JAVA', `Could not start ${java}: ${err.message}.`, 'Check JAVA_HOME / PATH.');
  }
  child.on('error', () => {}); // errors after spawn show up as exit; never crash the host process
  const s: Spawned = { child, pid: child.pid, exit: null };
  child.once('exit', (code, signal) => {
    s.exit = { code, signal };
  });
  child.unref();
  return s;
}

async function nodeDiedError(node: LabNode, exit: Spawned['exit'], consoleLog: string): Promise<LabError> {
  const how = exit ? (exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`) : 'exited';
  const log = await tailLines(node.logFile, 20);
  const con = await tailLines(consoleLog, 10);
  const parts = [`Cassandra node ${node.index} (${node.host}) ${how} during startup.`];
  if (log.length > 0) parts.push(`Last lines of ${node.logFile}:`, ...log);
  if (con.length > 0) parts.push(`Last lines of ${consoleLog}:`, ...con);
  if (log.length === 0 && con.length === 0) parts.push(`(no output in ${node.logFile} or ${consoleLog})`);
  return new LabError(
    'NODE_DIED',
    parts.join('\n'),
    'Read the log lines above. Common causes: not enough memory for the heap (try --heap 512M), a port taken ' +
      'meanwhile, or data left by another release (`cql-tuner lab stop --wipe --yes`, then start again).',
  );
}

async function waitForCql(
  node: LabNode,
  spawned: Spawned,
  fullVersion: string,
  consoleLog: string,
  timeoutMs: number,
  progress: ProgressFn,
  ready: number,
  total: number,
  signal?: AbortSignal,
  auth: () => Promise<LabClientAuth> = () => Promise.resolve({}),
): Promise<number> {
  const started = Date.now();
  let lastError = '';
  let lastBeat = 0;
  for (;;) {
    if (signal?.aborted) throw abortedError();
    if (spawned.exit || !(await isAlive(spawned.pid))) {
      // Give the exit event a moment so the message can say how it ended.
      if (!spawned.exit) await sleep(200);
      throw await nodeDiedError(node, spawned.exit, consoleLog);
    }
    const probe = await probeCql(node.host, 5000, await auth());
    if (probe.ok) {
      if (probe.releaseVersion !== fullVersion) {
        progress({ message: `Warning: ${node.host} reports release_version ${probe.releaseVersion}, expected ${fullVersion}` });
      }
      return Date.now() - started;
    }
    lastError = probe.error;
    if (Date.now() - started > timeoutMs) {
      const log = await tailLines(node.logFile, 20);
      throw new LabError(
        'CQL_TIMEOUT',
        `Node ${node.index} (${node.host}) did not answer CQL on ${node.host}:${LAB_CQL_PORT} within ${Math.round(timeoutMs / 1000)}s ` +
          `(last: ${lastError}).${log.length ? `\nLast lines of ${node.logFile}:\n${log.join('\n')}` : ''}`,
        'The machine may be overloaded (2 cores are slow for 3 nodes): retry with a longer timeout, or with fewer nodes.',
      );
    }
    if (Date.now() - lastBeat >= 2000) {
      lastBeat = Date.now();
      progress({ message: `Waiting for CQL on ${node.host}:${LAB_CQL_PORT} (node ${node.index}, ${secondsSince(started)}s)`, progress: ready, total });
    }
    await sleep(1000, signal);
  }
}

/** Nodes 1..n as they will be recorded, before any is started. */
function plannedNodes(stateDir: string, n: number, dcs: LabDatacenters, net: string): LabNode[] {
  const nodes: LabNode[] = [];
  for (let i = 1; i <= n; i++) {
    const { host, jmxPort } = nodeAddressOn(net, i);
    const f = nodeFiles(stateDir, i);
    nodes.push({ index: i, host, cqlPort: LAB_CQL_PORT, jmxPort, pid: null, dir: f.dir, logFile: f.systemLog, ...nodePlacement(i, dcs) });
  }
  return nodes;
}

export interface StartLabOptions {
  nodes: 1 | 3;
  /** A LabVersion ('5.0', '4.1') or an exact release such as '4.1.5'. */
  version: string;
  /** -Xms/-Xmx per node, e.g. '512M' (default) or '1G'. */
  heap?: string;
  /** 1 (default) or 2: nodes 1–2 in datacenter1 and node 3 in datacenter2 (needs nodes: 3). */
  datacenters?: number;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** Per node: how long to wait for it to answer CQL (default 180 s). */
  timeoutMs?: number;
  /** PasswordAuthenticator + CassandraAuthorizer, a set-up superuser and the tool's least-privilege role. */
  auth?: boolean;
  /** Client TLS (internode too with 3 nodes), certificates made by keytool into the lab dir. */
  tls?: boolean;
  /** With tls: require a client certificate signed by the lab CA. */
  clientCertAuth?: boolean;
  /** JMX password and access files, as cassandra-env.sh sets them. */
  jmxAuth?: boolean;
  /** JMX over SSL with the node certificates (nodetool then needs --ssl and the lab CA). */
  jmxSsl?: boolean;
  /** Each node serves Prometheus metrics on <address>:7070 through the JMX exporter java agent. */
  metrics?: boolean;
}

/**
 * Starts a 1- or 3-node Cassandra on 127.0.0.1–3 from Maven Central jars, one node after another (each once the
 * previous one answers CQL). On failure every node started by this call is stopped again; logs are kept.
 */
export async function startLab(opts: StartLabOptions): Promise<LabState> {
  const progress = safeProgress(opts.onProgress);
  const version = normalizeLabVersion(opts.version);
  const count: number = opts.nodes;
  if (count !== 1 && count !== 3) {
    throw new LabError('BAD_NODE_COUNT', `A lab has 1 or 3 nodes, not ${String(opts.nodes)}.`, 'Use --nodes 1 or --nodes 3.');
  }
  const dcs = checkTopology(count, opts.datacenters ?? 1);
  const heap = normalizeHeap(opts.heap);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_NODE_TIMEOUT_MS;
  const { stateDir } = labPaths();
  const net = labNet();
  if (opts.clientCertAuth && !opts.tls) {
    throw new LabError('BAD_TOPOLOGY', 'Client-certificate authentication needs TLS.', 'Add --tls, or drop --client-cert.');
  }
  const security: LabSecurityOptions = {
    auth: opts.auth === true,
    tls: opts.tls === true,
    clientCertAuth: opts.clientCertAuth === true,
    jmxAuth: opts.jmxAuth === true,
    ...(opts.jmxSsl ? { jmxSsl: true } : {}),
  };
  const release = await acquireStartLock(stateDir);
  try {
    return await startLocked({
      version,
      count: count,
      dcs,
      heap,
      timeoutMs,
      stateDir,
      progress,
      signal: opts.signal,
      net,
      security,
      metrics: opts.metrics === true,
    });
  } finally {
    await release();
  }
}

async function startLocked(p: {
  version: LabVersion;
  count: 1 | 3;
  dcs: LabDatacenters;
  heap: string;
  timeoutMs: number;
  stateDir: string;
  progress: ProgressFn;
  signal: AbortSignal | undefined;
  net: string;
  security: LabSecurityOptions;
  metrics: boolean;
}): Promise<LabState> {
  const { version, count, dcs, heap, timeoutMs, stateDir, progress, signal, net, security } = p;
  const agentJar = p.metrics ? await resolveJmxExporterAgent(signal) : null;
  const fullVersion = SUPPORTED_LAB_VERSIONS[version];
  const previous = await readLabState(stateDir);
  if (previous) {
    const live = await liveLabPids(previous);
    if (live.length > 0) {
      throw new LabError(
        'ALREADY_RUNNING',
        `A ${previous.nodes.length}-node Cassandra ${previous.fullVersion} lab is already running (pids ${live.join(', ')}, state in ${stateDir}).`,
        'Use it as is, or run `cql-tuner lab stop` first.',
      );
    }
  }

  progress({ message: 'Checking Java' });
  const java = await checkJava(signal);
  if (java.major > 17) {
    progress({ message: `Note: Java ${java.major} found; the lab is tested with Java 17 (Cassandra ${version} does not support newer officially)` });
  }
  const memNeedMb = count * (heapToMb(heap) + 500);
  if (memNeedMb > (totalmem() / 1024 / 1024) * 0.8) {
    progress({
      message: `Warning: ${count} node(s) × ${heap} heap need about ${Math.round(memNeedMb / 1024)} GiB; this machine has ${Math.round(totalmem() / 2 ** 30)} GiB`,
    });
  }

  const nodes = plannedNodes(stateDir, count, dcs, net);
  const needs: PortNeed[] = nodes.flatMap((n) => [
    { host: n.host, port: LAB_CQL_PORT, what: `CQL of node ${n.index}` },
    { host: n.host, port: LAB_STORAGE_PORT, what: `storage of node ${n.index}` },
    { host: '127.0.0.1', port: n.jmxPort, what: `JMX of node ${n.index}` },
  ]);
  progress({ message: 'Checking ports' });
  await checkPortsFree(needs);

  const jars = await resolveCassandraJars(version, { onProgress: progress, ...(signal ? { signal: signal } : {}) });
  if (signal?.aborted) throw abortedError();

  await prepareDataDirs(stateDir, fullVersion, count, dcs, progress);

  const secured = isSecured(security);
  let secrets: LabSecrets | null = null;
  if (secured) {
    progress({ message: `Preparing ${describeSecurity(security)} (files in ${join(stateDir, 'secrets')})` });
    secrets = await ensureLabSecrets(
      stateDir,
      java.path,
      nodes.map((n) => n.host),
      security,
    );
  }
  const nodeSec: NodeSecurity = { options: security, secrets, count };
  const clientAuth = (): Promise<LabClientAuth> => (secured ? labClientAuth(stateDir, security) : Promise.resolve({}));
  const seed = `${nodes[0]!.host}:${LAB_STORAGE_PORT}`;

  const state: LabState = {
    version,
    fullVersion,
    nodes,
    heap,
    datacenters: dcs,
    startedAt: new Date().toISOString(),
    stateDir,
    ...(net !== '127.0.0' ? { net } : {}),
    ...(secrets ? { security: securityState(security, secrets) } : {}),
    ...(agentJar ? { metrics: { port: LAB_METRICS_PORT, agent: `jmx_prometheus_javaagent ${JMX_EXPORTER_VERSION}` } } : {}),
  };
  const spawned: Spawned[] = [];
  const t0 = Date.now();
  try {
    for (const node of nodes) {
      if (signal?.aborted) throw abortedError();
      const f = nodeFiles(stateDir, node.index);
      await writeNodeFiles(stateDir, node, version, dcs, seed, nodeSec);
      const agentConfig = agentJar ? await writeAgentConfig(f.confDir) : null;
      const argv = [
        ...serverJvmFlags({
          version,
          heap,
          nodeDir: f.dir,
          logDir: f.logDir,
          configUrl: pathToFileURL(f.yaml).href,
          logbackPath: f.logback,
          jmxPort: node.jmxPort,
          index: node.index,
          jammJar: findJammJar(jars.classpath),
          ...(dcs === 2 ? { rackDcUrl: pathToFileURL(f.rackDc).href } : {}),
          ...(security.jmxAuth && secrets ? { jmxAuth: { passwordFile: secrets.jmxPasswordFile, accessFile: secrets.jmxAccessFile } } : {}),
          ...(security.auth ? { superuserSetupDelayMs: 0 } : {}),
          ...(agentJar && agentConfig ? { metricsAgent: agentFlag(agentJar, node.host, agentConfig) } : {}),
          ...(security.jmxSsl && secrets ? { jmxSsl: { keystore: secrets.nodeKeystore(node.index), password: secrets.passwords.store } } : {}),
        }),
        '-cp',
        [f.confDir, ...jars.classpath].join(':'),
        DAEMON_CLASS,
      ];
      progress({
        message: `Starting node ${node.index}/${count} on ${node.host} (Cassandra ${fullVersion}, heap ${heap}${dcs === 2 ? `, ${node.datacenter}` : ''})`,
        progress: node.index - 1,
        total: count,
      });
      const s = await spawnNode(java.path, argv, f.dir, f.consoleLog);
      spawned.push(s);
      node.pid = s.pid;
      // Recorded before waiting, so `lab stop` can clean up even if this process dies mid-start.
      await writeLabState(state);
      const ms = await waitForCql(node, s, fullVersion, f.consoleLog, timeoutMs, progress, node.index - 1, count, signal, clientAuth);
      progress({ message: `Node ${node.index} (${node.host}) answers CQL after ${(ms / 1000).toFixed(1)}s`, progress: node.index, total: count });
    }
    if (security.auth) {
      progress({ message: `Setting up roles: ${LAB_TOOL_ROLE} (least privilege) and the set-up superuser` });
      await setUpLabRoles(stateDir, nodes[0]!.host, security);
    }
  } catch (e) {
    progress({ message: `Start failed; stopping the ${spawned.length} node(s) started so far (logs kept in ${stateDir})` });
    const r = await terminate(
      spawned.map((s) => s.pid),
      nodes,
      10_000,
      noop,
    ).catch(() => null);
    // lab.json stays when something survived, so `lab stop` can still find it by PID.
    if (r && r.left.length === 0) await removeLabState(stateDir);
    throw e;
  }
  const secNote = state.security ? `, ${describeSecurity(security)}; client settings in ${state.security.cqlshrc}` : '';
  const up = `Lab up: ${count} node(s)${dcs === 2 ? ' in 2 datacenters' : ''}, Cassandra ${fullVersion}, in ${secondsSince(t0)}s${secNote}`;
  progress({ message: up, progress: count, total: count });
  return state;
}

function describeSecurity(o: LabSecurityOptions): string {
  const parts = [
    o.auth ? 'authentication' : '',
    o.tls ? `TLS${o.clientCertAuth ? ' with client certificates' : ''}` : '',
    o.jmxAuth ? 'JMX authentication' : '',
    o.jmxSsl ? 'JMX over SSL' : '',
  ];
  return parts.filter(Boolean).join(', ') || 'no security';
}

function securityState(o: LabSecurityOptions, s: LabSecrets): LabSecurityState {
  return {
    ...o,
    secretsDir: s.dir,
    cqlshrc: s.toolCqlshrc,
    toolRole: o.auth ? LAB_TOOL_ROLE : null,
    benchRole: o.auth ? LAB_BENCH_ROLE : null,
    benchCqlshrc: o.auth ? s.benchCqlshrc : null,
    caPem: o.tls ? s.caPem : null,
    jmxUser: o.jmxAuth ? LAB_JMX_USER : null,
    jmxPasswordFile: o.jmxAuth ? s.jmxClientPasswordFile : null,
  };
}

/** SIGTERM to each group, wait, SIGKILL what is left (after re-checking it is still ours). Returns PIDs now gone. */
async function terminate(pids: number[], nodes: LabNode[], timeoutMs: number, progress: ProgressFn): Promise<{ gone: number[]; left: number[] }> {
  const dirOf = new Map(nodes.filter((n) => n.pid !== null).map((n) => [n.pid as number, n.dir]));
  const ours: number[] = [];
  for (const pid of pids) {
    const dir = dirOf.get(pid);
    if (dir !== undefined && (await isLabProcess(pid, dir))) ours.push(pid);
  }
  for (const pid of ours) await signalLabProcess(pid, 'SIGTERM');
  const started = Date.now();
  let lastBeat = 0;
  let alive = ours;
  while (alive.length > 0 && Date.now() - started < timeoutMs) {
    await sleep(250);
    const next: number[] = [];
    for (const pid of alive) if (await isAlive(pid)) next.push(pid);
    alive = next;
    if (alive.length > 0 && Date.now() - lastBeat >= 2000) {
      lastBeat = Date.now();
      progress({ message: `Waiting for ${alive.length} node(s) to shut down (${secondsSince(started)}s)` });
    }
  }
  // Re-check identity right before SIGKILL: only a process still carrying our marker gets it.
  const stillOurs: number[] = [];
  for (const pid of alive) {
    const dir = dirOf.get(pid);
    if (dir !== undefined && (await isLabProcess(pid, dir))) stillOurs.push(pid);
  }
  alive = stillOurs;
  for (const pid of alive) {
    progress({ message: `pid ${pid} ignored SIGTERM for ${Math.round(timeoutMs / 1000)}s; sending SIGKILL` });
    await signalLabProcess(pid, 'SIGKILL');
  }
  const killDeadline = Date.now() + 5000;
  while (Date.now() < killDeadline) {
    const next: number[] = [];
    for (const pid of alive) if (await isAlive(pid)) next.push(pid);
    alive = next;
    if (alive.length === 0) break;
    await sleep(100);
  }
  // If this process is their parent, the dead children linger as zombies until Node reaps them; give it a moment
  // so that /proc/<pid> is really gone when we return.
  const reapDeadline = Date.now() + 2000;
  while (Date.now() < reapDeadline) {
    let any = false;
    for (const pid of ours) if (!alive.includes(pid) && (await procEntryExists(pid))) any = true;
    if (!any) break;
    await sleep(50);
  }
  return { gone: ours.filter((p) => !alive.includes(p)), left: alive };
}

export interface StopLabOptions {
  onProgress?: ProgressFn;
  /** Grace period after SIGTERM before SIGKILL (default 30 s). */
  timeoutMs?: number;
  /** Also delete the node directories (data, commit log, logs). */
  wipe?: boolean;
}

/**
 * Stops the lab's daemons by the PIDs in lab.json only, never by name. Data is kept unless `wipe`;
 * `keptData` says where it is (null when wiped or nothing was there).
 */
export async function stopLab(opts: StopLabOptions = {}): Promise<{ stopped: number[]; keptData: string | null }> {
  const progress = safeProgress(opts.onProgress);
  const { stateDir } = labPaths();
  const state = await readLabState(stateDir);
  let stopped: number[] = [];
  if (state) {
    const pids = state.nodes.map((n) => n.pid).filter((p): p is number => p !== null);
    progress({ message: `Stopping ${pids.length} lab node(s) (pids ${pids.join(', ') || 'none'})` });
    const r = await terminate(pids, state.nodes, opts.timeoutMs ?? DEFAULT_STOP_TIMEOUT_MS, progress);
    if (r.left.length > 0) {
      throw new LabError(
        'STOP_FAILED',
        `Lab node process(es) ${r.left.join(', ')} are still alive after SIGTERM and SIGKILL.`,
        `Check them with \`ps -p ${r.left.join(',')}\`; lab.json in ${stateDir} was kept so stop can be retried.`,
      );
    }
    stopped = r.gone;
    await removeLabState(stateDir);
  }
  let keptData: string | null = null;
  if (opts.wipe) {
    for (let i = 1; i <= MAX_NODES; i++) await rm(nodeDirFor(stateDir, i), { recursive: true, force: true });
    await rm(join(stateDir, DATA_MARKER), { force: true });
    // The secrets go with the data they guard (the roles live in the data): after a wipe the next start makes a new
    // CA and new passwords at the same paths, so CQL_TUNER_CQLSHRC keeps working. Data first: a wipe cut short in
    // between leaves secrets without data, which a start reuses, never data whose passwords are gone.
    const hadSecrets = await wipeLabSecrets(stateDir);
    progress({ message: `Lab stopped; node data${hadSecrets ? ' and secrets (CA, key stores, passwords)' : ''} deleted from ${stateDir}` });
  } else {
    const hasData = await readFile(join(stateDir, DATA_MARKER), 'utf8').then(
      () => true,
      () => false,
    );
    keptData = hasData ? stateDir : null;
    progress({ message: `Lab stopped${keptData ? `; data kept in ${keptData} ('cql-tuner lab stop --wipe --yes' deletes it)` : ''}` });
  }
  return { stopped, keptData };
}

/** What lab.json says, checked against the live processes and a CQL round trip to each node. */
export async function labStatus(): Promise<LabStatus> {
  const { stateDir } = labPaths();
  const state = await readLabState(stateDir);
  if (!state) return { running: false, state: null, nodes: [] };
  const nodes: LabNodeStatus[] = await Promise.all(
    state.nodes.map(async (n) => {
      const alive = n.pid !== null && (await isLabProcess(n.pid, n.dir));
      const cqlUp = alive && (await probeCql(n.host, 3000, await labClientAuth(stateDir, state.security).catch(() => ({})))).ok;
      return { ...n, alive, cqlUp };
    }),
  );
  return { running: nodes.some((n) => n.alive), state, nodes };
}

/**
 * argv prefix that runs NodeTool from the lab's jars; append e.g. ['-h','127.0.0.1','-p','7199','status'].
 * With a version: that version's jars or null. Without: the running lab's version, else the newest resolved one.
 */
export async function labNodetoolArgv(version?: LabVersion): Promise<string[] | null> {
  const { cacheDir, stateDir } = labPaths();
  const candidates: LabVersion[] = [];
  if (version !== undefined) {
    candidates.push(normalizeLabVersion(version));
  } else {
    const state = await readLabState(stateDir);
    if (state) candidates.push(state.version);
    candidates.push(...labVersionsNewestFirst());
  }
  let v: LabVersion | null = null;
  let jars: ResolvedJars | null = null;
  for (const c of candidates) {
    jars = await cachedJars(c, cacheDir);
    if (jars) {
      v = c;
      break;
    }
  }
  if (!v || !jars) return null;
  const logback = join(cassandraCacheRoot(cacheDir), 'nodetool-logback.xml');
  await writeFileIfChanged(logback, renderClientLogbackXml());
  const java = (await findJava()) ?? 'java';
  const trust = await labJmxTrust(stateDir);
  return [java, ...nodetoolJvmFlags(v, logback, trust ?? undefined), '-cp', jars.classpath.join(':'), NODETOOL_CLASS];
}

/** The running lab's truststore when its JMX speaks SSL, so the lab's own nodetool can verify it. */
async function labJmxTrust(stateDir: string): Promise<{ truststore: string; password: string } | null> {
  const state = await readLabState(stateDir);
  if (!state?.security?.jmxSsl) return null;
  const raw = await readFile(join(state.security.secretsDir, 'passwords.json'), 'utf8').catch(() => null);
  const store = raw ? (JSON.parse(raw) as { store?: unknown }).store : undefined;
  return typeof store === 'string' ? { truststore: join(state.security.secretsDir, 'truststore.p12'), password: store } : null;
}
