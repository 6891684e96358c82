import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { LocalTarget } from '../collect/local-target.js';
import { LabError } from './errors.js';
import { javaVersionLine, parseJavaMajor } from './java-version.js';
import { findListener } from './proc.js';

export const MIN_JAVA_MAJOR = 17;

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** PATH lookup without a shell (`which` would mean spawning one more process for nothing). */
export async function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}

/** $JAVA_HOME/bin/java first (what the user pinned), then PATH. */
export async function findJava(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const home = env.JAVA_HOME?.trim();
  if (home) {
    const candidate = join(home, 'bin', 'java');
    if (await isExecutable(candidate)) return candidate;
  }
  return findOnPath('java', env);
}

export interface JavaInfo {
  path: string;
  major: number;
  versionLine: string;
}

export async function checkJava(signal?: AbortSignal, env: NodeJS.ProcessEnv = process.env): Promise<JavaInfo> {
  // A JAVA_HOME without bin/java is a mistake to name now: java from PATH would run the nodes, but Maven
  // honours JAVA_HOME and would fail later with an error that looks like a network problem.
  const home = env.JAVA_HOME?.trim();
  if (home && !(await isExecutable(join(home, 'bin', 'java')))) {
    throw new LabError(
      'NO_JAVA',
      `JAVA_HOME=${home} has no executable bin/java.`,
      `Point JAVA_HOME at a JDK ${MIN_JAVA_MAJOR}+ (the folder that holds bin/java), or unset it to use java from PATH.`,
    );
  }
  const path = await findJava(env);
  if (!path) {
    throw new LabError(
      'NO_JAVA',
      'No java found: neither $JAVA_HOME/bin/java nor java on PATH.',
      `Install a JDK ${MIN_JAVA_MAJOR} (e.g. \`apt-get install openjdk-17-jre-headless\`) or set JAVA_HOME.`,
    );
  }
  const r = await new LocalTarget().run([path, '-version'], { timeoutMs: 30_000, ...(signal ? { signal } : {}) });
  // `java -version` prints on stderr; some wrappers use stdout.
  const out = `${r.stderr}\n${r.stdout}`;
  const major = parseJavaMajor(out);
  if (r.spawnError || major === null) {
    throw new LabError(
      'NO_JAVA',
      `Could not run ${path} -version${r.spawnError ? ` (${r.spawnError})` : ''}: ${javaVersionLine(out) || 'no version printed'}.`,
      `Install a JDK ${MIN_JAVA_MAJOR} or point JAVA_HOME at one.`,
    );
  }
  if (major < MIN_JAVA_MAJOR) {
    throw new LabError(
      'JAVA_TOO_OLD',
      `${path} is Java ${major} (${javaVersionLine(out)}); the lab needs Java ${MIN_JAVA_MAJOR} or newer.`,
      `Install a JDK ${MIN_JAVA_MAJOR} and set JAVA_HOME to it.`,
    );
  }
  return { path, major, versionLine: javaVersionLine(out) };
}

export async function findMaven(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  for (const home of [env.MAVEN_HOME, env.M2_HOME]) {
    if (home?.trim()) {
      const candidate = join(home.trim(), 'bin', 'mvn');
      if (await isExecutable(candidate)) return candidate;
    }
  }
  const onPath = await findOnPath('mvn', env);
  if (onPath) return onPath;
  throw new LabError(
    'NO_MAVEN',
    'Maven (mvn) is not installed, and the Cassandra jars for this version are not in the cache yet.',
    'Install Maven 3.6+ (e.g. `apt-get install maven`) or put mvn on PATH; it is used once per version to fetch jars from Maven Central.',
  );
}

export type BindResult = 'free' | 'in-use' | 'no-address' | { error: string };

/** Tries to listen on host:port and closes at once: the only check that matches what the daemon will do. */
export function tryBind(host: string, port: number): Promise<BindResult> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE' || e.code === 'EACCES') resolve('in-use');
      else if (e.code === 'EADDRNOTAVAIL') resolve('no-address');
      else resolve({ error: `${e.code ?? 'error'}: ${e.message}` });
    });
    server.listen({ host, port, exclusive: true }, () => {
      server.close(() => resolve('free'));
    });
  });
}

export interface PortNeed {
  host: string;
  port: number;
  what: string;
}

export async function checkPortsFree(needs: readonly PortNeed[]): Promise<void> {
  for (const n of needs) {
    const r = await tryBind(n.host, n.port);
    if (r === 'free') continue;
    if (r === 'no-address') {
      throw new LabError(
        'LOOPBACK_UNAVAILABLE',
        `Cannot bind ${n.host}:${n.port} (${n.what}): the address ${n.host} is not configured on the loopback interface.`,
        process.platform === 'darwin'
          ? `Add it once with \`sudo ifconfig lo0 alias ${n.host} up\`, or start a 1-node lab.`
          : `Make sure 127.0.0.0/8 is routed to lo (Linux default), or start a 1-node lab.`,
      );
    }
    if (r === 'in-use') {
      const holder = await findListener(n.host, n.port).catch(() => null);
      const who = holder?.pid ? ` by pid ${holder.pid}${holder.command ? ` (${holder.command})` : ''}` : '';
      throw new LabError(
        'PORT_IN_USE',
        `${n.host}:${n.port} (${n.what}) is already in use${who}.`,
        `If it is an earlier lab, run \`cql-tuner lab stop\`; otherwise stop what holds the port${holder?.pid ? ` (pid ${holder.pid})` : ''} and start again.`,
      );
    }
    throw new LabError(
      'LOOPBACK_UNAVAILABLE',
      `Cannot bind ${n.host}:${n.port} (${n.what}): ${r.error}.`,
      'Check the loopback interface and local firewall rules.',
    );
  }
}
