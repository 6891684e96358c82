/** Turns nodetool's failure text into a cause an operator can act on. Pure: reads text only. */
export interface NodetoolFailure {
  code:
    'JMX_UNREACHABLE' | 'JMX_AUTH' | 'JMX_ACCESS_DENIED' | 'JMX_SSL' | 'NO_METRIC_YET' | 'NODE_STARTING' | 'UNKNOWN_TABLE' | 'JAVA_ERROR' | 'NODETOOL_FAILED';
  message: string;
  fix: string;
}

export function classifyNodetoolFailure(subcommand: string, host: string, port: number, output: string): NodetoolFailure {
  const text = output.slice(0, 20000);
  const firstLine = (re: RegExp) =>
    text
      .split('\n')
      .find((l) => re.test(l))
      ?.trim()
      .slice(0, 300) ?? '';
  // nodetool words a plain client meeting an SSL registry as "Failed to connect ... non-JRMP server": SSL, not a dead port.
  const sslFirst = /non-JRMP server|SSLHandshakeException|handshake_failure|PKIX path/i.test(text);
  if (!sslFirst && /Connection refused|ConnectException|NoRouteToHostException|UnknownHostException|Failed to connect to/i.test(text)) {
    return {
      code: 'JMX_UNREACHABLE',
      message: `cannot reach JMX at ${host}:${port}: ${firstLine(/Failed to connect|Connection refused|Exception/)}`,
      fix: 'Check that the node is running and that JMX listens there (default 7199; 127.0.0.1 only unless LOCAL_JMX=no). Use the node’s own JMX port, or run from the node itself.',
    };
  }
  if (/SSL|handshake_failure|non-JRMP server|JRMP/i.test(text) && /SSL|TLS|JRMP/.test(text)) {
    return {
      code: 'JMX_SSL',
      message: `JMX at ${host}:${port} wants SSL (or is not JMX): ${firstLine(/SSL|JRMP|handshake/i)}`,
      fix: 'Set CQL_TUNER_JMX_SSL=1 and the javax.net.ssl trust store for nodetool, or check that this port is JMX.',
    };
  }
  // Logged in, but the JMX access file gives this user `readonly`: commands that invoke an MBean operation are refused.
  if (/Access denied! Invalid access level/i.test(text)) {
    return {
      code: 'JMX_ACCESS_DENIED',
      message: `JMX at ${host}:${port} accepted the login but refused ${subcommand}: the JMX user is read-only (${firstLine(/Access denied/i)})`,
      fix:
        `nodetool ${subcommand} invokes MBean operations: give the JMX user \`readwrite\` in the JMX access file ` +
        '(com.sun.management.jmxremote.access.file), or read this from the CQL virtual tables instead.',
    };
  }
  if (/Authentication failed|Invalid username or password|Credentials required|SecurityException/i.test(text)) {
    return {
      code: 'JMX_AUTH',
      message: /Credentials required/i.test(text)
        ? `JMX at ${host}:${port} requires a login (com.sun.management.jmxremote.authenticate=true) and none was given`
        : /Invalid username or password/i.test(text)
          ? `JMX at ${host}:${port} refused the user name or password`
          : `JMX at ${host}:${port} refused the credentials (or needs some)`,
      fix:
        'Set CQL_TUNER_JMX_USERNAME and CQL_TUNER_JMX_PASSWORD_FILE (a file holding "<user> <password>", as nodetool -pwf reads) ' +
        'or CQL_TUNER_JMX_PASSWORD in the environment of the tool; the user and password are those of the JMX password file on the node.',
    };
  }
  if (/Server is not initialized yet|not yet initialized/i.test(text)) {
    return {
      code: 'NODE_STARTING',
      message: `the node at ${host}:${port} is still starting: ${firstLine(/not (yet )?initiali[sz]ed/i)}`,
      fix: 'Cassandra 5.0 refuses nodetool until start-up has finished; wait until the node answers CQL (or `nodetool statusbinary` says running) and try again.',
    };
  }
  if (/InstanceNotFoundException/.test(text)) {
    return {
      code: 'NO_METRIC_YET',
      message: `the node has not registered the metric ${subcommand} reads yet: ${firstLine(/InstanceNotFoundException/)}`,
      fix: 'Known on Cassandra 4.1: proxyhistograms fails on a node that has served no reads (the ClientRequest metric is created on first use). Send some traffic through this coordinator, or read the latency virtual tables instead.',
    };
  }
  if (/Unknown (keyspace|table)|Table .* does not exist|Keyspace .* does not exist|ColumnFamilyStore for/i.test(text)) {
    return {
      code: 'UNKNOWN_TABLE',
      message: `the keyspace or table does not exist on ${host}: ${firstLine(/Unknown|does not exist|ColumnFamily/i)}`,
      fix: 'List tables with `nodetool tablestats` (no arguments) or DESCRIBE in cqlsh; names are case-sensitive.',
    };
  }
  if (/Error: (Could not find or load main class|A JNI error)|UnsupportedClassVersionError|IllegalAccessException|InaccessibleObjectException/.test(text)) {
    return {
      code: 'JAVA_ERROR',
      message: `nodetool could not start its JVM: ${firstLine(/Error|Exception/)}`,
      fix: 'Use the nodetool that ships with the server version, with the Java it supports (Java 11/17 for 4.1 and 5.0).',
    };
  }
  return {
    code: 'NODETOOL_FAILED',
    message: `nodetool ${subcommand} failed: ${firstLine(/\S/) || 'no output'}`,
    fix: 'Read the raw output (raw: true) for the full error.',
  };
}
