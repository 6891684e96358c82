/**
 * Parser for CQL DESCRIBE output (cqlsh DESCRIBE SCHEMA / KEYSPACE / TABLE, or server-side DESCRIBE on 4.0+
 * and ScyllaDB): CREATE KEYSPACE / TABLE / INDEX / MATERIALIZED VIEW / TYPE with their WITH options. Other
 * statements are listed, not interpreted. Total: garbage or no CREATE statement → ok:false with a reason.
 */
import { parsedOk, total, unrecognized, type Parsed } from '../../parsed.js';
import { TokenCursor as Cursor } from '../ddl-tokens.js';
import { tokenizeStatements, type Token } from './tokens.js';
import type { CqlSchema, CqlValue, SchemaColumn, SchemaIndex, SchemaKeyspace, SchemaOptions, SchemaTable, SchemaType, SchemaView } from './types.js';

export const CQL_SCHEMA_KIND = 'cql.schema';

/** Cheap detection: a CREATE statement of a kind we read, at the start of a line. */
export const cqlSchemaSignature = /^[ \t]*CREATE\s+(?:KEYSPACE|TABLE|TYPE|(?:CUSTOM\s+)?INDEX|MATERIALIZED\s+VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?["A-Za-z_]/im;

const name = (tok: Token) => (tok.type === 'qident' ? tok.text : tok.text.toLowerCase());

/** ks.name or name (with the current USE keyspace). */
function qualifiedName(c: Cursor, currentKs: string | null): { keyspace: string; name: string } {
  const first = c.next();
  if (first.type !== 'ident' && first.type !== 'qident') throw new SyntaxError(`expected a name, found ${first.text}`);
  if (c.eat('.')) return { keyspace: name(first), name: name(c.next()) };
  if (!currentKs) throw new SyntaxError(`${first.text} has no keyspace and no USE statement precedes it`);
  return { keyspace: currentKs, name: name(first) };
}

function ifNotExists(c: Cursor): void {
  if (c.is('IF') && c.is('NOT', 1) && c.is('EXISTS', 2)) c.i += 3;
}

function value(c: Cursor): CqlValue {
  const tok = c.next();
  if (tok.type === 'string') return tok.text;
  if (tok.type === 'number') return Number(tok.text);
  if (tok.type === 'punct' && tok.text === '-') {
    const n = c.next();
    return -Number(n.text);
  }
  if (tok.type === 'punct' && tok.text === '{') {
    const out: Record<string, CqlValue> = {};
    while (!c.eat('}')) {
      const k = value(c);
      c.expect(':');
      out[typeof k === 'string' ? k : JSON.stringify(k)] = value(c);
      c.eat(',');
      if (c.done()) throw new SyntaxError('unterminated map');
    }
    return out;
  }
  if (tok.type === 'punct' && (tok.text === '[' || tok.text === '(')) {
    const close = tok.text === '[' ? ']' : ')';
    const out: CqlValue[] = [];
    while (!c.eat(close)) {
      out.push(value(c));
      c.eat(',');
      if (c.done()) throw new SyntaxError('unterminated list');
    }
    return out;
  }
  const up = tok.text.toUpperCase();
  if (up === 'TRUE') return true;
  if (up === 'FALSE') return false;
  if (up === 'NULL') return null;
  // Bare words: uuids, NaN/Infinity, identifiers.
  return tok.text;
}

/** A CQL type as text, up to a "," or ")" at depth 0 or a column keyword. */
function typeText(c: Cursor, stopWords: string[]): string {
  let depth = 0;
  const parts: string[] = [];
  while (!c.done()) {
    const tok = c.peek()!;
    if (depth === 0 && tok.type === 'punct' && (tok.text === ',' || tok.text === ')')) break;
    if (depth === 0 && tok.type === 'ident' && stopWords.includes(tok.text.toUpperCase())) break;
    if (tok.text === '<') depth++;
    if (tok.text === '>') depth--;
    parts.push(tok.type === 'qident' ? `"${tok.text}"` : tok.type === 'ident' ? tok.text.toLowerCase() : tok.text);
    c.i++;
  }
  return parts.join('').replace(/,/g, ', ');
}

function shortClass(cls: string): string {
  return cls.slice(cls.lastIndexOf('.') + 1);
}

const str = (v: CqlValue | undefined): string | null => (v === undefined || v === null ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));
const num = (v: CqlValue | undefined): number | null => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const asMap = (v: CqlValue | undefined): Record<string, CqlValue> | null => (v && typeof v === 'object' && !Array.isArray(v) ? v : null);

function interpretOptions(raw: Record<string, CqlValue>, compactStorage: boolean): SchemaOptions {
  const comp = asMap(raw['compaction']);
  const compr = asMap(raw['compression']);
  const caching = asMap(raw['caching']);
  const tgc = asMap(raw['tombstone_gc']);
  let compression: SchemaOptions['compression'] = null;
  if (compr) {
    const cls = str(compr['class'] ?? compr['sstable_compression']);
    const enabled = str(compr['enabled']) !== 'false' && cls !== '' && !(cls === null && Object.keys(compr).length === 0);
    // 3.0+ writes chunk_length_in_kb; 2.x wrote chunk_length_kb.
    compression = { class: cls ? shortClass(cls) : null, enabled, chunkLengthKb: num(compr['chunk_length_in_kb'] ?? compr['chunk_length_kb']) };
  }
  return {
    raw,
    compaction:
      comp && str(comp['class'])
        ? {
            class: shortClass(str(comp['class'])!),
            options: Object.fromEntries(
              Object.entries(comp)
                .filter(([k]) => k !== 'class')
                .map(([k, v]) => [k, str(v) ?? '']),
            ),
          }
        : null,
    compression,
    gcGraceSeconds: num(raw['gc_grace_seconds']),
    defaultTtl: num(raw['default_time_to_live']),
    caching: caching ? { keys: str(caching['keys']), rowsPerPartition: str(caching['rows_per_partition']) } : null,
    speculativeRetry: str(raw['speculative_retry']),
    tombstoneGcMode: tgc ? str(tgc['mode']) : null,
    compactStorage,
  };
}

/** WITH a = v AND CLUSTERING ORDER BY (c DESC) AND COMPACT STORAGE AND … */
function withOptions(c: Cursor): { raw: Record<string, CqlValue>; clusteringOrder: Record<string, 'ASC' | 'DESC'>; compactStorage: boolean } {
  const raw: Record<string, CqlValue> = {};
  const clusteringOrder: Record<string, 'ASC' | 'DESC'> = {};
  let compactStorage = false;
  if (!c.eat('WITH')) return { raw, clusteringOrder, compactStorage };
  do {
    if (c.is('CLUSTERING') && c.is('ORDER', 1)) {
      c.i += 2;
      c.expect('BY');
      c.expect('(');
      while (!c.eat(')')) {
        const col = name(c.next());
        const dir = c.eat('DESC') ? 'DESC' : (c.eat('ASC'), 'ASC');
        clusteringOrder[col] = dir;
        c.eat(',');
        if (c.done()) throw new SyntaxError('unterminated CLUSTERING ORDER BY');
      }
    } else if (c.is('COMPACT') && c.is('STORAGE', 1)) {
      c.i += 2;
      compactStorage = true;
    } else {
      const key = name(c.next()).toLowerCase();
      c.expect('=');
      raw[key] = value(c);
    }
  } while (c.eat('AND'));
  return { raw, clusteringOrder, compactStorage };
}

function primaryKey(c: Cursor): { partition: string[]; clustering: string[] } {
  c.expect('(');
  const partition: string[] = [];
  if (c.eat('(')) {
    while (!c.eat(')')) {
      partition.push(name(c.next()));
      c.eat(',');
      if (c.done()) throw new SyntaxError('unterminated partition key');
    }
  } else {
    partition.push(name(c.next()));
  }
  const clustering: string[] = [];
  while (c.eat(',')) clustering.push(name(c.next()));
  c.expect(')');
  return { partition, clustering };
}

function createKeyspace(c: Cursor): SchemaKeyspace {
  ifNotExists(c);
  const ks = name(c.next());
  const { raw } = withOptions(c);
  const rep = asMap(raw['replication']) ?? {};
  const replication: Record<string, number> = {};
  for (const [k, v] of Object.entries(rep)) {
    if (k === 'class') continue;
    const n = num(v);
    if (n !== null) replication[k] = n;
  }
  const tablets = asMap(raw['tablets']);
  const durable = raw['durable_writes'];
  return {
    name: ks,
    strategy: str(rep['class']) ? shortClass(str(rep['class'])!) : null,
    replication,
    durableWrites: typeof durable === 'boolean' ? durable : null,
    tablets: tablets
      ? { enabled: tablets['enabled'] === undefined ? null : tablets['enabled'] === true || tablets['enabled'] === 'true', initial: num(tablets['initial']) }
      : null,
  };
}

function createTable(c: Cursor, currentKs: string | null): SchemaTable {
  ifNotExists(c);
  const { keyspace, name: table } = qualifiedName(c, currentKs);
  c.expect('(');
  const cols: { name: string; type: string; isStatic: boolean; inlinePk: boolean }[] = [];
  let pk: { partition: string[]; clustering: string[] } | null = null;
  while (!c.eat(')')) {
    if (c.is('PRIMARY') && c.is('KEY', 1)) {
      c.i += 2;
      pk = primaryKey(c);
    } else {
      const col = name(c.next());
      const type = typeText(c, ['STATIC', 'PRIMARY', 'MASKED']);
      let isStatic = false;
      let inlinePk = false;
      let depth = 0;
      while (!c.done() && (depth > 0 || (!c.is(',') && !c.is(')')))) {
        if (depth === 0 && c.eat('STATIC')) isStatic = true;
        else if (depth === 0 && c.is('PRIMARY') && c.is('KEY', 1)) {
          c.i += 2;
          inlinePk = true;
        } else {
          // MASKED WITH mask_inner(1, null) … (5.0 dynamic data masking): skipped, parentheses balanced.
          if (c.is('(')) depth++;
          if (c.is(')')) depth--;
          c.i++;
        }
      }
      cols.push({ name: col, type, isStatic, inlinePk });
    }
    c.eat(',');
    if (c.done()) throw new SyntaxError(`unterminated column list of ${keyspace}.${table}`);
  }
  if (!pk) {
    const inline = cols.find((x) => x.inlinePk);
    if (!inline) throw new SyntaxError(`${keyspace}.${table} has no PRIMARY KEY`);
    pk = { partition: [inline.name], clustering: [] };
  }
  const { raw, clusteringOrder, compactStorage } = withOptions(c);
  const columns: SchemaColumn[] = cols.map((x) => ({
    name: x.name,
    type: x.type,
    kind: pk.partition.includes(x.name) ? 'partition_key' : pk.clustering.includes(x.name) ? 'clustering' : x.isStatic ? 'static' : 'regular',
  }));
  return {
    keyspace,
    name: table,
    columns,
    partitionKey: pk.partition,
    clustering: pk.clustering.map((n) => ({ name: n, order: clusteringOrder[n] ?? 'ASC' })),
    options: interpretOptions(raw, compactStorage),
  };
}

function createIndex(c: Cursor, currentKs: string | null, custom: boolean): SchemaIndex {
  ifNotExists(c);
  let idxName: string | null = null;
  if (!c.is('ON')) idxName = name(c.next());
  c.expect('ON');
  const { keyspace, name: table } = qualifiedName(c, currentKs);
  c.expect('(');
  const parts: string[] = [];
  let depth = 1;
  while (depth > 0) {
    const tok = c.next();
    if (tok.text === '(') depth++;
    if (tok.text === ')') depth--;
    if (depth > 0) parts.push(tok.type === 'qident' ? `"${tok.text}"` : tok.type === 'ident' ? tok.text.toLowerCase() : tok.text);
  }
  let using: string | null = null;
  if (c.eat('USING')) using = c.next().text;
  return { keyspace, table, name: idxName, target: parts.join(''), custom: custom || using !== null, using };
}

function createView(c: Cursor, currentKs: string | null): SchemaView {
  ifNotExists(c);
  const { keyspace, name: view } = qualifiedName(c, currentKs);
  c.expect('AS');
  c.expect('SELECT');
  while (!c.done() && !c.is('FROM')) c.i++;
  c.expect('FROM');
  const base = qualifiedName(c, keyspace);
  // WHERE … up to PRIMARY KEY.
  while (!c.done() && !(c.is('PRIMARY') && c.is('KEY', 1))) c.i++;
  c.i += 2;
  const pk = primaryKey(c);
  const { raw, clusteringOrder, compactStorage } = withOptions(c);
  return {
    keyspace,
    name: view,
    baseKeyspace: base.keyspace,
    baseTable: base.name,
    partitionKey: pk.partition,
    clustering: pk.clustering.map((n) => ({ name: n, order: clusteringOrder[n] ?? 'ASC' })),
    options: interpretOptions(raw, compactStorage),
  };
}

function createType(c: Cursor, currentKs: string | null): SchemaType {
  ifNotExists(c);
  const { keyspace, name: typeName } = qualifiedName(c, currentKs);
  c.expect('(');
  const fields: { name: string; type: string }[] = [];
  while (!c.eat(')')) {
    const f = name(c.next());
    fields.push({ name: f, type: typeText(c, []) });
    c.eat(',');
    if (c.done()) throw new SyntaxError(`unterminated type ${keyspace}.${typeName}`);
  }
  return { keyspace, name: typeName, fields };
}

function parse(text: string): Parsed<CqlSchema> {
  if (!cqlSchemaSignature.test(text)) return unrecognized(CQL_SCHEMA_KIND, 'no CREATE KEYSPACE/TABLE/INDEX/MATERIALIZED VIEW/TYPE statement found');
  const { statements, unterminated, badChars } = tokenizeStatements(text);
  const schema: CqlSchema = { keyspaces: [], tables: [], indexes: [], views: [], types: [], other: [], statements: statements.length };
  const warnings: string[] = [];
  let currentKs: string | null = null;
  let creates = 0;
  statements.forEach((st, idx) => {
    const c = new Cursor(st);
    const head = st
      .slice(0, 4)
      .map((t) => t.text)
      .join(' ');
    try {
      if (c.eat('USE')) {
        currentKs = name(c.next());
        return;
      }
      if (!c.eat('CREATE')) {
        schema.other.push(head);
        return;
      }
      if (c.eat('KEYSPACE') || c.eat('SCHEMA')) schema.keyspaces.push(createKeyspace(c));
      else if (c.eat('TABLE') || (c.is('COLUMNFAMILY') && c.eat('COLUMNFAMILY'))) schema.tables.push(createTable(c, currentKs));
      else if (c.eat('INDEX')) schema.indexes.push(createIndex(c, currentKs, false));
      else if (c.is('CUSTOM') && c.is('INDEX', 1)) {
        c.i += 2;
        schema.indexes.push(createIndex(c, currentKs, true));
      } else if (c.is('MATERIALIZED') && c.is('VIEW', 1)) {
        c.i += 2;
        schema.views.push(createView(c, currentKs));
      } else if (c.eat('TYPE')) schema.types.push(createType(c, currentKs));
      else {
        schema.other.push(head);
        return;
      }
      creates++;
    } catch (e) {
      const last = idx === statements.length - 1 && unterminated;
      warnings.push(`${last ? 'truncated' : 'unreadable'} statement "${head} …": ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  if (creates === 0) return unrecognized(CQL_SCHEMA_KIND, `no CREATE statement could be read${warnings.length ? `: ${warnings[0]}` : ''}`);
  if (unterminated && !warnings.some((w) => w.startsWith('truncated'))) warnings.push('the last statement has no terminating ";" (truncated output?)');
  if (badChars > 0) warnings.push(`${badChars} character(s) outside CQL syntax were ignored`);
  return parsedOk(CQL_SCHEMA_KIND, schema, warnings);
}

export const parseCqlSchema = total(CQL_SCHEMA_KIND, parse);
