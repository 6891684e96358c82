/**
 * Counters read twice, `seconds` apart, → rates over the window: ops/s per table and node (local and as
 * coordinator), dropped messages/s, blocked tasks/s, compacted bytes/s and GC time per second. Counters that
 * only grow since the node started become what happened in the window. PURE.
 */
import type { NodeFacts } from '../facts/node-facts.js';
import type { NodetoolEvidence } from './evidence.js';

export interface CounterReading {
  facts: NodeFacts;
  nodetool: NodetoolEvidence;
}

export interface TableRate {
  table: string;
  readsPerS: number | null;
  writesPerS: number | null;
  /** Which counter: "system_views.local_read_latency count" or "nodetool tablestats local read count". */
  source: string;
}

export interface NodeWindowRates {
  node: string;
  seconds: number;
  /** Reads and writes this node served as a replica (sum over its tables). */
  localReadsPerS: number | null;
  localWritesPerS: number | null;
  /** Requests this node coordinated for clients (system_views.coordinator_*_latency counts, Cassandra 4.1+). */
  coordinatorReadsPerS: number | null;
  coordinatorWritesPerS: number | null;
  tables: TableRate[];
  /** Dropped messages in the window by type (count, not rate: drops are rare and whole numbers speak better). */
  droppedInWindow: Record<string, number> | null;
  droppedPerS: number | null;
  blockedInWindow: Record<string, number> | null;
  blockedPerS: number | null;
  /** Milliseconds of GC pause per second of the window (1000 = paused all the time). */
  gcMsPerS: number | null;
  gcMaxPauseMs: number | null;
  compactedBytesPerS: number | null;
  compactedSource: string | null;
  notes: string[];
}

const SYSTEM_KS = /^(system|system_schema|system_auth|system_distributed|system_traces|system_views|system_virtual_schema)$/;

function grow(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  // A counter that went down means the node restarted between the readings: no delta.
  return b >= a ? b - a : null;
}

function sumOrNull(xs: (number | null)[]): number | null {
  const known = xs.filter((x): x is number => x !== null);
  return known.length ? known.reduce((s, x) => s + x, 0) : null;
}

function tableRates(a: CounterReading, b: CounterReading, seconds: number): { rates: TableRate[]; coordR: number | null; coordW: number | null } {
  const rates: TableRate[] = [];
  const before = new Map((a.facts.tables ?? []).map((t) => [`${t.keyspace}.${t.table}`, t]));
  const coordR: (number | null)[] = [];
  const coordW: (number | null)[] = [];
  for (const t of b.facts.tables ?? []) {
    const name = `${t.keyspace}.${t.table}`;
    const p = before.get(name);
    if (!p || SYSTEM_KS.test(t.keyspace)) continue;
    const r = grow(p.localRead?.count, t.localRead?.count);
    const w = grow(p.localWrite?.count, t.localWrite?.count);
    coordR.push(grow(p.coordinatorRead?.count, t.coordinatorRead?.count));
    coordW.push(grow(p.coordinatorWrite?.count, t.coordinatorWrite?.count));
    if (r === null && w === null) continue;
    const source = 'system_views.local_{read,write}_latency count';
    rates.push({ table: name, readsPerS: r === null ? null : r / seconds, writesPerS: w === null ? null : w / seconds, source });
  }
  if (!rates.length) {
    const ts = new Map((a.nodetool.tablestats?.tables ?? []).map((t) => [`${t.keyspace}.${t.name}`, t]));
    for (const t of b.nodetool.tablestats?.tables ?? []) {
      const name = `${t.keyspace}.${t.name}`;
      const p = ts.get(name);
      if (!p || t.isIndex || SYSTEM_KS.test(t.keyspace ?? '')) continue;
      const r = grow(p.localReadCount, t.localReadCount);
      const w = grow(p.localWriteCount, t.localWriteCount);
      if (r === null && w === null) continue;
      const source = 'nodetool tablestats local read/write count';
      rates.push({ table: name, readsPerS: r === null ? null : r / seconds, writesPerS: w === null ? null : w / seconds, source });
    }
  }
  const perS = (x: number | null) => (x === null ? null : x / seconds);
  const ops = (t: TableRate) => (t.readsPerS ?? 0) + (t.writesPerS ?? 0);
  return { rates: rates.sort((x, y) => ops(y) - ops(x)), coordR: perS(sumOrNull(coordR)), coordW: perS(sumOrNull(coordW)) };
}

function compacted(a: CounterReading, b: CounterReading, seconds: number): { perS: number | null; source: string | null } {
  const sa = a.nodetool.compactionstats?.summary?.dataCompactedBytes;
  const sb = b.nodetool.compactionstats?.summary?.dataCompactedBytes;
  const d = grow(sa, sb);
  if (d !== null) return { perS: d / seconds, source: 'nodetool compactionstats "Data compacted" counter' };
  // Older versions print only running compactions: progress of the same compaction id between the readings, and
  // the rest of those that finished in between.
  const ca = a.nodetool.compactionstats?.compactions;
  const cb = b.nodetool.compactionstats?.compactions;
  if (!ca || !cb) return { perS: null, source: null };
  const bytes = (c: { unit: string }) => /^bytes$/i.test(c.unit);
  const now = new Map(cb.filter((c) => c.id && bytes(c)).map((c) => [c.id!, c]));
  let sum = 0;
  for (const c of ca.filter((x) => x.id && bytes(x))) {
    const later = now.get(c.id!);
    if (later) sum += Math.max(0, (later.completed ?? 0) - (c.completed ?? 0));
    else sum += Math.max(0, (c.total ?? 0) - (c.completed ?? 0));
  }
  const fresh = cb.filter((c) => c.id && bytes(c) && !ca.some((x) => x.id === c.id));
  for (const c of fresh) sum += c.completed ?? 0;
  return { perS: sum / seconds, source: 'nodetool compactionstats progress of running compactions (estimate)' };
}

export function nodeWindowRates(node: string, a: CounterReading, b: CounterReading, seconds: number): NodeWindowRates {
  const notes: string[] = [];
  const t = tableRates(a, b, seconds);
  if (!t.rates.length) notes.push('no per-table counters in both readings (virtual tables or tablestats): no ops/s');
  const dropped = (() => {
    const da = a.facts.droppedMessages;
    const db = b.facts.droppedMessages;
    if (!da || !db) return null;
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(db)) {
      const d = grow(da[k] ?? 0, v);
      if (d) out[k] = d;
    }
    return out;
  })();
  if (!dropped) notes.push('dropped messages not read twice (nodetool tpstats): no dropped/s');
  const blocked = (() => {
    const pa = a.facts.threadPools;
    const pb = b.facts.threadPools;
    if (!pa || !pb) return null;
    const out: Record<string, number> = {};
    for (const p of pb) {
      const d = grow(pa.find((x) => x.name === p.name)?.blockedAllTime, p.blockedAllTime);
      if (d) out[p.name] = d;
    }
    return out;
  })();
  // nodetool gcstats reports since its previous call: the second reading covers the window when the first was made.
  const g = b.facts.gc;
  const gcOk = !!a.facts.gc && !!g && g.intervalMs !== null && g.totalPauseMs !== null && g.intervalMs > 0 && g.intervalMs <= seconds * 1000 * 2 + 10_000;
  if (!gcOk) notes.push('GC not read twice (nodetool gcstats): no GC time per second');
  const c = compacted(a, b, seconds);
  const total = (r: Record<string, number> | null) => (r ? Object.values(r).reduce((s, x) => s + x, 0) / seconds : null);
  return {
    node,
    seconds,
    localReadsPerS: sumOrNull(t.rates.map((r) => r.readsPerS)),
    localWritesPerS: sumOrNull(t.rates.map((r) => r.writesPerS)),
    coordinatorReadsPerS: t.coordR,
    coordinatorWritesPerS: t.coordW,
    tables: t.rates,
    droppedInWindow: dropped,
    droppedPerS: total(dropped),
    blockedInWindow: blocked,
    blockedPerS: total(blocked),
    gcMsPerS: gcOk ? (g.totalPauseMs! / g.intervalMs!) * 1000 : null,
    gcMaxPauseMs: gcOk ? g.maxPauseMs : null,
    compactedBytesPerS: c.perS,
    compactedSource: c.source,
    notes,
  };
}
