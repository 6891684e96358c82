/**
 * PostgreSQL → CQL data-model review. PURE. From parsed DDL and the application's access patterns, proposes
 * one query table per pattern (partition key = equality columns, clustering = range/order columns, parent
 * columns copied in along foreign keys, a time bucket where a partition would grow without bound), maps the
 * types, and lists what CQL lacks (joins, foreign keys, UNIQUE, sequences, transactions) as checklist items.
 */
import { numberOf } from '../knowledge/index.js';
import type { PgColumn, PgSchema, PgTable } from '../parse/postgres-ddl.js';
import { parseCqlSchema } from '../parse/schema/index.js';
import { schemaRules } from '../rules/schema.js';
import { countersNeedVnodes, notChecked } from './common.js';
import { describePattern, patternName, type AccessPattern } from './postgres-patterns.js';
import type { ChecklistItem, CqlProposal, MigrationInput, ProposedColumn, ProposedTable } from './types.js';

// ---------------------------------------------------------------------------------------------------------
// Types

export interface TypeMapping {
  cql: string;
  /** Why the mapping is not exact, when it is not. */
  note: string | null;
}

const TIME_TYPES = new Set(['timestamp', 'date', 'timeuuid']);

/** PostgreSQL column type → CQL type (collections unfrozen; callers freeze them inside keys and UDTs). */
export function mapPgType(
  col: Pick<PgColumn, 'baseType' | 'typeArgs' | 'arrayDims' | 'generated'>,
  enums: Set<string> = new Set(),
  domains: Map<string, Pick<PgColumn, 'baseType' | 'typeArgs' | 'arrayDims'>> = new Map(),
): TypeMapping {
  const domain = domains.get(col.baseType.split('.').pop()!);
  if (domain) {
    const m = mapPgType({ ...domain, arrayDims: domain.arrayDims + col.arrayDims, generated: col.generated }, enums);
    return { cql: m.cql, note: `domain ${col.baseType} over ${domain.baseType}: its CHECK is not enforced${m.note ? `; ${m.note}` : ''}` };
  }
  const base = col.baseType.replace(/^pg_catalog\./, '');
  const short = base.includes('.') ? base.split('.').pop()! : base;
  let m: TypeMapping;
  switch (short) {
    case 'smallint':
    case 'int2':
      m = { cql: 'smallint', note: null };
      break;
    case 'integer':
    case 'int':
    case 'int4':
      m = { cql: 'int', note: null };
      break;
    case 'bigint':
    case 'int8':
      m = { cql: 'bigint', note: null };
      break;
    case 'numeric':
    case 'decimal':
      m =
        col.typeArgs.length === 1 || (col.typeArgs.length === 2 && col.typeArgs[1] === 0)
          ? { cql: 'varint', note: `${base}(${col.typeArgs.join(',')}) has no fraction: varint (precision not enforced)` }
          : { cql: 'decimal', note: col.typeArgs.length ? `precision/scale ${col.typeArgs.join(',')} not enforced by decimal` : null };
      break;
    case 'money':
      m = { cql: 'decimal', note: 'money → decimal (no currency formatting)' };
      break;
    case 'real':
    case 'float4':
      m = { cql: 'float', note: null };
      break;
    case 'double precision':
    case 'float8':
    case 'float':
      m = { cql: 'double', note: null };
      break;
    case 'text':
    case 'character varying':
    case 'varchar':
    case 'name':
      m = { cql: 'text', note: col.typeArgs.length ? `length limit ${col.typeArgs[0]} not enforced` : null };
      break;
    case 'character':
    case 'char':
    case 'bpchar':
      m = { cql: 'text', note: `char(${col.typeArgs[0] ?? 1}) → text: no blank padding, length not enforced` };
      break;
    case 'citext':
      m = { cql: 'text', note: 'citext → text: comparisons become case-sensitive; store a lower-cased copy to look up by' };
      break;
    case 'boolean':
    case 'bool':
      m = { cql: 'boolean', note: null };
      break;
    case 'timestamp with time zone':
    case 'timestamptz':
      m = { cql: 'timestamp', note: 'microseconds truncated to milliseconds; stored as UTC' };
      break;
    case 'timestamp without time zone':
    case 'timestamp':
      m = { cql: 'timestamp', note: 'no time zone in PostgreSQL: the application must write UTC; microseconds truncated to milliseconds' };
      break;
    case 'date':
      m = { cql: 'date', note: null };
      break;
    case 'time without time zone':
    case 'time':
      m = { cql: 'time', note: null };
      break;
    case 'time with time zone':
    case 'timetz':
      m = { cql: 'time', note: 'time zone offset dropped' };
      break;
    case 'interval':
      m = { cql: 'duration', note: 'duration cannot be part of a primary key' };
      break;
    case 'uuid':
      m = { cql: 'uuid', note: null };
      break;
    case 'json':
    case 'jsonb':
      m = { cql: 'text', note: `${short} → text: not queryable by key; use map<text, text> or a user-defined type when the keys are known` };
      break;
    case 'hstore':
      m = { cql: 'map<text, text>', note: null };
      break;
    case 'bytea':
      m = { cql: 'blob', note: null };
      break;
    case 'inet':
      m = { cql: 'inet', note: null };
      break;
    case 'cidr':
    case 'macaddr':
    case 'macaddr8':
      m = { cql: 'text', note: `${short} has no CQL type: text` };
      break;
    default:
      if (enums.has(short) || enums.has(base)) m = { cql: 'text', note: `enum ${short} → text: allowed values no longer enforced` };
      else m = { cql: 'text', note: `${base} has no CQL counterpart: text (check the application's encoding)` };
  }
  if (col.generated)
    m = {
      cql: m.cql,
      note: `${col.generated === 'identity' ? 'identity column' : col.generated === 'serial' ? 'serial' : 'nextval() default'}: no sequences in CQL — keep existing ids, generate uuid/timeuuid for new rows${m.note ? `; ${m.note}` : ''}`,
    };
  if (col.arrayDims > 0) {
    const inner = m.cql.startsWith('map<') || m.cql.startsWith('list<') ? `frozen<${m.cql}>` : m.cql;
    let cql = `list<${inner}>`;
    for (let d = 1; d < col.arrayDims; d++) cql = `list<frozen<${cql}>>`;
    m = { cql, note: `array → list (order kept; read whole)${m.note ? `; ${m.note}` : ''}` };
  }
  return m;
}

const freezeIfCollection = (t: string) => (/^(?:list|set|map)</.test(t) ? `frozen<${t}>` : t);

// ---------------------------------------------------------------------------------------------------------
// Names

const CQL_RESERVED = new Set([
  'add',
  'allow',
  'alter',
  'and',
  'apply',
  'asc',
  'authorize',
  'batch',
  'begin',
  'by',
  'columnfamily',
  'create',
  'delete',
  'desc',
  'describe',
  'drop',
  'entries',
  'execute',
  'from',
  'full',
  'grant',
  'if',
  'in',
  'index',
  'infinity',
  'insert',
  'into',
  'is',
  'keyspace',
  'limit',
  'materialized',
  'mbean',
  'mbeans',
  'modify',
  'nan',
  'norecursive',
  'not',
  'null',
  'of',
  'on',
  'or',
  'order',
  'primary',
  'rename',
  'replace',
  'revoke',
  'schema',
  'select',
  'set',
  'table',
  'to',
  'token',
  'truncate',
  'unlogged',
  'unset',
  'update',
  'use',
  'using',
  'view',
  'where',
  'with',
]);

/** A CQL identifier: bare when lower-case and not reserved, otherwise double-quoted. */
export function cqlIdent(name: string): string {
  return /^[a-z][a-z0-9_]*$/.test(name) && !CQL_RESERVED.has(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

const singular = (t: string) =>
  t.endsWith('ies') ? `${t.slice(0, -3)}y` : t.endsWith('ses') ? t.slice(0, -2) : t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t;

// ---------------------------------------------------------------------------------------------------------
// Helpers over the parsed DDL

function findTable(s: PgSchema, name: string): PgTable | undefined {
  const [schema, table] = name.includes('.') ? name.split('.') : [null, name];
  return s.tables.find((t) => t.name === table && (schema === null || t.schema === schema));
}

/** Foreign keys from child to parent, with the referenced columns resolved to the parent's primary key. */
function refCols(s: PgSchema, fk: { refTable: string; refColumns: string[] }): string[] {
  return fk.refColumns.length ? fk.refColumns : (findTable(s, fk.refTable)?.primaryKey ?? []);
}

const COUNTER_NAME = /(?:^|_)(?:count|counts|views?|view_count|hits|likes|clicks|votes|plays|downloads)$/;
const BALANCE_NAME = /(?:^|_)(?:stock|stock_quantity|quantity_on_hand|balance|inventory|credits?)$/;
const LOW_CARDINALITY = (c: PgColumn, enums: Set<string>) =>
  c.baseType === 'boolean' || enums.has(c.baseType.split('.').pop()!) || ((c.baseType === 'character' || c.baseType === 'bpchar') && (c.typeArgs[0] ?? 1) <= 3);

const PERIODS: { period: 'year' | 'month' | 'week' | 'day' | 'hour'; days: number }[] = [
  { period: 'year', days: 365 },
  { period: 'month', days: 31 },
  { period: 'week', days: 7 },
  { period: 'day', days: 1 },
  { period: 'hour', days: 1 / 24 },
];

// ---------------------------------------------------------------------------------------------------------
// One pattern → one table

interface PatternResult {
  table: ProposedTable | null;
  items: ChecklistItem[];
  types: { name: string; fields: { name: string; type: string }[] }[];
}

function proposeForPattern(s: PgSchema, p: AccessPattern, ks: string, enums: Set<string>, domains: Map<string, PgColumn>): PatternResult {
  const name = patternName(p);
  const line = describePattern(p);
  const items: ChecklistItem[] = [];
  const base = findTable(s, p.table);
  const blocked = (why: string[], action: string): PatternResult => ({
    table: null,
    items: [
      {
        id: 'model.query-table',
        area: 'model',
        subject: name,
        title: `Query table for "${line}"`,
        status: 'blocker',
        evidence: why,
        action,
        knowledgeIds: ['migration.postgres.query-first'],
      },
    ],
    types: [],
  });
  if (!base)
    return blocked(
      [`table ${p.table} is not in the DDL (tables: ${s.tables.map((t) => t.name).join(', ')})`],
      "Name a table from the DDL as the pattern's table.",
    );
  if (!p.where.length)
    return blocked(
      [`pattern "${line}" has no equality column, so no partition key: the query would scan every partition on every node`],
      'Give the column(s) the query always knows ("by <col>"); for a global listing, add a synthetic bucket column or serve it from an export/analytics path.',
    );

  // Parents the pattern joins: explicit ones, plus any parent holding a column the pattern names.
  const parents = new Map<string, { table: PgTable; via: string[]; refs: string[]; prefix: string }>();
  const children = new Map<string, { table: PgTable; via: string[] }>();
  const addJoin = (tname: string): string | null => {
    const t = findTable(s, tname);
    if (!t) return `joined table ${tname} is not in the DDL`;
    // Two keys to the same parent (winner_id, opponent_id → teams) are two copies, named by the key.
    const ups = base.foreignKeys.filter(
      (fk, i, all) => fk.refTable === t.name && all.findIndex((o) => o.refTable === t.name && o.columns.join() === fk.columns.join()) === i,
    );
    for (const up of ups) {
      const prefix = ups.length > 1 ? `${up.columns.join('_').replace(/_id$/, '')}_` : `${singular(t.name)}_`;
      parents.set(`${t.name}(${up.columns.join(',')})`, { table: t, via: up.columns, refs: refCols(s, up), prefix });
    }
    if (ups.length) return null;
    const down = t.foreignKeys.find((fk) => fk.refTable === base.name);
    if (down) {
      children.set(t.name, { table: t, via: down.columns });
      return null;
    }
    return `no foreign key links ${base.name} and ${t.name}`;
  };
  const problems: string[] = [];
  for (const j of p.join ?? []) {
    const err = addJoin(j);
    if (err) problems.push(err);
  }
  const named = [...p.where, ...(p.range ?? []), ...(p.orderBy ?? []).map((o) => o.col)];
  const resolve = (col: string): { table: PgTable; col: PgColumn } | null => {
    const own = base.columns.find((c) => c.name === col);
    if (own) return { table: base, col: own };
    for (const { table } of parents.values()) {
      const c = table.columns.find((x) => x.name === col);
      if (c) return { table, col: c };
    }
    return null;
  };
  for (const col of named) {
    if (resolve(col)) continue;
    // A column of a referenced table implies the join (order_items by user_id → orders.user_id).
    const fk = base.foreignKeys.find((f) => findTable(s, f.refTable)?.columns.some((c) => c.name === col));
    if (fk && !addJoin(fk.refTable) && resolve(col)) continue;
    problems.push(`column ${col} is in neither ${base.name} nor a table ${base.name} references`);
  }
  if (problems.length) return blocked(problems, 'Fix the pattern: name columns of the table, or join the table that holds them (with <table>).');

  // Keys.
  const columns: ProposedColumn[] = [];
  const has = (n: string) => columns.some((c) => c.name === n);
  const addCol = (n: string, type: string, kind: ProposedColumn['kind'], from: string) => {
    if (!has(n)) columns.push({ name: n, type: kind === 'regular' ? type : freezeIfCollection(type), kind, from });
  };
  const typeNotes = new Map<string, string>();
  const mapped = (t: PgTable, c: PgColumn) => {
    const m = mapPgType(c, enums, domains);
    if (m.note) typeNotes.set(`${t.name}.${c.name}`, m.note);
    return m.cql;
  };
  for (const w of p.where) {
    const r = resolve(w)!;
    addCol(w, mapped(r.table, r.col), 'partition_key', `${r.table.name}.${w}`);
  }
  const clustering: { name: string; order: 'ASC' | 'DESC' }[] = [];
  const orderOf = (col: string): 'ASC' | 'DESC' => (p.orderBy?.find((o) => o.col === col)?.desc ? 'DESC' : 'ASC');
  const addClustering = (col: string, t: PgTable, c: PgColumn) => {
    if (has(col)) return;
    addCol(col, mapped(t, c), 'clustering', `${t.name}.${col}`);
    clustering.push({ name: col, order: orderOf(col) });
  };
  for (const col of [...(p.range ?? []), ...(p.orderBy ?? []).map((o) => o.col)]) {
    const r = resolve(col)!;
    addClustering(col, r.table, r.col);
  }
  // The rest of the source primary key keeps rows unique inside the partition.
  const uniqueKeys = [base.primaryKey, ...base.uniques].filter((k) => k.length);
  const singleRow = uniqueKeys.some((k) => k.every((c) => p.where.includes(c)));
  if (!singleRow) {
    if (!base.primaryKey.length) problems.push(`${base.name} has no primary key: nothing makes a row unique inside the partition`);
    // Unless the key so far already covers a unique key (UNIQUE (series_id, day)).
    const keyed = new Set([...p.where, ...clustering.map((c) => c.name)]);
    if (!uniqueKeys.some((k) => k.every((c) => keyed.has(c))))
      for (const k of base.primaryKey)
        addClustering(
          k,
          base,
          base.columns.find((c) => c.name === k)!,
        );
  }
  if (problems.length) return blocked(problems, 'Add a unique column (an id) to the source table, or name one in the pattern.');

  // Time bucket for partitions that keep growing.
  const threshold = numberOf('migration.postgres.partition-values');
  const bytesCeiling = numberOf('datamodel.partition-size.target');
  const timeCol = clustering.map((c) => columns.find((x) => x.name === c.name)!).find((c) => TIME_TYPES.has(c.type));
  let bucket: ProposedTable['bucket'] = null;
  const sizeEvidence: string[] = [];
  let sizeStatus: ChecklistItem['status'] = 'ok';
  let sizeAction: string | undefined;

  // Regular columns: the source table's own, then copies from parents, then nested children.
  for (const c of base.columns) if (!has(c.name)) addCol(c.name, mapped(base, c), 'regular', `${base.name}.${c.name}`);
  const denormalized: ProposedTable['denormalized'] = [];
  const leftOut: string[] = [];
  for (const { table: parent, via, refs, prefix } of parents.values()) {
    const copied: string[] = [];
    for (const c of parent.columns) {
      if (refs.includes(c.name) || has(c.name)) continue;
      const m = mapPgType(c, enums, domains);
      if (m.cql === 'blob' || c.baseType === 'jsonb' || c.baseType === 'json' || c.arrayDims > 0 || COUNTER_NAME.test(c.name) || BALANCE_NAME.test(c.name)) {
        leftOut.push(`${parent.name}.${c.name}`);
        continue;
      }
      const n = c.name.startsWith(prefix) ? c.name : `${prefix}${c.name}`;
      if (has(n)) continue;
      addCol(n, mapped(parent, c), 'regular', `${parent.name}.${c.name}`);
      copied.push(c.name);
    }
    denormalized.push({ table: parent.name, how: 'copied columns', columns: copied.map((c) => `${c} (via ${via.join(', ')})`) });
  }
  const types: PatternResult['types'] = [];
  for (const { table: child, via } of children.values()) {
    const udt = singular(child.name);
    const fields = child.columns.filter((c) => !via.includes(c.name)).map((c) => ({ name: c.name, type: freezeIfCollection(mapped(child, c)) }));
    types.push({ name: udt, fields });
    addCol(child.name, `list<frozen<${cqlIdent(udt)}>>`, 'regular', `rows of ${child.name} (by ${via.join(', ')})`);
    denormalized.push({ table: child.name, how: 'nested list', columns: fields.map((f) => f.name) });
  }
  const valuesPerRow = columns.filter((c) => c.kind === 'regular').length;

  if (singleRow) {
    sizeEvidence.push(`partition key (${p.where.join(', ')}) covers a unique key of ${base.name}: one row per partition`);
  } else if (p.maxRowsPerKey !== undefined) {
    const values = p.maxRowsPerKey * valuesPerRow;
    sizeEvidence.push(
      `at most ${p.maxRowsPerKey} rows per ${p.where.join(', ')} (given) × ${valuesPerRow} values per row = ${values} values (Nv = Nr × (Nc − Npk − Ns))`,
      `design ceiling ${threshold} values and ${bytesCeiling} MB per partition`,
    );
    if (values > threshold) {
      sizeStatus = 'action';
      sizeAction = `Bounded but too wide: split the partition (add a bucket column to the partition key) so each holds under ${threshold} values.`;
    }
  } else if (timeCol) {
    const rate = p.rowsPerKeyPerDay;
    let period: (typeof PERIODS)[number] | undefined;
    if (rate !== undefined) {
      period = PERIODS.find((x) => rate * x.days * valuesPerRow <= threshold) ?? PERIODS[PERIODS.length - 1]!;
      const perBucket = Math.round(rate * period.days * valuesPerRow);
      sizeEvidence.push(
        `rows of one ${p.where.join(', ')} accumulate forever in one partition (clustered by ${timeCol.name})`,
        `~${rate} rows/day per key (given) × ${valuesPerRow} values per row: a ${period.period} bucket holds ~${perBucket} values; ceiling ${threshold} values, ${bytesCeiling} MB`,
      );
      if (perBucket > threshold) {
        sizeEvidence.push(`even an hour bucket exceeds the ceiling`);
      }
    } else {
      period = PERIODS[1]!;
      sizeEvidence.push(
        `rows of one ${p.where.join(', ')} accumulate forever in one partition (clustered by ${timeCol.name})`,
        `${notChecked('the growth rate', 'add "~N/day" rows per key per day for the most active key')}; a month bucket is assumed`,
        `ceiling ${threshold} values, ${bytesCeiling} MB per partition`,
      );
    }
    if (base.partitionBy) sizeEvidence.push(`PostgreSQL partitions ${base.name} by ${base.partitionBy}: the same period is a natural bucket`);
    const bcol = `${timeCol.name}_${period.period}`;
    bucket = { column: bcol, period: period.period, of: timeCol.name };
    const bIdx = columns.filter((c) => c.kind === 'partition_key').length;
    columns.splice(bIdx, 0, {
      name: bcol,
      type: period.period === 'hour' ? 'timestamp' : 'date',
      kind: 'partition_key',
      from: `start of the ${period.period} of ${timeCol.from}`,
    });
    sizeStatus = 'action';
    sizeAction = `Partition by (${[...p.where, bcol].join(', ')}): write ${bcol} = start of the ${period.period} of ${timeCol.name}; a "latest N" read walks back bucket by bucket until it has enough rows.`;
  } else {
    sizeStatus = 'action';
    sizeEvidence.push(
      `many rows per ${p.where.join(', ')} and no time column to bucket by`,
      notChecked('the rows per key', 'add "max N" when the count is bounded'),
      `ceiling ${threshold} values, ${bytesCeiling} MB per partition`,
    );
    sizeAction = 'Confirm how many rows one key can collect; if it is unbounded, add a bucket column (time or hash) to the partition key.';
  }

  // Hot partitions: a partition key with only a few possible values.
  const pkCols = p.where.map((w) => resolve(w)!);
  const lowCard = pkCols.filter((r) => LOW_CARDINALITY(r.col, enums));
  if (lowCard.length === pkCols.length) {
    items.push({
      id: 'model.hot-partition',
      area: 'model',
      subject: name,
      title: `Partition key of ${name} has few distinct values`,
      status: 'action',
      evidence: lowCard.map((r) => `${r.table.name}.${r.col.name} is ${r.col.type}: a handful of values, so a handful of partitions take all the load`),
      action: 'Add a high-cardinality column (or a bucket) to the partition key; a query "all pending orders" becomes one read per bucket.',
      knowledgeIds: ['migration.postgres.query-first', 'migration.postgres.time-bucket'],
    });
  }

  const partitionKey = columns.filter((c) => c.kind === 'partition_key').map((c) => c.name);
  const orderConflict = (p.range ?? []).length > 0 && (p.orderBy ?? []).some((o) => !(p.range ?? []).includes(o.col) && !p.where.includes(o.col));
  const directions = new Set((p.orderBy ?? []).map((o) => !!o.desc));
  const evidence = [
    `pattern: ${line}`,
    `partition key (${partitionKey.join(', ')})${clustering.length ? `, clustering ${clustering.map((c) => `${c.name} ${c.order}`).join(', ')}` : ''}`,
    `one partition per query; ${columns.length} columns`,
  ];
  if (p.frequency) evidence.push(`runs ${p.frequency} (given)`);
  if (orderConflict)
    evidence.push(
      `range on ${(p.range ?? []).join(', ')} but ordered by ${(p.orderBy ?? []).map((o) => o.col).join(', ')}: CQL returns rows in clustering order only`,
    );
  if (directions.size > 1) evidence.push('mixed ASC/DESC order: served only in this clustering order or its exact reverse');
  items.unshift({
    id: 'model.query-table',
    area: 'model',
    subject: name,
    title: `Query table ${name} for "${line}"`,
    status: orderConflict ? 'action' : 'ok',
    evidence,
    ...(orderConflict ? { action: 'Sort in the client, or make the ordering column the first clustering column and filter the range in the client.' } : {}),
    knowledgeIds: ['migration.postgres.query-first'],
  });
  items.push({
    id: 'model.partition-size',
    area: 'model',
    subject: name,
    title: `Partitions of ${name} stay bounded`,
    status: sizeStatus,
    evidence: sizeEvidence,
    ...(sizeAction ? { action: sizeAction } : {}),
    knowledgeIds: ['migration.postgres.partition-values', 'datamodel.partition-size.target', 'migration.postgres.time-bucket'],
  });
  if (denormalized.length) {
    items.push({
      id: 'model.denormalization',
      area: 'model',
      subject: name,
      title: `${name} copies data of ${denormalized.map((d) => d.table).join(', ')} (no joins in CQL)`,
      status: 'action',
      evidence: [
        ...denormalized.map((d) => `${d.table}: ${d.how} ${d.columns.join(', ') || '(none)'}`),
        ...(leftOut.length ? [`not copied (volatile or bulky — read from their own table): ${leftOut.join(', ')}`] : []),
        ...[...new Set([...parents.values()].map((x) => x.table.name))].map(
          (t) => `an update to a row of ${t} rewrites every ${name} row that copied it (write amplification)`,
        ),
        ...[...children.values()].map(({ table: t }) => `${t.name} rows nested as a frozen list: rewritten whole on every change; keep it short`),
      ],
      action:
        'Copy only columns that rarely change or whose value at write time is wanted (a price at order time); write the copies with the source row (logged batch if they must not diverge).',
      knowledgeIds: ['migration.postgres.no-joins', 'migration.postgres.batch-sync'],
    });
  }

  const cql = tableDdl(ks, name, line, columns, clustering);
  return {
    table: { name, pattern: line, sourceTable: base.name, partitionKey, clustering, columns, bucket, denormalized, cql },
    items: items.map((i) =>
      i.id === 'model.query-table' && typeNotes.size
        ? { ...i, evidence: [...i.evidence, `${typeNotes.size} column type(s) map with caveats (see model.type-mapping)`] }
        : i,
    ),
    types,
  };
}

function tableDdl(ks: string, name: string, comment: string, columns: ProposedColumn[], clustering: { name: string; order: 'ASC' | 'DESC' }[]): string {
  const pk = columns.filter((c) => c.kind === 'partition_key').map((c) => cqlIdent(c.name));
  const ck = clustering.map((c) => cqlIdent(c.name));
  const pkText = pk.length === 1 ? pk[0]! : `(${pk.join(', ')})`;
  const lines = columns.map((c) => `    ${cqlIdent(c.name)} ${c.type},`);
  lines.push(`    PRIMARY KEY (${[pkText, ...ck].join(', ')})`);
  const withs: string[] = [];
  if (clustering.length) withs.push(`CLUSTERING ORDER BY (${clustering.map((c) => `${cqlIdent(c.name)} ${c.order}`).join(', ')})`);
  withs.push(`comment = '${comment.replace(/'/g, "''")}'`);
  return `CREATE TABLE IF NOT EXISTS ${cqlIdent(ks)}.${cqlIdent(name)} (\n${lines.join('\n')}\n) WITH ${withs.join('\n    AND ')};`;
}

// ---------------------------------------------------------------------------------------------------------
// Whole review

/** Patterns when none were given: each table by its primary key (the "entity by id" lookup). */
function defaultPatterns(s: PgSchema): AccessPattern[] {
  return s.tables.filter((t) => t.primaryKey.length).map((t) => ({ table: t.name, where: [...t.primaryKey], name: t.name }));
}

export function postgresToCqlChecklist(input: MigrationInput): { path: string[]; items: ChecklistItem[]; proposal?: CqlProposal; warnings: string[] } {
  const to = input.to;
  const path = [`postgresql${input.from.version && input.from.version !== 'unknown' ? ` ${input.from.version}` : ''}`, `${to.product} ${to.version}`];
  const pg = input.postgres;
  if (!pg) {
    return {
      path,
      items: [
        {
          id: 'model.ddl',
          area: 'model',
          title: 'PostgreSQL schema read',
          status: 'blocker',
          evidence: [notChecked('the PostgreSQL DDL', 'give pg_dump --schema-only output as ddlText/ddlFile')],
          action: 'Run pg_dump --schema-only (no data) and pass the file.',
          knowledgeIds: ['migration.postgres.query-first'],
        },
      ],
      warnings: ['no PostgreSQL DDL: nothing to review'],
    };
  }
  const s = pg.schema;
  const warnings: string[] = [];
  const enums = new Set(s.enums.map((e) => e.name));
  const domains = new Map(
    (s.domains ?? []).map((d) => [
      d.name,
      {
        name: d.name,
        type: d.type,
        baseType: d.baseType,
        typeArgs: d.typeArgs,
        arrayDims: d.arrayDims,
        notNull: false,
        default: null,
        generated: null,
        computed: null,
      } satisfies PgColumn,
    ]),
  );
  const ks = (pg.keyspace ?? s.tables.find((t) => t.schema && t.schema !== 'public')?.schema ?? 'app').toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const given = pg.patterns.length > 0;
  const patterns = given ? pg.patterns : defaultPatterns(s);
  if (!given) warnings.push('no access patterns: one lookup table per PostgreSQL table by its primary key — give the real queries for a query-first design');

  const items: ChecklistItem[] = [];
  const tables: ProposedTable[] = [];
  const types = new Map<string, { name: string; fields: { name: string; type: string }[] }>();
  const usedNames = new Set<string>();
  for (const p of patterns) {
    let pat = p;
    let n = patternName(p);
    for (let k = 2; usedNames.has(n); k++) n = `${patternName(p)}_${k}`;
    if (n !== patternName(p)) pat = { ...p, name: n };
    usedNames.add(n);
    const r = proposeForPattern(s, pat, ks, enums, domains);
    items.push(...r.items);
    if (r.table) tables.push(r.table);
    for (const t of r.types) types.set(t.name, t);
  }

  // Type mapping, once over every source column the proposals use.
  const notes: string[] = [];
  const usedSources = new Set(tables.flatMap((t) => t.columns.map((c) => c.from)));
  for (const t of s.tables) {
    for (const c of t.columns) {
      const m = mapPgType(c, enums, domains);
      if (m.note && (usedSources.has(`${t.name}.${c.name}`) || !given)) notes.push(`${t.name}.${c.name} ${c.type} → ${m.cql}: ${m.note}`);
    }
  }
  items.push({
    id: 'model.type-mapping',
    area: 'model',
    title: 'Column types map to CQL without loss',
    status: notes.length ? 'action' : 'ok',
    evidence: notes.length ? notes : ['every column maps to a CQL type exactly'],
    ...(notes.length ? { action: 'Confirm each caveat with the application owners (precision, time zones, enforcement moved to the application).' } : {}),
    knowledgeIds: ['migration.postgres.types'],
  });

  // Sequences / identity.
  const seqCols = s.tables.flatMap((t) =>
    t.columns
      .filter((c) => c.generated)
      .map((c) => `${t.name}.${c.name} (${c.generated === 'identity' ? 'identity' : c.generated === 'serial' ? 'serial' : `default ${c.default}`})`),
  );
  items.push({
    id: 'model.ids',
    area: 'model',
    title: 'Ids generated by sequences have a replacement',
    status: seqCols.length ? 'action' : 'ok',
    evidence: seqCols.length
      ? [...seqCols, ...(s.sequences.length ? [`${s.sequences.length} CREATE SEQUENCE statement(s)`] : [])]
      : ['no serial, identity or nextval() column'],
    ...(seqCols.length
      ? {
          action:
            'Keep existing ids (bigint) for migrated rows; generate uuid/timeuuid for new rows in the application. A central id counter would need a lightweight transaction per insert.',
        }
      : {}),
    knowledgeIds: ['migration.postgres.ids', 'migration.postgres.lwt-cost'],
  });

  // Constraints: foreign keys, UNIQUE beyond the PK, CHECK, cascades.
  const lwt = numberOf('migration.postgres.lwt-cost');
  // Cassandra's default Paxos v1 takes 4 round trips; ScyllaDB folds the read into the prepare (kb:migration.postgres.lwt-cost).
  const lwtTrips =
    to.product === 'scylla' ? `${lwt - 1} round trips (the read rides on the prepare)` : `${lwt} round trips (Paxos v1, the default; v2 saves one)`;
  const fks = s.tables.flatMap((t) =>
    t.foreignKeys.map((f) => `${t.name}(${f.columns.join(', ')}) → ${f.refTable}${f.onDelete ? ` ON DELETE ${f.onDelete}` : ''}`),
  );
  const uniques = s.tables.flatMap((t) => t.uniques.map((u) => `UNIQUE ${t.name}(${u.join(', ')})`));
  const uniqueIdx = s.indexes
    .filter((i) => i.unique)
    .map((i) => `UNIQUE INDEX ${i.name ?? '?'} on ${i.table}(${[...i.columns.map((c) => c.name), ...i.expressions].join(', ')})`);
  const checks = s.tables.flatMap((t) => t.checks.map((c) => `CHECK on ${t.name}: ${c}`));
  const cons = [...fks.map((f) => `FOREIGN KEY ${f}`), ...uniques, ...uniqueIdx, ...checks];
  items.push({
    id: 'model.constraints',
    area: 'model',
    title: 'Relational constraints have an owner after the move',
    status: cons.length ? 'action' : 'ok',
    evidence: cons.length
      ? [...cons, `CQL enforces none of these; an INSERT on an existing key overwrites; a lightweight transaction costs ${lwtTrips} instead of one`]
      : ['no foreign key, UNIQUE or CHECK constraint'],
    ...(cons.length
      ? {
          action:
            'Per constraint: validate in the application, or (for UNIQUE) claim the value in a lookup table keyed by it with INSERT … IF NOT EXISTS; turn ON DELETE CASCADE into deletes from every query table.',
        }
      : {}),
    knowledgeIds: ['migration.postgres.no-constraints', 'migration.postgres.lwt-cost'],
  });

  // Transactions: one source row written to several query tables.
  const bySource = new Map<string, string[]>();
  for (const t of tables) bySource.set(t.sourceTable, [...(bySource.get(t.sourceTable) ?? []), t.name]);
  const multi = [...bySource.entries()].filter(([, v]) => v.length > 1);
  const copies = tables.filter((t) => t.denormalized.length);
  items.push({
    id: 'model.transactions',
    area: 'model',
    title: 'Multi-table writes without transactions',
    status: multi.length || copies.length ? 'action' : 'ok',
    evidence:
      multi.length || copies.length
        ? [
            ...multi.map(([src, v]) => `a write to ${src} becomes writes to ${v.length} tables: ${v.join(', ')}`),
            ...copies.map((t) => `${t.name} holds copies of ${t.denormalized.map((d) => d.table).join(', ')}`),
            'no isolation across partitions or tables: readers can see one table updated before another',
          ]
        : ['each source table feeds one query table and nothing is copied'],
    ...(multi.length || copies.length
      ? {
          action:
            'Write the tables of one source row in a logged batch when they must not diverge (atomic eventually, not isolated); otherwise plain async writes with retries, and a periodic consistency check.',
        }
      : {}),
    knowledgeIds: ['migration.postgres.batch-sync', 'migration.postgres.no-joins'],
  });

  // Secondary-index temptation: PostgreSQL indexes that no query table serves.
  const served = (table: string, col: string) => tables.some((t) => t.sourceTable === table && t.partitionKey[0] === col);
  const idxLines: string[] = [];
  for (const i of s.indexes) {
    const label = `${i.name ?? '(unnamed)'} on ${i.table}(${[...i.columns.map((c) => `${c.name}${c.desc ? ' DESC' : ''}`), ...i.expressions].join(', ')})${i.method && i.method !== 'btree' ? ` USING ${i.method}` : ''}${i.where ? ` WHERE ${i.where}` : ''}`;
    if (i.expressions.length) idxLines.push(`${label}: expression index — no CQL equivalent; store the computed value in its own column of a query table`);
    else if (i.where) idxLines.push(`${label}: partial index — no CQL equivalent; a query table holding only the matching rows`);
    else if (i.method && ['gin', 'gist', 'brin', 'spgist'].includes(i.method))
      idxLines.push(
        `${label}: ${i.method} index — no CQL equivalent (${i.method === 'brin' ? 'time ranges become clustering ranges' : 'containment/search needs a query table per value, or SAI/an external search index'})`,
      );
    else if (i.columns[0] && !served(i.table, i.columns[0].name))
      idxLines.push(
        `${label}: no query table is partitioned by ${i.columns[0].name} — a CREATE INDEX here would be ${to.product === 'scylla' ? 'a global index (a hidden materialized view written on every base write)' : 'node-local and fan out to every node'}`,
      );
  }
  items.push({
    id: 'model.secondary-index',
    area: 'model',
    title: 'PostgreSQL indexes become query tables, not secondary indexes',
    status: idxLines.length ? 'action' : 'ok',
    evidence: idxLines.length
      ? idxLines
      : [s.indexes.length ? `each of ${s.indexes.length} index(es) leads with a column some query table is partitioned by` : 'no CREATE INDEX in the DDL'],
    ...(idxLines.length
      ? {
          action:
            'For each index a query really needs, add an access pattern (a query table keyed by the indexed column) instead of CREATE INDEX; keep CQL indexes for low-cardinality filters within a known partition.',
        }
      : {}),
    knowledgeIds: ['schema.secondary-index.legacy', 'schema.sai', 'migration.postgres.query-first'],
  });

  // Counters and balances.
  const counterCols = s.tables.flatMap((t) =>
    t.columns
      .filter((c) => !t.primaryKey.includes(c.name) && /^(?:smallint|integer|int|int4|int8|bigint)$/.test(c.baseType) && COUNTER_NAME.test(c.name))
      .map((c) => `${t.name}.${c.name} ${c.type}${c.default ? ` DEFAULT ${c.default}` : ''}: incremented tally → counter column in its own table`),
  );
  const balanceCols = s.tables.flatMap((t) =>
    t.columns
      .filter((c) => !t.primaryKey.includes(c.name) && /^(?:smallint|integer|int|int4|int8|bigint|numeric)$/.test(c.baseType) && BALANCE_NAME.test(c.name))
      .map((c) => `${t.name}.${c.name} ${c.type}: exact balance (must not go negative) → regular column updated with a lightweight transaction, not a counter`),
  );
  const counterKb = ['migration.postgres.counters', 'schema.counter.mixed-columns', 'migration.postgres.lwt-cost'];
  // Before ScyllaDB 2026.1 counters are refused in tablets keyspaces (kb:schema.counter.no-tablets).
  const countersOffTablets = to.product === 'scylla' && countersNeedVnodes(to.version);
  if (to.product === 'scylla') counterKb.push('schema.counter.no-tablets');
  items.push({
    id: 'model.counters',
    area: 'model',
    title: 'Incremented columns: counters or lightweight transactions',
    status: counterCols.length || balanceCols.length ? 'action' : 'ok',
    evidence:
      counterCols.length || balanceCols.length
        ? [...counterCols, ...balanceCols, 'found by column name (a heuristic): confirm how the application updates them']
        : ['no column looks like an incremented tally or balance (by name)'],
    ...(counterCols.length || balanceCols.length
      ? {
          action: `Move tallies to counter tables (primary key + counters only; not idempotent, no TTL)${countersOffTablets ? ', in a keyspace without tablets' : ''}; keep exact balances as regular columns changed with UPDATE … IF.`,
        }
      : {}),
    knowledgeIds: counterKb,
  });

  // Coverage: source tables no pattern reads.
  const uncovered = s.tables.filter(
    (t) => !patterns.some((p) => findTable(s, p.table)?.name === t.name) && !tables.some((x) => x.denormalized.some((d) => d.table === t.name)),
  );
  items.push({
    id: 'model.coverage',
    area: 'model',
    title: 'Every PostgreSQL table is read by some access pattern',
    status: uncovered.length || !given ? 'action' : 'ok',
    evidence: [
      ...(given
        ? [`${patterns.length} access pattern(s) given`]
        : [notChecked('access patterns', 'give them as "orders by user_id order by created_at desc"')]),
      ...uncovered.map((t) => `${t.name}: no access pattern reads it${t.primaryKey.length ? '' : ' and it has no primary key'}`),
    ],
    ...(uncovered.length || !given
      ? { action: 'List every query the application runs (the WHERE and ORDER BY of each); a table no query reads may not need to move.' }
      : {}),
    knowledgeIds: ['migration.postgres.query-first'],
  });

  // The DDL itself, read back by the CQL parser and checked by the schema rules.
  const udtList = [...types.values()];
  const ddl = [
    `CREATE KEYSPACE IF NOT EXISTS ${cqlIdent(ks)} WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};`,
    ...udtList.map(
      (t) => `CREATE TYPE IF NOT EXISTS ${cqlIdent(ks)}.${cqlIdent(t.name)} (\n${t.fields.map((f) => `    ${cqlIdent(f.name)} ${f.type}`).join(',\n')}\n);`,
    ),
    ...tables.map((t) => t.cql),
  ].join('\n\n');
  const check = parseCqlSchema(ddl);
  const ruleFindings = check.ok
    ? schemaRules({ schema: check.value, product: to.product === 'scylla' ? 'scylla' : 'cassandra' })
        .flatMap((o) => o.findings)
        .filter((f) => f.severity !== 'info')
    : [];
  items.push({
    id: 'model.ddl',
    area: 'model',
    title: 'Proposed CQL DDL parses and passes the schema rules',
    status: !check.ok ? 'blocker' : ruleFindings.length ? 'action' : tables.length ? 'ok' : 'action',
    evidence: !check.ok
      ? [`the CQL parser refused the proposal: ${check.reason}`]
      : [
          `${check.value.tables.length} table(s), ${check.value.types.length} type(s) read back by the CQL schema parser`,
          ...(ruleFindings.length ? ruleFindings.map((f) => `${f.id}: ${f.title}`) : ['schema rules: no warning']),
          "keyspace replication uses a placeholder datacenter 'dc1': put your datacenter names and RF",
        ],
    ...(tables.length
      ? { action: "Review the proposal, replace 'dc1', then create it with cqlsh; choose compaction per table (TWCS for TTL'd time series)." }
      : { action: 'No table could be proposed: fix the blocked patterns.' }),
    knowledgeIds: ['migration.postgres.query-first'],
  });
  items.push({
    id: 'procedure.backfill',
    area: 'procedure',
    title: 'Load each query table from PostgreSQL, then switch reads',
    status: 'action',
    evidence: [`${tables.length} query table(s) to fill from ${new Set(tables.map((t) => t.sourceTable)).size} source table(s)`],
    action:
      'Dual-write new changes to PostgreSQL and the CQL tables, backfill history per query table (one SELECT … JOIN per pattern), compare counts and samples, then move reads pattern by pattern.',
    knowledgeIds: ['migration.postgres.query-first', 'migration.postgres.no-joins'],
    step: 1,
  });
  return { path, items, proposal: { keyspace: ks, tables, types: udtList, ddl }, warnings };
}
