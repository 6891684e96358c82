import type { Finding } from '../findings.js';
import { finding, grade, outcome, pushFinding, skipped, type Rule } from './rule.js';
import { numberOf, valueOf } from '../knowledge/index.js';

/**
 * Compaction: a backlog of pending tasks, LCS level 0 overflowing (nodetool prints "[910/4, …]" when a
 * level holds more than it should), and the throughput throttle (0 = unthrottled).
 */
export const compactionRule: Rule = {
  id: 'compaction',
  checks: 'pending compactions, LCS level-0 backlog, compaction throughput cap',
  run(input, ctx) {
    const findings: Finding[] = [];
    let looked = false;
    for (const n of input.nodes) {
      const cs = n.nodetool.compactionstats;
      if (cs) {
        looked = true;
        const sev = grade(ctx, cs.pendingTasks, 'compaction.pending');
        if (sev && cs.pendingTasksReliable !== false) {
          const top = [...cs.pendingByTable].sort((a, b) => b.pending - a.pending).slice(0, 5);
          findings.push({
            id: 'compaction.pending',
            severity: sev,
            title: `${cs.pendingTasks} pending compactions on ${n.node}`,
            evidence: [
              `${n.node}: nodetool compactionstats pending tasks ${cs.pendingTasks}, ${cs.compactions.length} running`,
              ...top.map((t) => `${n.node}: ${t.keyspace}.${t.table} pending ${t.pending}`),
            ],
            node: n.node,
            recommendation:
              'Compaction is falling behind writes: reads touch more SSTables and disk use grows. Check disk throughput and the compaction throughput cap, concurrent_compactors, and whether one table (often LCS with a write burst) dominates.',
            knowledgeIds: ['compaction.pending'],
            confidence: 'high',
          });
        }
      }
      const tasks = n.facts.sstableTasks;
      if (tasks) looked = true;
      for (const t of n.nodetool.tablestats?.tables ?? []) {
        looked = true;
        const l0 = t.sstablesInEachLevel?.[0];
        if (!l0) continue;
        pushFinding(
          findings,
          finding(ctx, 'compaction.lcs.l0-backlog', l0.count, () => ({
            title: `LCS level 0 of ${t.keyspace ?? '?'}.${t.name} holds ${l0.count} SSTables${l0.max !== null ? ` (target ${l0.max})` : ''}`,
            evidence: [
              `${n.node}: ${t.keyspace ?? '?'}.${t.name} SSTables in each level [${t.sstablesInEachLevel!.map((l) => (l.max !== null ? `${l.count}/${l.max}` : String(l.count))).join(', ')}], SSTable count ${t.sstableCount ?? '?'}`,
            ],
            node: n.node,
            table: `${t.keyspace ?? '?'}.${t.name}`,
            recommendation:
              'Level 0 is not being promoted fast enough: reads may touch every L0 SSTable. Give compaction more throughput or compactors, and check whether the table really suits LCS (write-heavy tables usually do not).',
            confidence: 'high',
          })),
        );
      }
      const cap = n.nodetool.getcompactionthroughput?.cap;
      const setting = n.facts.settings?.['compaction_throughput'] ?? n.facts.settings?.['compaction_throughput_mb_per_sec'];
      if (cap || setting !== undefined) looked = true;
      const unlimited = cap?.unlimited === true || (setting !== undefined && setting !== null && /^0(\.0+)?\s*(MiB\/s)?$/i.test(setting.trim()));
      if (unlimited) {
        findings.push({
          id: 'compaction.unthrottled',
          severity: 'info',
          title: `Compaction throughput is unthrottled on ${n.node}`,
          evidence: [cap ? `${n.node}: nodetool getcompactionthroughput → unlimited/0` : `${n.node}: system_views.settings compaction_throughput = ${setting}`],
          node: n.node,
          recommendation: `Unthrottled compaction can starve reads of disk bandwidth during bursts; the default cap is ${String(valueOf('compaction.throughput.default'))} MiB/s. Keep it unthrottled only on fast NVMe with headroom, and watch read latency during compactions.`,
          knowledgeIds: ['compaction.throughput.default'],
          confidence: 'medium',
        });
      }
    }
    // STCS on tables that hold most of a node's data: a big merge may need as much free disk as its inputs.
    const schemas = new Map<string, string | null>();
    for (const n of input.nodes) for (const t of n.facts.tableSchemas ?? []) schemas.set(`${t.keyspace}.${t.table}`, t.compaction);
    if (schemas.size) {
      looked = true;
      const floorGiB = numberOf('compaction.stcs.large-table-floor');
      for (const n of input.nodes) {
        const sizes = new Map<string, number>();
        for (const t of n.facts.tables ?? []) if (t.diskMiB) sizes.set(`${t.keyspace}.${t.table}`, t.diskMiB / 1024);
        for (const t of n.nodetool.tablestats?.tables ?? [])
          if (t.spaceUsedLiveBytes) sizes.set(`${t.keyspace ?? '?'}.${t.name}`, t.spaceUsedLiveBytes / 1024 ** 3);
        const total = [...sizes.entries()].filter(([k]) => !k.startsWith('system')).reduce((a, [, v]) => a + v, 0);
        for (const [table, gib] of sizes) {
          if (schemas.get(table) !== 'SizeTieredCompactionStrategy' || gib < floorGiB || total <= 0 || gib / total < 0.5) continue;
          findings.push({
            id: 'compaction.stcs.large-data',
            severity: 'warning',
            title: `${table} uses STCS and holds ${((100 * gib) / total).toFixed(0)} % of the data on ${n.node} (${gib.toFixed(1)} GiB)`,
            evidence: [
              `${n.node}: ${table} ${gib.toFixed(1)} GiB of ${total.toFixed(1)} GiB user data; compaction SizeTieredCompactionStrategy (system_schema.tables)`,
            ],
            node: n.node,
            table,
            recommendation: `A large STCS merge can need free disk equal to its inputs (up to ${String(valueOf('compaction.stcs.large-data'))} % of the volume). Keep that headroom, or move the table to LCS (read-heavy), TWCS (time series with TTL) or, on 5.0, UCS.`,
            knowledgeIds: ['compaction.stcs.large-data', 'compaction.stcs.large-table-floor'],
            confidence: 'medium',
          });
        }
      }
    }
    if (!looked) return skipped('compaction', 'no compactionstats, tablestats, sstable_tasks or throughput setting was collected');
    return outcome('compaction', findings);
  },
};
