import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

const nonEmpty = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v : undefined);

/**
 * cql-tuner's own data folder (lab state, bundles, stress runs): $CQL_TUNER_HOME, else
 * $XDG_DATA_HOME/cql-tuner, else ~/.local/share/cql-tuner. The same for the CLI and the MCP server, so a lab
 * started from one is seen by the other. Read at call time so tests can redirect it.
 */
export function dataHome(env: Env = process.env, home: string = homedir()): string {
  const own = nonEmpty(env['CQL_TUNER_HOME']);
  if (own) return resolve(own);
  const xdg = nonEmpty(env['XDG_DATA_HOME']);
  return xdg ? join(resolve(xdg), 'cql-tuner') : join(home, '.local', 'share', 'cql-tuner');
}

/** The lab's state folder (lab.json and the node folders) inside the data folder. */
export function labStateDir(env: Env = process.env, home: string = homedir()): string {
  return join(dataHome(env, home), 'lab');
}

export function labJsonPath(stateDir: string): string {
  return join(stateDir, 'lab.json');
}
