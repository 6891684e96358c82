/**
 * Incremental repair state from nodetool tablestats: which tables hold data marked repaired, how much is
 * unrepaired or pending, across nodes. "Percent repaired" counts only what incremental repair marked
 * (kb:repair.percent-repaired): 0 % on a cluster repaired in full is normal, so only tables above 0 % are reported.
 */
import type { NodeEvidence } from '../diagnosis/evidence.js';
import { isSystemKeyspace } from '../facts/from-cluster.js';
import type { Finding } from '../findings.js';
import { parseVersion, versionInRange } from '../knowledge/index.js';
import { formatBytes } from '../units.js';
import { fmtNum } from './rule.js';

const EVIDENCE_TABLES = 12;

interface TableState {
  name: string;
  nodes: { node: string; pct: number; unrepaired: number | null; pending: number | null }[];
}

export function incrementalRepairFindings(nodes: readonly NodeEvidence[]): Finding[] {
  const byTable = new Map<string, TableState>();
  let readers = 0;
  for (const n of nodes) {
    const ts = n.nodetool.tablestats;
    // ScyllaDB prints "Percent repaired: 0.0" as a placeholder.
    if (!ts || ts.looksLikeScylla) continue;
    // Before 4.0 full repairs marked data repaired too: the number means something else there.
    const v = n.facts.releaseVersion;
    const version = v ? parseVersion(v) : null;
    if (version && !versionInRange(v!, '>=4.0')) continue;
    readers++;
    for (const t of ts.tables) {
      if (t.isIndex || t.percentRepaired === null || !t.keyspace || isSystemKeyspace(t.keyspace)) continue;
      // An unknown version counts only with the 4.0+ byte lines; a table without data prints 100 %.
      if (!version && t.bytesRepaired === null) continue;
      const bytes = t.bytesRepaired === null ? null : t.bytesRepaired + (t.bytesUnrepaired ?? 0) + (t.bytesPendingRepair ?? 0);
      if (t.sstableCount === 0 || bytes === 0) continue;
      const name = `${t.keyspace}.${t.name}`;
      const s = byTable.get(name) ?? { name, nodes: [] };
      s.nodes.push({ node: n.node, pct: t.percentRepaired, unrepaired: t.bytesUnrepaired, pending: t.bytesPendingRepair });
      byTable.set(name, s);
    }
  }
  const marked = [...byTable.values()].filter((t) => t.nodes.some((x) => x.pct > 0));
  if (!marked.length) return [];
  // Least repaired first: the tables with the most data waiting for the next incremental run.
  const low = (t: TableState) => Math.min(...t.nodes.map((x) => x.pct));
  marked.sort((a, b) => low(a) - low(b) || a.name.localeCompare(b.name));
  const sum = (xs: (number | null)[]) => xs.reduce<number>((a, x) => a + (x ?? 0), 0);
  const mixed = marked.filter((t) => t.nodes.some((x) => x.pct === 0));
  const line = (t: TableState) => {
    const pcts = t.nodes.map((x) => x.pct);
    const lo = Math.min(...pcts);
    const hi = Math.max(...pcts);
    const range = lo === hi ? `${fmtNum(lo, 1)} %` : `${fmtNum(lo, 1)}–${fmtNum(hi, 1)} %`;
    const zero = t.nodes.filter((x) => x.pct === 0).map((x) => x.node);
    const pending = sum(t.nodes.map((x) => x.pending));
    return (
      `${t.name}: ${range} repaired on ${t.nodes.length} node(s), ${formatBytes(sum(t.nodes.map((x) => x.unrepaired)))} unrepaired across them` +
      (pending > 0 ? `, ${formatBytes(pending)} pending repair` : '') +
      (zero.length && zero.length < t.nodes.length ? `; 0 % on ${zero.join(', ')}` : '')
    );
  };
  return [
    {
      id: 'repair.incremental-state',
      severity: 'info',
      title: `Incremental repair has marked data repaired in ${marked.length} table(s)${mixed.length ? `, ${mixed.length} of them on some nodes only` : ''}`,
      evidence: [
        ...marked.slice(0, EVIDENCE_TABLES).map(line),
        ...(marked.length > EVIDENCE_TABLES ? [`… and ${marked.length - EVIDENCE_TABLES} more table(s)`] : []),
        `nodetool tablestats "Percent repaired" of ${readers} node(s); tables at 0 % everywhere are not listed (full repairs mark nothing on 4.0+)`,
      ],
      recommendation:
        'These tables are repaired incrementally (a repair without --full, or Reaper / auto-repair in incremental mode): keep that ' +
        'schedule so the unrepaired share stays small, and read the last repair time from the repair history, not from this ' +
        'percentage. A table at 0 % on some nodes only was last repaired incrementally elsewhere, or those nodes got their data ' +
        'by streaming (bootstrap, rebuild) since. If the cluster has moved to full repairs, remove the repaired status first ' +
        '(DSE: nodetool mark_unrepaired; Apache Cassandra: sstablerepairedset --is-unrepaired with the node stopped).',
      knowledgeIds: ['repair.percent-repaired'],
      confidence: 'high',
      sources: ['nodetool tablestats'],
    },
  ];
}
