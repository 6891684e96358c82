import { parsedOk, total, unrecognized } from '../../parsed.js';
import { cleanLines } from '../../text.js';
import { parseNumber, parseSize } from '../../units.js';

export interface CacheInfo {
  entries: number | null;
  sizeBytes: number | null;
  capacityBytes: number | null;
  hits: number | null;
  requests: number | null;
  /** 0–1; null when the node printed NaN (no requests yet). */
  recentHitRate: number | null;
}

export interface NodetoolInfo {
  hostId: string | null;
  gossipActive: boolean | null;
  nativeTransportActive: boolean | null;
  loadBytes: number | null;
  uncompressedLoadBytes: number | null;
  generation: number | null;
  uptimeSeconds: number | null;
  heapUsedMb: number | null;
  heapMaxMb: number | null;
  offHeapMb: number | null;
  datacenter: string | null;
  rack: string | null;
  exceptions: number | null;
  keyCache: CacheInfo | null;
  rowCache: CacheInfo | null;
  counterCache: CacheInfo | null;
  chunkCache: CacheInfo | null;
  percentRepaired: number | null;
  bootstrapState: string | null;
  /** Every "Key : Value" pair as printed, for fields this parser does not type. */
  fields: Record<string, string>;
  /** Values to distrust, e.g. the negative loads/capacities early ScyllaDB printed (counter bugs). */
  notes: string[];
}

function bool(v: string | undefined): boolean | null {
  if (v === undefined) return null;
  if (/^true$/i.test(v.trim())) return true;
  if (/^false$/i.test(v.trim())) return false;
  return null;
}

// "entries 30, size 2.54 KiB, capacity 51 MiB, 146 hits, 171 requests, 0.854 recent hit rate, 14400 save period in seconds"
function cache(v: string | undefined): CacheInfo | null {
  if (v === undefined) return null;
  const pick = (re: RegExp) => re.exec(v)?.[1];
  const size = (re: RegExp) => {
    const s = pick(re);
    return s === undefined ? null : parseSize(s);
  };
  return {
    entries: parseNumber(pick(/entries\s+(\d+)/)),
    sizeBytes: size(/(?:^|,\s*)size\s+([\d.,]+\s*[A-Za-z]*)/),
    capacityBytes: size(/capacity\s+(-?[\d.,]+\s*[A-Za-z]*)/),
    hits: parseNumber(pick(/(\d+)\s+hits/)),
    requests: parseNumber(pick(/(\d+)\s+requests/)),
    recentHitRate: parseNumber(pick(/([\d.]+|NaN)\s+recent hit rate/)),
  };
}

export const parseInfo = total<NodetoolInfo>('nodetool.info', (text) => {
  const fields: Record<string, string> = {};
  const warnings: string[] = [];
  for (const line of cleanLines(text)) {
    // nodetool can fail half-way (ScyllaDB 1.x AMI: "error: Index: 0, Size: 0" + a Java stack trace after the heap
    // lines, scylladb/scylladb#1041; ScyllaDB's "nodetool: Scylla API server HTTP GET … failed", #1325): what came
    // before is real, nothing after it is a field.
    const failure = /^\s*(error:\s.*|nodetool:\s.*|-- StackTrace --|Exception in thread\b.*|(?:[a-z]\w*\.)+[A-Z]\w*(?:Exception|Error)\b.*)$/.exec(line);
    if (failure && Object.keys(fields).length > 0) {
      warnings.push(
        `nodetool stopped with an error after ${Object.keys(fields).length} field(s): ${failure[1]!.trim().slice(0, 200)}; the fields after it are missing`,
      );
      break;
    }
    const m = /^\s*([A-Za-z][A-Za-z ()/]*?)\s*:\s?(.*)$/.exec(line);
    if (m && !(m[1]! in fields)) fields[m[1]!.trim()] = m[2]!.trim();
  }
  if (fields['Load'] === undefined || (fields['ID'] === undefined && fields['Generation No'] === undefined)) {
    return unrecognized('nodetool.info', 'no "ID"/"Generation No" and "Load" fields');
  }
  const heap = /([\d.]+)\s*\/\s*([\d.]+)/.exec(fields['Heap Memory (MB)'] ?? '');
  const repaired = fields['Percent Repaired'];
  // 2015 ScyllaDB printed the host id as a JSON string, quotes included (scylladb/scylladb#253).
  const id = fields['ID']?.replace(/^"(.*)"$/, '$1');
  const loadBytes = parseSize(fields['Load'] ?? '');
  const caches = {
    keyCache: cache(fields['Key Cache']),
    rowCache: cache(fields['Row Cache']),
    counterCache: cache(fields['Counter Cache']),
    chunkCache: cache(fields['Chunk Cache']),
  };
  // ScyllaDB 0.x–1.x printed negative loads and cache capacities (overflowed counters, scylladb/scylladb#688,
  // #1801): kept as printed so they can be quoted, and flagged so nobody sizes anything from them.
  const notes: string[] = [];
  if (loadBytes !== null && loadBytes < 0)
    notes.push(`Load is negative (${fields['Load']}): a counter bug (seen in ScyllaDB, scylladb/scylladb#688), not a size`);
  for (const [name, c] of Object.entries(caches)) {
    if (c && [c.sizeBytes, c.capacityBytes].some((x) => x !== null && x < 0))
      notes.push(`${name} has a negative size or capacity: a counter bug (seen in ScyllaDB, scylladb/scylladb#1801), not a size`);
  }
  return parsedOk<NodetoolInfo>(
    'nodetool.info',
    {
      hostId: id && /^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : null,
      gossipActive: bool(fields['Gossip active']),
      nativeTransportActive: bool(fields['Native Transport active']),
      loadBytes,
      uncompressedLoadBytes: fields['Uncompressed load'] === undefined ? null : parseSize(fields['Uncompressed load']),
      generation: parseNumber(fields['Generation No']),
      uptimeSeconds: parseNumber(fields['Uptime (seconds)']),
      heapUsedMb: heap ? Number(heap[1]) : null,
      heapMaxMb: heap ? Number(heap[2]) : null,
      offHeapMb: parseNumber(fields['Off Heap Memory (MB)']),
      datacenter: fields['Data Center'] ?? null,
      rack: fields['Rack'] ?? null,
      exceptions: parseNumber(fields['Exceptions']),
      ...caches,
      percentRepaired: repaired === undefined ? null : parseNumber(repaired.replace('%', '')),
      bootstrapState: fields['Bootstrap state'] ?? null,
      fields,
      notes,
    },
    warnings,
  );
});
