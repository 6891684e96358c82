import { guardArgv, stressPathProblem } from './argv-guard.js';
import type { ArgvBuilder, StressStep } from './argv-types.js';
import { hostPorts } from './argv-types.js';
import { DEFAULT_KEYSPACE, type StressParams } from './params.js';

/** The options this builder emits; any other element starting with "-" is refused (argv-guard.ts). */
const OPTIONS = new Set(['--log-dir', '-P', '-t', '--concurrency', '-p', '-f', '-d', '-w', '-r', '-s', '--consistency', '-o']);
for (const tls of ['--ssl-ca', '--ssl-cert', '--ssl-key']) OPTIONS.add(tls);
/** Options without a value (argv-guard.ts lets these stand before another option). */
const FLAGS = new Set(['--ssl']);

/** latte's names for consistency levels are the CQL ones; it parses them case-insensitively. */
const cl = (p: StressParams) => p.consistency ?? 'LOCAL_QUORUM';

function functions(p: StressParams): string[] {
  switch (p.workload) {
    case 'write':
      return ['-f', 'write'];
    case 'read':
      return ['-f', 'read'];
    case 'mixed': {
      const r = Math.round(p.readRatio! * 1000) / 1000;
      return ['-f', `read:${r}`, '-f', `write:${Math.round((1 - r) * 1000) / 1000}`];
    }
    case 'user':
      return Object.entries(p.ops ?? {}).flatMap(([k, w]) => ['-f', `${k}:${w}`]);
  }
}

/** -P parameters of the built-in workload (core/stress/latte-workload.ts) or the user's script. */
function params(p: StressParams): string[] {
  const out: string[] = [];
  if (p.workload !== 'user') {
    out.push('-P', `keyspace="${p.keyspace ?? DEFAULT_KEYSPACE}"`, '-P', `rf=${p.replicationFactor ?? 1}`);
    out.push('-P', `rows=${p.population?.size ?? 100000}`, '-P', `sequential=${p.population?.distribution === 'sequential' ? 1 : 0}`);
  }
  for (const [k, v] of Object.entries(p.scriptParams ?? {})) out.push('-P', `${k}=${v}`);
  return out;
}

/** --ssl and the PEM paths (every latte subcommand takes them); each path is checked like the workload script. */
function tlsArgs(files: { tls?: { ca?: string; cert?: string; key?: string } }): string[] {
  const t = files.tls;
  if (!t) return [];
  const out = ['--ssl'];
  for (const [opt, path] of [
    ['--ssl-ca', t.ca],
    ['--ssl-cert', t.cert],
    ['--ssl-key', t.key],
  ] as const) {
    if (path === undefined) continue;
    const bad = stressPathProblem('latte', path);
    if (bad) throw new Error(`TLS file ${JSON.stringify(path.slice(0, 200))} ${bad}; give a plain path`);
    out.push(opt, path);
  }
  return out;
}

/**
 * latte 0.29 argv: `latte schema`, `latte load` (reads and mixed need rows), then `latte run` writing a JSON
 * report. Credentials go through latte's own CASSANDRA_USER / CASSANDRA_PASSWORD variables, never argv.
 */
export const latteArgv: ArgvBuilder = (binary, p, files, creds) => {
  const workload = p.workload === 'user' ? p.profile! : files.workload;
  if (!workload) throw new Error('latte needs a workload script path (files.workload)');
  // The script is a positional argument: one starting with "-" would be read as an option.
  const bad = stressPathProblem('latte', workload);
  if (bad) throw new Error(`workload script ${JSON.stringify(workload.slice(0, 200))} ${bad}; give a plain path`);
  const hosts = [...tlsArgs(files), ...hostPorts(p)];
  const logDir = files.logDir ? ['--log-dir', files.logDir] : [];
  const conn = ['--consistency', cl(p)];
  // --log-dir is a global option: it goes before the subcommand.
  const steps: StressStep[] = [{ name: 'schema', argv: [binary, ...logDir, 'schema', workload, ...params(p), ...hosts] }];
  if (p.workload === 'read' || p.workload === 'mixed') {
    steps.push({
      name: 'load',
      argv: [binary, ...logDir, 'load', workload, ...params(p), '-t', String(p.threads ?? 1), '--concurrency', String(p.concurrency ?? 128), ...conn, ...hosts],
    });
  }
  const run = [
    binary,
    ...logDir,
    'run',
    workload,
    ...functions(p),
    '-d',
    p.n !== undefined ? String(p.n) : `${p.durationS}s`,
    '-w',
    p.warmupS ? `${p.warmupS}s` : '0',
  ];
  run.push('-t', String(p.threads ?? 1), '-p', String(p.concurrency ?? 128));
  if (p.rate !== undefined) run.push('-r', String(p.rate));
  run.push('-s', '1s', ...conn, ...params(p));
  if (files.reportJson) run.push('-o', files.reportJson);
  run.push(...hosts);
  steps.push({ name: 'run', argv: run });
  for (const s of steps) guardArgv('latte', s.argv, OPTIONS, [], FLAGS);
  const env: Record<string, string> = creds ? { CASSANDRA_USER: creds.username, CASSANDRA_PASSWORD: creds.password } : {};
  return { tool: 'latte', steps, env, secretArgs: [] };
};
