/** ScyllaDB vnode keyspaces → tablets. PURE. */
import { clientGroups, clusterStateItems, cmpVersion, notChecked } from './common.js';
import type { ChecklistItem, MigrationInput } from './types.js';

export function toTabletsChecklist(input: MigrationInput): { path: string[]; items: ChecklistItem[] } {
  const { to } = input;
  const inPlace = cmpVersion(to.version, '2026.3') >= 0;
  const experimental = inPlace && cmpVersion(to.version, '2026.4') < 0;
  const items: ChecklistItem[] = [
    {
      id: 'path.in-place',
      area: 'path',
      title: 'In-place vnodes → tablets conversion available',
      status: inPlace ? (experimental ? 'action' : 'ok') : 'blocker',
      evidence: [inPlace ? `ScyllaDB ${to.version} documents the in-place migration${experimental ? ' (experimental)' : ''}` : `ScyllaDB ${to.version} predates the in-place migration (2026.3)`],
      ...(inPlace ? (experimental ? { action: 'Experimental on this version: rehearse on a copy first.' } : {}) : { action: 'Upgrade first, or create new keyspaces with tablets enabled and copy the data.' }),
      knowledgeIds: ['migration.scylla.vnodes-to-tablets'],
    },
  ];
  const s = input.schema;
  if (!s) {
    items.push({ id: 'schema.keyspaces', area: 'schema', title: 'Keyspaces to convert, and what blocks them', status: 'action', evidence: [notChecked('the schema', 'give DESCRIBE SCHEMA output')], action: 'List the vnode keyspaces, their RF and counter tables.', knowledgeIds: ['migration.scylla.vnodes-to-tablets', 'schema.counter.no-tablets'], step: 1 });
  } else {
    const vnodeKs = s.keyspaces.filter((k) => !k.name.startsWith('system') && k.tablets?.enabled !== true);
    const counters = s.tables.filter((t) => vnodeKs.some((k) => k.name === t.keyspace) && t.columns.some((c) => c.type === 'counter'));
    const rf1 = vnodeKs.filter((k) => Object.values(k.replication).some((rf) => rf <= 1));
    items.push({
      id: 'schema.keyspaces',
      area: 'schema',
      title: 'Keyspaces to convert',
      status: vnodeKs.length ? 'action' : 'ok',
      evidence: vnodeKs.length ? vnodeKs.map((k) => `${k.name}: ${k.tablets ? "tablets = {'enabled': false}" : 'no tablets option (vnodes)'}, RF ${JSON.stringify(k.replication)} (schema)`) : ['every user keyspace already uses tablets (schema)'],
      ...(vnodeKs.length ? { action: 'Convert one keyspace at a time, outside peak hours.' } : {}),
      knowledgeIds: ['migration.scylla.vnodes-to-tablets'],
      step: 1,
    });
    items.push({
      id: 'schema.counters',
      area: 'schema',
      title: 'No counter tables in keyspaces to convert',
      status: counters.length ? 'blocker' : 'ok',
      evidence: counters.length ? counters.map((t) => `${t.keyspace}.${t.name} has counters (schema)`) : ['no counter tables in vnode keyspaces (schema)'],
      ...(counters.length ? { action: 'Leave these keyspaces on vnodes (or move the counter tables to a vnode keyspace first).' } : {}),
      knowledgeIds: ['schema.counter.no-tablets'],
      step: 1,
    });
    items.push({
      id: 'schema.rf',
      area: 'schema',
      title: 'RF above 1, so the keyspace stays available during the restart',
      status: rf1.length ? 'action' : 'ok',
      evidence: rf1.length ? rf1.map((k) => `${k.name}: RF ${JSON.stringify(k.replication)} (schema)`) : ['every keyspace to convert has RF > 1 (schema)'],
      ...(rf1.length ? { action: 'With RF 1 the data of a resharding node is unavailable until it finishes: raise RF (and repair) or accept the downtime.' } : {}),
      knowledgeIds: ['migration.scylla.vnodes-to-tablets', 'schema.replication.rf1'],
      step: 1,
    });
  }
  const c = input.cluster;
  const groups = c ? clientGroups(c) : [];
  items.push({
    id: 'clients.tablet-aware',
    area: 'clients',
    title: 'Drivers are tablet-aware',
    status: 'action',
    evidence: !c ? [notChecked('a snapshot', 'give a bundle')] : groups.length ? groups.map((g) => `${g.driver} ${g.version} (${g.connections} connection(s)) (system clients)`) : ['no client connections seen (snapshot)'],
    action: 'Upgrade to ScyllaDB driver versions with tablet awareness before converting, or requests pay an extra hop.',
    knowledgeIds: ['driver.scylla.tablet-aware', 'migration.upgrade.drivers-first'],
    step: 2,
  });
  items.push(...clusterStateItems(input).filter((i) => i.id === 'cluster.schema-agreement'));
  items.push({ id: 'procedure.restart', area: 'procedure', title: 'Rolling restart with resharding', status: 'action', evidence: ['each node reshards its data to tablets at startup and serves nothing until done (minutes to hours)'], action: 'Restart one node at a time and wait for it to finish before the next; expect degraded performance on the keyspace meanwhile.', knowledgeIds: ['migration.scylla.vnodes-to-tablets'], step: 3 });
  return { path: ['vnodes', 'tablets'], items };
}
