/**
 * table.hot-partition: one partition key taking most of a table's reads or writes on a node, from the partition
 * sampler (nodetool profileload) a live diagnosis runs during its window. The share is the key's sampled rate over
 * the table's local rate the node counted in the same window; only the printed top rows are known otherwise, so
 * without that rate the share of the printed rows stands in (lower confidence). A node whose sampler failed makes
 * the rule "not checked" for it, never a quiet "no hot partition". PURE.
 */
import type { Finding, RuleOutcome } from '../findings.js';
import { numberOf, threshold } from '../knowledge/index.js';
import type { TopPartitionRow, TopPartitions, TopSampler } from '../parse/nodetool/toppartitions.js';
import { fmtNum, grade, outcome, skipped, PACK } from './rule.js';

export const HOT_PARTITION_RULE = 'table.hot-partition';
export const HOT_PARTITION_CHECKS = "one partition key taking most of a table's sampled reads or writes (nodetool profileload during the window)";

/** Sampled operations a second below which a key is not called hot, however skewed (an idle table's few reads). */
export const HOT_MIN_PER_SECOND = 50;

export interface ProfileSample {
  node: string;
  durationMs: number;
  samplers?: TopPartitions['samplers'];
  error?: string;
}

export interface HotPartitionInput {
  /** null when the window was too short to sample (note says why). */
  durationMs: number | null;
  nodes: ProfileSample[];
  note?: string;
  /** Per node, the tables' local reads/writes a second over the window ("ks.table" → rates). */
  tableRates?: Record<string, { table: string; readsPerS: number | null; writesPerS: number | null }[]>;
}

const SYSTEM_KS = /^(system|system_schema|system_auth|system_distributed|system_traces|system_views|system_virtual_schema)\./;
const KEY_MAX_CHARS = 120;

/** A partition key as printed is cluster data: control characters escaped, quotes escaped, length capped. */
export function printableKey(key: string): string {
  const cut = key.length > KEY_MAX_CHARS ? `${key.slice(0, KEY_MAX_CHARS)}…` : key;
  const esc = cut
    .replace(/["\\]/g, (c) => `\\${c}`)
    // eslint-disable-next-line no-control-regex -- matching control characters is the point: they are escaped, not printed
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    });
  return `"${esc}"`;
}

interface Hit {
  sampler: TopSampler;
  table: string;
  top: TopPartitionRow;
  perSecond: number;
  sharePct: number;
  /** "of the table's local reads (N/s in the window)" or "of the printed top keys". */
  shareOf: string;
  measured: boolean;
  timesNext: number | null;
}

const OPS: Record<TopSampler, string> = { reads: 'reads', writes: 'writes', cas: 'CAS contentions' };

function hitsOf(sample: ProfileSample, durationMs: number, rates: HotPartitionInput['tableRates'], timesMin: number, warnPct: number): Hit[] {
  const out: Hit[] = [];
  const nodeRates = new Map((rates?.[sample.node] ?? []).map((r) => [r.table, r]));
  for (const sampler of ['reads', 'writes'] as const) {
    const byTable = new Map<string, TopPartitionRow[]>();
    for (const r of sample.samplers?.[sampler] ?? []) {
      if (SYSTEM_KS.test(r.table)) continue;
      byTable.set(r.table, [...(byTable.get(r.table) ?? []), r]);
    }
    for (const [table, rows] of byTable) {
      const sorted = [...rows].sort((a, b) => b.count - a.count);
      const top = sorted[0]!;
      const next = sorted[1]?.count ?? 0;
      const perSecond = (top.count * 1000) / durationMs;
      const timesNext = next > 0 ? top.count / next : null;
      if (perSecond < HOT_MIN_PER_SECOND || (timesNext !== null && timesNext < timesMin)) continue;
      const rate = nodeRates.get(table);
      const tableRate = sampler === 'reads' ? rate?.readsPerS : rate?.writesPerS;
      const measured = typeof tableRate === 'number' && tableRate > 0;
      const listed = sorted.reduce((a, r) => a + r.count, 0);
      const sharePct = measured ? Math.min(100, (perSecond / tableRate) * 100) : (top.count / listed) * 100;
      if (sharePct < warnPct) continue;
      const shareOf = measured
        ? `of the table's local ${OPS[sampler]} on the node (${fmtNum(tableRate, 0)}/s in the window)`
        : 'of the printed top keys (no table rate for the window)';
      out.push({ sampler, table, top, perSecond, sharePct, shareOf, measured, timesNext });
    }
  }
  return out;
}

function finding(node: string, durationMs: number, table: string, hits: Hit[]): Finding {
  const worst = hits.reduce((a, h) => (h.sharePct > a.sharePct ? h : a));
  const key = printableKey(worst.top.partition);
  const evidence = hits.map((h) => {
    const next = h.timesNext === null ? 'the only key sampled' : `${fmtNum(h.timesNext, 0)}× the next key`;
    return (
      `${table} on ${node}: key ${printableKey(h.top.partition)} had ${h.top.count} of the sampled ${OPS[h.sampler]} in ${fmtNum(durationMs / 1000)} s ` +
      `(${fmtNum(h.perSecond, 0)}/s, ± ${h.top.error}), ${fmtNum(h.sharePct, 0)} % ${h.shareOf}, ${next} (nodetool profileload)`
    );
  });
  return {
    id: HOT_PARTITION_RULE,
    severity: grade(PACK, worst.sharePct, 'table.hot-partition') ?? 'warning',
    title: `Hot partition on ${table}: key ${key} takes ${fmtNum(worst.sharePct, 0)} % of its ${OPS[worst.sampler]} on ${node}`,
    evidence,
    node,
    table,
    recommendation:
      "One key concentrates this table's load on the replicas that own it; adding nodes does not help. Find what hits the key (the application " +
      'or a client retry loop), cache a hot read, or spread the key in the data model (a bucket or shard column in the partition key).',
    knowledgeIds: ['table.hot-partition', 'table.hot-partition.times-next'],
    confidence: hits.every((h) => h.measured) ? 'high' : 'medium',
    sources: ['nodetool profileload'],
    when: 'window',
  };
}

/** The rule over the window's partition sample; "not checked" with the reason for every node it could not read. */
export function hotPartitionOutcome(input: HotPartitionInput | undefined): RuleOutcome {
  if (!input) return skipped(HOT_PARTITION_RULE, 'no partition sample: it is taken during a live diagnosis window (windowSeconds > 0)');
  if (input.durationMs === null) return skipped(HOT_PARTITION_RULE, input.note ?? 'the window was too short to sample partitions');
  const warnPct = threshold('table.hot-partition').warning ?? 50;
  const timesMin = numberOf('table.hot-partition.times-next');
  const findings: Finding[] = [];
  const failed: string[] = [];
  for (const s of input.nodes) {
    if (!s.samplers) {
      failed.push(`${s.node}: ${s.error ?? 'no sample'}`);
      continue;
    }
    const byTable = new Map<string, Hit[]>();
    for (const h of hitsOf(s, input.durationMs, input.tableRates, timesMin, warnPct)) {
      byTable.set(h.table, [...(byTable.get(h.table) ?? []), h]);
    }
    for (const [table, hits] of byTable) findings.push(finding(s.node, input.durationMs, table, hits));
  }
  if (!input.nodes.length) return skipped(HOT_PARTITION_RULE, input.note ?? 'no node was sampled');
  if (failed.length && !findings.length) return skipped(HOT_PARTITION_RULE, `partition sample not read on ${failed.join('; ')}`);
  const o = outcome(HOT_PARTITION_RULE, findings);
  return failed.length ? { ...o, skippedBecause: `partition sample not read on ${failed.join('; ')}` } : o;
}
