import type { Finding, Severity } from '../findings.js';
import { formatBytes } from '../units.js';
import { finding, fmtNum, grade, outcome, pushFinding, skipped, type Rule } from './rule.js';
import { valueOf } from '../knowledge/index.js';

// Virtual keyspaces hold no data; system_distributed and friends do (repair_history grows huge partitions).
const SYSTEM = /^(system_views|system_virtual_schema)$/;

/**
 * Per-table health: SSTables touched per read, tombstones per read, large partitions, bloom filter false
 * positives, snapshots that dwarf live data, key cache hit ratio, and read/write latency tails.
 */
export const tablesRule: Rule = {
  id: 'tables',
  checks:
    'SSTables per read (tablehistograms, else the SSTable count of size-tiered tables), tombstones per read, partition sizes, bloom filter false ratio, snapshot size vs live data, space used total vs live, key cache hit ratio, read/write latency p99',
  run(input, ctx) {
    const findings: Finding[] = [];
    let looked = false;
    const add = (sev: Severity | null, f: Omit<Finding, 'severity'>) => {
      if (sev) findings.push({ ...f, severity: sev });
    };
    const compactionOf = new Map<string, string>();
    for (const n of input.nodes) for (const t of n.facts.tableSchemas ?? []) if (t.compaction) compactionOf.set(`${t.keyspace}.${t.table}`, t.compaction);
    for (const n of input.nodes) {
      for (const h of n.nodetool.tablehistograms?.tables ?? []) {
        looked = true;
        const p99 = h.sstablesPerRead?.p99;
        // a histogram pasted without its "ks/table histograms" title line names no table
        const name = h.keyspace === null && h.table === null ? 'the table (not named in the output)' : `${h.keyspace ?? '?'}.${h.table ?? '?'}`;
        pushFinding(
          findings,
          finding(ctx, 'table.sstables-per-read', p99, () => ({
            title: `Reads of ${name} touch ${p99} SSTables at p99`,
            evidence: [
              `${n.node}: nodetool tablehistograms ${name}: SSTables p50 ${h.sstablesPerRead?.p50 ?? '?'}, p99 ${p99}, max ${h.sstablesPerRead?.max ?? '?'}`,
            ],
            node: n.node,
            table: name,
            recommendation:
              'Each extra SSTable is another disk read. Pending compactions, STCS with overwrites, or wide partitions spread over time cause it; LCS bounds it for read-heavy tables.',
            confidence: 'high',
          })),
        );
        const maxPart = h.partitionSizeBytes?.max;
        if (maxPart !== null && maxPart !== undefined) {
          pushFinding(
            findings,
            finding(ctx, 'table.partition-size', maxPart / 1024 ** 2, () => ({
              title: `${name} has a partition of ${formatBytes(maxPart)}`,
              evidence: [
                `${n.node}: nodetool tablehistograms ${name}: partition size p99 ${formatBytes(h.partitionSizeBytes?.p99 ?? 0)}, max ${formatBytes(maxPart)}`,
              ],
              node: n.node,
              table: name,
              recommendation:
                'Large partitions cause heap pressure on reads and compaction and hot replicas. Split the partition key (add a time bucket or shard component).',
              confidence: 'high',
            })),
          );
        }
      }
      for (const t of n.facts.tables ?? []) {
        if (SYSTEM.test(t.keyspace)) continue;
        looked = true;
        const name = `${t.keyspace}.${t.table}`;
        const tomb = t.tombstonesPerRead;
        pushFinding(
          findings,
          finding(ctx, 'table.tombstones-per-read', tomb?.max ?? null, () => ({
            title: `Reads of ${name} scanned up to ${tomb?.max} tombstones`,
            evidence: [
              `${n.node}: system_views.tombstones_per_read ${name}: p50 ${tomb?.p50 ?? '?'}, p99 ${tomb?.p99 ?? '?'}, max ${tomb?.max ?? '?'} over ${tomb?.count ?? '?'} reads`,
            ],
            node: n.node,
            table: name,
            recommendation:
              'Reads walk over deleted data: model deletes so reads skip them (time-bucketed partitions, TWCS for TTL data), avoid queue-like tables, and check gc_grace_seconds and that compaction runs.',
            confidence: 'high',
          })),
        );
        pushFinding(
          findings,
          finding(ctx, 'table.partition-size', t.maxPartitionMiB ?? null, () => ({
            title: `${name} has a partition of ${t.maxPartitionMiB} MiB`,
            evidence: [`${n.node}: system_views.max_partition_size ${name} = ${t.maxPartitionMiB} MiB`],
            node: n.node,
            table: name,
            recommendation:
              'Large partitions cause heap pressure on reads and compaction and hot replicas. Split the partition key (add a time bucket or shard component).',
            confidence: 'high',
          })),
        );
        for (const [kind, lat, id] of [
          ['local read', t.localRead, 'latency.local-read-p99'],
          ['local write', t.localWrite, 'latency.local-write-p99'],
          ['coordinator read', t.coordinatorRead, 'latency.coordinator-read-p99'],
          ['coordinator write', t.coordinatorWrite, 'latency.coordinator-write-p99'],
        ] as const) {
          if (!lat || !lat.count) continue;
          add(grade(ctx, lat.p99Ms, id), {
            id,
            title: `${kind} p99 of ${name} is ${fmtNum(lat.p99Ms ?? 0, 2)} ms`,
            evidence: [
              `${n.node}: system_views.${kind.replace(' ', '_')}_latency ${name}: p50 ${lat.p50Ms ?? '?'} ms, p99 ${lat.p99Ms} ms, max ${lat.maxMs ?? '?'} ms over ${lat.count} requests`,
            ],
            node: n.node,
            table: name,
            recommendation:
              'Find whether the tail comes from the disk (SSTables per read, read-ahead, device latency), GC pauses, or large partitions/tombstones on this table.',
            knowledgeIds: [id],
            confidence: 'medium',
          });
        }
      }
      const histogrammed = new Set((n.nodetool.tablehistograms?.tables ?? []).map((h) => `${h.keyspace ?? '?'}.${h.table ?? '?'}`));
      for (const t of n.nodetool.tablestats?.tables ?? []) {
        if (t.keyspace && SYSTEM.test(t.keyspace)) continue;
        looked = true;
        const name = `${t.keyspace ?? '?'}.${t.name}`;
        // A sweep collects tablestats, not tablehistograms: without this the pile-up of a table whose compaction is
        // off went unreported. LCS (levels) and TWCS (one SSTable per window) have their own rules.
        const strategy = compactionOf.get(name) ?? '';
        if (!histogrammed.has(name) && !t.sstablesInEachLevel && t.timeWindow === null && !/Leveled|TimeWindow/i.test(strategy)) {
          const unread = t.localReadCount === 0;
          const f = finding(ctx, ['table.sstable-count', 'table.sstables-per-read'], t.sstableCount, () => ({
            title: unread
              ? `${name} holds ${t.sstableCount} SSTables and has served no reads here: compaction is behind`
              : `${name} holds ${t.sstableCount} SSTables: a read may touch every one`,
            evidence: [`${n.node}: nodetool tablestats ${name}: SSTable count ${t.sstableCount}, local read count ${t.localReadCount ?? '?'}`],
            node: n.node,
            table: name,
            recommendation:
              'Size-tiered compaction keeps a few SSTables per size tier; this many means it is disabled (nodetool enableautocompaction, ' +
              "or compaction = {'enabled': true} in the schema) or cannot keep up (nodetool compactionstats, compaction throughput). " +
              'ScyllaDB counts the SSTables of every shard: divide by the shard count before comparing.',
            confidence: 'medium',
          }));
          // no read has paid for them yet (a write-only load): worth fixing, not an emergency
          if (f && unread && f.severity === 'critical') f.severity = 'warning';
          pushFinding(findings, f);
        }
        pushFinding(
          findings,
          finding(ctx, 'table.bloom-filter-false-ratio', t.bloomFilterFalseRatio, () => ({
            title: `Bloom filter of ${name} is wrong ${((t.bloomFilterFalseRatio ?? 0) * 100).toFixed(1)} % of the time`,
            evidence: [
              `${n.node}: nodetool tablestats ${name}: bloom filter false ratio ${t.bloomFilterFalseRatio}, false positives ${t.bloomFilterFalsePositives ?? '?'}`,
            ],
            node: n.node,
            table: name,
            recommendation:
              'False positives cost disk reads for partitions that are not there. Lower bloom_filter_fp_chance for read-heavy tables (costs off-heap memory) and rewrite SSTables (upgradesstables -a).',
            confidence: 'medium',
          })),
        );
        const maxBytes = t.partitionMaxBytes;
        if (maxBytes !== null) {
          pushFinding(
            findings,
            finding(ctx, 'table.partition-size', maxBytes / 1024 ** 2, () => ({
              title: `${name} has a partition of ${formatBytes(maxBytes)}`,
              evidence: [
                `${n.node}: nodetool tablestats ${name}: compacted partition maximum ${formatBytes(maxBytes)}, mean ${t.partitionMeanBytes === null ? '?' : formatBytes(t.partitionMeanBytes)}`,
              ],
              node: n.node,
              table: name,
              recommendation:
                'Large partitions cause heap pressure on reads and compaction and hot replicas. Split the partition key (add a time bucket or shard component).',
              confidence: 'high',
            })),
          );
        }
        pushFinding(
          findings,
          finding(ctx, 'table.tombstones-per-read', t.maxTombstonesPerSlice, () => ({
            title: `Reads of ${name} scanned up to ${t.maxTombstonesPerSlice} tombstones per slice`,
            evidence: [`${n.node}: nodetool tablestats ${name}: tombstones per slice avg ${t.avgTombstonesPerSlice ?? '?'}, max ${t.maxTombstonesPerSlice}`],
            node: n.node,
            table: name,
            recommendation:
              'Reads walk over deleted data: model deletes so reads skip them (time-bucketed partitions, TWCS for TTL data), avoid queue-like tables, and check gc_grace_seconds and that compaction runs.',
            confidence: 'high',
          })),
        );
        const live = t.spaceUsedLiveBytes;
        const snap = t.spaceUsedBySnapshotsBytes;
        if (live !== null && snap !== null && snap > 0) {
          add(live > 0 ? grade(ctx, snap / live, 'table.snapshots-vs-live') : 'warning', {
            id: 'table.snapshots-vs-live',
            title: `Snapshots of ${name} use ${formatBytes(snap)}, ${live > 0 ? `${(snap / live).toFixed(1)}× the live data` : 'with no live data'}`,
            evidence: [`${n.node}: nodetool tablestats ${name}: space used by snapshots ${formatBytes(snap)}, live ${formatBytes(live)}`],
            node: n.node,
            table: name,
            recommendation:
              'Old snapshots (auto_snapshot on truncate/drop, backups never cleared) hold disk that compaction cannot free. List them with `nodetool listsnapshots` and clear the ones no longer needed (`nodetool clearsnapshot -t <tag>`), after checking your backups.',
            knowledgeIds: ['table.snapshots-vs-live'],
            confidence: 'high',
          });
        }
        const totalBytes = t.spaceUsedTotalBytes;
        // total counts SSTables replaced by compaction until their files are deleted; graded from a floor of bytes
        if (live !== null && live > 0 && totalBytes !== null && totalBytes - live >= Number(valueOf('table.space-total-vs-live.min-bytes')) * 1024 ** 3) {
          const obsolete = totalBytes - live;
          pushFinding(
            findings,
            finding(ctx, ['table.space-total-vs-live', 'table.space-total-vs-live.min-bytes'], obsolete / live, () => ({
              title: `${name}: ${formatBytes(obsolete)} on disk beyond its live SSTables (Space used total ${(totalBytes / live).toFixed(1)}× live)`,
              evidence: [`${n.node}: nodetool tablestats ${name}: space used (live) ${formatBytes(live)}, (total) ${formatBytes(totalBytes)}`],
              node: n.node,
              table: name,
              recommendation:
                "The total counts SSTables that compaction replaced until their files are deleted. Compare `du -sh` of the table's data directory with the live figure: " +
                'when du shows the total, old SSTables are held by a long read, a stream or repair, or a failed deletion (retried after GC and at restart; `lsof +L1` lists deleted files still open); ' +
                'when du shows the live figure, the counter is wrong (ScyllaDB 1.x miscounted it, scylladb/scylladb#1252).',
              confidence: 'medium',
            })),
          );
        }
      }
      // Key cache: from the caches virtual table, else nodetool info's "Key Cache" line.
      const minRequests = Number(valueOf('cache.min-requests'));
      const kc = n.facts.caches?.find((c) => c.name === 'keys');
      if (kc) looked = true;
      if (kc && (kc.requests ?? 0) >= minRequests) {
        pushFinding(
          findings,
          finding(ctx, ['cache.key.hit-ratio', 'cache.min-requests'], kc.hitRatio, () => ({
            title: `Key cache hit ratio on ${n.node} is ${((kc.hitRatio ?? 0) * 100).toFixed(0)} %`,
            evidence: [
              `${n.node}: system_views.caches keys: ${kc.hits} hits / ${kc.requests} requests, ${kc.entries} entries, ${formatBytes(kc.sizeBytes ?? 0)} of ${formatBytes(kc.capacityBytes ?? 0)}`,
            ],
            node: n.node,
            recommendation:
              'A full key cache with a low hit ratio is too small for the working set (key_cache_size); a random-access pattern over a huge key space will not cache well at any size.',
            confidence: 'medium',
          })),
        );
      }
    }
    if (!looked) return skipped('tables', 'no per-table data (virtual tables, tablestats or tablehistograms) was collected');
    return outcome('tables', findings);
  },
};
