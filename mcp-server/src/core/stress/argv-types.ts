import type { StressCredentials, StressParams } from './params.js';

/** One process to run: schema / load steps prepare data, "run" is the measured step. */
export interface StressStep {
  name: 'schema' | 'load' | 'run';
  argv: string[];
}

export interface StressCommand {
  tool: StressParams['tool'];
  steps: StressStep[];
  /** Extra environment for every step (latte reads credentials from CASSANDRA_USER / CASSANDRA_PASSWORD). */
  env: Record<string, string>;
  /** argv positions holding a secret, per step, so argv.json can redact them. */
  secretArgs: string[];
  /**
   * cassandra-stress with credentials: 'file' = a -credentials-file the runner wrote (no secret in argv),
   * 'argv' = user=/password= on the command line (visible to `ps` on this host); scylla-bench: always 'argv'
   * (-password). Absent without credentials.
   */
  credentials?: 'file' | 'argv';
}

/** Paths the runner supplies (files in the run folder). */
export interface StressFiles {
  /** latte: the workload script to use (the built-in one written by the runner, or the user's). */
  workload?: string;
  /** latte: where `latte run -o` writes its JSON report. */
  reportJson?: string;
  /** latte: folder for latte's own log files. */
  logDir?: string;
  /**
   * cassandra-stress: a java.util.Properties file holding cql.username / cql.password, written by the runner in
   * a private temp folder when the binary supports -credentials-file; used instead of user=/password= in argv.
   */
  credentialsFile?: string;
  /**
   * latte: client TLS (--ssl) with the user's own PEM files (CA, client certificate and key), from their
   * environment or cqlshrc; paths, never secrets, so they may stand on the command line.
   */
  tls?: { ca?: string; cert?: string; key?: string };
}

export type ArgvBuilder = (binary: string, p: StressParams, files: StressFiles, creds?: StressCredentials) => StressCommand;

/** Contact points with the port appended when it is not the drivers' default 9042 (IPv6 in brackets). */
export function hostPorts(p: StressParams): string[] {
  const port = p.port ?? 9042;
  return p.nodes.map((n) => (port === 9042 ? n : n.includes(':') ? `[${n}]:${port}` : `${n}:${port}`));
}
