/**
 * nodetool toppartitions <ks> <table> <ms> / nodetool profileload [<ks> <table>] <ms> (4.0+): per sampler, the
 * partitions seen most during the sampling period. Only the frequency samplers are kept ("Frequency of reads by
 * partition:", "Frequency of writes by partition:", "Frequency of CAS contention by partition:"), rows
 * "<ks.table> <partition> <count> <+/- error>". The counts come from a stream-summary sampler: the top entries are
 * exact within "+/-". Checked on Cassandra 5.0.9 (the lab, a load with 90 % of its operations on one key).
 * Pure; never throws.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { nodetoolError, nodetoolLines } from './nodetool-text.js';

export type TopSampler = 'reads' | 'writes' | 'cas';

export interface TopPartitionRow {
  table: string;
  partition: string;
  count: number;
  error: number;
}

export interface TopPartitions {
  /** Rows per frequency sampler, as printed (highest count first); absent when the sampler was not printed. */
  samplers: Partial<Record<TopSampler, TopPartitionRow[]>>;
}

const HEADINGS: Record<string, TopSampler> = {
  'Frequency of reads by partition:': 'reads',
  'Frequency of writes by partition:': 'writes',
  'Frequency of CAS contention by partition:': 'cas',
};

export const parseToppartitions = total<TopPartitions>('nodetool.toppartitions', (text) => {
  const kind = 'nodetool.toppartitions';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);
  const out: TopPartitions = { samplers: {} };
  let current: TopSampler | null = null;
  let inOther = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (HEADINGS[line] !== undefined) {
      current = HEADINGS[line]!;
      out.samplers[current] = [];
      inOther = false;
      continue;
    }
    if (/^[A-Z][\w\s]+:$/.test(line)) {
      // Another sampler (query times, rows, tombstones, mutation sizes): not frequencies.
      current = null;
      inOther = true;
      continue;
    }
    if (current === null || inOther || line === '' || /^Table\s+Partition\s+Count/.test(line) || line.startsWith('Nothing recorded')) continue;
    // The partition key may itself hold spaces (a composite key printed "a:b" or text): table first, count and
    // error last.
    // Split, not one regex: a lazy middle group backtracks quadratically on a long hostile line.
    const tok = line.split(/\s+/);
    const [count, error] = tok.slice(-2);
    if (tok.length >= 4 && /^\d{1,15}$/.test(count!) && /^\d{1,15}$/.test(error!)) {
      out.samplers[current]!.push({ table: tok[0]!, partition: tok.slice(1, -2).join(' '), count: Number(count), error: Number(error) });
    }
  }
  if (Object.keys(out.samplers).length === 0) return unrecognized(kind, 'no "Frequency of … by partition:" section');
  return parsedOk<TopPartitions>(kind, out, []);
});

export interface HotPartition {
  sampler: TopSampler;
  table: string;
  partition: string;
  count: number;
  /** count ÷ the sum of every row the sampler printed for that table (a lower bound on its real share is not known). */
  shareOfListed: number;
  /** count ÷ the next partition's count of that table (null when it was the only one printed). */
  timesNext: number | null;
  perSecond: number;
}

/**
 * Partitions that dominate a table's sampled traffic: at least `minPerSecond` operations a second over the sampling
 * period and at least `minTimesNext` times the next partition of the same table. The printed rows are only the top
 * ones, so "share of listed" is reported, never a share of all traffic.
 */
export function hotPartitions(t: TopPartitions, durationMs: number, opts: { minPerSecond?: number; minTimesNext?: number } = {}): HotPartition[] {
  const minRate = opts.minPerSecond ?? 50;
  const minTimes = opts.minTimesNext ?? 10;
  const out: HotPartition[] = [];
  if (!(durationMs > 0)) return out;
  for (const [sampler, rows] of Object.entries(t.samplers) as [TopSampler, TopPartitionRow[]][]) {
    const byTable = new Map<string, TopPartitionRow[]>();
    for (const r of rows) byTable.set(r.table, [...(byTable.get(r.table) ?? []), r]);
    for (const [table, list] of byTable) {
      const sorted = [...list].sort((a, b) => b.count - a.count);
      const top = sorted[0]!;
      const next = sorted[1]?.count ?? 0;
      const perSecond = (top.count * 1000) / durationMs;
      const timesNext = next > 0 ? top.count / next : null;
      if (perSecond < minRate || (timesNext !== null && timesNext < minTimes)) continue;
      const sum = sorted.reduce((a, r) => a + r.count, 0);
      out.push({ sampler, table, partition: top.partition, count: top.count, shareOfListed: top.count / sum, timesNext, perSecond });
    }
  }
  return out;
}
