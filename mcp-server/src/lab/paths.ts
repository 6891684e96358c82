import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { dataHome } from '../collect/data-home.js';
import type { LabVersion } from './versions.js';
import { SUPPORTED_LAB_VERSIONS } from './versions.js';

type Env = Record<string, string | undefined>;

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v : undefined;
}

/**
 * Where the lab keeps things. Read from the environment on every call (not at import), so tests and the CLI can
 * point CQL_TUNER_HOME / CQL_TUNER_CACHE elsewhere at run time.
 * - cacheDir: downloaded jars, shared by every lab; safe to delete.
 * - stateDir: lab.json and the node directories (data, logs).
 */
export function labPaths(env: Env = process.env, home: string = homedir()): { stateDir: string; cacheDir: string } {
  const stateDir = join(dataHome(env, home), 'lab');
  const cqlCache = nonEmpty(env.CQL_TUNER_CACHE);
  const cacheHome = nonEmpty(env.XDG_CACHE_HOME);
  const cacheDir = cqlCache
    ? resolve(cqlCache)
    : cacheHome
      ? join(resolve(cacheHome), 'cql-tuner')
      : join(home, '.cache', 'cql-tuner');
  return { stateDir, cacheDir };
}

export function cassandraCacheRoot(cacheDir: string): string {
  return join(cacheDir, 'cassandra');
}

export function versionCacheDir(cacheDir: string, version: LabVersion): string {
  return join(cassandraCacheRoot(cacheDir), SUPPORTED_LAB_VERSIONS[version]);
}

export function libDirFor(cacheDir: string, version: LabVersion): string {
  return join(versionCacheDir(cacheDir, version), 'lib');
}

export function labJsonPath(stateDir: string): string {
  return join(stateDir, 'lab.json');
}

export function nodeDirFor(stateDir: string, index: number): string {
  return join(stateDir, `node${index}`);
}

/** The subdirectories Cassandra writes to, created before start. */
export const NODE_SUBDIRS = ['conf', 'data', 'commitlog', 'hints', 'saved_caches', 'cdc_raw', 'logs'] as const;

export interface NodeFiles {
  dir: string;
  confDir: string;
  yaml: string;
  /** cassandra-rackdc.properties, next to cassandra.yaml (written for 2-DC labs only). */
  rackDc: string;
  logback: string;
  logDir: string;
  systemLog: string;
  /** The JVM's own stdout+stderr (crashes before logback starts land here). */
  consoleLog: string;
}

export function nodeFiles(stateDir: string, index: number): NodeFiles {
  const dir = nodeDirFor(stateDir, index);
  const logDir = join(dir, 'logs');
  return {
    dir,
    confDir: join(dir, 'conf'),
    yaml: join(dir, 'conf', 'cassandra.yaml'),
    rackDc: join(dir, 'conf', 'cassandra-rackdc.properties'),
    logback: join(dir, 'conf', 'logback.xml'),
    logDir,
    systemLog: join(logDir, 'system.log'),
    consoleLog: join(logDir, 'console.log'),
  };
}

/** Node N: 127.0.0.N, JMX 7199, 7299, 7399 (JMX binds to 127.0.0.1 only, so the ports must differ). */
export function nodeAddress(index: number): { host: string; jmxPort: number } {
  return { host: `127.0.0.${index}`, jmxPort: 7199 + 100 * (index - 1) };
}
