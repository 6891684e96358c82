import type { ArgvBuilder, StressStep } from './argv-types.js';
import { DEFAULT_KEYSPACE, type StressParams } from './params.js';

const ratio = (r: number): string => {
  // read share r → smallest integer weights within 1 %: 0.75 → write=1,read=3.
  for (let d = 1; d <= 100; d++) {
    const reads = Math.round(r * d);
    if (Math.abs(reads / d - r) < 0.01 && reads > 0 && reads < d) return `ratio(write=${d - reads},read=${reads})`;
  }
  return `ratio(write=${Math.round((1 - r) * 100)},read=${Math.round(r * 100)})`;
};

function pop(p: StressParams): string[] {
  const size = p.population?.size;
  if (!size) return [];
  switch (p.population!.distribution) {
    case 'sequential':
      return ['-pop', `seq=1..${size}`];
    case 'gaussian':
      return ['-pop', `dist=gaussian(1..${size})`];
    default:
      return ['-pop', `dist=uniform(1..${size})`];
  }
}

function common(p: StressParams, threads: number | undefined, rate: number | undefined, user?: string, password?: string): string[] {
  const out: string[] = [];
  const rateParts = [`threads=${threads ?? 16}`];
  if (rate !== undefined) rateParts.push(`fixed=${Math.round(rate)}/s`);
  out.push('-rate', ...rateParts);
  out.push('-node', p.nodes.join(','));
  out.push('-port', `native=${p.port ?? 9042}`);
  if (user !== undefined) out.push('-mode', 'native', 'cql3', `user=${user}`, `password=${password ?? ''}`);
  out.push('-log', 'interval=1');
  return out;
}

/**
 * cassandra-stress 4.x / 5.0 argv. Writes create keyspace1-like schema in `keyspace` with the replication
 * factor; reads and mixed get a "load" step first that writes the population once (sequentially).
 */
export const cassandraStressArgv: ArgvBuilder = (binary, p, _files, creds) => {
  const ks = p.keyspace ?? DEFAULT_KEYSPACE;
  const schema = ['-schema', `keyspace=${ks}`, `replication(strategy=SimpleStrategy,factor=${p.replicationFactor ?? 1})`];
  const bound = p.n !== undefined ? `n=${p.n}` : `duration=${p.durationS}s`;
  const cl = `cl=${p.consistency ?? 'LOCAL_ONE'}`;
  let command: string[];
  switch (p.workload) {
    case 'write':
      command = ['write', bound, cl];
      break;
    case 'read':
      command = ['read', bound, cl];
      break;
    case 'mixed':
      command = ['mixed', ratio(p.readRatio!), bound, cl];
      break;
    case 'user': {
      const ops = Object.entries(p.ops ?? {}).map(([k, w]) => `${k}=${w}`).join(',');
      command = ['user', `profile=${p.profile}`, `ops(${ops})`, bound, cl];
      break;
    }
  }
  const steps: StressStep[] = [];
  const size = p.population?.size;
  if ((p.workload === 'read' || p.workload === 'mixed') && size) {
    steps.push({
      name: 'load',
      argv: [binary, 'write', `n=${size}`, cl, 'no-warmup', ...schema, '-pop', `seq=1..${size}`, ...common(p, p.threads, undefined, creds?.username, creds?.password)],
    });
  }
  steps.push({
    name: 'run',
    argv: [binary, ...command, ...(p.workload === 'user' ? [] : schema), ...pop(p), ...common(p, p.threads, p.rate, creds?.username, creds?.password)],
  });
  return { tool: 'cassandra-stress', steps, env: {}, secretArgs: creds ? [`password=${creds.password}`] : [] };
};
