import { guardArgv, stressPathProblem } from './argv-guard.js';
import type { ArgvBuilder, StressStep } from './argv-types.js';
import { propertiesText } from './java-properties.js';
import { DEFAULT_KEYSPACE, type StressCredentials, type StressParams } from './params.js';

/**
 * Newer cassandra-stress reads credentials from `-credentials-file <file>`: a java.util.Properties file with
 * cql.username / cql.password (also jmx.*, transport.*store.password), each overridden by its command-line
 * counterpart (apache/cassandra tools/stress/src/org/apache/cassandra/stress/settings/SettingsCredentials.java).
 * Older releases lack the option, so the runner asks the binary first (credentialsFileProbeArgv).
 */
export const CREDENTIALS_FILE_OPTION = '-credentials-file';

/** `cassandra-stress help -credentials-file`: prints "Usage: -credentials-file <file>" where supported. */
export const credentialsFileProbeArgv = (binary: string): string[] => [binary, 'help', CREDENTIALS_FILE_OPTION];

/**
 * Reads the probe's answer. Supported only on a clean exit whose output has the option's own usage line and no
 * "Invalid …" complaint (old releases print the general help, which never has "Usage:" and the option on one
 * line, then "Invalid command or option provided to command help"). Anything else — a timeout, a crash,
 * garbage — counts as not supported, which keeps today's argv path.
 */
export function credentialsFileSupported(output: string, exitCode: number | null, timedOut: boolean): boolean {
  if (timedOut || exitCode !== 0) return false;
  if (/^\s*Invalid\b|invalid (command|option)|unknown option|unrecognized option/im.test(output)) return false;
  return /^\s*Usage:\s*-credentials-file\b/m.test(output);
}

/** The properties file's text: cql.username and cql.password, escaped for java.util.Properties.load. */
export function credentialsFileText(creds: StressCredentials): string {
  return propertiesText([
    ['cql.username', creds.username],
    ['cql.password', creds.password],
  ]);
}

/**
 * cassandra-stress joins its arguments with spaces and splits them again, and treats ',', '=', '(' and ')' as
 * option syntax: the file's path must contain none of them (the runner picks such a folder).
 */
export const safeCredentialsPath = (path: string): boolean => /^[A-Za-z0-9_./-]+$/.test(path);

/** The run's warning when the password has to go on the command line (reason: what the probe found). */
export function argvPasswordWarning(reason?: string): string {
  return (
    'the CQL password was passed to cassandra-stress on its command line (-mode … password=…), where any user of this host can read it with `ps` while the run lasts ' +
    `(argv.json masks it)${reason ? `; ${reason}` : ''}. ` +
    'Fix: upgrade cassandra-stress to a version with -credentials-file (cql-tuner then hands the password over in a private 0600 file), ' +
    'or run as a role whose only permissions are on the stress keyspace.'
  );
}

/** The options this builder emits; any other element starting with "-" is refused (argv-guard.ts). */
const OPTIONS = new Set(['-schema', '-pop', '-rate', '-node', '-port', CREDENTIALS_FILE_OPTION, '-mode', '-log']);

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

/** How the credentials reach the tool: a file (path) or argv (user=/password= under -mode); none without. */
type CredentialArgs = { file: string } | { user: string; password: string } | null;

function common(p: StressParams, threads: number | undefined, rate: number | undefined, creds: CredentialArgs): string[] {
  const out: string[] = [];
  const rateParts = [`threads=${threads ?? 16}`];
  if (rate !== undefined) rateParts.push(`fixed=${Math.round(rate)}/s`);
  out.push('-rate', ...rateParts);
  out.push('-node', p.nodes.join(','));
  out.push('-port', `native=${p.port ?? 9042}`);
  // With a file there is no -mode at all: the default mode (native, prepared) takes the file's credentials.
  if (creds && 'file' in creds) out.push(CREDENTIALS_FILE_OPTION, creds.file);
  else if (creds) out.push('-mode', 'native', 'cql3', `user=${creds.user}`, `password=${creds.password}`);
  out.push('-log', 'interval=1');
  return out;
}

/**
 * cassandra-stress 4.x / 5.0 argv. Writes create keyspace1-like schema in `keyspace` with the replication
 * factor; reads and mixed get a "load" step first that writes the population once (sequentially).
 */
export const cassandraStressArgv: ArgvBuilder = (binary, p, files, creds) => {
  if (creds && files.credentialsFile !== undefined && !safeCredentialsPath(files.credentialsFile)) {
    throw new Error(
      `credentials file path ${JSON.stringify(files.credentialsFile)} has characters cassandra-stress would split on; use a temp folder without spaces, ',', '=' or brackets (TMPDIR)`,
    );
  }
  const credArgs: CredentialArgs = !creds
    ? null
    : files.credentialsFile !== undefined
      ? { file: files.credentialsFile }
      : { user: creds.username, password: creds.password };
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
      // profile=<path> is one token to us but re-split by cassandra-stress: the path must be a plain one.
      const bad = stressPathProblem('cassandra-stress', p.profile ?? '');
      if (bad) throw new Error(`profile ${JSON.stringify((p.profile ?? '').slice(0, 200))} ${bad}; give a plain path`);
      const ops = Object.entries(p.ops ?? {})
        .map(([k, w]) => `${k}=${w}`)
        .join(',');
      command = ['user', `profile=${p.profile}`, `ops(${ops})`, bound, cl];
      break;
    }
  }
  const steps: StressStep[] = [];
  const size = p.population?.size;
  if ((p.workload === 'read' || p.workload === 'mixed') && size) {
    steps.push({
      name: 'load',
      argv: [binary, 'write', `n=${size}`, cl, 'no-warmup', ...schema, '-pop', `seq=1..${size}`, ...common(p, p.threads, undefined, credArgs)],
    });
  }
  steps.push({
    name: 'run',
    argv: [binary, ...command, ...(p.workload === 'user' ? [] : schema), ...pop(p), ...common(p, p.threads, p.rate, credArgs)],
  });
  const viaArgv = credArgs !== null && 'user' in credArgs;
  const secretArgs = viaArgv ? [`password=${creds!.password}`] : [];
  for (const s of steps) guardArgv('cassandra-stress', s.argv, OPTIONS, secretArgs);
  return {
    tool: 'cassandra-stress',
    steps,
    env: {},
    secretArgs,
    ...(credArgs ? { credentials: viaArgv ? ('argv' as const) : ('file' as const) } : {}),
  };
};
