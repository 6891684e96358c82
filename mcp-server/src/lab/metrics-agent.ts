/**
 * `lab start --metrics`: each node runs the Prometheus JMX exporter java agent (io.prometheus.jmx:
 * jmx_prometheus_javaagent from Maven Central) serving /metrics on <node address>:7070, with a rule set of our own
 * that gives the names of the exporter's example Cassandra configuration (lowercased cassandra_<type>_<name>,
 * a label named after the type carrying the scope, latencies in seconds, `_count` for counters and meters),
 * so the metrics tools read the lab exactly as they read a cluster scraped with that configuration.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LocalTarget } from '../collect/local-target.js';
import { LabError } from './errors.js';
import { findMaven } from './preflight.js';

export const JMX_EXPORTER_VERSION = '1.0.1';
export const LAB_METRICS_PORT = 7070;

/** The agent jar in the local Maven repository, fetched with `mvn dependency:get` when missing. */
export async function resolveJmxExporterAgent(signal?: AbortSignal): Promise<string> {
  const jar = join(
    homedir(),
    '.m2',
    'repository',
    'io',
    'prometheus',
    'jmx',
    'jmx_prometheus_javaagent',
    JMX_EXPORTER_VERSION,
    `jmx_prometheus_javaagent-${JMX_EXPORTER_VERSION}.jar`,
  );
  if (existsSync(jar)) return jar;
  const mvn = await findMaven();
  const r = await new LocalTarget().run([mvn, '-q', '-B', 'dependency:get', `-Dartifact=io.prometheus.jmx:jmx_prometheus_javaagent:${JMX_EXPORTER_VERSION}`], {
    timeoutMs: 300_000,
    ...(signal ? { signal } : {}),
  });
  if (r.exitCode !== 0 || !existsSync(jar)) {
    throw new LabError(
      'RESOLVE_FAILED',
      `Could not fetch the Prometheus JMX exporter agent ${JMX_EXPORTER_VERSION} with Maven (${r.spawnError ?? `mvn exited with ${r.exitCode}`}).`,
      'Check network access to Maven Central, or start the lab without --metrics.',
    );
  }
  return jar;
}

/**
 * Rules, first match wins. MBeans with a keyspace (per-table metrics) are left out: a lab sweep reads those
 * through CQL, and leaving them out keeps a scrape small.
 */
const RULES = `lowercaseOutputName: true
lowercaseOutputLabelNames: true
includeObjectNames: ["org.apache.cassandra.metrics:*"]
excludeObjectNames: ["org.apache.cassandra.metrics:type=ColumnFamily,*", "org.apache.cassandra.metrics:type=Table,*", "org.apache.cassandra.metrics:type=Keyspace,*", "org.apache.cassandra.metrics:type=Index,*"]
rules:
  - pattern: 'org.apache.cassandra.metrics<type=(\\w+), scope=([^,>]+), name=(\\w*Latency)><>(\\d+)thPercentile'
    name: cassandra_$1_$3_seconds
    type: GAUGE
    valueFactor: 0.000001
    labels: { "$1": "$2", quantile: "0.$4" }
  - pattern: 'org.apache.cassandra.metrics<type=(\\w+), scope=([^,>]+), name=(\\w*Latency)><>Count'
    name: cassandra_$1_$3_seconds_count
    type: UNTYPED
    labels: { "$1": "$2" }
  - pattern: 'org.apache.cassandra.metrics<type=(\\w+), scope=([^,>]+), name=(\\w+)><>Count'
    name: cassandra_$1_$3_count
    type: UNTYPED
    labels: { "$1": "$2" }
  - pattern: 'org.apache.cassandra.metrics<type=(\\w+), scope=([^,>]+), name=(\\w+)><>Value'
    name: cassandra_$1_$3
    type: GAUGE
    labels: { "$1": "$2" }
  - pattern: 'org.apache.cassandra.metrics<type=(\\w+), name=(\\w+)><>Count'
    name: cassandra_$1_$2_count
    type: UNTYPED
  - pattern: 'org.apache.cassandra.metrics<type=(\\w+), name=(\\w+)><>Value'
    name: cassandra_$1_$2
    type: GAUGE
`;

export async function writeAgentConfig(confDir: string): Promise<string> {
  const file = join(confDir, 'jmx-exporter.yaml');
  await writeFile(file, RULES);
  return file;
}

/** -javaagent:<jar>=<host>:<port>:<config> */
export function agentFlag(jar: string, host: string, config: string): string {
  return `-javaagent:${jar}=${host}:${LAB_METRICS_PORT}:${config}`;
}
