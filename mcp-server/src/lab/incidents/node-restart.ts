/**
 * Stops and starts ONE lab node (the disk incidents move its data directory while it is down). The command line
 * comes from /proc of the running daemon, checked to be that node's java (the lab's marker flag), so a restart
 * runs exactly what `lab start` ran; the new PID goes into lab.json so `lab stop` and `lab status` follow it.
 * The marker alone proves nothing (any local process can carry it), so the PID must also be the one lab.json records
 * for that node, the process must belong to this user and run Cassandra's daemon class: a copied marker is refused.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { OpError } from '../../core/errors.js';
import { probeCql } from '../cql-probe.js';
import { DAEMON_CLASS, labMarkerFlag } from '../jvm-flags.js';
import { isAlive, isLabProcess, readCmdline, signalLabProcess } from '../proc.js';
import { readLabState, writeLabState } from '../state.js';
import type { LabNode, LabState } from '../types.js';
import { inheritedEnv } from '../../collect/child-env.js';

const STOP_TIMEOUT_MS = 60_000;
const START_TIMEOUT_MS = 240_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True when argv is this node's daemon as the lab starts it: java, with the node's marker flag, running CassandraDaemon. */
export function isNodeCommandLine(argv: readonly string[], nodeDir: string): boolean {
  return argv.length > 1 && basename(argv[0] ?? '') === 'java' && argv.includes(labMarkerFlag(nodeDir)) && argv.at(-1) === DAEMON_CLASS;
}

export interface RestartCheck {
  argv: readonly string[] | null;
  nodeDir: string;
  pid: number | null;
  /** The PID lab.json records for this node now (null when lab.json is gone or names no such node). */
  recordedPid: number | null;
  /** Real UID of the process (/proc/PID/status), and this process's own. */
  ownerUid: number | null;
  selfUid: number;
}

/** Why a running process may not be copied for a restart, or null when it is provably the lab's own node. */
export function restartRefusal(c: RestartCheck): string | null {
  if (c.pid === null || c.argv === null) return 'it is not running';
  if (c.recordedPid !== c.pid) return `pid ${c.pid} is not the pid lab.json records for it (${String(c.recordedPid)})`;
  if (c.ownerUid !== c.selfUid) return `pid ${c.pid} belongs to uid ${String(c.ownerUid)}, not to this user (${c.selfUid})`;
  if (!isNodeCommandLine(c.argv, c.nodeDir)) return `pid ${c.pid} is not that node's Cassandra daemon`;
  return null;
}

/** Real UID from /proc/PID/status ("Uid:\treal\teffective\t…"), null when unreadable. */
export async function processUid(pid: number): Promise<number | null> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const m = text === null ? null : /^Uid:\s+(\d+)/m.exec(text);
  return m ? Number(m[1]) : null;
}

/** The running node's command line, only when it is the daemon lab.json records for that node (see restartRefusal). */
export async function nodeCommandLine(state: Pick<LabState, 'stateDir'>, node: LabNode): Promise<string[]> {
  const live = node.pid !== null && (await isLabProcess(node.pid, node.dir));
  const argv = live && node.pid !== null ? await readCmdline(node.pid) : null;
  // Re-read, not the caller's copy: lab.json is the lab's own record of which PID it started for each node.
  const onDisk = await readLabState(state.stateDir);
  const recorded = onDisk?.nodes.find((n) => n.index === node.index && n.dir === node.dir)?.pid ?? null;
  const why = restartRefusal({
    argv,
    nodeDir: node.dir,
    pid: live ? node.pid : null,
    recordedPid: recorded,
    ownerUid: node.pid !== null && live ? await processUid(node.pid) : null,
    selfUid: process.getuid?.() ?? -1,
  });
  if (why !== null || argv === null) {
    throw new OpError('INCIDENT_NODE_NOT_RUNNING', `node ${node.index} cannot be restarted: ${why ?? 'no command line'}`, 'Check `cql-tuner lab status`.');
  }
  return argv;
}

/** SIGTERM to the node's group, then SIGKILL after a minute; returns once the process is gone. */
export async function stopNode(node: LabNode): Promise<void> {
  const pid = node.pid;
  if (pid === null || !(await isLabProcess(pid, node.dir))) return;
  await signalLabProcess(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while ((await isAlive(pid)) && Date.now() < deadline) await sleep(250);
  if ((await isAlive(pid)) && (await isLabProcess(pid, node.dir))) {
    await signalLabProcess(pid, 'SIGKILL');
    while (await isAlive(pid)) await sleep(100);
  }
}

/** Starts the node with `argv` (from nodeCommandLine), records its PID in lab.json and waits until it answers CQL. */
export async function startNode(state: LabState, node: LabNode, argv: readonly string[]): Promise<number> {
  if (!isNodeCommandLine(argv, node.dir)) {
    throw new OpError('INCIDENT_BAD_RESTART', `the saved command line is not node ${node.index}'s daemon`, 'This is a bug in an incident.');
  }
  const out = openSync(join(node.dir, 'logs', 'console.log'), 'a');
  let pid: number | undefined;
  try {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: node.dir, detached: true, stdio: ['ignore', out, out], env: inheritedEnv() });
    child.on('error', () => {});
    child.unref();
    pid = child.pid;
  } finally {
    closeSync(out);
  }
  if (pid === undefined) throw new OpError('INCIDENT_RESTART_FAILED', `node ${node.index} could not be started again`, `Read ${node.dir}/logs/console.log.`);
  node.pid = pid;
  // lab.json is re-read so a concurrent change to other nodes is not overwritten with this process's copy.
  const onDisk = (await readLabState(state.stateDir)) ?? state;
  for (const n of onDisk.nodes) if (n.index === node.index) n.pid = pid;
  await writeLabState(onDisk);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (!(await isAlive(pid))) {
      throw new OpError('INCIDENT_RESTART_FAILED', `node ${node.index} exited while starting again`, `Read ${node.logFile}.`);
    }
    if ((await probeCql(node.host, 3000)).ok) return pid;
    if (Date.now() > deadline) {
      throw new OpError('INCIDENT_RESTART_FAILED', `node ${node.index} did not answer CQL within ${START_TIMEOUT_MS / 1000} s`, `Read ${node.logFile}.`);
    }
    await sleep(1000);
  }
}
