/** Parsers are total: they return this instead of throwing. */
export type Parsed<T> =
  | { kind: string; ok: true; value: T; warnings: string[] }
  | { kind: string; ok: false; reason: string };

export function parsedOk<T>(kind: string, value: T, warnings: string[] = []): Parsed<T> {
  return { kind, ok: true, value, warnings };
}

export function unrecognized<T>(kind: string, reason: string): Parsed<T> {
  return { kind, ok: false, reason };
}

/**
 * Wraps a parser so that a bug in it can never escape as an exception: the caller gets `ok: false`
 * with the error message as the reason.
 */
export function total<T>(kind: string, parse: (text: string) => Parsed<T>): (text: string) => Parsed<T> {
  return (text: string) => {
    try {
      if (typeof text !== 'string') return unrecognized(kind, 'input is not text');
      return parse(text);
    } catch (err) {
      return unrecognized(kind, `parser error: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}
