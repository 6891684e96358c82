import { describe, expect, it } from 'vitest';
import {
  DAEMON_CLASS,
  NODETOOL_CLASS,
  findJammJar,
  labMarkerFlag,
  moduleAccessFlags,
  nodetoolJvmFlags,
  ringDelayMs,
  serverJvmFlags,
  type ServerJvmParams,
} from '../../mcp-server/src/lab/jvm-flags.js';

const base: ServerJvmParams = {
  version: '5.0',
  heap: '512M',
  nodeDir: '/lab/node1',
  logDir: '/lab/node1/logs',
  configUrl: 'file:///lab/node1/conf/cassandra.yaml',
  logbackPath: '/lab/node1/conf/logback.xml',
  jmxPort: 7199,
  index: 1,
  jammJar: '/cache/lib/jamm-0.4.0.jar',
};

describe('lab JVM flags', () => {
  it('names the daemon and nodetool classes', () => {
    expect(DAEMON_CLASS).toBe('org.apache.cassandra.service.CassandraDaemon');
    expect(NODETOOL_CLASS).toBe('org.apache.cassandra.tools.NodeTool');
  });

  it('puts heap, config, JMX and the node marker on the daemon command line', () => {
    const f = serverJvmFlags(base);
    expect(f[0]).toBe(labMarkerFlag('/lab/node1'));
    expect(f).toEqual(
      expect.arrayContaining([
        '-Xms512M',
        '-Xmx512M',
        '-XX:MetaspaceSize=128M',
        '-Dcassandra.config=file:///lab/node1/conf/cassandra.yaml',
        '-Dlogback.configurationFile=/lab/node1/conf/logback.xml',
        '-Dcassandra.logdir=/lab/node1/logs',
        '-Dcassandra.storagedir=/lab/node1',
        '-Dcassandra.jmx.local.port=7199',
        '-Dcom.sun.management.jmxremote.authenticate=false',
        '-Dcassandra-foreground=yes',
        '-Dcassandra.skip_wait_for_gossip_to_settle=0',
        '-Dcassandra.ring_delay_ms=1000',
        '-javaagent:/cache/lib/jamm-0.4.0.jar',
        '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
        '--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED',
      ]),
    );
    expect(f.some((x) => x.startsWith('-Xlog:gc') && x.includes('/lab/node1/logs/gc.log'))).toBe(true);
  });

  it('gives joining nodes a longer ring delay than the seed', () => {
    expect(ringDelayMs(1)).toBe(1000);
    expect(ringDelayMs(2)).toBeGreaterThan(1000);
    expect(serverJvmFlags({ ...base, index: 3, jmxPort: 7399 })).toEqual(
      expect.arrayContaining(['-Dcassandra.ring_delay_ms=5000', '-Dcassandra.jmx.local.port=7399']),
    );
  });

  it('adds the extra opens 4.1 needs on Java 17 only for 4.1', () => {
    const v50 = moduleAccessFlags('5.0');
    const v41 = moduleAccessFlags('4.1');
    expect(v50).not.toContain('--add-opens=java.base/java.util.concurrent=ALL-UNNAMED');
    expect(v41).toContain('--add-opens=java.base/java.util.concurrent=ALL-UNNAMED');
    expect(v41).toContain('--add-opens=java.base/sun.nio.fs=ALL-UNNAMED');
    expect(v41.length).toBeGreaterThan(v50.length);
    for (const f of v50) expect(v41).toContain(f);
  });

  it('skips the GC log when the log dir holds a colon (-Xlog separator)', () => {
    expect(serverJvmFlags({ ...base, logDir: '/odd:dir/logs' }).some((x) => x.startsWith('-Xlog'))).toBe(false);
  });

  it('omits the agent when no jamm jar was resolved', () => {
    expect(serverJvmFlags({ ...base, jammJar: null }).some((x) => x.startsWith('-javaagent'))).toBe(false);
  });

  it('finds the jamm jar among the classpath', () => {
    expect(findJammJar(['/l/cassandra-all-4.1.10.jar', '/l/jamm-0.3.2.jar', '/l/jna-5.6.0.jar'])).toBe('/l/jamm-0.3.2.jar');
    expect(findJammJar(['/l/notjamm-1.jar'])).toBeNull();
  });

  it('runs nodetool as a small, fast client', () => {
    const f = nodetoolJvmFlags('5.0', '/cache/nodetool-logback.xml');
    expect(f).toEqual(
      expect.arrayContaining([
        '-Xmx256m',
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        '-Dlogback.configurationFile=/cache/nodetool-logback.xml',
        '--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED',
        '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
      ]),
    );
  });
});
