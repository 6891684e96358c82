import { appliesTo, compareVersionText, knowledge } from '../knowledge/index.js';
import type { ChecklistItem, ClusterFacts, MigrationInput } from './types.js';

export function cmpVersion(a: string, b: string): number {
  const c = compareVersionText(a, b);
  if (c === null) throw new RangeError(`cannot compare versions "${a}" and "${b}"`);
  return c;
}

/** The release line of a version: 4.1.10 → 4.1, 2025.1.3 → 2025.1. */
export const line = (v: string) => v.split('.').slice(0, 2).join('.');

/** True when ScyllaDB `version` still refuses counters in tablets keyspaces (kb:schema.counter.no-tablets, before 2026.1). */
export const countersNeedVnodes = (version: string): boolean => appliesTo(knowledge('schema.counter.no-tablets'), 'scylla', version);

export const notChecked = (what: string, how: string) => `not checked: ${what} not given (${how})`;

/** Client connections grouped by driver and protocol, for evidence lines. */
export function clientGroups(c: ClusterFacts): { driver: string; version: string; protocol: number | null; connections: number; addresses: string[] }[] {
  const groups = new Map<string, { driver: string; version: string; protocol: number | null; connections: number; addresses: Set<string> }>();
  for (const cl of c.clients) {
    const driver = cl.driverName ?? 'unknown driver';
    const version = cl.driverVersion ?? '?';
    const k = `${driver}|${version}|${cl.protocolVersion}`;
    const g = groups.get(k) ?? { driver, version, protocol: cl.protocolVersion, connections: 0, addresses: new Set<string>() };
    g.connections++;
    g.addresses.add(cl.address);
    groups.set(k, g);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, addresses: [...g.addresses].sort() }))
    .sort((a, b) => (a.protocol ?? 0) - (b.protocol ?? 0) || a.driver.localeCompare(b.driver));
}

/** Schema agreement and mixed versions, from a snapshot. */
export function clusterStateItems(input: MigrationInput): ChecklistItem[] {
  const c = input.cluster;
  if (!c) {
    return [
      {
        id: 'cluster.schema-agreement',
        area: 'cluster',
        title: 'All nodes agree on one schema version',
        status: 'action',
        evidence: [notChecked('a snapshot', 'give a bundle or run on the live cluster')],
        action: 'Check `nodetool describecluster` shows one schema version before starting.',
        knowledgeIds: ['topology.schema-agreement'],
      },
      {
        id: 'cluster.versions',
        area: 'cluster',
        title: 'Every node runs the same starting version',
        status: 'action',
        evidence: [notChecked('a snapshot', 'give a bundle')],
        action: 'Check `nodetool version` on every node.',
        knowledgeIds: ['migration.upgrade.mixed-version'],
      },
    ];
  }
  const items: ChecklistItem[] = [];
  const sv = c.schemaVersions;
  items.push({
    id: 'cluster.schema-agreement',
    area: 'cluster',
    title: 'All nodes agree on one schema version',
    status: sv.length > 1 ? 'blocker' : sv.length === 1 ? 'ok' : 'action',
    evidence: [sv.length ? `${sv.length} schema version(s) across ${c.nodes} node(s): ${sv.join(', ')} (snapshot)` : 'schema version not collected (snapshot)'],
    ...(sv.length !== 1
      ? {
          action:
            sv.length > 1
              ? 'Resolve the disagreement (a down or stuck node; nodetool describecluster) before changing versions.'
              : 'Check nodetool describecluster.',
        }
      : {}),
    knowledgeIds: ['topology.schema-agreement'],
  });
  const rv = c.releaseVersions;
  const fromLine = line(input.from.version);
  const offLine = rv.filter((v) => line(v) !== fromLine);
  items.push({
    id: 'cluster.versions',
    area: 'cluster',
    title: 'Every node runs the same starting version',
    status: rv.length > 1 ? 'blocker' : offLine.length ? 'action' : rv.length ? 'ok' : 'action',
    evidence: [
      rv.length ? `release versions: ${rv.join(', ')} on ${c.nodes} node(s) (snapshot)` : 'release version not collected (snapshot)',
      `declared starting version ${input.from.version}`,
    ],
    ...(rv.length > 1
      ? {
          action: 'The cluster is mid-upgrade: finish (or roll back) the current one before starting another; no schema, repair or topology changes meanwhile.',
        }
      : offLine.length
        ? { action: `The nodes run ${rv.join(', ')}, not the ${fromLine} line declared: review with the real starting version.` }
        : {}),
    knowledgeIds: ['migration.upgrade.mixed-version'],
  });
  return items;
}

export function repairItem(input: MigrationInput, step: number): ChecklistItem {
  const running = input.cluster?.sstableTasks.filter((t) => /repair|validation|anticompaction/i.test(t.kind ?? '')) ?? [];
  return {
    id: 'cluster.repair',
    area: 'cluster',
    title: 'A full repair finished within gc_grace_seconds; none runs during the change',
    status: 'action',
    evidence: [
      input.cluster
        ? running.length
          ? `running now: ${running.map((t) => `${t.kind} ${t.keyspace ?? ''}.${t.table ?? ''}`).join(', ')} (snapshot)`
          : 'no repair task running (snapshot); repair history is not collected'
        : notChecked('a snapshot', 'give a bundle'),
    ],
    action: running.length
      ? 'Let the running repair finish, then start; no repairs while versions are mixed.'
      : 'Confirm the last full repair of every keyspace finished within gc_grace_seconds (repair tool history); pause scheduled repairs for the duration.',
    knowledgeIds: ['migration.upgrade.repair-before', 'datamodel.gc-grace-seconds.default'],
    step,
  };
}

export function countAndVerdict(items: ChecklistItem[]): { counts: Record<'ok' | 'action' | 'blocker', number>; verdict: 'blocked' | 'actions' | 'ready' } {
  const counts = { ok: 0, action: 0, blocker: 0 };
  for (const i of items) counts[i.status]++;
  return { counts, verdict: counts.blocker ? 'blocked' : counts.action ? 'actions' : 'ready' };
}
