/**
 * Nodes that started with different jars: the "Classpath:" line each node logs at start, compared across the nodes
 * whose logs were read (sperf's jarcheck). A jar some nodes have and others lack, or in another version, is a node
 * mid-upgrade, a hand-copied patch or a plugin installed on some nodes only. PURE.
 */
import type { Finding } from '../findings.js';
import { outcome, skipped, type Rule } from './rule.js';

export interface JarDrift {
  nodes: string[];
  /** Jars on every node. */
  common: string[];
  /** Jars on some nodes only, with the nodes that have them. */
  inconsistent: { jar: string; on: string[] }[];
}

/** Compares the jar lists of several nodes (or log files). */
export function jarDrift(lists: readonly { node: string; jars: readonly string[] }[]): JarDrift {
  const on = new Map<string, string[]>();
  for (const l of lists) for (const j of new Set(l.jars)) (on.get(j) ?? on.set(j, []).get(j)!).push(l.node);
  const common: string[] = [];
  const inconsistent: { jar: string; on: string[] }[] = [];
  for (const [jar, nodes] of [...on].sort(([a], [b]) => a.localeCompare(b))) {
    if (nodes.length === lists.length) common.push(jar);
    else inconsistent.push({ jar, on: nodes });
  }
  return { nodes: lists.map((l) => l.node), common, inconsistent };
}

const SHOWN = 15;

export const jarDriftRule: Rule = {
  id: 'jar-drift',
  checks: 'the jars each node started with ("Classpath:" log line) are the same on every node',
  dependsOn: ['logs'],
  run(input) {
    const lists = input.nodes.flatMap((n) => (n.logs?.startup.classpathJars?.length ? [{ node: n.node, jars: n.logs.startup.classpathJars }] : []));
    if (lists.length < 2) return skipped('jar-drift', `the "Classpath:" start-up line was read for ${lists.length} node(s); two are needed to compare`);
    const d = jarDrift(lists);
    if (!d.inconsistent.length) return outcome('jar-drift', []);
    const lines = d.inconsistent.slice(0, SHOWN).map((i) => `${i.jar}: on ${i.on.join(', ')} only (of ${d.nodes.length} nodes)`);
    const finding: Finding = {
      id: 'cluster.jar-drift',
      severity: 'warning',
      title: `${d.inconsistent.length} jar(s) are not on every node: the nodes did not start the same software`,
      evidence: [
        ...lines,
        ...(d.inconsistent.length > SHOWN ? [`… ${d.inconsistent.length - SHOWN} more`] : []),
        `${d.common.length} jar(s) common to ${d.nodes.join(', ')} ("Classpath:" line of each node's last start)`,
      ],
      recommendation:
        'A jar in two versions is a node mid-upgrade or left behind: finish the upgrade (no schema, topology or repair operations until every ' +
        'node runs the same version). A jar on some nodes only is a plugin, driver or patch copied by hand: install it everywhere or nowhere, then restart.',
      knowledgeIds: ['migration.upgrade.mixed-version'],
      confidence: 'medium',
    };
    return outcome('jar-drift', [finding]);
  },
};
