/**
 * Parser for PostgreSQL DDL: `pg_dump --schema-only` output or hand-written CREATE statements. Reads CREATE
 * TABLE (columns, types, NOT NULL, DEFAULT incl. serial/identity/nextval, inline and table-level PRIMARY KEY,
 * UNIQUE, REFERENCES / FOREIGN KEY, CHECK), CREATE INDEX (multi-column, partial, expression), CREATE TYPE …
 * AS ENUM, CREATE DOMAIN, CREATE SEQUENCE and the ALTER TABLE forms pg_dump writes (ADD CONSTRAINT, SET DEFAULT, ADD
 * GENERATED … AS IDENTITY). Other statements are counted and skipped with a warning. Total: text without a
 * single readable CREATE TABLE → ok:false with a reason.
 */
import { readQuoted, TokenCursor, type Token } from './ddl-tokens.js';
import { parsedOk, total, unrecognized, type Parsed } from '../parsed.js';

export const PG_DDL_KIND = 'postgres.ddl';

export interface PgColumn {
  name: string;
  /** The type as written, normalised to lower case with single spaces: "character varying(255)", "integer[]". */
  type: string;
  /** The type without modifiers or array brackets: "character varying", "numeric", "integer". */
  baseType: string;
  /** Type modifiers, e.g. [12, 2] for numeric(12,2). */
  typeArgs: number[];
  arrayDims: number;
  notNull: boolean;
  /** DEFAULT expression as written, or null. */
  default: string | null;
  /** serial/bigserial/smallserial, a nextval() default, or an identity column. */
  generated: 'serial' | 'sequence' | 'identity' | null;
  /** GENERATED ALWAYS AS (expr) STORED. */
  computed: string | null;
}

export interface PgForeignKey {
  name: string | null;
  columns: string[];
  refTable: string;
  refSchema: string | null;
  /** Empty when the reference names no columns (the referenced table's primary key). */
  refColumns: string[];
  onDelete: string | null;
}

export interface PgTable {
  schema: string | null;
  name: string;
  columns: PgColumn[];
  primaryKey: string[];
  /** UNIQUE constraints (inline or table-level), each a column list. */
  uniques: string[][];
  foreignKeys: PgForeignKey[];
  checks: string[];
  /** PARTITION BY RANGE (…) of a declaratively partitioned table, as written. */
  partitionBy: string | null;
  /** CREATE TABLE … PARTITION OF parent: the parent's name. */
  partitionOf: string | null;
}

export interface PgIndex {
  schema: string | null;
  table: string;
  name: string | null;
  unique: boolean;
  method: string | null;
  /** Plain column keys, in index order. */
  columns: { name: string; desc: boolean }[];
  /** Keys that are expressions (lower(email), (data->>'k')). */
  expressions: string[];
  /** WHERE predicate of a partial index. */
  where: string | null;
}

export interface PgEnum {
  schema: string | null;
  name: string;
  values: string[];
}

/** CREATE DOMAIN name AS type [CHECK …]: a named type with constraints. */
export interface PgDomain {
  schema: string | null;
  name: string;
  type: string;
  baseType: string;
  typeArgs: number[];
  arrayDims: number;
  checks: string[];
}

export interface PgSchema {
  tables: PgTable[];
  indexes: PgIndex[];
  enums: PgEnum[];
  domains: PgDomain[];
  sequences: string[];
  /** Statements skipped, by their first words ("SET", "CREATE FUNCTION", "GRANT" …), with counts. */
  skipped: Record<string, number>;
  statements: number;
}

// ---------------------------------------------------------------------------------------------------------
// Tokenizer

const MULTI_PUNCT = ['::', '->>', '->', '<=', '>=', '<>', '!=', '||'];

/** Splits into statements at top-level ";"; handles quotes, E'' strings, $tag$ bodies, comments, psql meta lines and COPY data. */
function tokenize(text: string): { statements: { toks: Token[]; src: string }[]; badChars: number } {
  const statements: { toks: Token[]; src: string }[] = [];
  let cur: Token[] = [];
  let start = 0;
  let badChars = 0;
  let i = 0;
  const n = text.length;
  let lineStart = true;
  const push = (end: number) => {
    if (cur.length) statements.push({ toks: cur, src: text.slice(start, end).trim() });
    cur = [];
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '\n') {
      i++;
      lineStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    // psql meta-commands (\connect, \restrict …) sit alone on a line.
    if (lineStart && c === '\\' && cur.length === 0) {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    lineStart = false;
    if (cur.length === 0) start = i;
    if (c === '-' && text[i + 1] === '-') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === "'" || ((c === 'E' || c === 'e') && text[i + 1] === "'")) {
      const backslash = c !== "'";
      const q = readQuoted(text, i + (backslash ? 2 : 1), "'", backslash);
      cur.push({ type: 'string', text: q.text });
      i = q.end;
    } else if (c === '$' && /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.test(text.slice(i, i + 64))) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64))![0];
      const end = text.indexOf(tag, i + tag.length);
      cur.push({ type: 'string', text: text.slice(i + tag.length, end < 0 ? n : end) });
      i = end < 0 ? n : end + tag.length;
    } else if (c === '"') {
      const q = readQuoted(text, i + 1, '"');
      cur.push({ type: 'qident', text: q.text });
      i = q.end;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 64))!;
      cur.push({ type: 'number', text: m[0] });
      i += m[0].length;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      const m = /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/.exec(text.slice(i, i + 512))!;
      cur.push({ type: 'ident', text: m[0] });
      i += m[0].length;
    } else if (c === ';') {
      const isCopyFromStdin = cur.length > 2 && cur[0]!.text.toUpperCase() === 'COPY' && cur[cur.length - 1]!.text.toLowerCase() === 'stdin';
      push(i);
      i++;
      // COPY … FROM stdin; is followed by data lines up to a line "\." — skip them.
      if (isCopyFromStdin) {
        const end = text.indexOf('\n\\.', i);
        i = end < 0 ? n : end + 3;
      }
    } else {
      const multi = MULTI_PUNCT.find((p) => text.startsWith(p, i));
      if (multi) {
        cur.push({ type: 'punct', text: multi });
        i += multi.length;
      } else if ('(),.[]=<>+-*/%:^~!@#&|?{}'.includes(c)) {
        cur.push({ type: 'punct', text: c });
        i++;
      } else {
        badChars++;
        i++;
      }
    }
  }
  push(n);
  return { statements, badChars };
}

// ---------------------------------------------------------------------------------------------------------
// Cursor over one statement

/** The shared keyword cursor plus the expression skipping PostgreSQL DDL needs. */
class Cursor extends TokenCursor {
  /** Tokens up to (not including) the next top-level "," or ")" or one of the stop words, as text. */
  until(stops: Set<string>): string {
    const parts: Token[] = [];
    let depth = 0;
    while (!this.done()) {
      const t = this.peek()!;
      if (depth === 0 && t.type === 'punct' && (t.text === ',' || t.text === ')')) break;
      if (depth === 0 && t.type === 'ident' && stops.has(t.text.toUpperCase())) break;
      if (t.type === 'punct' && (t.text === '(' || t.text === '[')) depth++;
      if (t.type === 'punct' && (t.text === ')' || t.text === ']')) depth--;
      parts.push(this.next());
    }
    return render(parts);
  }
  /** Skips a balanced parenthesised group starting at "(" and returns its inner text. */
  group(): string {
    this.expect('(');
    const parts: Token[] = [];
    let depth = 1;
    while (!this.done()) {
      const t = this.next();
      if (t.type === 'punct' && t.text === '(') depth++;
      if (t.type === 'punct' && t.text === ')' && --depth === 0) return render(parts);
      parts.push(t);
    }
    throw new SyntaxError('unbalanced parentheses');
  }
}

/** Tokens back to compact SQL text (for defaults, predicates and expressions in evidence). */
function render(toks: Token[]): string {
  let out = '';
  let prev: Token | undefined;
  for (const t of toks) {
    const txt = t.type === 'string' ? `'${t.text.replace(/'/g, "''")}'` : t.type === 'qident' ? `"${t.text}"` : t.text;
    const tight = prev && ((t.type === 'punct' && /^(?:\)|,|\]|\[|::|\.|\()$/.test(t.text)) || (prev.type === 'punct' && /^(?:\(|::|\.|\[)$/.test(prev.text)));
    out += (out && !tight ? ' ' : '') + txt;
    prev = t;
  }
  return out;
}

/** PostgreSQL folds unquoted identifiers to lower case. */
const ident = (t: Token) => (t.type === 'qident' ? t.text : t.text.toLowerCase());

function qname(c: Cursor): { schema: string | null; name: string } {
  const first = c.next();
  if (first.type !== 'ident' && first.type !== 'qident') throw new SyntaxError(`expected a name, found ${first.text}`);
  if (c.eat('.')) {
    const second = c.next();
    if (second.type !== 'ident' && second.type !== 'qident') throw new SyntaxError(`expected a name after ${first.text}.`);
    return { schema: ident(first), name: ident(second) };
  }
  return { schema: null, name: ident(first) };
}

function nameList(c: Cursor): string[] {
  c.expect('(');
  const out: string[] = [];
  while (!c.eat(')')) {
    const t = c.next();
    if (t.type === 'ident' || t.type === 'qident') out.push(ident(t));
    else if (!(t.type === 'punct' && t.text === ',')) throw new SyntaxError(`expected a column name, found ${t.text}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Types

/** Multi-word type names, longest first. */
const MULTIWORD_TYPES = [
  ['timestamp', 'with', 'time', 'zone'],
  ['timestamp', 'without', 'time', 'zone'],
  ['time', 'with', 'time', 'zone'],
  ['time', 'without', 'time', 'zone'],
  ['double', 'precision'],
  ['character', 'varying'],
  ['bit', 'varying'],
];

const CONSTRAINT_WORDS = new Set([
  'NOT',
  'NULL',
  'DEFAULT',
  'PRIMARY',
  'UNIQUE',
  'REFERENCES',
  'CHECK',
  'CONSTRAINT',
  'GENERATED',
  'COLLATE',
  'DEFERRABLE',
  'INITIALLY',
  'COMPRESSION',
  'STORAGE',
]);

function parseType(c: Cursor): { type: string; baseType: string; typeArgs: number[]; arrayDims: number } {
  let words: string[] = [];
  const multi = MULTIWORD_TYPES.find((ws) => {
    // timestamp(3) with time zone: the precision sits after the first word.
    if (!c.is(ws[0]!.toUpperCase())) return false;
    let k = 1;
    if (c.is('(', 1)) k = 4;
    return ws.slice(1).every((w, j) => c.is(w.toUpperCase(), k + j));
  });
  let typeArgs: number[] = [];
  const readArgs = () => {
    if (!c.is('(')) return;
    const inner = c.group();
    typeArgs = inner
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((x) => Number.isFinite(x));
  };
  if (multi) {
    words.push(ident(c.next()));
    readArgs();
    for (let k = 1; k < multi.length; k++) words.push(ident(c.next()));
    if (!typeArgs.length) readArgs(); // character varying(120)
  } else {
    const q = qname(c);
    // pg_catalog.int4 and public.order_status: keep the schema off built-ins only.
    words = [q.schema && q.schema !== 'pg_catalog' ? `${q.schema}.${q.name}` : q.name];
    readArgs();
  }
  let arrayDims = 0;
  while (c.is('[')) {
    c.next();
    while (!c.done() && !c.eat(']')) c.next();
    arrayDims++;
  }
  if (c.eat('ARRAY')) {
    arrayDims++;
    if (c.is('[')) {
      c.next();
      while (!c.done() && !c.eat(']')) c.next();
    }
  }
  const baseType = words.join(' ');
  const type = `${baseType}${typeArgs.length ? `(${typeArgs.join(',')})` : ''}${'[]'.repeat(arrayDims)}`;
  return { type, baseType, typeArgs, arrayDims };
}

const SERIAL_TYPES: Record<string, string> = {
  serial: 'integer',
  serial4: 'integer',
  bigserial: 'bigint',
  serial8: 'bigint',
  smallserial: 'smallint',
  serial2: 'smallint',
};

// ---------------------------------------------------------------------------------------------------------
// Statements

function referencesClause(c: Cursor, columns: string[], name: string | null): PgForeignKey {
  c.expect('REFERENCES');
  const ref = qname(c);
  const refColumns = c.is('(') ? nameList(c) : [];
  let onDelete: string | null = null;
  const action = () => {
    const words: string[] = [];
    if (c.eat('NO', 'ACTION')) words.push('NO ACTION');
    else if (c.eat('SET', 'NULL')) words.push('SET NULL');
    else if (c.eat('SET', 'DEFAULT')) words.push('SET DEFAULT');
    else words.push(c.next().text.toUpperCase());
    if (c.is('(')) c.group();
    return words.join(' ');
  };
  // MATCH FULL, ON DELETE CASCADE, ON UPDATE …, DEFERRABLE …
  for (;;) {
    if (c.eat('ON', 'DELETE')) onDelete = action();
    else if (c.eat('ON', 'UPDATE')) action();
    else if (c.eat('MATCH')) c.next();
    else if (c.eat('DEFERRABLE') || c.eat('NOT', 'DEFERRABLE')) continue;
    else if (c.eat('INITIALLY')) c.next();
    else break;
  }
  return { name, columns, refTable: ref.name, refSchema: ref.schema, refColumns, onDelete };
}

/** A table-level constraint (after CONSTRAINT name, if any) applied to the table. */
function tableConstraint(c: Cursor, t: PgTable, name: string | null): void {
  if (c.eat('PRIMARY', 'KEY')) {
    t.primaryKey = nameList(c);
  } else if (c.eat('UNIQUE')) {
    if (c.eat('NULLS')) {
      c.eat('NOT');
      c.next();
    }
    t.uniques.push(nameList(c));
  } else if (c.eat('FOREIGN', 'KEY')) {
    const cols = nameList(c);
    t.foreignKeys.push(referencesClause(c, cols, name));
  } else if (c.eat('CHECK')) {
    t.checks.push(c.group());
  } else if (c.eat('EXCLUDE')) {
    t.checks.push(`EXCLUDE ${c.until(new Set())}`);
  } else {
    throw new SyntaxError(`unknown table constraint at ${c.peek()?.text ?? 'end'}`);
  }
  // USING INDEX TABLESPACE x, DEFERRABLE, NOT VALID …
  c.until(new Set());
}

function columnDef(c: Cursor, t: PgTable): void {
  const nameTok = c.next();
  if (nameTok.type !== 'ident' && nameTok.type !== 'qident') throw new SyntaxError(`expected a column name, found ${nameTok.text}`);
  const ty = parseType(c);
  const serial = SERIAL_TYPES[ty.baseType];
  const col: PgColumn = {
    name: ident(nameTok),
    type: serial ? SERIAL_TYPES[ty.baseType]! : ty.type,
    baseType: serial ?? ty.baseType,
    typeArgs: ty.typeArgs,
    arrayDims: ty.arrayDims,
    notNull: !!serial,
    default: null,
    generated: serial ? 'serial' : null,
    computed: null,
  };
  let cname: string | null = null;
  while (!c.done() && !c.is(',') && !c.is(')')) {
    if (c.eat('CONSTRAINT')) {
      cname = ident(c.next());
      continue;
    }
    if (c.eat('NOT', 'NULL')) col.notNull = true;
    else if (c.eat('NULL')) col.notNull = false;
    else if (c.eat('DEFAULT')) {
      col.default = c.until(CONSTRAINT_WORDS);
      if (/\bnextval\s*\(/i.test(col.default) && !col.generated) col.generated = 'sequence';
    } else if (c.eat('PRIMARY', 'KEY')) {
      t.primaryKey = [col.name];
      col.notNull = true;
    } else if (c.eat('UNIQUE')) t.uniques.push([col.name]);
    else if (c.is('REFERENCES')) t.foreignKeys.push(referencesClause(c, [col.name], cname));
    else if (c.eat('CHECK')) t.checks.push(c.group());
    else if (c.eat('GENERATED')) {
      if (c.eat('ALWAYS', 'AS') && c.is('(')) {
        col.computed = c.group();
        c.eat('STORED');
      } else {
        c.eat('ALWAYS');
        c.eat('BY', 'DEFAULT');
        c.eat('AS');
        c.expect('IDENTITY');
        if (c.is('(')) c.group();
        col.generated = 'identity';
        col.notNull = true;
      }
    } else if (c.eat('COLLATE')) qname(c);
    else if (c.eat('COMPRESSION') || c.eat('STORAGE')) c.next();
    else if (c.eat('DEFERRABLE') || c.eat('NOT', 'DEFERRABLE') || c.eat('INITIALLY')) {
      if (c.is('DEFERRED') || c.is('IMMEDIATE')) c.next();
    } else throw new SyntaxError(`unexpected ${c.peek()!.text} in column ${col.name}`);
    cname = null;
  }
  t.columns.push(col);
}

function createTable(c: Cursor): PgTable {
  c.eat('IF', 'NOT', 'EXISTS');
  const q = qname(c);
  const t: PgTable = {
    schema: q.schema,
    name: q.name,
    columns: [],
    primaryKey: [],
    uniques: [],
    foreignKeys: [],
    checks: [],
    partitionBy: null,
    partitionOf: null,
  };
  if (c.eat('PARTITION', 'OF')) {
    t.partitionOf = qname(c).name;
    return t;
  }
  if (c.eat('OF')) throw new SyntaxError('typed tables (CREATE TABLE … OF type) are not read');
  c.expect('(');
  while (!c.eat(')')) {
    if (c.eat(',')) continue;
    if (c.eat('CONSTRAINT')) {
      const name = ident(c.next());
      tableConstraint(c, t, name);
    } else if (c.is('PRIMARY', 0) && c.is('KEY', 1)) tableConstraint(c, t, null);
    else if (c.is('UNIQUE') || c.isSeq('FOREIGN', 'KEY') || (c.is('CHECK') && c.is('(', 1)) || c.is('EXCLUDE')) tableConstraint(c, t, null);
    else if (c.eat('LIKE')) {
      qname(c);
      c.until(new Set());
    } else columnDef(c, t);
  }
  // INHERITS (…), PARTITION BY RANGE (…), WITH (…), TABLESPACE x …
  while (!c.done()) {
    if (c.eat('PARTITION', 'BY')) {
      const kind = c.next().text.toUpperCase();
      t.partitionBy = `${kind} (${c.group()})`;
    } else c.next();
  }
  // A primary key makes its columns NOT NULL.
  for (const col of t.columns) if (t.primaryKey.includes(col.name)) col.notNull = true;
  return t;
}

function createIndex(c: Cursor, unique: boolean): PgIndex {
  c.eat('CONCURRENTLY');
  c.eat('IF', 'NOT', 'EXISTS');
  let name: string | null = null;
  if (!c.is('ON')) name = qname(c).name;
  c.expect('ON');
  c.eat('ONLY');
  const q = qname(c);
  let method: string | null = null;
  if (c.eat('USING')) method = c.next().text.toLowerCase();
  c.expect('(');
  const columns: { name: string; desc: boolean }[] = [];
  const expressions: string[] = [];
  while (!c.eat(')')) {
    if (c.eat(',')) continue;
    const first = c.peek()!;
    const simple =
      (first.type === 'ident' || first.type === 'qident') &&
      (c.is(',', 1) || c.is(')', 1) || ['ASC', 'DESC', 'NULLS', 'COLLATE'].some((w) => c.is(w, 1)) || c.peek(1)?.type === 'ident');
    if (simple && !c.is('(', 1)) {
      c.next();
      let desc = false;
      // COLLATE x, opclass, ASC|DESC, NULLS FIRST|LAST
      while (!c.done() && !c.is(',') && !c.is(')')) {
        const w = c.next().text.toUpperCase();
        if (w === 'DESC') desc = true;
      }
      columns.push({ name: ident(first), desc });
    } else {
      expressions.push(c.until(new Set(['ASC', 'DESC', 'NULLS'])));
      while (!c.done() && !c.is(',') && !c.is(')')) c.next();
    }
  }
  let where: string | null = null;
  while (!c.done()) {
    if (c.eat('WHERE')) {
      const parts: Token[] = [];
      while (!c.done()) parts.push(c.next());
      where = render(parts);
    } else c.next();
  }
  return { schema: q.schema, table: q.name, name, unique, method, columns, expressions, where };
}

function createEnum(c: Cursor): PgEnum | null {
  const q = qname(c);
  if (!c.eat('AS', 'ENUM')) return null;
  c.expect('(');
  const values: string[] = [];
  while (!c.eat(')')) {
    const t = c.next();
    if (t.type === 'string') values.push(t.text);
  }
  return { schema: q.schema, name: q.name, values };
}

/** ALTER TABLE [ONLY] [IF EXISTS] t ADD CONSTRAINT … | ALTER COLUMN x SET DEFAULT … | ALTER COLUMN x ADD GENERATED … */
function alterTable(c: Cursor, tables: PgTable[]): boolean {
  c.eat('IF', 'EXISTS');
  c.eat('ONLY');
  const q = qname(c);
  const t = tables.find((x) => x.name === q.name && (q.schema === null || x.schema === null || x.schema === q.schema));
  if (!t) return false;
  let understood = false;
  while (!c.done()) {
    if (c.eat(',')) continue;
    if (c.eat('ADD', 'CONSTRAINT')) {
      const name = ident(c.next());
      tableConstraint(c, t, name);
      understood = true;
    } else if (c.is('ADD') && (c.is('PRIMARY', 1) || c.is('UNIQUE', 1) || c.is('FOREIGN', 1) || c.is('CHECK', 1))) {
      c.next();
      tableConstraint(c, t, null);
      understood = true;
    } else if (c.eat('ALTER')) {
      c.eat('COLUMN');
      const colName = ident(c.next());
      const col = t.columns.find((x) => x.name === colName);
      if (c.eat('SET', 'DEFAULT')) {
        const d = c.until(new Set());
        if (col) {
          col.default = d;
          if (/\bnextval\s*\(/i.test(d) && !col.generated) col.generated = 'sequence';
        }
        understood = true;
      } else if (c.eat('ADD', 'GENERATED')) {
        if (col) {
          col.generated = 'identity';
          col.notNull = true;
        }
        c.until(new Set());
        understood = true;
      } else if (c.eat('SET', 'NOT', 'NULL')) {
        if (col) col.notNull = true;
        understood = true;
      } else c.until(new Set());
    } else if (c.eat('ATTACH', 'PARTITION')) {
      c.until(new Set());
      understood = true;
    } else c.until(new Set());
    if (!c.done() && !c.is(',')) c.next();
  }
  return understood;
}

/** First words of a statement, for the skipped list: "CREATE FUNCTION", "SET", "ALTER TABLE … OWNER". */
function label(toks: Token[]): string {
  const w = toks.slice(0, 4).map((t) => t.text.toUpperCase());
  if (w[0] === 'CREATE' || w[0] === 'DROP' || w[0] === 'COMMENT') {
    const skip = new Set([
      'OR',
      'REPLACE',
      'UNIQUE',
      'TEMP',
      'TEMPORARY',
      'UNLOGGED',
      'ON',
      'IF',
      'NOT',
      'EXISTS',
      'MATERIALIZED',
      'GLOBAL',
      'LOCAL',
      'DEFAULT',
    ]);
    const kind = w.slice(1).find((x) => !skip.has(x)) ?? '';
    return `${w[0]} ${w[1] === 'MATERIALIZED' ? 'MATERIALIZED ' : ''}${kind}`.trim();
  }
  if (w[0] === 'ALTER') return `ALTER ${w[1] ?? ''}`.trim();
  return w[0] ?? '?';
}

function parse(text: string): Parsed<PgSchema> {
  if (!text.trim()) return unrecognized(PG_DDL_KIND, 'empty input: give pg_dump --schema-only output or CREATE TABLE statements');
  if (text.includes('\u0000'))
    return unrecognized(PG_DDL_KIND, 'binary input (NUL bytes): give the plain-text pg_dump --schema-only output (not -Fc custom format)');
  if (text.startsWith('PGDMP'))
    return unrecognized(PG_DDL_KIND, 'this is a pg_dump custom-format archive: convert it with pg_restore --schema-only -f schema.sql');
  const { statements, badChars } = tokenize(text);
  const schema: PgSchema = { tables: [], indexes: [], enums: [], domains: [], sequences: [], skipped: {}, statements: statements.length };
  const warnings: string[] = [];
  const skip = (toks: Token[]) => {
    const l = label(toks);
    schema.skipped[l] = (schema.skipped[l] ?? 0) + 1;
  };
  let failedTables = 0;
  for (const { toks, src } of statements) {
    const c = new Cursor(toks);
    try {
      if (c.eat('CREATE')) {
        c.eat('OR', 'REPLACE');
        const unlogged = c.eat('UNLOGGED');
        const temp = c.eat('TEMP') || c.eat('TEMPORARY') || c.eat('GLOBAL', 'TEMPORARY') || c.eat('LOCAL', 'TEMPORARY');
        if (c.eat('TABLE')) {
          // CREATE TABLE … AS SELECT is a query, not a definition.
          if (!c.is('IF') && c.is('AS', 1)) {
            skip(toks);
            continue;
          }
          const t = createTable(c);
          if (t.partitionOf) {
            schema.skipped['CREATE TABLE … PARTITION OF'] = (schema.skipped['CREATE TABLE … PARTITION OF'] ?? 0) + 1;
            continue;
          }
          if (temp) warnings.push(`temporary table ${t.name} skipped`);
          else schema.tables.push(t);
          if (unlogged) warnings.push(`${t.name} is UNLOGGED in PostgreSQL (not crash-safe there); CQL tables are always durable`);
          continue;
        }
        const unique = c.eat('UNIQUE');
        if (c.eat('INDEX')) {
          schema.indexes.push(createIndex(c, unique));
          continue;
        }
        if (c.eat('TYPE')) {
          const e = createEnum(c);
          if (e) schema.enums.push(e);
          else skip(toks);
          continue;
        }
        if (c.eat('DOMAIN')) {
          const q = qname(c);
          c.eat('AS');
          const ty = parseType(c);
          const checks: string[] = [];
          while (!c.done()) {
            if (c.eat('CHECK')) checks.push(c.group());
            else c.next();
          }
          schema.domains.push({ schema: q.schema, name: q.name, ...ty, checks });
          continue;
        }
        if (c.eat('SEQUENCE')) {
          c.eat('IF', 'NOT', 'EXISTS');
          schema.sequences.push(qname(c).name);
          continue;
        }
        skip(toks);
      } else if (c.eat('ALTER', 'TABLE')) {
        if (!alterTable(c, schema.tables)) skip(toks);
      } else skip(toks);
    } catch (e) {
      const what = src.slice(0, 80).replace(/\s+/g, ' ');
      if (/^CREATE\s+(?:UNLOGGED\s+)?TABLE/i.test(src)) failedTables++;
      warnings.push(`could not read "${what}${src.length > 80 ? '…' : ''}": ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (!schema.tables.length) {
    return unrecognized(
      PG_DDL_KIND,
      failedTables
        ? `no CREATE TABLE could be read (${failedTables} failed: ${warnings[0] ?? ''})`
        : `no CREATE TABLE statement found in ${statements.length} statement(s)${badChars ? ` and ${badChars} stray character(s)` : ''}: give pg_dump --schema-only output`,
    );
  }
  // Sequences owned by a column (pg_dump writes ALTER SEQUENCE … OWNED BY) are already marked by nextval defaults.
  for (const idx of schema.indexes) {
    if (!schema.tables.some((t) => t.name === idx.table)) warnings.push(`index ${idx.name ?? '(unnamed)'} is on ${idx.table}, a table not in the DDL`);
  }
  const skippedTotal = Object.values(schema.skipped).reduce((a, b) => a + b, 0);
  if (skippedTotal) {
    const list = Object.entries(schema.skipped)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ');
    warnings.push(`skipped ${skippedTotal} statement(s) that do not shape tables: ${list}`);
  }
  if (badChars) warnings.push(`${badChars} character(s) outside SQL syntax ignored`);
  return parsedOk(PG_DDL_KIND, schema, warnings);
}

export const parsePostgresDdl: (text: string) => Parsed<PgSchema> = total(PG_DDL_KIND, parse);
