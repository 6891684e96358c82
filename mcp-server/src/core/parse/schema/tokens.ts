/**
 * CQL tokenizer for DESCRIBE output: identifiers (bare or "quoted"), 'strings' ('' escapes), $$bodies$$,
 * numbers and punctuation; comments (--, //, block) are dropped. Statements are split at top-level ";".
 */
import { readQuoted, type Token } from '../ddl-tokens.js';

export type { Token, TokenType } from '../ddl-tokens.js';

const PUNCT = new Set(['(', ')', '{', '}', '[', ']', '<', '>', ',', ':', '=', '.', ';', '?', '*', '+', '-']);

/** Returns the statements (token lists, without the ";") and whether the last one was unterminated. */
export function tokenizeStatements(text: string): { statements: Token[][]; unterminated: boolean; badChars: number } {
  const statements: Token[][] = [];
  let cur: Token[] = [];
  let badChars = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if ((c === '-' && text[i + 1] === '-') || (c === '/' && text[i + 1] === '/')) {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'") {
      const q = readQuoted(text, i + 1, "'");
      cur.push({ type: 'string', text: q.text });
      i = q.end;
    } else if (c === '$' && text[i + 1] === '$') {
      const end = text.indexOf('$$', i + 2);
      const stop = end < 0 ? n : end;
      cur.push({ type: 'string', text: text.slice(i + 2, stop) });
      i = end < 0 ? n : end + 2;
    } else if (c === '"') {
      const q = readQuoted(text, i + 1, '"');
      cur.push({ type: 'qident', text: q.text });
      i = q.end;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 64))!;
      // A uuid or a hex literal starts with a digit: take the whole word.
      const word = /^[0-9A-Za-z_-]+/.exec(text.slice(i, i + 64))?.[0] ?? m[0];
      const tok = word.length > m[0].length && /[A-Za-z_]/.test(word[m[0].length] ?? '') ? word : m[0];
      cur.push({ type: tok === m[0] ? 'number' : 'ident', text: tok });
      i += tok.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 512))!;
      cur.push({ type: 'ident', text: m[0] });
      i += m[0].length;
    } else if (c === ';') {
      if (cur.length) statements.push(cur);
      cur = [];
      i++;
    } else if (PUNCT.has(c)) {
      cur.push({ type: 'punct', text: c });
      i++;
    } else {
      badChars++;
      i++;
    }
  }
  const unterminated = cur.length > 0;
  if (unterminated) statements.push(cur);
  return { statements, unterminated, badChars };
}
