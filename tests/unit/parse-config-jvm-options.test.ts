import { describe, expect, it } from 'vitest';
import { CONFIG_PARSERS, JVM_OPTIONS_KIND, configSignature, parseJvmOptions, type JvmOptions } from '../../mcp-server/src/core/parse/config/index.js';
import type { Parsed } from '../../mcp-server/src/core/parsed.js';
import { HAVE_CORPUS, corpus } from '../helpers/corpus.js';

const DSE = 'config/dse67_jvm_options_heap_unset_g1_pause500.txt';
const CMDLINE = 'config/cassandra2117_java_cmdline_cms_2g_heap.txt';
const M = 1024 ** 2;
const G = 1024 ** 3;

// A jvm17-server.options-style file written for this test.
const JVM17 = `###########################################################################
#                             jvm17-server.options                        #
###########################################################################
-XX:+UseG1GC
-XX:+ParallelRefProcEnabled
-XX:MaxTenuringThreshold=2
-XX:G1HeapRegionSize=16m
-XX:MaxGCPauseMillis=300
-XX:InitiatingHeapOccupancyPercent=70
-XX:ParallelGCThreads=16
-XX:ConcGCThreads=16
#-XX:+UseZGC
-Xlog:gc=info,heap*=trace,age*=debug,safepoint=info,promotion*=trace:file=/var/log/cassandra/gc.log:time,uptime,pid,tid,level:filecount=10,filesize=10485760
--add-exports java.base/jdk.internal.misc=ALL-UNNAMED
--add-opens java.base/java.lang=ALL-UNNAMED
-XX:+AlwaysPreTouch
-XX:-UseBiasedLocking
-XX:+UseNUMA
-XX:+UseLargePages
-XX:-UseTransparentHugePages
-XX:+ExitOnOutOfMemoryError
-XX:+HeapDumpOnOutOfMemoryError
-XX:HeapDumpPath=/var/lib/cassandra/heapdump.hprof
-Xms16G
-Xmx16G
-Xss256k
-Dcassandra.max_queued_native_transport_requests=4096
`;

// cassandra-env.sh excerpt: heap via MAX_HEAP_SIZE / HEAP_NEWSIZE, flags via JVM_OPTS.
const ENV_SH = `#MAX_HEAP_SIZE="4G"
#HEAP_NEWSIZE="800M"
MAX_HEAP_SIZE="8G"
HEAP_NEWSIZE="2G"
JVM_OPTS="$JVM_OPTS -XX:+UseG1GC"
JVM_OPTS="$JVM_OPTS -XX:MaxGCPauseMillis=300"
# JVM_OPTS="$JVM_OPTS -XX:+UseNUMA"
JVM_OPTS="$JVM_OPTS -Xloggc:\${CASSANDRA_LOG_DIR}/gc.log"
if [ "x$MAX_HEAP_SIZE" = "x" ]; then
    JVM_OPTS="$JVM_OPTS -Xms\${MAX_HEAP_SIZE}"
fi
`;

// A ps row.
const PS = `cassandra  4242     1  9 Nov20 ?        01:02:03 /usr/lib/jvm/java-17/bin/java -ea -Xms8G -Xmx8G -XX:+UseG1GC -XX:-UseG1GC -XX:+UseZGC -XX:+ExitOnOutOfMemoryError -Dcassandra.jmx.local.port=7199 -cp /etc/cassandra:/usr/share/cassandra/lib/x.jar org.apache.cassandra.service.CassandraDaemon`;

function ok(r: Parsed<JvmOptions>): JvmOptions {
  if (!r.ok) throw new Error(`expected ok, got: ${r.reason}`);
  return r.value;
}

describe('parseJvmOptions', () => {
  it.skipIf(!HAVE_CORPUS)('DSE 6.7 jvm.options: heap unset (commented out), G1, MaxGCPauseMillis=500, GC logging on', () => {
    const r = parseJvmOptions(corpus(DSE));
    expect(r.kind).toBe(JVM_OPTIONS_KIND);
    const v = ok(r);
    expect(v.format).toBe('options-file');
    expect(v.heap.xmsBytes).toBeNull();
    expect(v.heap.xmxBytes).toBeNull();
    expect(v.heap.xmnBytes).toBeNull();
    expect(v.heap.xmsCommented).toBe('4G');
    expect(v.heap.xmxCommented).toBe('4G');
    expect(v.heap.xmnCommented).toBe('800M');
    expect(v.gc.collector).toBe('G1');
    expect(v.gc.selected).toEqual(['G1']);
    expect(v.gc.maxGCPauseMillis).toBe(500);
    // The CMS section and the optional G1 settings are commented out: not in effect.
    expect(v.gc.cmsInitiatingOccupancyFraction).toBeNull();
    expect(v.gc.initiatingHeapOccupancyPercent).toBeNull();
    expect(v.gc.parallelGCThreads).toBeNull();
    expect(v.commentedFlags.map((f) => f.raw)).toEqual(
      expect.arrayContaining(['-XX:+UseConcMarkSweepGC', '-XX:InitiatingHeapOccupancyPercent=70', '-Xloggc:/var/log/cassandra/gc.log']),
    );
    expect(v.gcLogging.enabled).toBe(true);
    expect(v.gcLogging.xloggc).toBeNull(); // "A default location is set in cassandra-env.sh"
    expect(v.gcLogging.flags).toEqual(expect.arrayContaining(['PrintGCDetails', 'UseGCLogFileRotation', 'NumberOfGCLogFiles', 'GCLogFileSize']));
    expect(v.systemProperties['jdk.nio.maxCachedBufferSize']).toBe('1048576');
    expect(v.flags.find((f) => f.name === 'MaxGCPauseMillis')).toMatchObject({ type: 'XX', value: '500', enabled: null });
    expect(r.ok && r.warnings).toEqual([]);
  });

  it.skipIf(!HAVE_CORPUS)('Cassandra 2.1.17 java command line: 1995 MB heap, -Xmn200M, ParNew/CMS at 75 %, tenuring 1', () => {
    const r = parseJvmOptions(corpus(CMDLINE));
    const v = ok(r);
    expect(v.format).toBe('command-line');
    expect(v.heap.xmsBytes).toBe(1995 * M);
    expect(v.heap.xmxBytes).toBe(1995 * M);
    expect(v.heap.xmnBytes).toBe(200 * M);
    expect(v.heap.xssBytes).toBe(256 * 1024);
    expect(v.gc.collector).toBe('CMS');
    expect(v.gc.selected).toEqual(['ParNew', 'CMS']);
    expect(v.gc.cmsInitiatingOccupancyFraction).toBe(75);
    expect(v.gc.useCMSInitiatingOccupancyOnly).toBe(true);
    expect(v.gc.maxTenuringThreshold).toBe(1);
    expect(v.gc.survivorRatio).toBe(8);
    expect(v.gc.maxGCPauseMillis).toBeNull();
    expect(v.heapDumpOnOutOfMemoryError).toBe(true);
    expect(v.exitOnOutOfMemoryError).toBeNull();
    expect(v.gcLogging.enabled).toBe(false);
    expect(v.systemProperties['com.sun.management.jmxremote.port']).toBe('7199');
    expect(v.flags.filter((f) => f.name === 'CMSWaitDuration')).toHaveLength(2); // the full list keeps repeats
    expect(v.flags.some((f) => f.name === 'javaagent')).toBe(true);
    expect(v.flags.every((f) => !f.raw.includes('java_class_path'))).toBe(true);
  });

  it('jvm17-server.options style: G1 tuning, -Xlog, large pages, NUMA, OOM handling', () => {
    const r = parseJvmOptions(JVM17);
    const v = ok(r);
    expect(v.format).toBe('options-file');
    expect(v.heap).toMatchObject({ xmsBytes: 16 * G, xmxBytes: 16 * G, xssBytes: 256 * 1024, xmsCommented: null });
    expect(v.gc).toMatchObject({
      collector: 'G1',
      maxGCPauseMillis: 300,
      initiatingHeapOccupancyPercent: 70,
      maxTenuringThreshold: 2,
      parallelGCThreads: 16,
      concGCThreads: 16,
      parallelRefProcEnabled: true,
    });
    expect(v.alwaysPreTouch).toBe(true);
    expect(v.useNUMA).toBe(true);
    expect(v.useLargePages).toBe(true);
    expect(v.useTransparentHugePages).toBe(false);
    expect(v.exitOnOutOfMemoryError).toBe(true);
    expect(v.heapDumpOnOutOfMemoryError).toBe(true);
    expect(v.heapDumpPath).toBe('/var/lib/cassandra/heapdump.hprof');
    expect(v.gcLogging.enabled).toBe(true);
    expect(v.gcLogging.xlog).toHaveLength(1);
    expect(v.gcLogging.xlog[0]).toMatch(/^gc=info,.*file=\/var\/log\/cassandra\/gc\.log/);
    expect(v.flags.filter((f) => f.name === 'add-opens')[0]).toMatchObject({ type: 'other', value: 'java.base/java.lang=ALL-UNNAMED' });
    expect(v.commentedFlags.map((f) => f.raw)).toEqual(['-XX:+UseZGC']);
    expect(v.systemProperties['cassandra.max_queued_native_transport_requests']).toBe('4096');
    expect(r.ok && r.warnings).toEqual([]);
  });

  it('cassandra-env.sh: MAX_HEAP_SIZE / HEAP_NEWSIZE, JVM_OPTS, shell variables left unresolved', () => {
    const r = parseJvmOptions(ENV_SH);
    const v = ok(r);
    expect(v.format).toBe('env-sh');
    expect(v.heap.xmsBytes).toBe(8 * G);
    expect(v.heap.xmxBytes).toBe(8 * G);
    expect(v.heap.xmnBytes).toBe(2 * G);
    expect(v.heap.fromEnv).toEqual({ maxHeapSize: '8G', heapNewsize: '2G' });
    expect(v.gc.collector).toBe('G1');
    expect(v.gc.maxGCPauseMillis).toBe(300);
    expect(v.useNUMA).toBeNull(); // commented out
    expect(v.commentedFlags.map((f) => f.raw)).toEqual(['-XX:+UseNUMA']);
    expect(v.unresolved).toEqual(['-Xloggc:${CASSANDRA_LOG_DIR}/gc.log', '-Xms${MAX_HEAP_SIZE}']);
    expect(v.gcLogging.enabled).toBe(false);
    expect(r.ok && r.warnings.join('\n')).toMatch(/unresolved shell variables/);
  });

  it('cassandra-env.sh with the heap commented out is "not set"', () => {
    const v = ok(parseJvmOptions('#MAX_HEAP_SIZE="4G"\n#HEAP_NEWSIZE="800M"\nJVM_OPTS="$JVM_OPTS -XX:+UseConcMarkSweepGC -XX:+UseParNewGC"\n'));
    expect(v.heap.xmxBytes).toBeNull();
    expect(v.heap.xmxCommented).toBe('4G');
    expect(v.heap.xmnCommented).toBe('800M');
    expect(v.gc.collector).toBe('CMS');
  });

  it('ps row: the last of -XX:+/-UseXGC wins; conflicting collectors are warned', () => {
    const r = parseJvmOptions(PS);
    const v = ok(r);
    expect(v.format).toBe('command-line');
    expect(v.heap.xmxBytes).toBe(8 * G);
    expect(v.gc.selected).toEqual(['ZGC']);
    expect(v.gc.collector).toBe('ZGC');
    expect(v.exitOnOutOfMemoryError).toBe(true);
    expect(v.flags.some((f) => f.raw.includes('cassandra/lib'))).toBe(false); // -cp argument skipped
    expect(r.ok && r.warnings).toEqual([]);

    const c = parseJvmOptions('java -XX:+UseG1GC -XX:+UseConcMarkSweepGC -Xmx4g Foo');
    expect(ok(c).gc.selected).toEqual(['G1', 'CMS']);
    expect(c.ok && c.warnings.join('\n')).toMatch(/conflicting collectors/);
  });

  it('empty or unrelated text is ok:false with a reason', () => {
    const inputs = [
      '',
      '\n  \n',
      'hello world',
      '# just a comment mentioning -Xmx in prose\n# - calculate 1/2 ram\n',
      'cluster_name: x\nnum_tokens: 16\nread_request_timeout_in_ms: 10000\n',
      'UN  127.0.0.1  1 KiB  16  100.0%  c474c29e-0000-0000-0000-000000000000  rack1\n',
      'ls -la --color=auto /tmp\n',
    ];
    for (const text of inputs) {
      const r = parseJvmOptions(text);
      expect(r.ok, text).toBe(false);
      expect(!r.ok && r.reason.length).toBeGreaterThan(0);
    }
    expect(parseJvmOptions(null as unknown as string).ok).toBe(false);
  });

  it.skipIf(!HAVE_CORPUS)('the cassandra.yaml corpus file is not JVM options', () => {
    expect(parseJvmOptions(corpus('config/cassandra_yaml_pre41_unthrottled_compaction_10s_timeouts_no_dsnitch.txt')).ok).toBe(false);
  });

  const texts = (): [string, string][] => [
    ['jvm17', JVM17],
    ['env', ENV_SH],
    ['ps', PS],
    ...(HAVE_CORPUS
      ? ([
          ['dse', corpus(DSE)],
          ['cmdline', corpus(CMDLINE)],
        ] as [string, string][])
      : []),
  ];

  it('truncation at every line (and mid-line) never throws', () => {
    for (const [name, text] of texts()) {
      const lines = text.split('\n');
      for (let i = 0; i <= lines.length; i++) {
        const head = lines.slice(0, i).join('\n');
        const line = lines[i] ?? '';
        const cuts = [head, `${head}\n${line.slice(0, Math.ceil(line.length / 2))}`, `${head}\n${line.slice(0, 7)}`];
        for (const cut of cuts) {
          let r: Parsed<JvmOptions> | undefined;
          expect(() => (r = parseJvmOptions(cut)), `${name} @${i}`).not.toThrow();
          if (!r!.ok) expect(r!.reason, `${name} @${i}`).not.toMatch(/^parser error/);
        }
      }
    }
  });

  it('is registered in CONFIG_PARSERS and its signature matches the inputs above but not a cassandra.yaml', () => {
    expect(CONFIG_PARSERS[JVM_OPTIONS_KIND]).toBe(parseJvmOptions);
    const sig = configSignature[JVM_OPTIONS_KIND];
    for (const [name, text] of texts()) expect(sig.test(text), name).toBe(true);
    expect(sig.test('cluster_name: x\nnum_tokens: 16\n')).toBe(false);
    expect(sig.test('hello -X world')).toBe(false);
    if (HAVE_CORPUS) {
      expect(sig.test(corpus('config/cassandra_yaml_pre41_unthrottled_compaction_10s_timeouts_no_dsnitch.txt'))).toBe(false);
    }
  });
});
