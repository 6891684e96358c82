/**
 * Schema review rules: DESCRIBE output (+ per-table numbers from a snapshot when given) → findings.
 * Each rule says what it checked or why it could not (e.g. "table sizes not known").
 */
import type { TableFact } from '../facts/node-facts.js';
import type { Finding } from '../findings.js';
import { appliesTo, knowledge, numberOf, parseVersion, threshold, valueOf } from '../knowledge/index.js';
import type { CqlSchema, SchemaKeyspace, SchemaTable } from '../parse/schema/types.js';
import type { KindRuleOutcome, KindRules } from './per-kind.js';
import { fmtNum, grade, outcome, PACK, skipped, type RuleContext } from './rule.js';
import { maxOf } from '../arrays.js';

export interface SchemaRuleInput {
  schema: CqlSchema;
  product?: 'cassandra' | 'scylla' | 'unknown';
  /** Per-table numbers from a snapshot, per node. */
  tableFacts?: { node: string; tables: TableFact[] }[];
  /** Datacenters seen in the cluster (snapshot), beyond those named in keyspace replication. */
  datacenters?: string[];
  /** Server release (e.g. "2026.1.2"), when known: some limits depend on it (counters with tablets, default compaction). */
  version?: string;
  /**
   * Per node, a legacy index's hidden table beside its base table (nodetool tablestats "Table (index)"): its
   * partitions are the distinct indexed values on that node.
   */
  indexCardinality?: IndexCardinality[];
}

export interface IndexCardinality {
  node: string;
  keyspace: string;
  table: string;
  index: string;
  indexPartitions: number;
  tablePartitions: number;
}

/** Keyspaces the server manages itself; their tables are not the user's design. */
const SERVER_KEYSPACES = /^(?:system|system_schema|system_virtual_schema|system_views|system_distributed_everywhere|dse_\w+|solr_admin)$/;
/** Replicated system keyspaces whose replication the operator does choose. */
const OPERATOR_SYSTEM_KEYSPACES = /^(?:system_auth|system_distributed|system_traces)$/;

const userTable = (ks: string) => !ks.startsWith('system') && !SERVER_KEYSPACES.test(ks);
const fq = (t: { keyspace: string; name: string }) => `${t.keyspace}.${t.name}`;

/** Per-table numbers across nodes: the largest per-node size, summed read/write counts, worst tombstones. */
export interface TableNumbers {
  maxNodeDiskMiB: number | null;
  node: string | null;
  reads: number | null;
  writes: number | null;
  tombstonesP99: number | null;
  tombstonesMax: number | null;
}

export function tableNumbers(input: SchemaRuleInput, ks: string, table: string): TableNumbers | null {
  if (!input.tableFacts?.length) return null;
  const out: TableNumbers = { maxNodeDiskMiB: null, node: null, reads: null, writes: null, tombstonesP99: null, tombstonesMax: null };
  let seen = false;
  for (const n of input.tableFacts) {
    const t = n.tables.find((x) => x.keyspace === ks && x.table === table);
    if (!t) continue;
    seen = true;
    if (t.diskMiB !== null && t.diskMiB !== undefined && (out.maxNodeDiskMiB === null || t.diskMiB > out.maxNodeDiskMiB)) {
      out.maxNodeDiskMiB = t.diskMiB;
      out.node = n.node;
    }
    const r = t.localRead?.count;
    const w = t.localWrite?.count;
    if (r !== null && r !== undefined) out.reads = (out.reads ?? 0) + r;
    if (w !== null && w !== undefined) out.writes = (out.writes ?? 0) + w;
    const tp = t.tombstonesPerRead?.p99;
    const tm = t.tombstonesPerRead?.max;
    if (tp !== null && tp !== undefined) out.tombstonesP99 = Math.max(out.tombstonesP99 ?? 0, tp);
    if (tm !== null && tm !== undefined) out.tombstonesMax = Math.max(out.tombstonesMax ?? 0, tm);
  }
  return seen ? out : null;
}

const finding = (f: Omit<Finding, 'confidence'> & { confidence?: Finding['confidence'] }): Finding => ({ confidence: 'high', ...f });

function stcsLargeTables(input: SchemaRuleInput): KindRuleOutcome {
  const checks = 'SizeTieredCompactionStrategy on tables holding much data per node (needs table sizes from a snapshot)';
  const rule = 'schema.stcs-large-table';
  if (!input.tableFacts?.length)
    return skipped(rule, 'table sizes not known: give a snapshot bundle (or review a live cluster) to weigh STCS against data size', checks);
  const floorGiB = numberOf('compaction.stcs.large-table-floor');
  const freePct = numberOf('compaction.stcs.large-data');
  const findings: Finding[] = [];
  for (const t of input.schema.tables.filter((x) => userTable(x.keyspace))) {
    const cls = t.options.compaction?.class ?? null;
    // No compaction option means the server default: STCS on Cassandra (kb:compaction.strategy.default), ICS on
    // ScyllaDB from 2025.1 (kb:compaction.scylla.ics-default); an unknown ScyllaDB version is taken as recent.
    const scyllaIcsDefault = appliesTo(knowledge('compaction.scylla.ics-default'), 'scylla', input.version);
    const stcs = cls === null ? input.product !== 'scylla' || !scyllaIcsDefault : cls === 'SizeTieredCompactionStrategy';
    if (!stcs) continue;
    const nums = tableNumbers(input, t.keyspace, t.name);
    if (!nums || nums.maxNodeDiskMiB === null) continue;
    const gib = nums.maxNodeDiskMiB / 1024;
    if (gib < floorGiB) continue;
    const scylla = input.product === 'scylla';
    findings.push(
      finding({
        id: rule,
        severity: 'warning',
        title: `${fq(t)} uses STCS with ${fmtNum(gib)} GiB on one node`,
        evidence: [
          `compaction: ${cls ?? 'not set (server default SizeTieredCompactionStrategy)'} (schema)`,
          `largest per-node size ${fmtNum(gib)} GiB on ${nums.node} (snapshot disk usage) ≥ ${floorGiB} GiB floor`,
          `a large STCS merge can need free space equal to its inputs: up to ${freePct} % of the volume`,
        ],
        table: fq(t),
        recommendation: scylla
          ? 'Switch to IncrementalCompactionStrategy (same write profile, no 2× space need); LCS for read-heavy tables with few overwrites.'
          : 'Choose by workload: UCS on 5.0, LCS for read-heavy/update-heavy tables, TWCS for time series with TTL; keep half the disk free while it stays on STCS.',
        knowledgeIds: [
          'compaction.stcs.large-data',
          'compaction.stcs.large-table-floor',
          'compaction.strategy.default',
          scylla ? 'compaction.scylla.ics' : 'compaction.strategy.ucs',
        ],
      }),
    );
  }
  return outcome(rule, findings, checks);
}

function secondaryIndexes(input: SchemaRuleInput, ctx: RuleContext): KindRuleOutcome {
  const rule = 'schema.secondary-index';
  const checks = 'secondary indexes (legacy, SASI, SAI)';
  const findings: Finding[] = [];
  for (const ix of input.schema.indexes) {
    const using = ix.using ?? '';
    const label = `${ix.name ?? '(unnamed)'} on ${ix.keyspace}.${ix.table} (${ix.target})`;
    if (/StorageAttachedIndex|\bsai\b/i.test(using)) {
      findings.push(
        finding({
          id: 'schema.sai-index',
          severity: 'info',
          title: `SAI index ${label}`,
          evidence: [`USING '${using}' (schema)`],
          table: `${ix.keyspace}.${ix.table}`,
          recommendation:
            'Fine for filtering within or across partitions; queries without the partition key still visit many nodes — keep them off the hot path.',
          knowledgeIds: ['schema.sai'],
        }),
      );
    } else if (/SASIIndex/i.test(using)) {
      findings.push(
        finding({
          id: 'schema.sasi-index',
          severity: 'warning',
          title: `SASI index ${label} (experimental)`,
          evidence: [`USING '${using}' (schema)`],
          table: `${ix.keyspace}.${ix.table}`,
          recommendation: 'Plan a move to SAI (Cassandra 5.0) or a query table; ScyllaDB has no SASI.',
          knowledgeIds: ['schema.sasi.experimental'],
        }),
      );
    } else if (ix.custom) {
      findings.push(
        finding({
          id: 'schema.custom-index',
          severity: 'info',
          title: `custom index ${label}`,
          evidence: [`USING '${using}' (schema)`],
          table: `${ix.keyspace}.${ix.table}`,
          recommendation: 'Check the index implementation is supported on every version and product you run or migrate to.',
          knowledgeIds: ['schema.secondary-index.legacy'],
          confidence: 'medium',
        }),
      );
    } else if (input.product === 'scylla') {
      findings.push(
        finding({
          id: 'schema.secondary-index',
          severity: 'info',
          title: `global secondary index ${label}`,
          evidence: ['CREATE INDEX on ScyllaDB builds a global index (a hidden materialized view)'],
          table: `${ix.keyspace}.${ix.table}`,
          recommendation:
            'Each base write also updates the index view: watch write latency; use a local index (partition key in the target) when queries always give the partition.',
          knowledgeIds: ['schema.secondary-index.legacy'],
        }),
      );
    } else if (input.indexCardinality?.length) {
      findings.push(legacyIndexByCardinality(input, ctx, ix, label));
    } else {
      const table = input.schema.tables.find((t) => t.keyspace === ix.keyspace && t.name === ix.table);
      const col = table?.columns.find((c) => c.name === ix.target.replace(/^(?:keys|values|entries|full)\((.*)\)$/, '$1').replace(/"/g, ''));
      findings.push(
        finding({
          id: 'schema.secondary-index',
          severity: 'warning',
          title: `legacy secondary index ${label}`,
          evidence: [`CREATE INDEX without USING: node-local index (schema)${col ? `; indexed column type ${col.type}` : ''}`],
          table: `${ix.keyspace}.${ix.table}`,
          recommendation:
            'A query by this value without the partition key asks every node. Keep it only for low-cardinality values queried with the partition key; otherwise a query table keyed by the value, or SAI on 5.0.',
          knowledgeIds: ['schema.secondary-index.legacy', 'schema.sai'],
          confidence: 'medium',
        }),
      );
    }
  }
  return outcome(rule, findings, checks);
}

/**
 * A legacy index judged by what it holds (live cluster or bundle): its partitions are the distinct values on a node,
 * so beside the table's partitions they say whether the column is selective. The node with the highest ratio
 * (among those holding enough partitions to judge) speaks for the index.
 */
function legacyIndexByCardinality(input: SchemaRuleInput, ctx: RuleContext, ix: CqlSchema['indexes'][number], label: string): Finding {
  const floor = numberOf('schema.secondary-index.cardinality-floor');
  const rows = (input.indexCardinality ?? []).filter((c) => c.keyspace === ix.keyspace && c.table === ix.table && c.index === ix.name);
  const judged = rows.filter((c) => c.tablePartitions >= floor).sort((a, b) => b.indexPartitions / b.tablePartitions - a.indexPartitions / a.tablePartitions);
  const worst = judged[0];
  const ratio = worst ? worst.indexPartitions / worst.tablePartitions : null;
  const sev = grade(ctx, ratio, 'schema.secondary-index.high-cardinality');
  const evidence = [
    'CREATE INDEX without USING: node-local index (system_schema.indexes)',
    ...(worst
      ? [
          `${worst.node}: index ${ix.name} holds ${worst.indexPartitions} partitions (distinct values) beside ${worst.tablePartitions} of ${ix.keyspace}.${ix.table} ` +
            `— ratio ${fmtNum(ratio!, 3)} (nodetool tablestats, estimates)`,
        ]
      : rows.length
        ? [
            `${ix.keyspace}.${ix.table} holds fewer than ${floor} partitions on every node read (${rows.map((r) => `${r.node} ${r.tablePartitions}`).join(', ')}): too small to judge`,
          ]
        : ['index table not in nodetool tablestats: cardinality not measured']),
  ];
  if (sev)
    return finding({
      id: 'schema.secondary-index',
      severity: sev,
      title: `legacy secondary index ${label} on a high-cardinality column`,
      evidence,
      table: `${ix.keyspace}.${ix.table}`,
      node: worst!.node,
      recommendation:
        "Nearly every value points at its own row, and a query by value without the partition key asks every node's index to find it. " +
        'Keep a query table keyed by this value (written beside the base table), or SAI on 5.0; then DROP INDEX.',
      knowledgeIds: ['schema.secondary-index.high-cardinality', 'schema.secondary-index.legacy', 'schema.sai'],
    });
  // Measured below the threshold, or a table too small to judge: worth knowing, not a warning. Not measured: as from DESCRIBE.
  const measured = worst !== undefined || rows.length > 0;
  return finding({
    id: 'schema.secondary-index',
    severity: measured ? 'info' : 'warning',
    title: worst
      ? `legacy secondary index ${label}: ${worst.indexPartitions} distinct values for ${worst.tablePartitions} partitions on ${worst.node}`
      : `legacy secondary index ${label}`,
    evidence,
    table: `${ix.keyspace}.${ix.table}`,
    recommendation: 'A query by this value without the partition key still asks every node; keep it for low-cardinality values queried with the partition key.',
    knowledgeIds: ['schema.secondary-index.legacy', 'schema.secondary-index.high-cardinality'],
    confidence: measured ? 'high' : 'medium',
  });
}

/** LCS on a table that takes more writes than reads: the compaction I/O buys little. Counts since the nodes started. */
function lcsWriteHeavy(input: SchemaRuleInput, ctx: RuleContext): KindRuleOutcome {
  const rule = 'schema.lcs-write-heavy';
  const checks = 'LeveledCompactionStrategy on tables taking more writes than reads';
  if (!input.tableFacts?.length) return skipped(rule, 'read/write counts not known: give a snapshot bundle (or review a live cluster)', checks);
  const floor = numberOf('compaction.lcs.write-heavy-floor');
  const findings: Finding[] = [];
  for (const t of input.schema.tables.filter((x) => userTable(x.keyspace))) {
    const cls = t.options.compaction?.class ?? '';
    if (!/(?:^|\.)LeveledCompactionStrategy$/.test(cls)) continue;
    const nums = tableNumbers(input, t.keyspace, t.name);
    if (!nums || nums.reads === null || nums.writes === null || nums.writes < floor) continue;
    const ratio = nums.reads / nums.writes;
    const sev = grade(ctx, ratio, 'compaction.lcs.write-heavy');
    if (!sev) continue;
    findings.push(
      finding({
        id: rule,
        severity: sev,
        title: `${fq(t)} uses LeveledCompactionStrategy on a write-heavy table (${nums.writes} writes, ${nums.reads} reads since start)`,
        evidence: [
          `compaction ${cls} (schema)`,
          `local reads ${nums.reads}, local writes ${nums.writes} summed over the nodes since they started: ${fmtNum(ratio, 3)} reads per write (tablestats / virtual tables)`,
        ],
        table: fq(t),
        recommendation:
          'LCS rewrites every byte once per level for read benefit this table does not use. Switch it to STCS (or UCS on 5.0): ' +
          "ALTER TABLE … WITH compaction = {'class': 'SizeTieredCompactionStrategy'} — the switch recompacts the table, so do it off-peak with disk headroom.",
        knowledgeIds: ['compaction.lcs.write-heavy', 'compaction.lcs.fanout', 'compaction.strategy.switch-cost'],
      }),
    );
  }
  return outcome(rule, findings, checks);
}

function counters(input: SchemaRuleInput): KindRuleOutcome {
  const rule = 'schema.counter-mixed';
  const checks = 'counter tables mixing counter and regular columns (invalid), counters in tablets keyspaces';
  const findings: Finding[] = [];
  for (const t of input.schema.tables) {
    const regular = t.columns.filter((c) => c.kind === 'regular' || c.kind === 'static');
    const ctr = regular.filter((c) => c.type === 'counter');
    if (!ctr.length) continue;
    const other = regular.filter((c) => c.type !== 'counter');
    if (other.length) {
      findings.push(
        finding({
          id: rule,
          severity: 'critical',
          title: `${fq(t)} mixes counter and non-counter columns: invalid schema`,
          evidence: [
            `counter columns: ${ctr.map((c) => c.name).join(', ')}`,
            `non-counter columns: ${other.map((c) => `${c.name} ${c.type}`).join(', ')}`,
            'Cassandra and ScyllaDB reject this CREATE TABLE',
          ],
          table: fq(t),
          recommendation: 'This text cannot have come from a running cluster: split the counters into their own table with the same primary key.',
          knowledgeIds: ['schema.counter.mixed-columns'],
        }),
      );
    }
    const ks = input.schema.keyspaces.find((k) => k.name === t.keyspace);
    if (ks?.tablets?.enabled)
      findings.push(
        counterInTablets(
          t,
          ks,
          ctr.map((c) => c.name),
          input.version,
        ),
      );
  }
  return outcome(rule, findings, checks);
}

/**
 * Counters in a tablets keyspace: refused before ScyllaDB 2026.1 (kb:schema.counter.no-tablets), supported from
 * 2026.1 once every node runs it. Without a version the schema most likely came from a cluster that accepted it.
 */
function counterInTablets(t: SchemaTable, ks: SchemaKeyspace, counterCols: string[], version: string | undefined): Finding {
  const since = String(valueOf('schema.counter.no-tablets'));
  const known = version !== undefined && parseVersion(version) !== null;
  const refused = known && appliesTo(knowledge('schema.counter.no-tablets'), 'scylla', version);
  const evidence = [
    `keyspace ${ks.name}: tablets = {'enabled': true}`,
    `counter columns: ${counterCols.join(', ')}`,
    known ? `ScyllaDB ${version}` : 'server version not given',
  ];
  if (refused) {
    return finding({
      id: 'schema.counter-tablets',
      severity: 'critical',
      title: `${fq(t)} has counters in a tablets keyspace, which ScyllaDB ${version} refuses`,
      evidence,
      table: fq(t),
      recommendation:
        `Before ${since} CREATE TABLE fails ("Counters are not yet supported with tablets"): keep counter tables in a keyspace ` +
        `created with tablets disabled, or upgrade every node to ${since}+ first.`,
      knowledgeIds: ['schema.counter.no-tablets'],
    });
  }
  return finding({
    id: 'schema.counter-tablets',
    severity: 'info',
    title: `${fq(t)} has counters in a tablets keyspace (supported from ScyllaDB ${since})`,
    evidence,
    table: fq(t),
    recommendation: known
      ? `Supported on ${version} once every node runs ${since}+ (cluster feature COUNTERS_WITH_TABLETS); nothing to change.`
      : `Fine on ${since}+ with every node upgraded; an older release refuses this CREATE TABLE, so check the version if this is a plan.`,
    knowledgeIds: ['schema.counter.no-tablets'],
    confidence: known ? 'high' : 'medium',
  });
}

function views(input: SchemaRuleInput): KindRuleOutcome {
  const rule = 'schema.materialized-view';
  const findings = input.schema.views.map((v) =>
    finding({
      id: rule,
      severity: input.product === 'scylla' ? 'info' : 'warning',
      title: `materialized view ${v.keyspace}.${v.name} on ${v.baseKeyspace}.${v.baseTable}`,
      evidence: [`view key (${[v.partitionKey.join(', '), ...v.clustering.map((c) => c.name)].join(', ')}) (schema)`],
      table: `${v.baseKeyspace}.${v.baseTable}`,
      recommendation:
        input.product === 'scylla'
          ? 'Supported on ScyllaDB; every base write also writes the view, so watch base write latency.'
          : 'Experimental on Cassandra 4.0+ (disabled by default): views can silently diverge from the base. Prefer a second table written by the application; if kept, validate the view periodically.',
      knowledgeIds: ['schema.materialized-view.experimental'],
    }),
  );
  return outcome(rule, findings, 'materialized views');
}

function gcGrace(input: SchemaRuleInput, ctx: RuleContext): KindRuleOutcome {
  const rule = 'schema.gc-grace-zero';
  const findings: Finding[] = [];
  for (const t of input.schema.tables.filter((x) => userTable(x.keyspace))) {
    const g = t.options.gcGraceSeconds;
    if (g === null || grade(ctx, g, 'schema.gc-grace.zero') === null) continue;
    if (t.options.tombstoneGcMode === 'repair') continue; // ScyllaDB purges by repair state, not by the timer.
    const nums = tableNumbers(input, t.keyspace, t.name);
    const tomb = nums?.tombstonesMax ?? null;
    const deletesSeen = tomb !== null && tomb > 0;
    const ks = input.schema.keyspaces.find((k) => k.name === t.keyspace);
    const rfs = Object.values(ks?.replication ?? {});
    const maxRf = rfs.length ? maxOf(rfs) : null;
    findings.push(
      finding({
        id: rule,
        severity: deletesSeen && (maxRf === null || maxRf > 1) ? 'critical' : 'warning',
        title: `${fq(t)} has gc_grace_seconds = ${g}`,
        evidence: [
          `gc_grace_seconds ${g} (schema; default ${numberOf('datamodel.gc-grace-seconds.default')})`,
          t.options.defaultTtl ? `default_time_to_live ${t.options.defaultTtl} s` : 'no default TTL',
          tomb !== null
            ? `tombstones per read: max ${tomb}${nums?.tombstonesP99 !== null && nums?.tombstonesP99 !== undefined ? `, p99 ${nums.tombstonesP99}` : ''} (snapshot) — the table has deletes or expired cells`
            : 'deletes unknown (no per-table tombstone numbers)',
          maxRf !== null ? `replication factor up to ${maxRf}` : 'replication unknown',
        ],
        table: fq(t),
        recommendation:
          'Tombstones can be purged before every replica has them, so deleted data can come back, and no hints are kept for this table. Set gc_grace_seconds to at least your repair interval (default 10 days) unless the table is write-once with TTL only.',
        knowledgeIds: ['schema.gc-grace.zero', 'datamodel.gc-grace-seconds.default'],
        confidence: deletesSeen ? 'high' : 'medium',
      }),
    );
  }
  return outcome(rule, findings, 'gc_grace_seconds 0 (resurrection risk with deletes)');
}

function chunkLength(input: SchemaRuleInput, ctx: RuleContext): KindRuleOutcome {
  const rule = 'schema.chunk-length';
  const findings: Finding[] = [];
  const heavy = threshold('schema.read-heavy').warning!;
  for (const t of input.schema.tables.filter((x) => userTable(x.keyspace))) {
    const c = t.options.compression;
    if (!c || !c.enabled || c.chunkLengthKb === null) continue;
    const large = grade(ctx, c.chunkLengthKb, 'schema.compression.chunk-length.large');
    const small = grade(ctx, c.chunkLengthKb, 'schema.compression.chunk-length.small');
    if (!large && !small) continue;
    const nums = tableNumbers(input, t.keyspace, t.name);
    const ratio = nums && nums.reads !== null && nums.writes !== null ? (nums.writes > 0 ? nums.reads / nums.writes : nums.reads > 0 ? Infinity : null) : null;
    const readHeavy = ratio !== null && ratio >= heavy;
    const ev = [
      `compression ${c.class ?? '?'} chunk_length_in_kb ${c.chunkLengthKb} (schema)`,
      ratio === null
        ? 'read/write mix unknown (no per-table counts)'
        : `reads/writes ${Number.isFinite(ratio) ? fmtNum(ratio) : 'reads only'} (${nums!.reads} / ${nums!.writes}, snapshot)`,
    ];
    if (large) {
      findings.push(
        finding({
          id: 'schema.chunk-length-large',
          severity: readHeavy ? 'warning' : 'info',
          title: `${fq(t)} compresses in ${c.chunkLengthKb} KiB chunks${readHeavy ? ' on a read-heavy table' : ''}`,
          evidence: ev,
          table: fq(t),
          recommendation:
            "Each read decompresses a whole chunk: for small rows read at random use 16 KiB (or 4 KiB): ALTER TABLE … WITH compression = {…, 'chunk_length_in_kb': 16}, then nodetool upgradesstables -a.",
          knowledgeIds: [
            'schema.compression.chunk-length.large',
            'table.compression.chunk-length.default',
            'table.compression.chunk-length.default-pre-4.0',
            'schema.read-heavy',
          ],
          confidence: readHeavy ? 'high' : 'medium',
        }),
      );
    } else {
      findings.push(
        finding({
          id: 'schema.chunk-length-small',
          severity: 'info',
          title: `${fq(t)} compresses in ${c.chunkLengthKb} KiB chunks`,
          evidence: ev,
          table: fq(t),
          recommendation: 'Tiny chunks compress poorly and cost offset memory; 4–16 KiB is the usual range.',
          knowledgeIds: ['schema.compression.chunk-length.small'],
          confidence: 'medium',
        }),
      );
    }
  }
  return outcome(rule, findings, 'compression chunk length against the read/write mix');
}

function replication(input: SchemaRuleInput, ctx: RuleContext): KindRuleOutcome {
  const rule = 'schema.replication';
  const findings: Finding[] = [];
  const dcs = new Set(input.datacenters ?? []);
  for (const k of input.schema.keyspaces)
    for (const [dc] of Object.entries(k.replication)) if (k.strategy === 'NetworkTopologyStrategy' && dc !== 'replication_factor') dcs.add(dc);
  const relevant = (k: SchemaKeyspace) => userTable(k.name) || OPERATOR_SYSTEM_KEYSPACES.test(k.name);
  for (const k of input.schema.keyspaces.filter(relevant)) {
    if (k.strategy === 'SimpleStrategy') {
      const multi = dcs.size > 1;
      findings.push(
        finding({
          id: 'schema.simple-strategy',
          severity: multi ? 'critical' : 'info',
          title: `keyspace ${k.name} uses SimpleStrategy${multi ? ` in a ${dcs.size}-DC cluster` : ''}`,
          evidence: [
            `replication = SimpleStrategy, replication_factor ${k.replication['replication_factor'] ?? '?'} (schema)`,
            dcs.size ? `datacenters: ${[...dcs].sort().join(', ')}` : 'datacenters: one or unknown',
          ],
          recommendation: `ALTER KEYSPACE ${k.name} WITH replication = {'class': 'NetworkTopologyStrategy', '<dc>': 3, …}, then repair the keyspace.`,
          knowledgeIds: ['schema.replication.simple-strategy'],
          confidence: multi ? 'high' : 'medium',
        }),
      );
    }
    for (const [dc, rf] of Object.entries(k.replication)) {
      if (grade(ctx, rf, 'schema.replication.rf1') === null) continue;
      findings.push(
        finding({
          id: 'schema.rf-one',
          severity: 'warning',
          title: `keyspace ${k.name} keeps ${rf} replica${rf === 1 ? '' : 's'}${dc === 'replication_factor' ? '' : ` in ${dc}`}`,
          evidence: [`${dc}: ${rf} (schema, ${k.strategy ?? 'unknown strategy'})`],
          recommendation:
            'One node down makes this data unavailable and a lost disk loses it: RF 3 per DC for anything that matters (scratch/lab keyspaces excepted).',
          knowledgeIds: ['schema.replication.rf1'],
        }),
      );
    }
  }
  return outcome(rule, findings, 'replication strategy and factor per keyspace');
}

/** Every schema rule, in report order; thresholds from ctx (the pack's unless a diagnosis hands its policy's). */
export function schemaRules(input: SchemaRuleInput, ctx: RuleContext = PACK): KindRuleOutcome[] {
  return [stcsLargeTables, secondaryIndexes, lcsWriteHeavy, counters, views, gcGrace, chunkLength, replication].map((r) => {
    try {
      return r(input, ctx);
    } catch (e) {
      return skipped(r.name, `rule error: ${e instanceof Error ? e.message : String(e)}`, r.name);
    }
  });
}

/** The per-table options a review shows, one row per user table and view. */
export interface SchemaTableRow {
  table: string;
  kind: 'table' | 'view';
  compaction: string | null;
  chunkKb: number | null;
  compression: string | null;
  gcGraceSeconds: number | null;
  defaultTtl: number | null;
  caching: string | null;
  speculativeRetry: string | null;
  diskMiBMaxNode: number | null;
  tombstonesMax: number | null;
}

export function schemaTableRows(input: SchemaRuleInput): SchemaTableRow[] {
  const row = (t: Pick<SchemaTable, 'keyspace' | 'name' | 'options'>, kind: 'table' | 'view'): SchemaTableRow => {
    const o = t.options;
    const n = tableNumbers(input, t.keyspace, t.name);
    return {
      table: fq(t),
      kind,
      compaction: o.compaction?.class ?? null,
      chunkKb: o.compression?.chunkLengthKb ?? null,
      compression: o.compression ? (o.compression.enabled ? o.compression.class : 'disabled') : null,
      gcGraceSeconds: o.gcGraceSeconds,
      defaultTtl: o.defaultTtl,
      caching: o.caching ? `keys ${o.caching.keys ?? '?'}, rows ${o.caching.rowsPerPartition ?? '?'}` : null,
      speculativeRetry: o.speculativeRetry,
      diskMiBMaxNode: n?.maxNodeDiskMiB ?? null,
      tombstonesMax: n?.tombstonesMax ?? null,
    };
  };
  return [
    ...input.schema.tables.filter((t) => userTable(t.keyspace)).map((t) => row(t, 'table')),
    ...input.schema.views.filter((v) => userTable(v.keyspace)).map((v) => row(v, 'view')),
  ];
}

/** `interpret` on pasted DESCRIBE output: the schema alone (no sizes, product unknown). */
export const SCHEMA_KIND_RULES: KindRules = {
  run: (_kind, value) => schemaRules({ schema: value as CqlSchema }),
};
