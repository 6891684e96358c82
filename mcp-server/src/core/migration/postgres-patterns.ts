/** Access patterns for the PostgreSQL → CQL review: the structured form and a short text form. PURE. */

export interface AccessPattern {
  /** Name of the query (becomes the CQL table name); default `<table>_by_<where…>`. */
  name?: string;
  /** The PostgreSQL table the query reads (its main entity). */
  table: string;
  /** Columns compared with "=": the partition key. */
  where: string[];
  /** Columns restricted by a range (>, <, BETWEEN): first clustering columns. */
  range?: string[];
  orderBy?: { col: string; desc?: boolean }[];
  limit?: number;
  /** How often the query runs, as given ("200/s", "hourly"); shown as evidence. */
  frequency?: string;
  /** Related tables the query joins (by foreign key); columns of the parents are copied in. */
  join?: string[];
  /** Expected rows added per partition key per day, for the most active key: sizes the time bucket. */
  rowsPerKeyPerDay?: number;
  /** A hard upper bound of rows per partition key (e.g. lines per order). */
  maxRowsPerKey?: number;
}

const KEYWORDS = new Set(['by', 'where', 'and', 'with', 'join', 'range', 'order', 'limit', 'max', 'freq', 'frequency', 'asc', 'desc']);

/**
 * Text form: `<table> [with <t>[, <t>]] by <col> [and <col>] [range <col>] [order by <col> [asc|desc][, …]]
 * [limit N] [~N/day] [max N] [freq X]`, e.g. "orders by user_id order by created_at desc limit 20".
 * Returns an error message instead of throwing.
 */
export function parseAccessPattern(text: string): AccessPattern | { error: string } {
  let s = text.trim();
  if (!s) return { error: 'empty access pattern' };
  if (s.length > 500) return { error: 'access pattern longer than 500 characters' };
  const out: AccessPattern = { table: '', where: [] };
  const num = (re: RegExp, set: (n: number) => void) => {
    const m = re.exec(s);
    if (m) {
      set(Number(m[1]));
      s = s.replace(m[0], ' ');
    }
  };
  num(/(?:~|about\s+)?(\d+(?:\.\d+)?)\s*(?:\/|rows?\s+per\s+|per\s+)(?:key\s*\/?\s*)?day\b/i, (n) => (out.rowsPerKeyPerDay = n));
  num(/\bmax\s+(\d+)(?:\s+rows?)?\b/i, (n) => (out.maxRowsPerKey = n));
  num(/\blimit\s+(\d+)\b/i, (n) => (out.limit = n));
  const freq = /\bfreq(?:uency)?\s+(\S+)/i.exec(s);
  if (freq) {
    out.frequency = freq[1]!;
    s = s.replace(freq[0], ' ');
  }
  const words = s.replace(/,/g, ' , ').split(/\s+/).filter(Boolean);
  const isName = (w: string | undefined) =>
    w !== undefined && /^[A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z_][A-Za-z0-9_$]*)?$|^"[^"]+"$/.test(w) && !KEYWORDS.has(w.toLowerCase());
  const unq = (w: string) => (w.startsWith('"') ? w.slice(1, -1) : w.includes('.') ? w.split('.').pop()!.toLowerCase() : w.toLowerCase());
  let i = 0;
  if (!isName(words[0])) return { error: `"${text}": start with the table name, e.g. "orders by user_id order by created_at desc"` };
  out.table = unq(words[i++]!);
  let mode: 'none' | 'join' | 'where' | 'range' | 'order' = 'none';
  for (; i < words.length; i++) {
    const w = words[i]!;
    const lw = w.toLowerCase();
    if (lw === ',' || lw === 'and') continue;
    if (lw === 'with' || lw === 'join') mode = 'join';
    else if (lw === 'order' && words[i + 1]?.toLowerCase() === 'by') {
      mode = 'order';
      i++;
    } else if (lw === 'by' || lw === 'where') mode = 'where';
    else if (lw === 'range') mode = 'range';
    else if ((lw === 'asc' || lw === 'desc') && mode === 'order' && out.orderBy?.length) out.orderBy[out.orderBy.length - 1]!.desc = lw === 'desc';
    else if (isName(w)) {
      const n = unq(w);
      if (mode === 'join') (out.join ??= []).push(n);
      else if (mode === 'where') out.where.push(n);
      else if (mode === 'range') (out.range ??= []).push(n);
      else if (mode === 'order') (out.orderBy ??= []).push({ col: n, desc: false });
      else return { error: `"${text}": "${w}" — say "by <column>" for the equality columns` };
    } else return { error: `"${text}": cannot read "${w}"` };
  }
  return out;
}

/** The CQL table name for a pattern. */
export function patternName(p: AccessPattern): string {
  const raw = p.name ?? `${p.table}_by_${p.where.length ? p.where.join('_') : 'all'}`;
  const clean = raw
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(clean) ? clean.slice(0, 48) : `t_${clean}`.slice(0, 48);
}

/** The pattern back as one line of text, for evidence. */
export function describePattern(p: AccessPattern): string {
  const parts = [p.table];
  if (p.join?.length) parts.push(`with ${p.join.join(', ')}`);
  parts.push(p.where.length ? `by ${p.where.join(' and ')}` : '(no equality column)');
  if (p.range?.length) parts.push(`range ${p.range.join(', ')}`);
  if (p.orderBy?.length) parts.push(`order by ${p.orderBy.map((o) => `${o.col}${o.desc ? ' desc' : ''}`).join(', ')}`);
  if (p.limit !== undefined) parts.push(`limit ${p.limit}`);
  if (p.rowsPerKeyPerDay !== undefined) parts.push(`~${p.rowsPerKeyPerDay}/day`);
  if (p.maxRowsPerKey !== undefined) parts.push(`max ${p.maxRowsPerKey}`);
  if (p.frequency) parts.push(`freq ${p.frequency}`);
  return parts.join(' ');
}
