/**
 * Pieces shared by the two DDL tokenizers/parsers (CQL DESCRIBE output in schema/tokens.ts + schema/describe.ts,
 * PostgreSQL DDL in postgres-ddl.ts): the token shape, quoted-text reading and a keyword cursor over one
 * statement. Each dialect keeps its own tokenizer loop because their lexical rules differ (E'' strings,
 * $tag$ bodies, nested comments, COPY data in PostgreSQL; // comments and uuid literals in CQL).
 */
export type TokenType = 'ident' | 'qident' | 'string' | 'number' | 'punct';

export interface Token {
  type: TokenType;
  text: string;
}

/**
 * Reads quoted text from `i`, the index just after the opening quote: a doubled quote stands for one, and with
 * `backslash` (PostgreSQL E'' strings) a backslash escapes the next character. Unterminated text runs to the
 * end. Returns the text and the index after the closing quote.
 */
export function readQuoted(text: string, i: number, quote: "'" | '"', backslash = false): { text: string; end: number } {
  const n = text.length;
  let s = '';
  while (i < n) {
    const d = text[i]!;
    if (backslash && d === '\\' && i + 1 < n) {
      s += text[i + 1];
      i += 2;
      continue;
    }
    if (d === quote) {
      if (text[i + 1] === quote) {
        s += quote;
        i += 2;
        continue;
      }
      break;
    }
    s += d;
    i++;
  }
  return { text: s, end: i + 1 };
}

/** A cursor over the tokens of one statement, matching keywords and punctuation case-insensitively. */
export class TokenCursor {
  i = 0;
  constructor(readonly t: Token[]) {}
  peek(k = 0): Token | undefined {
    return this.t[this.i + k];
  }
  /** Case-insensitive keyword or punctuation match `k` tokens ahead (word given in upper case). */
  is(word: string, k = 0): boolean {
    const tok = this.peek(k);
    return tok !== undefined && (tok.type === 'ident' || tok.type === 'punct') && tok.text.toUpperCase() === word;
  }
  isSeq(...words: string[]): boolean {
    return words.every((w, k) => this.is(w, k));
  }
  /** Consumes the words if they all come next, in order. */
  eat(...words: string[]): boolean {
    if (!this.isSeq(...words)) return false;
    this.i += words.length;
    return true;
  }
  expect(word: string): void {
    if (!this.eat(word)) throw new SyntaxError(`expected ${word} but found ${this.peek()?.text ?? 'end of statement'}`);
  }
  next(): Token {
    const tok = this.t[this.i++];
    if (!tok) throw new SyntaxError('unexpected end of statement');
    return tok;
  }
  done(): boolean {
    return this.i >= this.t.length;
  }
}
