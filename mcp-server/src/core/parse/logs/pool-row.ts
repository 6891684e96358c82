/**
 * One row of a StatusLogger thread-pool table, read by hand: a 100 MB log holds tens of thousands of them, and a
 * token regex (`\S+` with a match array per token, then Number() on each) was a fifth of the time its tables took.
 * Tokens are runs of non-whitespace exactly as `\S` counts them (Unicode spaces included).
 */

const POOL_NAME = /^[A-Za-z][\w/.:$#-]*$/;

/**
 * What `\s` matches above ASCII (ECMAScript WhiteSpace and LineTerminator). The ASCII ones (space, \t-\r) are tested
 * in the loops themselves: the logs verb runs without TurboFan inlining (launch/code-cache.ts), so a call per
 * character would cost more than the regex did.
 */
function isWideSpace(c: number): boolean {
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** The first index at or after i that is not `\s`. */
function skipSpace(s: string, i: number, n: number): number {
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && (c < 128 || !isWideSpace(c))) return i;
    if (c < 32 && (c < 9 || c > 13)) return i;
  }
  return n;
}

export interface PoolRow {
  name: string;
  /** The values in order; null for N/A. */
  v: (number | null)[];
  /** How many of them are numbers. */
  numbers: number;
}

/**
 * "MutationStage  0  0  123  0  0" / "TPC/all/WRITE_REMOTE 0 13094 (N/A) N/A 0 N/A 0" from `start` → name and
 * values (null = N/A; "(…)" groups such as DSE's backpressure column are skipped). null when not a pool row.
 */
export function parsePoolRow(s: string, start: number): PoolRow | null {
  const n = s.length;
  let i = skipSpace(s, start, n);
  if (i >= n) return null;
  let e = i + 1;
  for (; e < n; e++) {
    const c = s.charCodeAt(e);
    if (c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 128 && isWideSpace(c)) break;
  }
  const name = s.slice(i, e);
  if (!POOL_NAME.test(name)) return null;
  const v: (number | null)[] = [];
  let numbers = 0;
  i = e;
  for (;;) {
    i = skipSpace(s, i, n);
    if (i >= n) break;
    const b = i;
    const c = s.charCodeAt(b);
    // all digits so far, and the value while it is exact
    let digits = c >= 48 && c <= 57;
    let value = 0;
    while (i < n) {
      const d = s.charCodeAt(i);
      if (d <= 32 ? d === 32 || (d >= 9 && d <= 13) : d >= 128 && isWideSpace(d)) break;
      if (digits) {
        if (d >= 48 && d <= 57) value = value * 10 + (d - 48);
        else digits = false;
      }
      i++;
    }
    if (c === 40) {
      // "(N/A)" or "(w/Backpressure)": skip to the closing parenthesis
      if (s.charCodeAt(i - 1) !== 41) {
        const close = s.indexOf(')', i);
        if (close < 0) return null;
        i = close + 1;
      }
      continue;
    }
    if (i - b === 3 && (s.startsWith('N/A', b) || s.startsWith('n/a', b))) {
      v.push(null);
      continue;
    }
    if (c < 48 || c > 57) return null;
    if (digits && i - b <= 15) v.push(value);
    else {
      // "1e3", "0x10", a long run: what Number() makes of the token, integers only
      const num = Number(s.slice(b, i));
      if (!Number.isInteger(num)) return null;
      v.push(num);
    }
    numbers++;
  }
  // A row of N/A only (DSE 6.8's "TPC/all" group line) is still a row of the table: its rows follow it.
  if (v.length < 2) return null;
  return { name, v, numbers };
}
