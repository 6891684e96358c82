/**
 * StatusLogger pool rows are read by hand (core/parse/logs/pool-row.ts) instead of with a `\S+` token regex. The
 * regex reader it replaced is kept here as the oracle: on every line of the real logs this project holds and on
 * generated rows full of the odd cases (tabs, Unicode spaces, "(N/A)" groups, "1e3", long digit runs), both must
 * give the same row or both none.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePoolRow } from '../../mcp-server/src/core/parse/logs/pool-row.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

/** The fixtures' logs and tpstats outputs (their "Pool Name" tables have the same rows). */
function tableFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...tableFiles(p));
    else if (/(\.log(\.\d+)?(\.gz)?$|tpstats|statuslogger)/i.test(e.name) && statSync(p).size < 32 << 20) out.push(p);
  }
  return out.sort();
}

const POOL_NAME = /^[A-Za-z][\w/.:$#-]*$/;
const TOKEN = /\S+/g;

/** The reader before pool-row.ts (accumulator.ts until this change), unchanged. */
function oracle(s: string, start: number): { name: string; v: (number | null)[]; numbers: number } | null {
  TOKEN.lastIndex = start;
  let m = TOKEN.exec(s);
  if (!m || !POOL_NAME.test(m[0])) return null;
  const name = m[0];
  const v: (number | null)[] = [];
  let numbers = 0;
  while ((m = TOKEN.exec(s))) {
    const t = m[0];
    const c = t.charCodeAt(0);
    if (c === 40) {
      if (t.charCodeAt(t.length - 1) !== 41) {
        const close = s.indexOf(')', TOKEN.lastIndex);
        if (close < 0) return null;
        TOKEN.lastIndex = close + 1;
      }
      continue;
    }
    if (t === 'N/A' || t === 'n/a') {
      v.push(null);
      continue;
    }
    if (c < 48 || c > 57) return null;
    const n = Number(t);
    if (!Number.isInteger(n)) return null;
    v.push(n);
    numbers++;
  }
  if (v.length < 2) return null;
  return { name, v, numbers };
}

describe('StatusLogger pool rows read by hand', () => {
  it('reads the real rows of each layout', () => {
    expect(parsePoolRow('MutationStage                     0         0      123456         0                 0', 0)).toEqual({
      name: 'MutationStage',
      v: [0, 0, 123456, 0, 0],
      numbers: 5,
    });
    // DSE 6: the backpressure column in parentheses is skipped
    expect(parsePoolRow('CompactionExecutor        2          52 (N/A)       N/A           1386         0                 0', 0)).toEqual({
      name: 'CompactionExecutor',
      v: [2, 52, null, 1386, 0, 0],
      numbers: 5,
    });
    // DSE 6.8's TPC group line: N/A only, still a row
    expect(parsePoolRow('TPC/all    N/A   N/A   N/A', 0)).toEqual({ name: 'TPC/all', v: [null, null, null], numbers: 0 });
    expect(parsePoolRow('Pool Name   Active   Pending', 0)).toBeNull();
    expect(parsePoolRow('MutationStage 0 abc', 0)).toBeNull();
  });

  it('agrees with the regex reader on every line of the real logs held here', () => {
    let lines = 0;
    let rows = 0;
    for (const f of tableFiles(FIXTURES_DIR)) {
      const text = (f.endsWith('.gz') ? gunzipSync(readFileSync(f)) : readFileSync(f)).toString('utf8');
      for (const line of text.split('\n')) {
        lines++;
        const want = oracle(line, 0);
        if (want) rows++;
        expect(parsePoolRow(line, 0), `${f}: ${line.slice(0, 120)}`).toEqual(want);
      }
    }
    expect(lines).toBeGreaterThan(10_000);
    expect(rows).toBeGreaterThan(100);
  });

  it('agrees with the regex reader on generated rows (spaces of every kind, groups, odd numbers)', () => {
    const piece = fc.constantFrom(
      ' ',
      '  ',
      '\t',
      '\u00a0',
      '\u2028',
      '\u3000',
      '\ufeff',
      '0',
      '7',
      '12',
      '1386',
      '1234567890123456789',
      '1e3',
      '0x10',
      '1.5',
      '-3',
      'N/A',
      'n/a',
      '(N/A)',
      '(w/Backpressure)',
      '(',
      ')',
      'x',
      'Stage',
      'TPC/all/READ',
      '\u00e9',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), fc.nat(4), (parts, start) => {
        const s = parts.join('');
        expect(parsePoolRow(s, start)).toEqual(oracle(s, start));
      }),
      { numRuns: 5000 },
    );
  });
});
