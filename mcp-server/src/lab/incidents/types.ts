/**
 * An incident is a known problem put into the running local lab on purpose (practice, and the scenario benchmark):
 * inject() makes it, heal() undoes it, expect names the finding ids `diagnose` should put on top.
 */
import type { LabState } from '../types.js';
import type { DiskOps } from './loop-disk.js';

/** What the host must offer for an incident to be real here (detected by host.ts). */
export type HostNeed = 'root' | 'cgroup-v1-cpu' | 'cgroup-v1-blkio' | 'loop-devices' | 'mkfs-xfs' | 'latte';

export interface LatteRun {
  /** Rune workload text (written into a private temp file). */
  workload: string;
  /** The workload function to run (`-f`), e.g. "write". */
  fn: string;
  /** Seconds of the main phase. */
  seconds: number;
  /** Cycles per second; absent = as fast as possible. */
  rate?: number;
  /** Concurrent requests per thread (latte -p). */
  concurrency?: number;
  /** -P name=value workload parameters. */
  params?: Record<string, string | number>;
}

/** Everything an incident may do to the lab; the real one is context.ts, tests record the calls. */
export interface IncidentContext {
  readonly state: LabState;
  /** One CQL statement (prepared when it has parameters) through node 1, or the node given. */
  cql(query: string, params?: unknown[], opts?: { node?: number; consistency?: 'one' | 'all' }): Promise<void>;
  /** Many parameterised writes, `concurrency` at a time. */
  cqlMany(query: string, rows: unknown[][], concurrency?: number): Promise<void>;
  /** nodetool against node `node` (1-based), through the lab's own jars; returns stdout. */
  nodetool(node: number, args: string[]): Promise<string>;
  /** A latte run against the lab's nodes, waited for. */
  latte(run: LatteRun): Promise<void>;
  /**
   * A latte run left going after inject returns (the load diagnose must see), under the name `tag`: its files and
   * PID live in the lab state dir, and stopLoad(tag) ends it (only if /proc still shows that latte).
   */
  startLoad(tag: string, run: LatteRun): Promise<void>;
  stopLoad(tag: string): Promise<void>;
  /** SIGSTOP / SIGCONT to a lab node, only when /proc shows it is still that node's daemon. */
  signal(node: number, sig: 'SIGSTOP' | 'SIGCONT'): Promise<void>;
  /** The node's daemon PID, only when /proc shows it is still that node's java. */
  labPid(node: number): Promise<number>;
  /** Writes a value into a cgroup v1 control file (slow-node); creates the group directory first. */
  cgroupWrite(controller: 'cpu' | 'blkio', group: string, file: string, value: string): Promise<void>;
  /** Removes a cgroup v1 group this tool made (after moving its tasks back to the root group). */
  cgroupRemove(controller: 'cpu' | 'blkio', group: string): Promise<void>;
  sleep(ms: number): Promise<void>;
  progress(message: string): void;
  /** A node's data directory on a loop-mounted filesystem (disk incidents); absent in contexts that record calls. */
  readonly disk?: DiskOps;
}

export interface Incident {
  /** CLI/MCP name, e.g. "tombstones". */
  name: string;
  title: string;
  /** What it does to the lab, in one or two sentences (shown by --list). */
  description: string;
  /** Lab size it needs: a 1-node lab is enough for most; node-level faults need peers. */
  nodes: 1 | 3;
  needs: HostNeed[];
  /** Heap a fresh lab for this incident should get (the scenario benchmark starts it so); absent = 1G. */
  heap?: string;
  /** Finding ids diagnose should rank first (any of them counts as the root cause). */
  expect: string[];
  inject(ctx: IncidentContext): Promise<void>;
  heal(ctx: IncidentContext): Promise<void>;
}

/** The keyspace every data incident writes into, dropped again by heal. */
export const INCIDENT_KEYSPACE = 'cql_tuner_incident';
