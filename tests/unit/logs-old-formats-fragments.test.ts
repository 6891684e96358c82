/**
 * Old log layouts, bare lines and fragments (issue #14): Cassandra 0.6-1.2 log4j lines (" INFO 23:35:22,740 …",
 * "StatusLogger.java (line 53) Pool Name …"), 2.x time-only lines, a "[LEVEL]" prefix that lost its bracket, lines
 * pasted as `inline code`, Scylla lines without timestamp, DSE 6.8 StatusLogger tables, and a startup
 * ConfigurationException as a finding that names the settings. Lines are written after the formats of the code that
 * prints them (named above each case); hosts, keys and numbers are made up unless the case says otherwise.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detect } from '../../mcp-server/src/core/detect.js';
import { parseLogs, type LogFacts } from '../../mcp-server/src/core/parse/logs/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

function read(text: string): LogFacts {
  const r = parseLogs(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

const kindOf = (text: string) => {
  const d = detect(text);
  return d.ok ? d.kind : null;
};

describe('Cassandra 0.6-2.2 layouts', () => {
  it('0.6-1.2 console: the level padded to five characters (" INFO 23:35:22,740 msg") is a log line', () => {
    // log4j-server.properties of 0.6-1.2: "%5p %d{HH:mm:ss,SSS} %m%n"
    const text = [
      '[root@localhost apache-cassandra-0.6.1]# bin/cassandra -f',
      ' INFO 23:35:22,740 Auto DiskAccessMode determined to be mmap',
      ' INFO 23:35:23,602 Cassandra starting up...',
      'java.lang.OutOfMemoryError: Java heap space',
    ].join('\n');
    expect(kindOf(text)).toBe('logs');
    const f = read(text);
    expect(f.source.formats.cassandra).toBe(2);
    expect(f.oom.count).toBe(1);
  });

  it('1.2 file layout "%5p [%t] %d{ISO8601} %F (line %L) %m": message and StatusLogger table are read', () => {
    const text = [
      ' INFO [ScheduledTasks:1] 2013-06-04 10:00:00,123 GCInspector.java (line 119) GC for ConcurrentMarkSweep: 1234 ms for 1 collections, 123 used; max is 456',
      ' INFO [ScheduledTasks:1] 2013-06-04 10:00:00,124 StatusLogger.java (line 53) Pool Name                    Active   Pending   Blocked',
      ' INFO [ScheduledTasks:1] 2013-06-04 10:00:00,125 StatusLogger.java (line 68) ReadStage                        32      4211         0',
      ' INFO [ScheduledTasks:1] 2013-06-04 10:00:00,125 StatusLogger.java (line 68) MutationStage                     0         0         0',
    ].join('\n');
    expect(kindOf(text)).toBe('logs');
    const f = read(text);
    expect(f.gc.pauses).toBe(1);
    expect(f.gc.maxPauseMs).toBe(1234);
    expect(f.threadPools.snapshots).toBe(1);
    expect(f.threadPools.pools.find((p) => p.pool === 'ReadStage')).toMatchObject({ maxActive: 32, maxPending: 4211, maxBlocked: 0 });
    expect(f.time.firstTime).toContain('2013-06-04');
  });

  it('2.x time-only lines ("ERROR 03:24:53 msg") are detected as a log and classified', () => {
    const text = 'ERROR 03:24:53 Scanned over 100000 tombstones in zipkin.span_duration_index; query aborted (see tombstone_failure_threshold)';
    expect(kindOf(text)).toBe('logs');
    expect(read(text).tombstones.byTable[0]).toMatchObject({ table: 'zipkin.span_duration_index', aborts: 1 });
  });

  it('a "[LEVEL]" prefix that lost its first bracket keeps its level, date and file', () => {
    const f = read(
      'ERROR] [ValidationExecutor:4] 2024-03-13 10:02:47,558 ValidationManager.java:173 - Validation failed.\n' +
        'java.lang.RuntimeException: Parent repair session with id = c0bb8b90-e14a-11ee-b320-bdc4e5fd08de has failed.',
    );
    expect(f.levels.error).toBe(1);
    expect(f.source.formats.cassandra).toBe(1);
    expect(f.repair.failures).toBe(1);
  });

  it('a line pasted as markdown inline code is read without its backticks', () => {
    const line =
      '`INFO  [Messaging-EventLoop-3-1] 2023-02-01 09:00:47,673 NoSpamLogger.java:105 - Maximum memory usage reached (1.000MiB) for networking, cannot allocate chunk of 8.000MiB`';
    expect(kindOf(line)).toBe('logs');
    const f = read(line);
    expect(f.source.formats.cassandra).toBe(1);
    // 4.1+ networking pool wording: "for networking," without "buffer pool"
    expect(f.bufferPool.byPool).toEqual([{ pool: 'networking', limitBytes: 1024 * 1024, count: 1 }]);
  });
});

describe('bare lines and Scylla fragments', () => {
  it('messages pasted without any prefix are detected by what only these logs print', () => {
    expect(kindOf('Reactor stalled for 8 ms on shard 1.\nReactor stalled for 7 ms on shard 1.')).toBe('logs');
    expect(kindOf(' NoSpamLogger.java:91 - Maximum memory usage reached (131072000), cannot allocate chunk of 1048576')).toBe('logs');
    expect(kindOf("2020/03/31 07:56:47 terminate called after throwing an instance of 'std::bad_alloc'")).toBe('logs');
    // plain prose that names no log message stays unrecognised
    expect(kindOf('the node was slow yesterday, any idea?')).toBe(null);
  });

  it('short reactor stalls below the warning level are still reported, as info', () => {
    const r = interpretText('Reactor stalled for 8 ms on shard 1.\nReactor stalled for 7 ms on shard 1.');
    expect(r.findings.find((f) => f.id === 'log.reactor-stall')).toMatchObject({ severity: 'info' });
  });

  it('"[shard N] logger - msg" without timestamp is a Scylla line (its shard kept)', () => {
    const f = read(
      '[shard 17] sstable - writer failed to close file: std::bad_alloc (std::bad_alloc)\n[shard 17] compaction_manager - compaction failed: std::bad_alloc (std::bad_alloc): retrying',
    );
    expect(f.source.product).toBe('scylla');
    expect(f.source.formats.scylla).toBe(2);
    expect(f.oom.count).toBe(2);
  });

  it('Scylla 6.x querier dead-cells warning counts as a tombstone warning for the table it names', () => {
    // scylladb/scylladb#18997 example line
    const f = read(
      'WARN  2024-05-30 07:56:44,979 [shard 0:stmt] querier - Read 98 live cells and 126 dead cells/tombstones for system_schema.scylla_tables <partition-range-scan> (-inf, +inf) (see tombstone_warn_threshold) ',
    );
    expect(f.tombstones.byTable[0]).toMatchObject({ table: 'system_schema.scylla_tables', warnings: 1, maxTombstones: 126, maxLiveRows: 98 });
  });

  it('a syslog line of the product inside another prefix is detected as a log', () => {
    const line =
      '2016-07-12 01:59:07,880 remote           L0192 DEBUG| [107.21.154.34] [stdout] Jul 11 22:59:07 ip-172-30-0-76 scylla[2471]:  [shard 0] stream_session - [Stream #419403c1-47b9-11e6-b83a-000000000000] Stream failed, peers={172.30.0.77}';
    expect(kindOf(line)).toBe('logs');
  });
});

describe('DSE 6.8 StatusLogger', () => {
  it('reads Shared/Stolen as throughput, not as Blocked', () => {
    // header and row layout of DSE 6.8 StatusLogger (Active Pending Backpressure Delayed Shared Stolen Completed Blocked All Time Blocked)
    const text = [
      'INFO  [OptionalTasks:1] 2025-10-03 10:08:32,368  StatusLogger.java:174 - Pool Name                                       Active        Pending   Backpressure   Delayed      Shared      Stolen      Completed   Blocked  All Time Blocked',
      'TPC/all/READ_LOCAL                                   0              7            N/A       N/A        4967        4967           7364       N/A                 3',
      'CompactionExecutor                                   1              2            N/A       N/A         N/A         N/A         307779         0                 0',
    ].join('\n');
    const f = read(text);
    const tpc = f.threadPools.pools.find((p) => p.pool === 'TPC/all/READ_LOCAL')!;
    expect(tpc).toMatchObject({ maxActive: 0, maxPending: 7, maxBlocked: null, maxAllTimeBlocked: 3, lastCompleted: 7364 });
    expect(f.threadPools.pools.find((p) => p.pool === 'CompactionExecutor')).toMatchObject({ maxPending: 2, maxBlocked: 0, lastCompleted: 307779 });
  });
});

describe('startup ConfigurationException', () => {
  it('names the refused keys and what each one is on record as (removed / renamed)', () => {
    const text = [
      'ERROR [main] 2019-06-01 10:00:00,000 CassandraDaemon.java:749 - Exception encountered during startup: Invalid yaml. Please remove properties [start_rpc, rpc_port] from your cassandra.yaml',
    ].join('\n');
    const f = read(text);
    expect(f.configErrors).toEqual({ count: 1, byType: [{ type: 'unknown-keys', count: 1 }], settings: ['start_rpc', 'rpc_port'] });
    const r = interpretText(text);
    const finding = r.findings.find((x) => x.id === 'log.config-error')!;
    expect(finding.severity).toBe('critical');
    expect(finding.title).toContain('start_rpc, rpc_port');
    expect(finding.evidence.some((e) => /start_rpc: removed in 4\.0/.test(e))).toBe(true);
    expect(finding.knowledgeIds).toContain('config.unknown-key-refused');
  });

  it('reads the exception from its stack line, and the 4.1 old-and-new-keys and snakeyaml property forms', () => {
    const stack =
      'ERROR [main] 2014-12-03 16:29:36,574 DatabaseDescriptor.java (line 116) Fatal configuration error\n' +
      'org.apache.cassandra.exceptions.ConfigurationException: Invalid yaml. Please remove properties [native_transport_min_threads] from your cassandra.yaml\n' +
      '    at org.apache.cassandra.config.YamlConfigurationLoader$MissingPropertiesChecker.check(YamlConfigurationLoader.java:132)';
    expect(read(stack).configErrors.settings).toEqual(['native_transport_min_threads']);
    // YamlConfigurationLoader (4.1+) wording
    const both =
      'ERROR [main] 2023-01-01 10:00:00,000 CassandraDaemon.java:900 - Exception encountered during startup: Config contains both old and new keys for the same configuration parameters, migrate old -> new: [read_request_timeout_in_ms -> read_request_timeout]';
    const b = read(both).configErrors;
    expect(b.byType[0]!.type).toBe('old-and-new-keys');
    expect(b.settings).toEqual(['read_request_timeout_in_ms', 'read_request_timeout']);
    expect(interpretText(both).findings.find((x) => x.id === 'log.config-error')!.knowledgeIds).toContain('config.old-and-new-key');
    const yaml =
      'Caused by: org.yaml.snakeyaml.error.YAMLException: Cannot create property=server_encryption_options for JavaBean=org.apache.cassandra.config.Config@4f83df68; ' +
      "Cannot create property=internode_encryption for JavaBean=x; Unable to find enum value '/none'";
    expect(kindOf(yaml)).toBe('logs');
    expect(read(yaml).configErrors).toMatchObject({
      byType: [{ type: 'invalid-value', count: 1 }],
      settings: ['server_encryption_options', 'internode_encryption'],
    });
  });

  it('"Can\'t construct a java object for …Config" on the line under "Invalid yaml" is a Config that could not be built, not the file', () => {
    // the two-line form cassandra-unit users pasted (jsevellec/cassandra-unit#334, #264): the detail is on line 2
    const text = [
      'org.apache.cassandra.exceptions.ConfigurationException: Invalid yaml: file:/tmp/cu-cassandra-rndport.yaml',
      " Error: Can't construct a java object for tag:yaml.org,2002:org.apache.cassandra.config.Config; exception=java.lang.reflect.InvocationTargetException",
      " in 'reader', line 10, column 1:",
      "    cluster_name: 'Test Cluster'",
    ].join('\n');
    expect(read(text).configErrors).toEqual({ count: 1, byType: [{ type: 'config-construct', count: 1 }], settings: [] });
    const f = interpretText(text).findings.find((x) => x.id === 'log.config-error')!;
    expect(f.title).toContain('Config object could not be built');
    expect(f.knowledgeIds).toEqual(['config.yaml-config-construct-failed']);
    expect(f.recommendation).toMatch(/Caused by/);
    // on one line (a log that kept the message whole) the same
    expect(read(text.split('\n').slice(0, 2).join('')).configErrors.byType).toEqual([{ type: 'config-construct', count: 1 }]);
    // a later, unrelated "Invalid yaml" entry with no detail stays "other"
    const two = `${text}\nERROR [main] 2019-06-01 10:00:00,000 CassandraDaemon.java:749 - Exception encountered during startup: Invalid yaml: file:/x.yaml`;
    expect(read(two).configErrors.byType).toEqual([
      { type: 'config-construct', count: 1 },
      { type: 'other', count: 1 },
    ]);
  });

  it('an ERROR line that is not a configuration error adds nothing', () => {
    // "Exception encountered during startup" with its stack trace below: any Throwable (CassandraDaemon.activate)
    const f = read(
      [
        'ERROR [main] 2019-06-01 10:00:00,000 CassandraDaemon.java:749 - Exception encountered during startup',
        'java.lang.IllegalStateException: the port is in use',
        '\tat org.apache.cassandra.service.CassandraDaemon.setup(CassandraDaemon.java:300)',
      ].join('\n'),
    );
    expect(f.configErrors.count).toBe(0);
    // … it is a start-up that failed: the node exited (exitOrFail(3)), and the exception under the line says why
    expect(f.startupFailures).toEqual({ count: 1, exceptions: ['java.lang.IllegalStateException: the port is in use'], scylla: 0 });
    const other = read('ERROR [main] 2019-06-01 10:00:00,000 StorageService.java:1 - Exception in thread main: the port is in use');
    expect([other.configErrors.count, other.startupFailures.count]).toEqual([0, 0]);
  });

  it('a start-up that ended on an exception (Netflix/Priam#263, Cassandra 1.2) is critical and quotes the exception', () => {
    const text = readFileSync(new URL('../fixtures/real-world/logs_cannot-replace-token_priam263.txt', import.meta.url), 'utf8');
    const f = interpretText(text).findings.find((x) => x.id === 'log.startup-failure')!;
    expect(f.severity).toBe('critical');
    expect(f.title).toBe(
      'this node stopped at startup: java.lang.UnsupportedOperationException: Cannot replace token 56713727820156410577229101240436610842 which does not exist!',
    );
    expect(f.evidence.join('\n')).toContain('line 3 ERROR 03:58:06,727 Exception encountered during startup');
  });

  it('the stdout form pasted alone (no log line, only the exception and its stack) is read as a log and is critical', () => {
    // what a terminal or `kubectl logs` of a container shows: CassandraDaemon prints it to stdout before exiting
    const text = [
      'Exception (java.lang.RuntimeException) encountered during startup: Cannot replace address with a node that is already bootstrapped',
      'java.lang.RuntimeException: Cannot replace address with a node that is already bootstrapped',
      '\tat org.apache.cassandra.service.StorageService.prepareReplacementInfo(StorageService.java:449)',
      '\tat org.apache.cassandra.service.CassandraDaemon.activate(CassandraDaemon.java:569)',
    ].join('\n');
    const r = interpretText(text);
    expect(r.kind).toBe('logs');
    expect(r.findings.find((x) => x.id === 'log.startup-failure')).toMatchObject({
      severity: 'critical',
      title: 'this node stopped at startup: java.lang.RuntimeException: Cannot replace address with a node that is already bootstrapped',
    });
    // the ConfigurationException form alone is a config error, as before
    const cfg = interpretText(
      'Exception (org.apache.cassandra.exceptions.ConfigurationException) encountered during startup: Invalid yaml. Please remove properties [start_rpc] from your cassandra.yaml',
    );
    expect(cfg.kind).toBe('logs');
    expect(cfg.findings.map((x) => x.id)).toEqual(['log.config-error']);
  });

  it('a ConfigurationException logged with its stack trace is the config error alone, not a second finding', () => {
    const text = [
      'ERROR [main] 2019-06-01 10:00:00,000 CassandraDaemon.java:759 - Exception encountered during startup',
      'org.apache.cassandra.exceptions.ConfigurationException: Invalid yaml. Please remove properties [start_rpc] from your cassandra.yaml',
      '\tat org.apache.cassandra.config.YamlConfigurationLoader.loadConfig(YamlConfigurationLoader.java:120)',
    ].join('\n');
    const ids = interpretText(text).findings.map((x) => x.id);
    expect(ids).toContain('log.config-error');
    expect(ids).not.toContain('log.startup-failure');
    expect(read(text).startupFailures.count).toBe(1); // the fact is kept; the finding defers to the specific one
  });

  it('"Exception encountered during startup: <message>" is a ConfigurationException that logs no stack trace', () => {
    // CassandraDaemon.activate (4.1.10 and 5.0.9 alike): only a ConfigurationException with logStackTrace false takes the
    // ": {}" form; stdout also gets "Exception (<class>) encountered during startup: <message>" for every failure
    const seeds = read(
      'ERROR [main] 2022-09-06 15:40:15,074 CassandraDaemon.java:911 - Exception encountered during startup: The seed provider lists no seeds.',
    );
    expect(seeds.configErrors).toEqual({ count: 1, byType: [{ type: 'other', count: 1 }], settings: [] });
    const addr = read(
      "Exception (org.apache.cassandra.exceptions.ConfigurationException) encountered during startup: Unknown listen_address '10.0.0.1 10.0.0.2'",
    );
    expect(addr.configErrors.settings).toEqual(['listen_address']);
    const f = interpretText('ERROR 14:15:51 Exception encountered during startup: The seed provider lists no seeds.').findings.find(
      (x) => x.id === 'log.config-error',
    )!;
    expect(f.title).toBe('this node stopped at startup on a configuration error');
    expect(f.recommendation).toContain('seed');
    // another exception class on stdout is not a configuration error
    const other = [
      'INFO  [main] 2022-09-06 15:40:14,000 CassandraDaemon.java:1 - starting',
      'Exception (java.lang.RuntimeException) encountered during startup: boom',
    ];
    expect(read(other.join('\n')).configErrors.count).toBe(0);
    expect(read(other.join('\n')).startupFailures).toEqual({ count: 1, exceptions: ['java.lang.RuntimeException: boom'], scylla: 0 });
  });
});

describe('cost', () => {
  it('a long word run before "messages were dropped" is read in linear time (no regex backtracking over the run)', () => {
    // found by tests/hardening/fuzz-parsers.test.ts: a leading "(\\w+) messages …" regex is quadratic in the run length
    const line = `INFO  [ScheduledTasks:1] 2020-01-09 16:00:00,861 DroppedMessages.java:156 - ${'a'.repeat(60_000)} messages were dropped in the last 5 s: x`;
    const c0 = process.cpuUsage();
    const f = read(
      `${line}\nINFO  [ScheduledTasks:1] 2020-01-09 16:00:05,861 DroppedMessages.java:156 - MUTATION messages were dropped in last 5000 ms: 5 for internal timeout and 2 for cross node timeout`,
    );
    const c = process.cpuUsage(c0);
    expect((c.user + c.system) / 1000).toBeLessThan(1000);
    expect(f.dropped.byType).toMatchObject([{ type: 'MUTATION', internal: 5, crossNode: 2 }]);
  });
});
