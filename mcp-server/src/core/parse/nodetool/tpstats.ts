/**
 * nodetool tpstats. Layouts seen (Cassandra tools/nodetool/stats/TpStatsPrinter.java per branch):
 *  - 3.x: right-aligned pools, then "Message type  Dropped" with one number per type;
 *  - 4.0 and DSE 6.x: "Message type  Dropped  Latency waiting in queue (micros)" + a "50% 95% 99% Max" line;
 *    DSE adds "Pending (w/Backpressure)" ("0 (N/A)") and "Delayed" pool columns;
 *  - DSE 6.8: the header starts "Pools" (not "Pool Name") and splits "Backpressure" into its own column, with
 *    "Shared" and "Stolen" (TPC tasks handed between cores: throughput counters, not blocked work);
 *  - 4.1+/5.0: TableBuilder tables, "Latencies waiting in queue (micros) per dropped message types" and
 *    "Message type  Dropped  50%  95%  99%  Max"; message types become verbs (MUTATION_REQ, READ_RSP …);
 *  - trunk adds "CPU[ms/s]" and "Allocations[mb/s]" pool columns.
 */
import { parsedOk, total, unrecognized } from '../../parsed.js';
import { findHeaderNames, tokens } from './columns.js';
import { limitWarnings, nodetoolError, nodetoolLines, num } from './nodetool-text.js';

export interface ThreadPool {
  name: string;
  active: number | null;
  pending: number | null;
  /** DSE only: the value in brackets after Pending ("(N/A)" → null), or DSE 6.8's own Backpressure column. */
  pendingBackpressure: number | null;
  /** DSE 6.8 only: TPC tasks shared with / stolen by other cores (counters, not a backlog). */
  shared: number | null;
  stolen: number | null;
  /** DSE only. */
  delayed: number | null;
  completed: number | null;
  blocked: number | null;
  allTimeBlocked: number | null;
  /** Trunk only. */
  cpuMsPerSec: number | null;
  allocationsMbPerSec: number | null;
}

export interface QueueLatencyMicros {
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

export interface DroppedMessage {
  type: string;
  dropped: number;
  /** Time messages of this type waited in queue; null when printed N/A or not printed (3.x). */
  queueLatencyMicros: QueueLatencyMicros | null;
}

export interface NodetoolTpstats {
  format: '3.x' | '4.0' | '4.1+' | 'dse' | 'unknown';
  pools: ThreadPool[];
  /**
   * Whether the "Message type … Dropped" table was read: 'missing' (no header: the paste was cut before it) and
   * 'empty' (header, no row) mean the dropped counts are unknown — `dropped` is then {} but is NOT "none dropped".
   */
  droppedSection: 'present' | 'empty' | 'missing';
  /** Dropped count per message type as printed (MUTATION on ≤4.0, MUTATION_REQ on 4.1+); see droppedSection. */
  dropped: Record<string, number>;
  droppedMessages: DroppedMessage[];
  /** totals.dropped is null unless droppedSection is 'present'. */
  totals: { active: number; pending: number; blocked: number; allTimeBlocked: number; dropped: number | null };
}

// Header label → field; longer labels first is handled by findHeaderNames.
const POOL_COLUMNS: Record<string, keyof Omit<ThreadPool, 'name'>> = {
  Active: 'active',
  Backpressure: 'pendingBackpressure',
  Shared: 'shared',
  Stolen: 'stolen',
  'Pending (w/Backpressure)': 'pending',
  Pending: 'pending',
  Delayed: 'delayed',
  Completed: 'completed',
  Blocked: 'blocked',
  'All time blocked': 'allTimeBlocked',
  'All Time Blocked': 'allTimeBlocked', // DSE StatusLogger spelling, same table
  AllTimeBlocked: 'allTimeBlocked',
  'CPU[ms/s]': 'cpuMsPerSec',
  'Allocations[mb/s]': 'allocationsMbPerSec',
};

function emptyPool(name: string): ThreadPool {
  return {
    name,
    active: null,
    pending: null,
    pendingBackpressure: null,
    shared: null,
    stolen: null,
    delayed: null,
    completed: null,
    blocked: null,
    allTimeBlocked: null,
    cpuMsPerSec: null,
    allocationsMbPerSec: null,
  };
}

export const parseTpstats = total<NodetoolTpstats>('nodetool.tpstats', (text) => {
  const kind = 'nodetool.tpstats';
  const lines = nodetoolLines(text);
  if (lines.length === 0) return unrecognized(kind, 'empty output');
  const err = nodetoolError(lines);
  if (err) return unrecognized(kind, err);

  const warnings: string[] = [];
  const pools: ThreadPool[] = [];
  const droppedMessages: DroppedMessage[] = [];
  let section: 'none' | 'pools' | 'dropped' = 'none';
  let poolFields: (keyof ThreadPool)[] = [];
  let sawPoolHeader = false;
  let sawDroppedHeader = false;
  let format: NodetoolTpstats['format'] = 'unknown';
  let latencyTitle = false;

  for (const raw of lines) {
    const line = raw.trim();
    // netstats has a "Pool Name Active Pending Completed Dropped" table too; only tpstats has Blocked.
    if (/^Pool(?:s| Name)\s/.test(line) && /\bActive\b/.test(line) && /Blocked/i.test(line)) {
      const cols = findHeaderNames(line, Object.keys(POOL_COLUMNS));
      poolFields = cols.map((c) => POOL_COLUMNS[c.name]!);
      if (cols.some((c) => c.name === 'Delayed' || c.name.includes('Backpressure') || c.name === 'Stolen')) format = 'dse';
      section = 'pools';
      sawPoolHeader = true;
      continue;
    }
    if (/^Latencies waiting in queue \(micros\) per dropped message types/.test(line)) {
      latencyTitle = true;
      continue;
    }
    if (/^Message type\s+Dropped\b/.test(line)) {
      sawDroppedHeader = true;
      section = 'dropped';
      if (format !== 'dse') {
        if (latencyTitle || /\b50%/.test(line)) format = '4.1+';
        else if (/Latency waiting in queue/.test(line)) format = '4.0';
        else format = '3.x';
      }
      continue;
    }
    if (line === '') {
      if (section === 'pools') section = 'none';
      continue;
    }
    if (/^50%\s+95%\s+99%\s+Max$/.test(line)) continue; // second header line of the 4.0/DSE layout

    if (section === 'pools') {
      const t = tokens(line);
      const n = poolFields.length;
      if (t.length < n + 1) {
        warnings.push(`pool row with ${t.length - 1} of ${n} values skipped: ${line.slice(0, 100)}`);
        continue;
      }
      const pool = emptyPool(t.slice(0, t.length - n).join(' '));
      t.slice(t.length - n).forEach((cell, i) => {
        const field = poolFields[i]!;
        const m = /^(\S+)\s+\((.*)\)$/.exec(cell);
        if (field === 'pending' && m) {
          pool.pending = num(m[1]);
          pool.pendingBackpressure = num(m[2]);
        } else if (field !== 'name') pool[field] = num(cell);
      });
      pools.push(pool);
    } else if (section === 'dropped') {
      const t = tokens(line);
      if (t.length >= 6) {
        const lat = t.slice(t.length - 4).map(num);
        const dropped = num(t[t.length - 5]);
        if (dropped === null) continue;
        droppedMessages.push({
          type: t.slice(0, t.length - 5).join(' '),
          dropped,
          queueLatencyMicros: lat.every((v) => v === null) ? null : { p50: lat[0]!, p95: lat[1]!, p99: lat[2]!, max: lat[3]! },
        });
      } else if (t.length === 2 && num(t[1]) !== null) {
        droppedMessages.push({ type: t[0]!, dropped: num(t[1])!, queueLatencyMicros: null });
      } else {
        warnings.push(`dropped-message row not understood: ${line.slice(0, 100)}`);
      }
    }
  }

  if (!sawPoolHeader && !sawDroppedHeader) {
    return unrecognized(kind, 'no "Pool Name … Active … Blocked" header and no "Message type … Dropped" header');
  }
  if (!sawPoolHeader) warnings.push('no thread-pool table: the start of the output is missing');
  if (!sawDroppedHeader) warnings.push('no dropped-messages table: the output looks truncated');
  else if (droppedMessages.length === 0) warnings.push('dropped-messages table has no rows: the output looks truncated');

  const droppedSection: NodetoolTpstats['droppedSection'] = !sawDroppedHeader ? 'missing' : droppedMessages.length === 0 ? 'empty' : 'present';
  const dropped: Record<string, number> = {};
  for (const d of droppedMessages) dropped[d.type] = d.dropped;
  const sum = (f: (p: ThreadPool) => number | null) => pools.reduce((s, p) => s + (f(p) ?? 0), 0);
  return parsedOk<NodetoolTpstats>(
    kind,
    {
      format,
      pools,
      droppedSection,
      dropped,
      droppedMessages,
      totals: {
        active: sum((p) => p.active),
        pending: sum((p) => p.pending),
        blocked: sum((p) => p.blocked),
        allTimeBlocked: sum((p) => p.allTimeBlocked),
        dropped: droppedSection === 'present' ? droppedMessages.reduce((s, d) => s + d.dropped, 0) : null,
      },
    },
    limitWarnings(warnings),
  );
});
