/**
 * A full disk in a log (issue #14, scylladb/scylladb#6653): the OS's ENOSPC text, Cassandra's FSDiskFullWriteError and
 * streaming messages, and compaction shrinking for space. One event per log entry; the finding is critical when a
 * write failed, a warning when only compaction gave way. Message texts from the sources named in kb logs.disk-full.
 */
import { describe, expect, it } from 'vitest';
import { parseLogs } from '../../mcp-server/src/core/parse/logs/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const facts = (text: string) => {
  const r = parseLogs(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const diskFull = (text: string) => interpretText(text).findings.find((f) => f.id === 'log.disk-full');

const scylla = Array.from(
  { length: 5 },
  () =>
    '2020-06-15T23:37:43+00:00  db-node-3 !WARNING | scylla: [shard 0] commitlog - Exception in segment reservation: storage_io_error (Storage I/O error: 28: No space left on device)',
).join('\n');

const cassandraCommitLog = [
  'ERROR [COMMIT-LOG-ALLOCATOR] 2024-03-02 10:11:12,345 JVMStabilityInspector.java:196 - Exiting due to error while processing commit log during initialization.',
  'org.apache.cassandra.io.FSWriteError: java.io.IOException: No space left on device',
  '\tat org.apache.cassandra.db.commitlog.CommitLogSegment.<init>(CommitLogSegment.java:180)',
  'Caused by: java.io.IOException: No space left on device',
  '\tat java.base/sun.nio.ch.FileDispatcherImpl.write0(Native Method)',
].join('\n');

const compaction = [
  'WARN  [CompactionExecutor:4] 2024-03-02 09:00:00,001 CompactionTask.java:446 - Not enough space for compaction 6f1c…, 10240.0MiB estimated. Reducing scope.',
  'WARN  [CompactionExecutor:4] 2024-03-02 09:00:05,001 CompactionTask.java:440 - Not enough space for compaction (6f1c…) of ks.events, estimated sstables = 1, expected write size = 10737418240',
].join('\n');

describe('logs: a full disk', () => {
  it('counts each ScyllaDB commitlog ENOSPC line, and the finding is critical', () => {
    expect(facts(scylla).diskFull).toEqual({ count: 5, byKind: [{ kind: 'enospc', count: 5 }] });
    const f = diskFull(scylla);
    expect(f).toMatchObject({ severity: 'critical', knowledgeIds: ['logs.disk-full'] });
    expect(f!.title).toContain('5 write(s) failed for lack of space');
    expect(f!.evidence[0]).toContain('No space left on device ×5');
    // ScyllaDB has no commit_failure_policy: it isolates the node on the I/O error (kb logs.disk-full)
    expect(facts(scylla).source.product).toBe('scylla');
    expect(f!.recommendation).toContain('Shutting down communications due to I/O errors');
    expect(f!.recommendation).not.toContain('commit_failure_policy');
    expect(diskFull(cassandraCommitLog)!.recommendation).toContain('commit_failure_policy');
  });

  it('a Cassandra error with the ENOSPC text on its exception lines is one event, not three', () => {
    expect(facts(cassandraCommitLog).diskFull.count).toBe(1);
    expect(diskFull(cassandraCommitLog)?.severity).toBe('critical');
  });

  it('Cassandra FSDiskFullWriteError and streaming texts are writes that failed', () => {
    const text = [
      'ERROR [MutationStage-3] 2024-03-02 10:00:00,000 StorageProxy.java:1600 - org.apache.cassandra.io.FSDiskFullWriteError: java.io.IOException: Insufficient disk space to write 4096 bytes into the ks keyspace',
      'ERROR [Stream-Deserializer-/10.0.0.2:7000-1] 2024-03-02 10:01:00,000 StreamSession.java:700 - java.io.IOException: Insufficient disk space to store 12.5GiB',
    ].join('\n');
    expect(facts(text).diskFull.byKind).toEqual(
      expect.arrayContaining([
        { kind: 'write', count: 1 },
        { kind: 'stream', count: 1 },
      ]),
    );
  });

  it('compaction shrinking for space alone is a warning that says the disk is nearly full', () => {
    expect(facts(compaction).diskFull).toEqual({ count: 2, byKind: [{ kind: 'compaction', count: 2 }] });
    const f = diskFull(compaction);
    expect(f?.severity).toBe('warning');
    expect(f!.title).toContain('nearly full');
  });

  it('lines about space that do not say the disk is full are not events', () => {
    const text = [
      'INFO  [CompactionExecutor:1] 2024-03-02 09:00:00,001 CompactionTask.java:241 - Compacted (abc) 4 sstables to [x] to level=0. 1 MiB to 1 MiB (~100% of original) in 10ms.  Read Throughput = 1 MiB/s, Write Throughput = 1 MiB/s, Row Throughput = ~1/s.  1 total partitions merged to 1.',
      'INFO  [main] 2024-03-02 09:00:00,002 StorageService.java:1 - Free space on the data disk is 40 GiB',
    ].join('\n');
    expect(facts(text).diskFull.count).toBe(0);
    expect(diskFull(text)).toBeUndefined();
  });
});

describe('logs: a commit log failure (CommitLog.handleCommitError)', () => {
  // the shape of apache/cassandra-dtest#290 (a 2.2 dev build): the segment allocator failed, policy stop
  const text = [
    'INFO  [main] 2015-05-21 14:05:22,830 ColumnFamilyStore.java:314 - Initializing system.schema_triggers',
    'ERROR [COMMIT-LOG-ALLOCATOR] 2015-05-21 14:05:24,462 CommitLog.java:397 - Failed managing commit log segments. Commit disk failure policy is stop; terminating thread',
    'org.apache.cassandra.io.FSWriteError: java.io.IOException: Invalid argument',
    '        at org.apache.cassandra.db.commitlog.CommitLogSegment.<init>(CommitLogSegment.java:177) ~[main/:na]',
  ].join('\n');

  it('is one critical event naming the policy, and no disk-full event (the cause was not space)', () => {
    expect(facts(text).commitlogFailures).toEqual({ count: 1, policies: ['stop'] });
    expect(facts(text).diskFull.count).toBe(0);
    const f = interpretText(text).findings.find((x) => x.id === 'log.commitlog-failure');
    expect(f).toMatchObject({ severity: 'critical', knowledgeIds: ['logs.commitlog-failure'] });
    expect(f!.title).toBe('The commit log failed 1 time(s) on this node (commit_failure_policy stop)');
  });

  it('under the ignore policy the message comes alone and is still counted, without a policy', () => {
    const ignored = 'ERROR [PERIODIC-COMMIT-LOG-SYNCER] 2024-01-01 00:00:00,000 CommitLog.java:588 - Failed to persist commits to disk';
    expect(facts(ignored).commitlogFailures).toEqual({ count: 1, policies: [] });
  });
});

describe('logs: ScyllaDB prints the local pause in milliseconds (scylladb/scylladb#900)', () => {
  it('"of 128306 > 5000 (milliseconds)" is a 128 s pause, not 0 ms; Cassandra\'s nanoseconds are unchanged', () => {
    const scyllaLine =
      'Feb 10 18:13:38 ip-172-31-18-110 scylla[2107]: WARN  [shard 0] failure_detector - Not marking nodes down due to local pause of 128306 > 5000 (milliseconds)';
    expect(facts(scyllaLine).localPauses.maxMs).toBe(128306);
    const cassandraLine =
      'INFO  [GossipTasks:1] 2024-01-01 00:00:00,000 FailureDetector.java:288 - Not marking nodes down due to local pause of 10587289306ns > 5000000000ns';
    expect(facts(cassandraLine).localPauses.maxMs).toBeCloseTo(10587.289306, 3);
  });
});

describe('logs: repair sessions stopped on request (cassandra-reaper#133)', () => {
  const bare = [
    'Repair session 16814280-6174-11e7-99ee-57693e6498d2 for range (-2834815707274975924,-2830421819290266676] failed with error Terminate session is called',
    'java.io.IOException: Terminate session is called',
    '\tat org.apache.cassandra.service.ActiveRepairService.terminateSessions(ActiveRepairService.java:191) ~[apache-cassandra-2.2.9.jar:2.2.9]',
  ].join('\n');

  it('a bare failure line pasted without its log prefix is a log, and a session terminated on request is information', () => {
    const r = interpretText(bare);
    expect(r.kind).toBe('logs');
    const f = r.findings.find((x) => x.id === 'log.repair-failures');
    expect(f).toMatchObject({ severity: 'info', title: '1 repair session(s) on this node were stopped on request ("Terminate session is called")' });
    expect(f!.recommendation).toContain('forceTerminateAllRepairSessions');
  });

  it('mixed with a real failure it stays a warning and counts the stopped ones', () => {
    const text = [
      'ERROR [Repair#1:1] 2024-01-01 00:00:00,000 RepairRunnable.java:100 - Repair session 16814280-6174-11e7-99ee-57693e6498d2 for range (1,2] failed with error Terminate session is called',
      'ERROR [Repair#1:2] 2024-01-01 00:01:00,000 RepairRunnable.java:100 - Repair session 26814280-6174-11e7-99ee-57693e6498d2 for range (3,4] failed with error Endpoint /10.0.0.2 died',
    ].join('\n');
    expect(facts(text).repair).toEqual({ failures: 2, distinctSessions: 2, terminated: 1 });
    const f = interpretText(text).findings.find((x) => x.id === 'log.repair-failures');
    expect(f).toMatchObject({ severity: 'warning', title: '2 repair failure(s) on this node (1 of them stopped on request)' });
  });
});
