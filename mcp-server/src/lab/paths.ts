import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { labJsonPath, labStateDir } from '../collect/data-home.js';
import { LabError } from './errors.js';
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
  const stateDir = labStateDir(env, home);
  const cqlCache = nonEmpty(env.CQL_TUNER_CACHE);
  const cacheHome = nonEmpty(env.XDG_CACHE_HOME);
  const cacheDir = cqlCache ? resolve(cqlCache) : cacheHome ? join(resolve(cacheHome), 'cql-tuner') : join(home, '.cache', 'cql-tuner');
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

export { labJsonPath };

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
  return nodeAddressOn(DEFAULT_LAB_NET, index);
}

/** The default lab network: nodes on 127.0.0.1–3. */
export const DEFAULT_LAB_NET = '127.0.0';
export const LAB_NET_VAR = 'CQL_TUNER_LAB_NET';

/**
 * The first three octets of the lab's node addresses, from CQL_TUNER_LAB_NET (trusted: the user's environment), so
 * two labs can run on one machine (e.g. 127.0.2 → nodes on 127.0.2.1–3). Loopback only: anything outside
 * 127.0.0.0/8 is refused, since the lab must never listen on a real interface.
 */
export function labNet(env: Env = process.env): string {
  const raw = nonEmpty(env[LAB_NET_VAR])?.trim();
  if (raw === undefined) return DEFAULT_LAB_NET;
  const m = /^127\.(\d{1,3})\.(\d{1,3})$/.exec(raw);
  if (!m || Number(m[1]) > 255 || Number(m[2]) > 255) {
    throw new LabError(
      'BAD_LAB_NET',
      `${LAB_NET_VAR}=${JSON.stringify(raw.slice(0, 40))} is not a loopback network like 127.0.2`,
      `Set ${LAB_NET_VAR} to three octets inside 127.0.0.0/8 (e.g. 127.0.2; the nodes get .1 to .3), or unset it for 127.0.0.x.`,
    );
  }
  return `127.${Number(m[1])}.${Number(m[2])}`;
}

/**
 * Node N of a lab on `net`. JMX stays on 127.0.0.1 (Cassandra's local-only JMX binds the loopback address
 * InetAddress.getLoopbackAddress(), not the node's, checked in JMXServerUtils of 4.1.10 and 5.0.9), so another
 * network needs other JMX ports: 20000 + 10 × ((256 × B + C) mod 1000) + N for 127.B.C, away from the default
 * 7199/7299/7399 and below the ephemeral range (32768+). Two networks whose 256 × B + C agree mod 1000 would share ports.
 */
export function nodeAddressOn(net: string, index: number): { host: string; jmxPort: number } {
  if (net === DEFAULT_LAB_NET) return { host: `127.0.0.${index}`, jmxPort: 7199 + 100 * (index - 1) };
  const [, b, c] = net.split('.').map(Number) as [number, number, number];
  return { host: `${net}.${index}`, jmxPort: 20_000 + 10 * ((256 * b + c) % 1000) + index };
}
