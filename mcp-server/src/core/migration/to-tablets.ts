/**
 * ScyllaDB vnode keyspaces → tablets, in place (nodetool migrate-to-tablets, 2026.2+). PURE.
 * Every documented limit of the migration (kb:migration.scylla.vnodes-to-tablets) is a check: what the
 * schema or snapshot shows is judged, what they cannot show is an action to confirm by hand.
 */
import { appliesTo, knowledge, valueOf } from '../knowledge/index.js';
import type { CqlValue, SchemaTable } from '../parse/schema/types.js';
import { clientGroups, clusterStateItems, cmpVersion, notChecked } from './common.js';
import type { ChecklistItem, MigrationInput } from './types.js';

const KB = 'migration.scylla.vnodes-to-tablets';
/** The docs drop the Experimental label from 2026.4 (kb:migration.scylla.vnodes-to-tablets). */
const NOT_EXPERIMENTAL_FROM = '2026.4';

const fq = (t: { keyspace: string; name: string }) => `${t.keyspace}.${t.name}`;

function cdcEnabled(v: CqlValue | undefined): boolean {
  if (v === true || (typeof v === 'string' && v.toLowerCase() === 'true')) return true;
  if (v && typeof v === 'object' && !Array.isArray(v))
    return v['enabled'] === true || (typeof v['enabled'] === 'string' && v['enabled'].toLowerCase() === 'true');
  return false;
}

/** The class a table compacts with; no option means the server default (ICS from ScyllaDB 2025.1). */
function compactionOf(t: SchemaTable, version: string): string {
  const cls = t.options.compaction?.class;
  if (cls) return cls.replace(/^.*\./, '');
  const ics = appliesTo(knowledge('compaction.scylla.ics-default'), 'scylla', version);
  return ics ? 'IncrementalCompactionStrategy' : 'SizeTieredCompactionStrategy';
}

function pathItems(input: MigrationInput): ChecklistItem[] {
  const v = input.to.version;
  const first = String(valueOf(KB));
  const inPlace = cmpVersion(v, first) >= 0;
  const experimental = inPlace && cmpVersion(v, NOT_EXPERIMENTAL_FROM) < 0;
  const items: ChecklistItem[] = [
    {
      id: 'path.in-place',
      area: 'path',
      title: 'In-place vnodes → tablets migration available',
      status: inPlace ? (experimental ? 'action' : 'ok') : 'blocker',
      evidence: [inPlace ? `ScyllaDB ${v} documents the in-place migration${experimental ? ' (experimental)' : ''}` : `ScyllaDB ${v} is older than ${first}`],
      ...(inPlace
        ? experimental
          ? { action: 'Experimental on this version: rehearse on a copy of the cluster first; the migration can be rolled back until finalize, not after.' }
          : {}
        : { action: `Upgrade every node to ${first} or later first, or create new keyspaces with tablets enabled and copy the data.` }),
      knowledgeIds: [KB],
    },
  ];
  const c = input.cluster;
  const old = c ? c.releaseVersions.filter((r) => /^\d/.test(r) && cmpVersion(r, first) < 0) : [];
  items.push({
    id: 'cluster.all-nodes-version',
    area: 'cluster',
    title: `Every node runs ScyllaDB ${first} or later and is up`,
    status: !c ? 'action' : old.length ? 'blocker' : 'action',
    evidence: !c
      ? [notChecked('a snapshot', 'give a bundle')]
      : old.length
        ? [`nodes on ${old.join(', ')} (snapshot)`]
        : [`release versions ${c.releaseVersions.join(', ') || 'unknown'} (snapshot)`],
    action: old.length ? `Finish the upgrade to ${first}+ on every node first.` : 'Confirm with nodetool status that every node is UN before starting.',
    knowledgeIds: [KB],
    step: 1,
  });
  return items;
}

function schemaItems(input: MigrationInput): ChecklistItem[] {
  const s = input.schema;
  if (!s) {
    return [
      {
        id: 'schema.keyspaces',
        area: 'schema',
        title: 'Keyspaces to convert, and what blocks them',
        status: 'action',
        evidence: [notChecked('the schema', 'give DESCRIBE SCHEMA output')],
        action: 'List the vnode keyspaces with their replication, and per table: compaction (ICS only), counters, views, indexes, CDC and tombstone_gc mode.',
        knowledgeIds: [KB, 'schema.counter.no-tablets'],
        step: 1,
      },
    ];
  }
  const version = input.from.version;
  const vnodeKs = s.keyspaces.filter((k) => !k.name.startsWith('system') && k.tablets?.enabled !== true);
  const inScope = (ks: string) => vnodeKs.some((k) => k.name === ks);
  const tables = s.tables.filter((t) => inScope(t.keyspace));
  const counters = tables.filter((t) => t.columns.some((c) => c.type === 'counter'));
  const views = s.views.filter((x) => inScope(x.keyspace) || inScope(x.baseKeyspace));
  const indexes = s.indexes.filter((x) => inScope(x.keyspace));
  const cdc = tables.filter((t) => cdcEnabled(t.options.raw['cdc']));
  const nonIcs = tables.map((t) => ({ t, cls: compactionOf(t, version) })).filter((x) => x.cls !== 'IncrementalCompactionStrategy');
  const notRepairGc = tables.filter((t) => t.options.tombstoneGcMode !== 'repair');
  const rf1 = vnodeKs.filter((k) => Object.values(k.replication).some((rf) => rf === 1));
  const rf0 = vnodeKs.filter((k) => Object.values(k.replication).some((rf) => rf === 0));
  const notNts = vnodeKs.filter((k) => k.strategy !== null && !/NetworkTopologyStrategy$/.test(k.strategy));
  const items: ChecklistItem[] = [];
  const push = (i: Omit<ChecklistItem, 'area' | 'step'>, step = 1) => items.push({ area: 'schema', step, ...i });

  const ksLine = (k: (typeof vnodeKs)[number]) =>
    `${k.name}: ${k.tablets ? "tablets = {'enabled': false}" : 'no tablets option (vnodes)'}, RF ${JSON.stringify(k.replication)} (schema)`;
  push({
    id: 'schema.keyspaces',
    title: 'Keyspaces to convert',
    status: vnodeKs.length ? 'action' : 'ok',
    evidence: vnodeKs.length ? vnodeKs.map(ksLine) : ['every user keyspace already uses tablets (schema)'],
    ...(vnodeKs.length ? { action: 'Convert one keyspace at a time (or prepare several together), outside peak hours.' } : {}),
    knowledgeIds: [KB],
  });
  push({
    id: 'schema.counters',
    title: 'No counter tables in keyspaces to convert',
    status: counters.length ? 'blocker' : 'ok',
    evidence: counters.length ? counters.map((t) => `${fq(t)} has counters (schema)`) : ['no counter tables in vnode keyspaces (schema)'],
    ...(counters.length
      ? {
          action:
            'The in-place migration cannot move counter tables: leave the keyspace on vnodes, or copy the counters to a new tablets keyspace ' +
            '(2026.1+ accepts counters there) and drop them here first.',
        }
      : {}),
    knowledgeIds: [KB, 'schema.counter.no-tablets'],
  });
  const derived = [
    ...views.map((x) => `materialized view ${x.keyspace}.${x.name}`),
    ...indexes.map((x) => `secondary index ${x.name ?? x.target} on ${x.keyspace}.${x.table}`),
    ...cdc.map((t) => `CDC on ${fq(t)}`),
  ];
  push({
    id: 'schema.base-tables-only',
    title: 'Only CQL base tables: no materialized views, secondary indexes or CDC',
    status: derived.length ? 'blocker' : 'ok',
    evidence: derived.length ? derived.map((d) => `${d} (schema)`) : ['no views, indexes or CDC in vnode keyspaces (schema)'],
    ...(derived.length
      ? { action: 'Views, indexes, CDC and Alternator tables cannot be migrated: drop them before (and recreate after), or leave the keyspace on vnodes.' }
      : {}),
    knowledgeIds: [KB],
  });
  push({
    id: 'schema.compaction-ics',
    title: 'Every table to convert uses IncrementalCompactionStrategy',
    status: nonIcs.length ? 'blocker' : 'ok',
    evidence: nonIcs.length
      ? nonIcs.map((x) => `${fq(x.t)}: ${x.cls}${x.t.options.compaction ? '' : ' (server default)'} (schema)`)
      : [`${tables.length} table(s), all on ICS (schema)`],
    ...(nonIcs.length
      ? { action: "ALTER TABLE … WITH compaction = {'class': 'IncrementalCompactionStrategy'} for each, and let compaction settle before migrating." }
      : {}),
    knowledgeIds: [KB, 'compaction.scylla.ics'],
  });
  push({
    id: 'schema.replication',
    title: 'NetworkTopologyStrategy, RF equal to the rack count, no datacenter at RF 0',
    status: rf0.length || notNts.length ? 'blocker' : 'action',
    evidence: [
      ...notNts.map((k) => `${k.name}: ${k.strategy} (schema)`),
      ...rf0.map(
        (k) =>
          `${k.name}: RF 0 in ${Object.entries(k.replication)
            .filter(([, rf]) => rf === 0)
            .map(([dc]) => dc)
            .join(', ')} (schema)`,
      ),
      ...(notNts.length || rf0.length ? [] : ['every keyspace to convert uses NetworkTopologyStrategy with RF ≥ 1 in each datacenter (schema)']),
    ],
    action:
      rf0.length || notNts.length
        ? 'Switch to NetworkTopologyStrategy and remove RF 0 datacenters from the replication (RF 0 is not supported yet); ' +
          'then confirm RF equals the number of racks.'
        : 'Confirm each datacenter has as many racks as its RF (the keyspace must be RF-rack-valid after the migration).',
    knowledgeIds: [KB],
  });
  push({
    id: 'schema.rf',
    title: 'RF above 1, so the keyspace stays available during the restart',
    status: rf1.length ? 'action' : 'ok',
    evidence: rf1.length ? rf1.map((k) => `${k.name}: RF ${JSON.stringify(k.replication)} (schema)`) : ['every keyspace to convert has RF > 1 (schema)'],
    ...(rf1.length
      ? { action: 'With RF 1 the data of a resharding node is unavailable until it finishes: raise RF (and repair) or accept the downtime.' }
      : {}),
    knowledgeIds: [KB, 'schema.replication.rf1'],
  });
  push({
    id: 'schema.tombstone-gc',
    title: "tombstone_gc = {'mode': 'repair'} on every table to convert",
    status: notRepairGc.length ? 'action' : 'ok',
    evidence: notRepairGc.length
      ? notRepairGc.map((t) => `${fq(t)}: tombstone_gc mode ${t.options.tombstoneGcMode ?? 'not set'} (schema)`)
      : ['every table uses tombstone_gc mode repair (schema)'],
    ...(notRepairGc.length
      ? { action: "ALTER TABLE … WITH tombstone_gc = {'mode': 'repair'} before starting, so tombstones are not purged during the migration." }
      : {}),
    knowledgeIds: [KB],
  });
  push({
    id: 'schema.lwt',
    title: 'No table to convert is used with lightweight transactions',
    status: 'action',
    evidence: ['not visible in a schema: LWT is how the application writes (INSERT … IF NOT EXISTS, UPDATE … IF)'],
    action: 'Ask the application owners; tables written with LWT cannot be migrated.',
    knowledgeIds: [KB],
  });
  return items;
}

export function toTabletsChecklist(input: MigrationInput): { path: string[]; items: ChecklistItem[] } {
  const items: ChecklistItem[] = [...pathItems(input), ...schemaItems(input)];
  const c = input.cluster;
  items.push({
    id: 'cluster.zero-token-nodes',
    area: 'cluster',
    title: 'No zero-token nodes in the cluster',
    status: 'action',
    evidence: [c ? `${c.nodes} node(s) in the snapshot; token ownership not recorded` : notChecked('a snapshot', 'give a bundle')],
    action: 'Check nodetool status / system.topology for zero-token (arbiter) nodes: clusters with them are not supported yet.',
    knowledgeIds: [KB],
    step: 1,
  });
  items.push({
    id: 'cluster.disk-headroom',
    area: 'cluster',
    title: 'Disk use below 50 % on every node',
    status: 'action',
    evidence: ['not checked here: resharding temporarily needs extra space'],
    action: 'Check df on each data directory; free space or add capacity first.',
    knowledgeIds: [KB],
    step: 1,
  });
  const groups = c ? clientGroups(c) : [];
  items.push({
    id: 'clients.tablet-aware',
    area: 'clients',
    title: 'Drivers are tablet-aware',
    status: 'action',
    evidence: !c
      ? [notChecked('a snapshot', 'give a bundle')]
      : groups.length
        ? groups.map((g) => `${g.driver} ${g.version} (${g.connections} connection(s)) (system clients)`)
        : ['no client connections seen (snapshot)'],
    action: 'Upgrade to ScyllaDB driver versions with tablet awareness before converting, or requests pay an extra hop.',
    knowledgeIds: ['driver.scylla.tablet-aware', 'migration.upgrade.drivers-first'],
    step: 2,
  });
  items.push(...clusterStateItems(input).filter((i) => i.id === 'cluster.schema-agreement'));
  items.push({
    id: 'procedure.freeze',
    area: 'procedure',
    title: 'No schema, topology, repair or TRUNCATE operations until finalize',
    status: 'action',
    evidence: ['the migration does not support them while a keyspace is migrating'],
    action:
      'Pause schema changes in the keyspace, node add/remove/replace/rebuild, repairs of the keyspace (including scheduled ScyllaDB Manager ' +
      'repairs) and TRUNCATE until the migration is finalized.',
    knowledgeIds: [KB],
    step: 3,
  });
  items.push({
    id: 'procedure.restart',
    area: 'procedure',
    title: 'Rolling restart with resharding',
    status: 'action',
    evidence: ['each node reshards its data to tablets at startup and serves nothing until done (minutes to hours)'],
    action:
      'Mark one node (migrate-to-tablets upgrade), drain and restart it, wait until it is UN and reports "uses tablets", then the next; ' +
      'expect degraded performance on the keyspace meanwhile.',
    knowledgeIds: [KB],
    step: 3,
  });
  items.push({
    id: 'procedure.finalize',
    area: 'procedure',
    title: 'Finalize only when every node uses tablets',
    status: 'action',
    evidence: ['rollback (migrate-to-tablets downgrade) is possible until finalize, not after'],
    action: 'Run nodetool migrate-to-tablets finalize <keyspace> last; the tablet load balancer rebalances afterwards.',
    knowledgeIds: [KB],
    step: 4,
  });
  return { path: ['vnodes', 'tablets'], items };
}
