import { stressPathProblem } from './argv-guard.js';

/**
 * Structured stress-run parameters, one shape for every tool; core/stress/argv-*.ts turn them into each tool's
 * own argv (see README.md in this folder for the side-by-side table). PURE: validation returns messages.
 */
export type StressToolName = 'cassandra-stress' | 'latte' | 'scylla-bench';
export type StressWorkload = 'write' | 'read' | 'mixed' | 'user';
export type Consistency = 'ANY' | 'ONE' | 'TWO' | 'THREE' | 'QUORUM' | 'ALL' | 'LOCAL_ONE' | 'LOCAL_QUORUM' | 'EACH_QUORUM';
export const CONSISTENCY_LEVELS: readonly Consistency[] = ['ANY', 'ONE', 'TWO', 'THREE', 'QUORUM', 'ALL', 'LOCAL_ONE', 'LOCAL_QUORUM', 'EACH_QUORUM'];

export interface Population {
  /** How keys are picked from [1, size]: uniform random, gaussian around the middle, or each once in order. */
  distribution: 'uniform' | 'gaussian' | 'sequential';
  /** Number of distinct partition keys. */
  size: number;
}

export interface StressParams {
  tool: StressToolName;
  workload: StressWorkload;
  /** Share of reads for workload "mixed", 0 < r < 1 (e.g. 0.75 = 3 reads per write). */
  readRatio?: number;
  /** cassandra-stress user profile (YAML path) or latte workload script (.rn path) for workload "user". */
  profile?: string;
  /** Operations of a user profile with weights (cassandra-stress ops(...), latte -f name:weight). */
  ops?: Record<string, number>;
  /** Stop after this many operations … */
  n?: number;
  /** … or after this many seconds (exactly one of n / durationS). */
  durationS?: number;
  /** Warm-up before the measured part (latte -w, seconds); cassandra-stress warms up on its own unless n is set. */
  warmupS?: number;
  /** Client threads (cassandra-stress -rate threads, latte -t); scylla-bench uses concurrency only. */
  threads?: number;
  /** Requests in flight (latte -p, scylla-bench -concurrency). */
  concurrency?: number;
  /** Fixed target rate in op/s (open loop); absent = closed loop. */
  rate?: number;
  consistency?: Consistency;
  keyspace?: string;
  replicationFactor?: number;
  population?: Population;
  /** Contact points (host names or IPs). */
  nodes: string[];
  /** CQL native port (default 9042). */
  port?: number;
  /** Extra latte -P key=value parameters for a custom workload script. */
  scriptParams?: Record<string, string | number>;
}

/** Credentials come from the environment only (never from tool arguments the model writes). */
export interface StressCredentials {
  username: string;
  password: string;
}

const IDENT = /^[A-Za-z][A-Za-z0-9_]{0,47}$/;
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})$|^[0-9A-Fa-f:]+$/;
const OP_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Largest op/s a fixed rate may ask for: beyond it a number prints in exponent form the tools cannot read. */
const MAX_RATE = 1e9;

/** Problems with a parameter set, as "field: what is wrong" sentences; empty when valid. */
export function validateParams(p: StressParams): string[] {
  const out: string[] = [];
  if (!p.nodes.length) out.push('nodes: at least one contact point is needed');
  for (const n of p.nodes) if (!HOST.test(n)) out.push(`nodes: "${n}" is not a host name or IP address`);
  if (p.port !== undefined && (!Number.isInteger(p.port) || p.port < 1 || p.port > 65535)) out.push('port: must be 1–65535');
  if ((p.n === undefined) === (p.durationS === undefined)) out.push('n / durationS: give exactly one (a count of operations or a duration in seconds)');
  // Safe integers only: 1e21 would print as "1e+21" inside n=…, which is not a number to the tools.
  if (p.n !== undefined && (!Number.isSafeInteger(p.n) || p.n < 1)) out.push('n: must be a positive integer');
  if (p.durationS !== undefined && (!Number.isSafeInteger(p.durationS) || p.durationS < 1)) out.push('durationS: must be a positive whole number of seconds');
  if (p.warmupS !== undefined && (!Number.isSafeInteger(p.warmupS) || p.warmupS < 0)) out.push('warmupS: must be a whole number of seconds ≥ 0');
  for (const k of ['threads', 'concurrency', 'replicationFactor'] as const) {
    const v = p[k];
    if (v !== undefined && (!Number.isInteger(v) || v < 1 || v > 100_000)) out.push(`${k}: must be an integer 1–100000`);
  }
  if (p.rate !== undefined && (!(p.rate > 0) || !(p.rate <= MAX_RATE))) out.push(`rate: must be a positive number of op/s up to ${MAX_RATE}`);
  if (p.keyspace !== undefined && !IDENT.test(p.keyspace)) out.push('keyspace: letters, digits and _ only, starting with a letter (≤ 48)');
  if (p.workload === 'mixed' && !(p.readRatio !== undefined && p.readRatio > 0 && p.readRatio < 1))
    out.push('readRatio: mixed needs a read share between 0 and 1 (e.g. 0.5)');
  if (p.workload === 'user') {
    const kind = p.tool === 'latte' ? 'latte workload script (.rn)' : 'cassandra-stress profile (.yaml)';
    if (!p.profile) out.push(`profile: workload "user" needs a ${kind} path`);
    if (p.tool === 'scylla-bench') out.push('workload: scylla-bench has no user profiles (write, read or mixed only)');
    if (p.tool === 'cassandra-stress' && (!p.ops || Object.keys(p.ops).length === 0))
      out.push('ops: a cassandra-stress user profile needs ops, e.g. {"insert": 1, "read": 3}');
  }
  if (p.profile !== undefined) {
    const bad = stressPathProblem(p.tool, p.profile);
    if (bad) out.push(`profile: ${JSON.stringify(p.profile.slice(0, 200))} ${bad}; give the path of the file itself, without spaces and not starting with "-"`);
  }
  for (const [k, w] of Object.entries(p.ops ?? {})) {
    if (!OP_NAME.test(k)) out.push(`ops: "${k}" is not a valid operation name`);
    if (!(w > 0) || !(w <= 1e6)) out.push(`ops: weight of "${k}" must be a positive number up to 1000000`);
  }
  for (const [k, v] of Object.entries(p.scriptParams ?? {})) {
    if (!OP_NAME.test(k)) out.push(`scriptParams: "${k}" is not a valid parameter name`);
    if (!/^[A-Za-z0-9_.:-]{0,200}$/.test(String(v))) out.push(`scriptParams: value of "${k}" may hold letters, digits and _.:- only`);
  }
  if (p.population && (!Number.isSafeInteger(p.population.size) || p.population.size < 1)) out.push('population.size: must be a positive integer');
  if (p.tool === 'scylla-bench' && p.population?.distribution === 'gaussian') out.push('population: scylla-bench has uniform and sequential workloads only');
  return out;
}

export const DEFAULT_PORT = 9042;
export const DEFAULT_KEYSPACE = 'cql_tuner_stress';

/** Total planned duration in seconds when it is known up front (duration-bound runs). */
export function plannedSeconds(p: StressParams): number | null {
  return p.durationS !== undefined ? p.durationS + (p.warmupS ?? 0) : null;
}
