import { guardArgv } from './argv-guard.js';
import type { ArgvBuilder, StressStep } from './argv-types.js';
import { hostPorts } from './argv-types.js';
import { DEFAULT_KEYSPACE, type StressParams } from './params.js';

/** The options this builder emits; any other element starting with "-" is refused (argv-guard.ts). */
const OPTIONS = new Set([
  ...['-nodes', '-keyspace', '-replication-factor', '-consistency-level', '-partition-count', '-clustering-row-count', '-username', '-password'],
  ...['-mode', '-workload', '-concurrency', '-duration', '-max-rate'],
]);

/** The run's warning when credentials are set: scylla-bench takes the password only as -password on its argv. */
export function scyllaBenchPasswordWarning(): string {
  return (
    'the CQL password was passed to scylla-bench on its command line (-password …), where any user of this host can read it with `ps` while the run lasts ' +
    '(argv.json masks it); scylla-bench has no other way to receive it. ' +
    'Fix: run as a role whose only permissions are on the stress keyspace, on a host no one else logs in to, or stress without authentication in a lab.'
  );
}

const cl = (p: StressParams) => (p.consistency ?? 'QUORUM').toLowerCase();

/**
 * scylla-bench argv (Go flags, single dash). It has no read ratio (mixed is 50/50), no n= for random
 * workloads (uniform needs -duration) and no gaussian population; validateParams/this builder say so.
 */
export const scyllaBenchArgv: ArgvBuilder = (binary, p, _files, creds) => {
  if (p.workload === 'user') throw new Error('scylla-bench has no user profiles');
  const size = p.population?.size ?? 10000;
  const base = [
    '-nodes',
    hostPorts(p).join(','),
    '-keyspace',
    p.keyspace ?? DEFAULT_KEYSPACE,
    '-replication-factor',
    String(p.replicationFactor ?? 1),
    '-consistency-level',
    cl(p),
  ];
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
  const secretArgs = creds ? [creds.password] : [];
  for (const s of steps) guardArgv('scylla-bench', s.argv, OPTIONS, secretArgs);
  return { tool: 'scylla-bench', steps, env: {}, secretArgs, ...(creds ? { credentials: 'argv' as const } : {}) };
};
