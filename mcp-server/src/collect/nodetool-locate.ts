import { OpError } from '../core/errors.js';
import { access, constants, stat } from 'node:fs/promises';
import { basename, delimiter, isAbsolute, join } from 'node:path';

import type { NodetoolSource } from '../core/reports/nodetool.js';
export type { NodetoolSource } from '../core/reports/nodetool.js';

export interface LocatedNodetool {
  /** argv to prepend to nodetool's own arguments: a script path, or java + flags + class for the lab. */
  argvPrefix: string[];
  source: NodetoolSource;
  path: string;
}

export class NodetoolNotFound extends OpError {
  constructor(message: string, fix: string) {
    super('NODETOOL_NOT_FOUND', message, fix);
    this.name = 'NodetoolNotFound';
  }
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const s = await stat(path);
    if (!s.isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// Only a file called nodetool may be run as one: an explicit path must not become a way to run any binary.
function checkExplicit(path: string, from: string): void {
  if (!isAbsolute(path))
    throw new NodetoolNotFound(
      `${from} must be an absolute path, got ${JSON.stringify(path)}`,
      'Give the absolute path of the nodetool script, e.g. /opt/cassandra/bin/nodetool.',
    );
  if (!/^nodetool(\.sh)?$/.test(basename(path))) {
    throw new NodetoolNotFound(
      `${from} must point at a file named nodetool, got ${JSON.stringify(basename(path))}`,
      'Point it at <cassandra>/bin/nodetool (or Scylla’s /usr/bin/nodetool).',
    );
  }
}

/**
 * On a remote target (ssh, kubectl, docker) nodetool is the remote host's: an explicit absolute path, or
 * plain "nodetool" for its PATH. Nothing local is looked at.
 */
export function remoteNodetool(explicit?: string): LocatedNodetool {
  if (explicit) {
    checkExplicit(explicit, 'nodetoolPath');
    return { argvPrefix: [explicit], source: 'remote', path: explicit };
  }
  return { argvPrefix: ['nodetool'], source: 'remote', path: 'nodetool' };
}

/** The lab's nodetool as java + flags + class (lab/lab.ts labNodetoolArgv), or null when its jars are not cached. */
export type LabNodetool = () => Promise<string[] | null>;

/**
 * Finds nodetool in order: explicit path, $CQL_TUNER_NODETOOL, $CASSANDRA_HOME/bin/nodetool, PATH, then the
 * local lab's Maven jars (java + NodeTool class), which the caller hands in: collect does not reach up into lab/.
 */
export async function locateNodetool(explicit: string | undefined, env: NodeJS.ProcessEnv, labNodetool: LabNodetool): Promise<LocatedNodetool> {
  const tried: string[] = [];
  for (const [source, path] of [
    ['explicit', explicit],
    ['CQL_TUNER_NODETOOL', env['CQL_TUNER_NODETOOL']],
  ] as const) {
    if (!path) continue;
    checkExplicit(path, source === 'explicit' ? 'nodetoolPath' : 'CQL_TUNER_NODETOOL');
    if (await isExecutableFile(path)) return { argvPrefix: [path], source, path };
    throw new NodetoolNotFound(
      `${source === 'explicit' ? 'nodetoolPath' : 'CQL_TUNER_NODETOOL'} ${path} is not an executable file`,
      'Check the path and its permissions.',
    );
  }
  const home = env['CASSANDRA_HOME'];
  if (home) {
    const p = join(home, 'bin', 'nodetool');
    if (await isExecutableFile(p)) return { argvPrefix: [p], source: 'CASSANDRA_HOME', path: p };
    tried.push(`$CASSANDRA_HOME/bin/nodetool (${p})`);
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const p = join(dir, 'nodetool');
    if (await isExecutableFile(p)) return { argvPrefix: [p], source: 'PATH', path: p };
  }
  tried.push('nodetool on PATH');
  const lab = await labNodetool();
  if (lab) return { argvPrefix: lab, source: 'lab', path: lab[0] ?? 'java' };
  tried.push('the lab’s Cassandra jars');
  throw new NodetoolNotFound(
    `nodetool not found (tried ${tried.join(', ')})`,
    'Pass nodetoolPath, set CQL_TUNER_NODETOOL or CASSANDRA_HOME, put nodetool on PATH, or run `cql-tuner lab start` once to fetch Cassandra’s jars.',
  );
}
