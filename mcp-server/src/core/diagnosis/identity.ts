/**
 * Problem identity, defined in one place: which findings are the same problem seen by different sources, and
 * where each finding's evidence came from. Two findings are one problem when they share a family, a node and a
 * table (a finding without a table joins its family's only table on that node). PURE.
 */
import type { Finding } from '../findings.js';

/**
 * Families of finding ids that measure the same thing from different sources. The family name is the knowledge
 * id they grade against; an id not listed is its own family (log.suspended-not-gc cites jvm.gc.pause too, but a
 * suspended VM is not a GC problem, so families are listed, not derived from knowledge ids).
 */
export const PROBLEM_FAMILIES: Record<string, readonly string[]> = {
  'table.tombstones-per-read': ['table.tombstones-per-read', 'log.tombstones'],
  'table.partition-size': ['table.partition-size', 'log.large-partition'],
  'jvm.gc.pause': ['jvm.gc.pause', 'log.gc-pause', 'log.stop-the-world'],
  'dropped.messages': ['dropped.messages', 'log.dropped'],
  'threadpool.pending': ['threadpool.pending', 'log.threadpool-pending'],
  'table.sstables-per-read': ['table.sstables-per-read'],
};

const FAMILY_OF = new Map(Object.entries(PROBLEM_FAMILIES).flatMap(([fam, ids]) => ids.map((id) => [id, fam] as const)));

export function familyOf(f: Pick<Finding, 'id'>): string {
  return FAMILY_OF.get(f.id) ?? f.id;
}

/** "ks.tbl" as printed by any source, compared without quotes and case. */
export function normalTable(t: string | undefined): string | null {
  if (!t) return null;
  const n = t.replace(/"/g, '').trim().toLowerCase();
  return n === '' || n === '?' || n.startsWith('?.') ? null : n;
}

/** The identity key of a finding that names its table: family | node | table. */
export function problemKey(f: Finding): string {
  return `${familyOf(f)}|${f.node ?? ''}|${normalTable(f.table) ?? ''}`;
}

/** Where a finding's numbers came from, read from its id and evidence lines (rules name their source there). */
export function sourcesOf(f: Finding): string[] {
  if (f.sources?.length) return f.sources;
  const out = new Set<string>();
  if (f.id.startsWith('log.')) out.add('log');
  for (const e of f.evidence) {
    for (const m of e.matchAll(/\bsystem_views\.([a-z_]+)/g)) out.add(`system_views.${m[1]}`);
    for (const m of e.matchAll(/\bnodetool ([a-z]+)/g)) out.add(`nodetool ${m[1]}`);
    if (/\bStatusLogger\b/.test(e)) out.add('log');
  }
  if (!out.size && /tpstats|dropped/.test(f.evidence.join(' '))) out.add('nodetool tpstats');
  return [...out];
}
