// Batches over the size thresholds (BatchStatement.verifyBatchSize; kb logs.batch-size), as logged by Cassandra 2.x to
// 5.0 and ScyllaDB, and as pasted: in markdown bold, or cut in two by a quote's line wrap.
import { describe, expect, it } from 'vitest';
import { parseLogs, type LogFacts } from '../../mcp-server/src/core/parse/logs/index.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const read = (text: string): LogFacts => {
  const r = parseLogs(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const batchFinding = (text: string) => interpretText(text).findings.find((f) => f.id === 'log.large-batch');

describe('log.large-batch', () => {
  it('Cassandra 4.1/5.0: a batch over the warn threshold is a warning, one over the fail threshold was refused (critical)', () => {
    const warn =
      'WARN  [Native-Transport-Requests-1] 2024-01-01 10:00:00,000 BatchStatement.java:309 - Batch for [ks.t] is of size 9.766KiB, exceeding specified threshold of 5.000KiB by 4.766KiB.';
    const fail =
      'ERROR [Native-Transport-Requests-2] 2024-01-01 10:00:01,000 BatchStatement.java:301 - Batch for [ks.t, ks.u] is of size 60.000KiB, exceeding specified threshold of 50.000KiB by 10.000KiB. (see batch_size_fail_threshold)';
    expect(batchFinding(warn)).toMatchObject({ severity: 'warning', title: '1 batch(es) over the warn threshold on this node (largest 9.77 KiB for [ks.t])' });
    const f = read(`${warn}\n${fail}`).largeBatches;
    expect(f).toEqual({
      count: 2,
      rejected: 1,
      byTables: [
        { tables: '[ks.t, ks.u]', count: 1, rejected: 1, maxBytes: 61440, thresholdBytes: 51200 },
        { tables: '[ks.t]', count: 1, rejected: 0, maxBytes: 10000, thresholdBytes: 5120 },
      ],
    });
    const both = batchFinding(`${warn}\n${fail}`)!;
    expect(both.severity).toBe('critical');
    expect(both.title).toBe('1 batch(es) refused as too large on this node (largest 60.0 KiB for [ks.t, ks.u]): those writes failed');
    expect(both.knowledgeIds).toEqual(['logs.batch-size', 'write.batch-size-fail.default']);
  });

  it("the 2.x wording in bytes and ScyllaDB's WARN/FAIL wording", () => {
    const old = read(
      'WARN  [SharedPool-Worker-1] 2015-08-07 15:37:53,563 BatchStatement.java:252 - Batch of prepared statements for [metric.metric] is of size 26000, exceeding specified threshold of 5120 by 20880.',
    ).largeBatches;
    expect(old.byTables[0]).toMatchObject({ tables: '[metric.metric]', maxBytes: 26000, thresholdBytes: 5120, rejected: 0 });
    const scylla = read(
      'ERROR 2024-05-01 10:00:00,000 [shard 3:stmt] BatchStatement - Batch modifying 12 partitions in ks.t is of size 2000000 bytes, exceeding specified FAIL threshold of 1048576 by 951424.',
    ).largeBatches;
    expect(scylla).toMatchObject({ count: 1, rejected: 1, byTables: [{ tables: 'ks.t', maxBytes: 2000000, thresholdBytes: 1048576 }] });
  });

  it('a line in markdown bold (akka/akka-persistence-cassandra#339) is read as the log line inside it', () => {
    const r = interpretText(
      '**ERROR 07:36:42 Batch of prepared statements for [akka.tag_views] is of size 9099049, exceeding specified threshold of 655360 by 8443689. (see batch_size_fail_threshold_in_kb)**',
    );
    expect(r.kind).toBe('logs');
    expect(r.findings.find((f) => f.id === 'log.large-batch')).toMatchObject({ severity: 'critical' });
    // two spans of bold in one sentence are prose, not a wrapped line
    expect(interpretText('**Note** the node is **down**').kind).toBe(null);
  });

  it('a message the paste wrapped onto a second line is read whole (pyr/cyanite#122), an indented line is not joined', () => {
    const quoted = [
      '> WARN  [SharedPool-Worker-1] 2015-08-07 15:37:53,563 BatchStatement.java:252 - Batch of prepared',
      '> statements for [metric.metric] is of size 26000, exceeding specified threshold of 5120 by 20880.',
    ].join('\n');
    expect(batchFinding(quoted)).toMatchObject({
      severity: 'warning',
      title: '1 batch(es) over the warn threshold on this node (largest 25.4 KiB for [metric.metric])',
    });
    // the same through the fast lane's WARN path (no gate word on the first half)
    const tomb = read(
      [
        'WARN  [ReadStage-2] 2024-01-01 10:00:00,000 ReadCommand.java:512 - Read 100 live rows and',
        '5000 tombstone cells for query SELECT * FROM ks.t LIMIT 100 (see tombstone_warn_threshold)',
      ].join('\n'),
    );
    expect(tomb.tombstones.warnings).toBe(1);
    const indented = read(
      [
        'WARN  [ReadStage-2] 2024-01-01 10:00:00,000 ReadCommand.java:512 - Read 100 live rows and',
        '    5000 tombstone cells for query SELECT * FROM ks.t',
      ].join('\n'),
    );
    expect(indented.tombstones.warnings).toBe(0);
  });
});
