/**
 * One problem, one finding: findings of one family on one node and table (identity.ts) become a single finding
 * with every source's evidence, the list of sources that agree, the worst severity and the ids merged in. PURE.
 */
import type { Finding, Severity } from '../findings.js';
import { familyOf, normalTable, sourcesOf } from './identity.js';

const SEV: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };
const CONF: Record<Finding['confidence'], number> = { high: 0, medium: 1, low: 2 };

/** Which member speaks for the group: worst severity, then surest, then a measured source over a log. */
function primaryFirst(a: Finding, b: Finding): number {
  return SEV[a.severity] - SEV[b.severity] || CONF[a.confidence] - CONF[b.confidence] || Number(a.id.startsWith('log.')) - Number(b.id.startsWith('log.'));
}

function combine(group: Finding[]): Finding {
  if (group.length === 1) {
    const only = group[0]!;
    return { ...only, sources: sourcesOf(only) };
  }
  const sorted = [...group].sort(primaryFirst);
  const p = sorted[0]!;
  const sources = [...new Set(sorted.flatMap(sourcesOf))];
  const evidence = [...new Set(sorted.flatMap((f) => f.evidence))];
  const mergedIds = [...new Set(sorted.slice(1).map((f) => f.id))].filter((id) => id !== p.id);
  const table = sorted.find((f) => f.table)?.table;
  return {
    ...p,
    evidence,
    ...(table ? { table } : {}),
    knowledgeIds: [...new Set(sorted.flatMap((f) => f.knowledgeIds))],
    // Independent sources that agree make the finding surer than any one of them.
    confidence: sources.length >= 2 ? 'high' : p.confidence,
    sources,
    ...(mergedIds.length ? { mergedIds } : {}),
  };
}

/** Merges duplicates; order of first appearance is kept (callers sort afterwards). */
export function mergeFindings(findings: Finding[]): Finding[] {
  const groups = new Map<string, Finding[]>();
  const order: string[] = [];
  const add = (key: string, f: Finding) => {
    if (!groups.has(key)) {
      groups.set(key, []);
      order.push(key);
    }
    groups.get(key)!.push(f);
  };
  const tableless: Finding[] = [];
  for (const f of findings) {
    const t = normalTable(f.table);
    if (t === null) tableless.push(f);
    else add(`${familyOf(f)}|${f.node ?? ''}|${t}`, f);
  }
  for (const f of tableless) {
    const prefix = `${familyOf(f)}|${f.node ?? ''}|`;
    const tables = order.filter((k) => k.startsWith(prefix) && k !== prefix);
    // A node-level finding (a log count) joins its family's table on that node when there is only one, or the
    // one its evidence names; otherwise it is the node-level finding of its family.
    const named = tables.filter((k) => f.evidence.some((e) => e.toLowerCase().includes(k.slice(prefix.length))));
    const key = tables.length === 1 ? tables[0]! : named.length === 1 ? named[0]! : prefix;
    add(key, f);
  }
  return order.map((k) => combine(groups.get(k)!));
}
