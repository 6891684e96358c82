/** Cassandra 3.11 → 4.0/4.1 → 5.0: the checklist for a major (or patch) upgrade. PURE. */
import { keyStatus, renameOf } from '../config/renames.js';
import { parseCassandraYaml } from '../parse/config/index.js';
import { clientGroups, clusterStateItems, cmpVersion, line, notChecked, repairItem } from './common.js';
import type { ChecklistItem, MigrationInput } from './types.js';
import { minOf } from '../arrays.js';

/** Release lines a rolling upgrade steps through, oldest first. */
const LINES = ['3.0', '3.11', '4.0', '4.1', '5.0'];

/** 3.11 → 5.0 goes through 4.1 (5.0 accepts only 4.0/4.1 nodes); anything else is direct. */
export function upgradePath(from: string, to: string): { path: string[]; blocker: string | null } {
  const f = line(from);
  const t = line(to);
  if (cmpVersion(to, from) < 0)
    return { path: [from, to], blocker: `${to} is older than ${from}: Cassandra does not support downgrades (restore the snapshot instead)` };
  if (f === t) return { path: [from, to], blocker: null };
  if (cmpVersion(f, '4.0') < 0 && cmpVersion(t, '5.0') >= 0) return { path: [from, '4.1', to], blocker: null };
  if (cmpVersion(f, '3.0') < 0) return { path: [from, to], blocker: `${from} is older than 3.0: upgrade to 3.11 first` };
  if (!LINES.includes(t) && cmpVersion(t, '5.0') > 0) return { path: [from, to], blocker: null };
  return { path: [from, to], blocker: null };
}

/** Crossing into a line: true when the path passes from below `v` to `v` or above. */
const crosses = (from: string, to: string, v: string) => cmpVersion(from, v) < 0 && cmpVersion(to, v) >= 0;

function configItems(input: MigrationInput): ChecklistItem[] {
  const to = input.to.version;
  if (input.configText === undefined) {
    return [
      {
        id: 'config.keys',
        area: 'config',
        title: 'cassandra.yaml has no removed keys, no old+new name pairs, and uses the new names',
        status: 'action',
        evidence: [notChecked('cassandra.yaml', 'give config text')],
        action: `Review cassandra.yaml against the key changes up to ${to} (audit_config).`,
        knowledgeIds: ['config.removed.cassandra-4.0', 'config.renames.cassandra-4.1', 'config.old-and-new-key'],
        step: 2,
      },
    ];
  }
  const parsed = parseCassandraYaml(input.configText);
  if (!parsed.ok) {
    return [
      {
        id: 'config.keys',
        area: 'config',
        title: 'cassandra.yaml readable',
        status: 'action',
        evidence: [`cassandra.yaml not readable: ${parsed.reason}`],
        action: 'Give the node’s cassandra.yaml as text.',
        knowledgeIds: [],
        step: 2,
      },
    ];
  }
  const keys = Object.keys(parsed.value.settings);
  const removed: string[] = [];
  const renamed: string[] = [];
  const deprecated: string[] = [];
  const ids = new Set<string>();
  for (const k of keys) {
    const s = keyStatus(k, to);
    if (s.status === 'removed') {
      removed.push(`${k}${s.change.replacement ? ` (use ${s.change.replacement})` : ''} — removed in ${s.change.since}`);
      ids.add(s.change.knowledgeId);
    } else if (s.status === 'renamed') {
      const r = renameOf(k, to) ?? s.change;
      const unit = r.oldUnit ? ` (bare number was ${r.oldUnit}; write the unit)` : '';
      renamed.push(`${k} → ${r.replacement ?? '?'}${unit} — ${r.since}${r.note ? `: ${r.note}` : ''}`);
      ids.add(r.knowledgeId);
    } else if (s.status === 'deprecated') {
      deprecated.push(`${k} — deprecated in ${s.change.since}${s.change.note ? `: ${s.change.note}` : ''}`);
      ids.add(s.change.knowledgeId);
    }
  }
  // The parser pairs the 4.1 renames; later renames (5.0 merges table_count_warn_threshold into
  // tables_warn_threshold) pair keys only on the target version that merges them.
  const both = [...parsed.value.renamedBoth];
  for (const k of keys) {
    const t = renameOf(k, to)?.replacement;
    if (t && t !== k && t in parsed.value.settings && !both.some((b) => b.oldKey === k && b.newKey === t)) both.push({ oldKey: k, newKey: t });
  }
  const items: ChecklistItem[] = [
    {
      id: 'config.removed',
      area: 'config',
      title: `No keys removed on ${to}`,
      status: removed.length ? 'blocker' : 'ok',
      evidence: removed.length ? removed.slice(0, 30) : [`none of ${keys.length} keys is removed on ${to} (cassandra.yaml)`],
      ...(removed.length ? { action: 'Delete these keys (or replace them) before the node starts on the new version: it refuses unknown keys.' } : {}),
      knowledgeIds: removed.length
        ? [...ids].filter((i) => i.startsWith('config.removed')).concat('config.unknown-key-refused')
        : ['config.removed.cassandra-4.0'],
      step: 2,
    },
    {
      id: 'config.both-names',
      area: 'config',
      title: 'No setting given under both its old and new name',
      status: both.length ? 'blocker' : 'ok',
      evidence: both.length ? both.map((b) => `${b.oldKey} and ${b.newKey} both set (cassandra.yaml)`) : ['no old/new pair (cassandra.yaml)'],
      ...(both.length ? { action: 'Keep only the new name: Cassandra refuses to start with both.' } : {}),
      knowledgeIds: ['config.old-and-new-key'],
      step: 2,
    },
  ];
  if (cmpVersion(to, '4.1') >= 0) {
    items.push({
      id: 'config.renamed',
      area: 'config',
      title: 'Settings use the 4.1+ names and units',
      status: renamed.length ? 'action' : 'ok',
      evidence: renamed.length
        ? [...renamed.slice(0, 30), ...(renamed.length > 30 ? [`… ${renamed.length - 30} more`] : [])]
        : ['no pre-4.1 names (cassandra.yaml)'],
      ...(renamed.length ? { action: 'Old names are still accepted, but convert them (with units) while you edit the file; never keep both.' } : {}),
      knowledgeIds: renamed.length ? [...ids].filter((i) => !i.startsWith('config.removed')) : ['config.renames.cassandra-4.1'],
      step: 2,
    });
  }
  if (deprecated.length) {
    items.push({
      id: 'config.deprecated',
      area: 'config',
      title: 'No deprecated settings',
      status: 'action',
      evidence: deprecated,
      action: 'Plan their replacement; deprecated keys are removed in a later major.',
      knowledgeIds: ['config.deprecated.cassandra'],
      step: 2,
    });
  }
  return items;
}

function schemaItems(input: MigrationInput): ChecklistItem[] {
  const { from, to } = input;
  const s = input.schema;
  const items: ChecklistItem[] = [];
  if (crosses(from.version, to.version, '4.0')) {
    const compact = s?.tables.filter((t) => t.options.compactStorage) ?? [];
    // 4.0 keeps minimal COMPACT STORAGE support; DROP COMPACT STORAGE is experimental and off by default there.
    const dropFlag = cmpVersion(to.version, '4.1') >= 0 ? 'drop_compact_storage_enabled' : 'enable_drop_compact_storage';
    items.push({
      id: 'schema.compact-storage',
      area: 'schema',
      title: 'COMPACT STORAGE tables reviewed (4.0+ keeps minimal support; Thrift is gone)',
      status: !s ? 'action' : compact.length ? 'action' : 'ok',
      evidence: !s
        ? [notChecked('the schema', 'give DESCRIBE SCHEMA output')]
        : compact.length
          ? compact.map((t) => `${t.keyspace}.${t.name} WITH COMPACT STORAGE (schema)`)
          : [`${s.tables.length} tables, none with COMPACT STORAGE (schema)`],
      ...(!s || compact.length
        ? {
            action:
              `They keep working on ${to.version} over CQL; check which clients still use the compact layout. DROP COMPACT STORAGE is ` +
              `experimental and disabled by default (${dropFlag}: false): run it only deliberately, per table, after testing the clients ` +
              'against the exposed column1/value columns.',
          }
        : {}),
      knowledgeIds: ['migration.cassandra.compact-storage'],
      step: 2,
    });
    if (s) {
      const mv = s.views.map((v) => `materialized view ${v.keyspace}.${v.name}`);
      const sasi = s.indexes.filter((i) => /SASIIndex/i.test(i.using ?? '')).map((i) => `SASI index ${i.name ?? i.target} on ${i.keyspace}.${i.table}`);
      if (mv.length || sasi.length) {
        items.push({
          id: 'schema.experimental',
          area: 'schema',
          title: 'Experimental features in use (views, SASI) are enabled on the new version',
          status: 'action',
          evidence: [...mv, ...sasi].map((e) => `${e} (schema)`),
          action:
            'Existing ones keep working; creating new ones needs materialized_views_enabled / sasi_indexes_enabled: true. Plan their replacement (query tables, SAI on 5.0).',
          knowledgeIds: [...(mv.length ? ['schema.materialized-view.experimental'] : []), ...(sasi.length ? ['schema.sasi.experimental'] : [])],
        });
      }
    }
  }
  return items;
}

function clientItems(input: MigrationInput): ChecklistItem {
  const c = input.cluster;
  if (!c) {
    return {
      id: 'clients.protocol',
      area: 'clients',
      title: 'Client drivers support the target version',
      status: 'action',
      evidence: [notChecked('a snapshot', 'give a bundle: system_views.clients lists drivers and protocol versions')],
      action: 'Upgrade drivers to versions that support the target before the servers.',
      knowledgeIds: ['migration.upgrade.drivers-first', 'migration.cassandra.protocol'],
      step: 1,
    };
  }
  const groups = clientGroups(c);
  if (!groups.length) {
    return {
      id: 'clients.protocol',
      area: 'clients',
      title: 'Client drivers support the target version',
      status: 'action',
      evidence: ['no client connections in system_views.clients (snapshot taken with no application connected, or before 4.0)'],
      action: 'Check the application drivers by hand before the upgrade.',
      knowledgeIds: ['migration.upgrade.drivers-first'],
      step: 1,
    };
  }
  const worst = minOf(groups.map((g) => g.protocol ?? 99));
  return {
    id: 'clients.protocol',
    area: 'clients',
    title: 'Client drivers support the target version',
    status: worst <= 2 ? 'blocker' : worst === 3 ? 'action' : 'ok',
    evidence: groups.map(
      (g) =>
        `${g.driver} ${g.version}: protocol v${g.protocol ?? '?'}, ${g.connections} connection(s) from ${g.addresses.slice(0, 3).join(', ')}${g.addresses.length > 3 ? ' …' : ''} (system_views.clients)`,
    ),
    ...(worst <= 3 ? { action: 'Upgrade these drivers first: protocol v3 clients are old drivers (v4/v5 expected), v1/v2 cannot connect at all.' } : {}),
    knowledgeIds: ['migration.cassandra.protocol', 'migration.upgrade.drivers-first'],
    step: 1,
  };
}

export function cassandraUpgradeChecklist(input: MigrationInput): { path: string[]; items: ChecklistItem[] } {
  const { from, to } = input;
  const { path, blocker } = upgradePath(from.version, to.version);
  const major = line(from.version) !== line(to.version);
  const items: ChecklistItem[] = [
    {
      id: 'path.versions',
      area: 'path',
      title: `Upgrade path ${path.join(' → ')}`,
      status: blocker ? 'blocker' : 'ok',
      evidence: [
        blocker ??
          (path.length > 2
            ? `5.0 accepts rolling upgrades only from 4.0/4.1: go through ${path[1]}, completing each hop (all nodes, upgradesstables) before the next`
            : major
              ? `${line(from.version)} → ${line(to.version)} is a supported rolling upgrade`
              : 'patch upgrade within one line'),
      ],
      knowledgeIds: ['migration.cassandra.upgrade-path'],
    },
  ];
  if (major) {
    const java5 = cmpVersion(to.version, '5.0') >= 0;
    items.push({
      id: 'path.java',
      area: 'path',
      title: java5 ? 'Nodes run Java 11 or 17 (5.0 dropped Java 8)' : 'Nodes run Java 8 or 11',
      status: 'action',
      evidence: ['JDK version not collected: check `java -version` on each node'],
      action: java5
        ? 'Move to Java 11 on the 4.x line first, then upgrade; use the jvm11/jvm17 options files.'
        : 'Java 8 or 11 with the matching jvm*-server.options file.',
      knowledgeIds: ['migration.cassandra.java'],
      step: 3,
    });
  }
  items.push(clientItems(input), ...configItems(input), ...schemaItems(input), ...clusterStateItems(input), repairItem(input, 4));
  // The order of steps, as ordered actions.
  items.push(
    {
      id: 'procedure.snapshot',
      area: 'procedure',
      title: 'Snapshot every node',
      status: 'action',
      evidence: ['the only way back: a newer major writes files the older cannot read'],
      action: 'nodetool snapshot -t pre-upgrade on every node (and copy off-node if disks are tight).',
      knowledgeIds: ['migration.upgrade.snapshot-first'],
      step: 5,
    },
    {
      id: 'procedure.rolling',
      area: 'procedure',
      title: 'Upgrade one node at a time',
      status: 'action',
      evidence: [`${path.length - 1} hop(s): ${path.join(' → ')}`],
      action:
        'Per node: nodetool drain, stop, install the new version with the converted config, start, wait for UN and no errors, then the next node (rack by rack). No schema, repair or topology changes until every node runs the new version.',
      knowledgeIds: ['migration.upgrade.mixed-version'],
      step: 6,
    },
  );
  if (major) {
    items.push({
      id: 'procedure.upgradesstables',
      area: 'procedure',
      title: 'Rewrite SSTables to the new format',
      status: 'action',
      evidence: ['required before the next major can read them'],
      action: 'After the last node is upgraded: nodetool upgradesstables on each node (a few at a time; it is compaction I/O).',
      knowledgeIds: ['migration.upgrade.upgradesstables'],
      step: 7,
    });
  }
  if (crosses(from.version, to.version, '5.0')) {
    items.push({
      id: 'procedure.storage-compatibility',
      area: 'procedure',
      title: 'Leave storage_compatibility_mode CASSANDRA_4 only once no rollback is needed',
      status: 'action',
      evidence: ['5.0 ships cassandra.yaml with CASSANDRA_4: 4.x-readable files, 5.0-only features off'],
      action: 'Rolling restart with UPGRADING, then with NONE; only then do 5.0 formats and features (e.g. extended TTLs) apply.',
      knowledgeIds: ['latest.storage-compatibility-mode'],
      step: 8,
    });
  }
  return { path, items };
}
