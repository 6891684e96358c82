/** Cassandra → ScyllaDB: feature gaps, compaction mapping, drivers, config mapping, tablets. PURE. */
import { valueOf } from '../knowledge/index.js';
import { parseCassandraYaml } from '../parse/config/index.js';
import { clientGroups, clusterStateItems, cmpVersion, countersNeedVnodes, notChecked } from './common.js';
import type { ChecklistItem, MigrationInput } from './types.js';

/** Cassandra strategy → what to use on ScyllaDB (kb:compaction.scylla.ics, kb:migration.scylla.unsupported-features). */
const COMPACTION_MAP: Record<string, string> = {
  SizeTieredCompactionStrategy: 'IncrementalCompactionStrategy',
  UnifiedCompactionStrategy: 'IncrementalCompactionStrategy',
  LeveledCompactionStrategy: 'LeveledCompactionStrategy',
  TimeWindowCompactionStrategy: 'TimeWindowCompactionStrategy',
  DateTieredCompactionStrategy: 'TimeWindowCompactionStrategy',
};

/** cassandra.yaml keys that tune the JVM or Cassandra's thread pools: no effect on ScyllaDB. */
const NO_EFFECT =
  /^(?:concurrent_(?:reads|writes|counter_writes|materialized_view_writes|compactors)|memtable_(?:heap|offheap)_space(?:_in_mb)?|memtable_allocation_type|memtable_flush_writers|file_cache_size(?:_in_mb)?|key_cache_size(?:_in_mb)?|row_cache_size(?:_in_mb)?|counter_cache_size(?:_in_mb)?|native_transport_max_threads|disk_access_mode|buffer_pool_use_heap_if_exhausted|networking_cache_size(?:_in_mb)?|index_summary_capacity(?:_in_mb)?|(?:inter_dc_)?stream_throughput_outbound(?:_megabits_per_sec)?)$/;
const CARRY_OVER = [
  'cluster_name',
  'num_tokens',
  'endpoint_snitch',
  'seed_provider',
  'listen_address',
  'rpc_address',
  'broadcast_address',
  'native_transport_port',
  'authenticator',
  'authorizer',
];

const isScyllaDriver = (name: string) => /scylla/i.test(name);

export function toScyllaChecklist(input: MigrationInput): { path: string[]; items: ChecklistItem[] } {
  const { from, to } = input;
  const s = input.schema;
  const items: ChecklistItem[] = [];
  items.push({
    id: 'path.compatibility',
    area: 'path',
    title: `Cassandra ${from.version} features exist on ScyllaDB ${to.version}`,
    status: cmpVersion(from.version, '4.0') >= 0 ? 'action' : 'ok',
    evidence: [
      cmpVersion(from.version, '4.0') >= 0
        ? `ScyllaDB targets Cassandra 3.11 compatibility with part of 4.0: features of ${from.version} need checking`
        : `${from.version} is within ScyllaDB's 3.11 compatibility`,
    ],
    ...(cmpVersion(from.version, '4.0') >= 0 ? { action: 'Check every 4.x/5.0 feature the application uses against the compatibility tables.' } : {}),
    knowledgeIds: ['migration.scylla.compatibility'],
  });

  // Feature gaps from the schema.
  if (!s) {
    items.push({
      id: 'schema.unsupported',
      area: 'schema',
      title: 'No Cassandra-only features in the schema',
      status: 'action',
      evidence: [notChecked('the schema', 'give DESCRIBE SCHEMA output')],
      action: 'Review indexes, triggers, functions and compaction against ScyllaDB support.',
      knowledgeIds: ['migration.scylla.unsupported-features'],
      step: 1,
    });
  } else {
    const gaps: string[] = [];
    for (const i of s.indexes) {
      if (i.using) gaps.push(`index ${i.name ?? i.target} on ${i.keyspace}.${i.table} USING '${i.using}': no such index class on ScyllaDB`);
    }
    for (const o of s.other)
      if (/^CREATE (?:OR REPLACE )?(?:TRIGGER|FUNCTION|AGGREGATE)/i.test(o)) gaps.push(`${o} …: triggers and Java UDF/UDA do not exist on ScyllaDB`);
    items.push({
      id: 'schema.unsupported',
      area: 'schema',
      title: 'No Cassandra-only features in the schema',
      status: gaps.length ? 'blocker' : 'ok',
      evidence: gaps.length
        ? gaps.map((g) => `${g} (schema)`)
        : [`${s.indexes.length} indexes, ${s.other.length} other statements: nothing Cassandra-only (schema)`],
      ...(gaps.length
        ? { action: 'Recreate SASI/SAI/custom indexes as ScyllaDB secondary indexes (global) or query tables; move trigger and UDF logic to the application.' }
        : {}),
      knowledgeIds: ['migration.scylla.unsupported-features'],
      step: 1,
    });
    const changes = s.tables
      .filter((t) => !t.keyspace.startsWith('system'))
      .map((t) => {
        const cls = t.options.compaction?.class ?? 'SizeTieredCompactionStrategy';
        return { t: `${t.keyspace}.${t.name}`, cls, to: COMPACTION_MAP[cls] ?? null };
      })
      .filter((m) => m.to !== m.cls);
    items.push({
      id: 'schema.compaction-mapping',
      area: 'schema',
      title: 'Compaction strategies mapped to ScyllaDB',
      status: changes.some((c) => c.to === null) ? 'blocker' : changes.length ? 'action' : 'ok',
      evidence: changes.length
        ? changes.map((c) => `${c.t}: ${c.cls} → ${c.to ?? 'no ScyllaDB equivalent'} (schema)`)
        : ['every table already uses a strategy ScyllaDB has (schema)'],
      ...(changes.length ? { action: 'Create the tables on ScyllaDB with the mapped strategy (STCS and UCS → ICS; LCS and TWCS unchanged).' } : {}),
      knowledgeIds: ['compaction.scylla.ics', 'migration.scylla.unsupported-features'],
      step: 1,
    });
    if (s.views.length) {
      items.push({
        id: 'schema.views',
        area: 'schema',
        title: 'Materialized views',
        status: 'ok',
        evidence: s.views.map((v) => `${v.keyspace}.${v.name} (schema)`),
        knowledgeIds: ['schema.materialized-view.experimental'],
      });
    }
    // Tablets vs vnodes keyspaces.
    const counterTables = s.tables.filter((t) => t.columns.some((c) => c.type === 'counter')).map((t) => `${t.keyspace}.${t.name}`);
    const tabletsTarget = cmpVersion(to.version, '2024.2') >= 0;
    items.push({
      id: 'schema.tablets',
      area: 'schema',
      title: 'Each keyspace chosen for tablets or vnodes',
      status: 'action',
      evidence: [
        `${s.keyspaces.filter((k) => !k.name.startsWith('system')).length} user keyspaces (schema)`,
        tabletsTarget ? 'target supports tablets: parallel scaling, no cleanup' : `ScyllaDB ${to.version} predates tablets (2024.2): vnode keyspaces only`,
        ...(counterTables.length
          ? [
              countersNeedVnodes(to.version)
                ? `counter tables must stay in vnode keyspaces: ${counterTables.join(', ')} ` +
                  `(ScyllaDB ${to.version}; tablets accept counters from ${String(valueOf('schema.counter.no-tablets'))})`
                : `counter tables can use tablets on ${to.version} once every node runs it: ${counterTables.join(', ')}`,
            ]
          : []),
      ],
      action: tabletsTarget
        ? `Create keyspaces WITH tablets = {'enabled': true}${counterTables.length && countersNeedVnodes(to.version) ? ' unless they hold counters' : ''} ` +
          '(and unless they use features the target version lists as unsupported with tablets).'
        : 'Use vnode keyspaces; plan tablets for a later ScyllaDB release.',
      knowledgeIds: ['scylla.tablets.scaling', ...(counterTables.length ? ['schema.counter.no-tablets'] : [])],
      step: 1,
    });
  }

  // Drivers.
  const c = input.cluster;
  const groups = c ? clientGroups(c) : [];
  const nonScylla = groups.filter((g) => !isScyllaDriver(g.driver));
  items.push({
    id: 'clients.drivers',
    area: 'clients',
    title: 'Applications use shard-aware (and tablet-aware) ScyllaDB drivers',
    status: 'action',
    evidence: !c
      ? [notChecked('a snapshot', 'give a bundle: system_views.clients lists drivers')]
      : groups.length
        ? groups.map(
            (g) =>
              `${g.driver} ${g.version} (${g.connections} connection(s))${isScyllaDriver(g.driver) ? '' : ': not a ScyllaDB driver'} (system_views.clients)`,
          )
        : ['no client connections seen (snapshot)'],
    action:
      nonScylla.length || !c || !groups.length
        ? 'Switch to the ScyllaDB fork of each driver (same API): it routes each request to the right shard, and with tablets to the right replica.'
        : 'Keep the ScyllaDB drivers current.',
    knowledgeIds: ['driver.scylla.shard-aware', 'driver.scylla.tablet-aware'],
    step: 2,
  });

  // Config mapping.
  if (input.configText === undefined) {
    items.push({
      id: 'config.mapping',
      area: 'config',
      title: 'cassandra.yaml mapped to scylla.yaml',
      status: 'action',
      evidence: [notChecked('cassandra.yaml', 'give config text')],
      action: 'Carry over cluster identity settings; drop JVM and thread-pool tuning.',
      knowledgeIds: ['migration.scylla.config-mapping'],
      step: 3,
    });
  } else {
    const p = parseCassandraYaml(input.configText);
    const keys = p.ok ? Object.keys(p.value.settings) : [];
    const noEffect = keys.filter((k) => NO_EFFECT.test(k));
    const carry = CARRY_OVER.filter((k) => keys.includes(k));
    items.push({
      id: 'config.mapping',
      area: 'config',
      title: 'cassandra.yaml mapped to scylla.yaml',
      status: 'action',
      evidence: [
        p.ok ? `carry over: ${carry.join(', ') || 'none found'} (cassandra.yaml)` : `cassandra.yaml not readable: ${p.reason}`,
        ...(noEffect.length ? [`no effect on ScyllaDB: ${noEffect.join(', ')}`] : []),
      ],
      action:
        'Write scylla.yaml from the carried-over keys; leave thread pools and memory to ScyllaDB (scylla_setup, io_properties); set stream_io_throughput_mb_per_sec if streaming must be capped.',
      knowledgeIds: ['migration.scylla.config-mapping', 'streaming.scylla.stream-io-throughput'],
      step: 3,
    });
  }

  items.push(...clusterStateItems(input).filter((i) => i.id === 'cluster.schema-agreement'));
  items.push({
    id: 'procedure.method',
    area: 'procedure',
    title: 'Data copy method chosen',
    status: 'action',
    evidence: ['schema first on ScyllaDB, then history (migrator or sstableloader), with dual writes for an online cut-over'],
    action: 'Create the schema on ScyllaDB, start dual writes, copy history, validate (row counts, sampled reads), then move reads.',
    knowledgeIds: ['migration.scylla.methods'],
    step: 4,
  });
  return { path: [`cassandra ${from.version}`, `scylla ${to.version}`], items };
}
