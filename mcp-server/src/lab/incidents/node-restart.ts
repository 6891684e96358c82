/**
 * Stops and starts ONE lab node (the disk incidents move its data directory while it is down). The command line
 * comes from /proc of the running daemon, checked to be that node's java (the lab's marker flag), so a restart
 * runs exactly what `lab start` ran; the new PID goes into lab.json so `lab stop` and `lab status` follow it.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { basename, join } from 'node:path';
import { OpError } from '../../core/errors.js';
import { probeCql } from '../cql-probe.js';
import { labMarkerFlag } from '../jvm-flags.js';
import { isAlive, isLabProcess, readCmdline, signalLabProcess } from '../proc.js';
import { readLabState, writeLabState } from '../state.js';
import type { LabNode, LabState } from '../types.js';

const STOP_TIMEOUT_MS = 60_000;
const START_TIMEOUT_MS = 240_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** True when argv is this node's daemon as the lab starts it: java, with the node's marker flag. */
export function isNodeCommandLine(argv: readonly string[], nodeDir: string): boolean {
  return argv.length > 1 && basename(argv[0] ?? '') === 'java' && argv.includes(labMarkerFlag(nodeDir));
}

/** The running node's command line, only when /proc shows it is that node's daemon. */
export async function nodeCommandLine(node: LabNode): Promise<string[]> {
  const argv = node.pid !== null && (await isLabProcess(node.pid, node.dir)) ? await readCmdline(node.pid) : null;
  if (!argv || !isNodeCommandLine(argv, node.dir)) {
    throw new OpError('INCIDENT_NODE_NOT_RUNNING', `node ${node.index} is not running (pid ${String(node.pid)})`, 'Check `cql-tuner lab status`.');
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
    const child = spawn(argv[0]!, argv.slice(1), { cwd: node.dir, detached: true, stdio: ['ignore', out, out], env: process.env });
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
