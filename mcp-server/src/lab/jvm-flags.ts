import type { LabVersion } from './versions.js';

export const DAEMON_CLASS = 'org.apache.cassandra.service.CassandraDaemon';
export const NODETOOL_CLASS = 'org.apache.cassandra.tools.NodeTool';

/** System property put on every lab daemon's command line, so stop/status recognise our own processes by PID. */
export const LAB_MARKER_PROPERTY = 'cql_tuner.lab_node_dir';

export function labMarkerFlag(nodeDir: string): string {
  return `-D${LAB_MARKER_PROPERTY}=${nodeDir}`;
}

// From Cassandra 5.0's conf/jvm17-server.options: without them Java 17 refuses the reflective access Cassandra
// needs (the daemon dies at once with IllegalAccessException on sun.nio.ch.DirectBuffer.cleaner).
const JAVA17_EXPORTS = [
  'java.base/jdk.internal.misc',
  'java.management.rmi/com.sun.jmx.remote.internal.rmi',
  'java.rmi/sun.rmi.registry',
  'java.rmi/sun.rmi.server',
  'java.sql/java.sql',
  'java.base/java.lang.ref',
  'jdk.unsupported/sun.misc',
  'jdk.compiler/com.sun.tools.javac.file',
  'jdk.attach/sun.tools.attach',
];

const JAVA17_OPENS = [
  'java.base/java.lang.module',
  'java.base/jdk.internal.loader',
  'java.base/jdk.internal.ref',
  'java.base/jdk.internal.reflect',
  'java.base/jdk.internal.math',
  'java.base/jdk.internal.module',
  'java.base/jdk.internal.util.jar',
  'java.base/sun.nio.ch',
  'java.base/java.io',
  'java.base/java.lang.reflect',
  'java.base/java.lang',
  'java.base/java.util',
  'jdk.management/com.sun.management.internal',
  'jdk.compiler/com.sun.tools.javac',
];

// 4.1 was never released for Java 17; it still runs once these are open too (measured: otherwise
// InaccessibleObjectException ... module java.base does not "opens java.util.concurrent").
const JAVA17_OPENS_41_EXTRA = [
  'java.base/java.util.concurrent',
  'java.base/java.util.concurrent.atomic',
  'java.base/java.util.concurrent.locks',
  'java.base/java.nio',
  'java.base/java.net',
  'java.base/java.lang.invoke',
  'java.base/java.time',
  'java.base/java.util.regex',
  'java.base/sun.nio.fs',
  'java.base/java.nio.file',
  'java.base/java.nio.channels',
  'java.base/java.nio.charset',
  'java.base/java.security',
  'java.base/jdk.internal.misc',
];

function exportsFlags(list: readonly string[]): string[] {
  return list.map((m) => `--add-exports=${m}=ALL-UNNAMED`);
}

function opensFlags(list: readonly string[]): string[] {
  return list.map((m) => `--add-opens=${m}=ALL-UNNAMED`);
}

export function moduleAccessFlags(version: LabVersion): string[] {
  const opens = version === '4.1' ? [...JAVA17_OPENS, ...JAVA17_OPENS_41_EXTRA] : JAVA17_OPENS;
  return [...exportsFlags(JAVA17_EXPORTS), ...opensFlags(opens)];
}

export interface ServerJvmParams {
  version: LabVersion;
  /** Normalised, e.g. '512M'. */
  heap: string;
  nodeDir: string;
  logDir: string;
  /** file:// URL of the node's cassandra.yaml. */
  configUrl: string;
  logbackPath: string;
  jmxPort: number;
  /** Node number (1 = the seed, always started first). */
  index: number;
  /** The jamm jar from the lib dir, loaded as an agent as upstream's cassandra-env.sh does. */
  jammJar: string | null;
  /** file:// URL of the node's cassandra-rackdc.properties (2-DC labs only; a 1-DC lab has no such flag). */
  rackDcUrl?: string;
  /** JMX password and access files (a lab started with --jmx-auth), set the way cassandra-env.sh sets them. */
  jmxAuth?: { passwordFile: string; accessFile: string };
  /** JMX over SSL with this keystore (PKCS12), as cassandra-env.sh's JMX SSL block sets it. */
  jmxSsl?: { keystore: string; password: string };
  /** Auth labs: create the default superuser at once instead of after upstream's 10 s (5.0 reads the property). */
  superuserSetupDelayMs?: number;
  /** --metrics: the Prometheus JMX exporter agent flag (lab/metrics-agent.ts agentFlag). */
  metricsAgent?: string;
}

/**
 * System property naming the rackdc file. SnitchProperties (apache/cassandra,
 * src/java/org/apache/cassandra/locator/SnitchProperties.java; 5.0 reads it through
 * CassandraRelevantProperties.CASSANDRA_RACKDC_PROPERTIES, same key) takes the property "cassandra-rackdc.properties"
 * as a URL (`new URL(value)`), and only when it is unset looks the file up on the classpath. Checked with javap in the
 * 4.1.10 and 5.0.9 jars. The node's conf dir is first on its classpath too, but the flag pins each node to its own
 * file whatever the classpath order (and shows in `ps` which file a node read).
 */
export const RACKDC_PROPERTY = 'cassandra-rackdc.properties';

/** The jamm jar among the resolved jars (jamm-0.3.2.jar for 4.1, jamm-0.4.0.jar for 5.0). */
export function findJammJar(classpath: readonly string[]): string | null {
  return classpath.find((p) => /(^|\/)jamm-[\d.]+\.jar$/.test(p)) ?? null;
}

export function ringDelayMs(index: number): number {
  return index === 1 ? 1000 : 5000;
}

/**
 * cassandra-env.sh's JMX authentication: com.sun.management.jmxremote.authenticate plus the password and access
 * files, which Cassandra's JMXServerUtils reads itself for its local JMX server (4.1 and 5.0).
 */
export function jmxAuthFlags(auth: ServerJvmParams['jmxAuth']): string[] {
  if (!auth) return ['-Dcom.sun.management.jmxremote.authenticate=false'];
  return [
    // Upstream's jvm17-server.options exports this too: Cassandra wraps the JDK's JMXPluggableAuthenticator
    // (measured: without it the daemon dies at start with IllegalAccessException on its constructor).
    '--add-exports=java.management/com.sun.jmx.remote.security=ALL-UNNAMED',
    '-Dcom.sun.management.jmxremote.authenticate=true',
    `-Dcom.sun.management.jmxremote.password.file=${auth.passwordFile}`,
    `-Dcom.sun.management.jmxremote.access.file=${auth.accessFile}`,
  ];
}

/** cassandra-env.sh's JMX SSL block: the JMX connector over SSL with the node's keystore (no client certificate). */
export function jmxSslFlags(ssl: ServerJvmParams['jmxSsl']): string[] {
  if (!ssl) return [];
  return [
    '-Dcom.sun.management.jmxremote.ssl=true',
    '-Dcom.sun.management.jmxremote.ssl.need.client.auth=false',
    `-Djavax.net.ssl.keyStore=${ssl.keystore}`,
    `-Djavax.net.ssl.keyStorePassword=${ssl.password}`,
    '-Djavax.net.ssl.keyStoreType=PKCS12',
  ];
}

/** JVM options for one lab daemon (everything before -cp). */
export function serverJvmFlags(p: ServerJvmParams): string[] {
  const flags = [
    labMarkerFlag(p.nodeDir),
    `-Xms${p.heap}`,
    `-Xmx${p.heap}`,
    '-Xss256k',
    // Upstream jvm-server.options / jvm17-server.options GC choice, minus region sizing tuned for big heaps.
    '-XX:+UseG1GC',
    '-XX:+ParallelRefProcEnabled',
    '-XX:MaxGCPauseMillis=300',
    '-XX:G1RSetUpdatingPauseTimePercent=5',
    '-XX:+UseTLAB',
    '-XX:+ResizeTLAB',
    '-XX:+PerfDisableSharedMem',
    '-XX:+ExitOnOutOfMemoryError',
    '-XX:StringTableSize=1000003',
    // A booted 5.0.9 node holds ~51 MB of class metadata; from the JDK's ~21 MB default the boot runs young collections
    // for "Metadata GC Threshold" (2 on an idle node here; one took 707 ms on a starved 2-core CI host). With 128M: none.
    '-XX:MetaspaceSize=128M',
    '-Djava.net.preferIPv4Stack=true',
    '-Djdk.attach.allowAttachSelf=true',
    '-Dio.netty.tryReflectionSetAccessible=true',
    // JMX is local-only (bound to 127.0.0.1), one port per node; unauthenticated unless the lab has --jmx-auth.
    `-Dcassandra.jmx.local.port=${p.jmxPort}`,
    ...jmxAuthFlags(p.jmxAuth),
    ...jmxSslFlags(p.jmxSsl),
    ...(p.superuserSetupDelayMs !== undefined ? [`-Dcassandra.superuser_setup_delay_ms=${p.superuserSetupDelayMs}`] : []),
    ...(p.metricsAgent ? [p.metricsAgent] : []),
    '-Djava.rmi.server.hostname=127.0.0.1',
    '-Dcassandra-foreground=yes',
    `-Dcassandra.config=${p.configUrl}`,
    ...(p.rackDcUrl ? [`-D${RACKDC_PROPERTY}=${p.rackDcUrl}`] : []),
    `-Dcassandra.storagedir=${p.nodeDir}`,
    `-Dcassandra.logdir=${p.logDir}`,
    `-Dlogback.configurationFile=${p.logbackPath}`,
    // Fast boot: node 1 is the seed and comes up alone, so it has no ring to learn. Joining nodes keep a few
    // seconds (upstream 30 s) to learn ring and schema from gossip before they pick tokens and bootstrap.
    '-Dcassandra.skip_wait_for_gossip_to_settle=0',
    `-Dcassandra.ring_delay_ms=${ringDelayMs(p.index)}`,
    ...moduleAccessFlags(p.version),
  ];
  // Without the agent jamm falls back to Unsafe, which Java 17 refuses on hidden (lambda) classes: 4.1 then dies
  // in its startup checks ("can't get field offset on a hidden class").
  if (p.jammJar) flags.push(`-javaagent:${p.jammJar}`);
  // -Xlog uses ':' as its separator, so a path holding one cannot be expressed; skip the GC log then.
  if (!p.logDir.includes(':')) {
    flags.push(`-Xlog:gc=info,heap*=info,safepoint=info:file=${p.logDir}/gc.log:time,uptime,pid,tid,level:filecount=4,filesize=10m`);
  }
  return flags;
}

/**
 * JVM options for NodeTool run as a short-lived client (≈ 0.7–1.5 s per call instead of ≈ 2 s). It needs the
 * same module access as the daemon: NodeTool touches FileUtils, whose static init reflects on DirectBuffer.cleaner.
 */
export function nodetoolJvmFlags(version: LabVersion, logbackPath: string, trust?: { truststore: string; password: string }): string[] {
  return [
    // A lab with JMX over SSL: nodetool --ssl trusts the lab CA (the default SSLContext reads these).
    ...(trust
      ? [`-Djavax.net.ssl.trustStore=${trust.truststore}`, `-Djavax.net.ssl.trustStorePassword=${trust.password}`, '-Djavax.net.ssl.trustStoreType=PKCS12']
      : []),
    '-Xmx256m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-Djava.net.preferIPv4Stack=true',
    `-Dlogback.configurationFile=${logbackPath}`,
    ...moduleAccessFlags(version),
  ];
}
