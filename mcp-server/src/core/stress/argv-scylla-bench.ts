import type { ArgvBuilder, StressStep } from './argv-types.js';
import { hostPorts } from './argv-types.js';
import { DEFAULT_KEYSPACE, type StressParams } from './params.js';

const cl = (p: StressParams) => (p.consistency ?? 'QUORUM').toLowerCase();

/**
 * scylla-bench argv (Go flags, single dash). It has no read ratio (mixed is 50/50), no n= for random
 * workloads (uniform needs -duration) and no gaussian population; validateParams/this builder say so.
 */
export const scyllaBenchArgv: ArgvBuilder = (binary, p, _files, creds) => {
  if (p.workload === 'user') throw new Error('scylla-bench has no user profiles');
  const size = p.population?.size ?? 10000;
  const base = ['-nodes', hostPorts(p).join(','), '-keyspace', p.keyspace ?? DEFAULT_KEYSPACE, '-replication-factor', String(p.replicationFactor ?? 1), '-consistency-level', cl(p)];
  base.push('-partition-count', String(size), '-clustering-row-count', '1');
  if (creds) base.push('-username', creds.username, '-password', creds.password);
  const steps: StressStep[] = [];
  if (p.workload === 'read' || p.workload === 'mixed') {
    steps.push({ name: 'load', argv: [binary, '-mode', 'write', '-workload', 'sequential', '-concurrency', String(p.concurrency ?? 16), ...base] });
  }
  const sequential = p.population?.distribution === 'sequential';
  const run = [binary, '-mode', p.workload, '-workload', sequential ? 'sequential' : 'uniform'];
  // uniform needs a duration; a count maps to sequential iterations over the population only.
  if (p.durationS !== undefined) run.push('-duration', `${p.durationS}s`);
  else if (!sequential) throw new Error('scylla-bench uniform workloads need durationS (it has no operation count)');
  run.push('-concurrency', String(p.concurrency ?? p.threads ?? 16));
  if (p.rate !== undefined) run.push('-max-rate', String(Math.round(p.rate)));
  steps.push({ name: 'run', argv: [...run, ...base] });
  return { tool: 'scylla-bench', steps, env: {}, secretArgs: creds ? [creds.password] : [] };
};
