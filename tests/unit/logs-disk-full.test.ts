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
