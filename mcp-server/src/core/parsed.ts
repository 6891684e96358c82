import { capLineLength, MAX_LINE_CHARS } from './text.js';

/** Parsers are total: they return this instead of throwing. */
export type Parsed<T> = { kind: string; ok: true; value: T; warnings: string[] } | { kind: string; ok: false; reason: string };

export function parsedOk<T>(kind: string, value: T, warnings: string[] = []): Parsed<T> {
  return { kind, ok: true, value, warnings };
}

export function unrecognized<T>(kind: string, reason: string): Parsed<T> {
  return { kind, ok: false, reason };
}

export interface TotalOptions {
  /**
   * Lines longer than this are cut before parsing (default MAX_LINE_CHARS). null: keep them whole, for a format whose
   * whole document is one line (a JSON dump) and whose parser runs no per-line regex over it (JSON.parse is linear).
   */
  maxLineChars?: number | null;
}

/**
 * Wraps a parser so that a bug in it can never escape as an exception: the caller gets `ok: false`
 * with the error message as the reason.
 */
export function total<T>(kind: string, parse: (text: string) => Parsed<T>, options: TotalOptions = {}): (text: string) => Parsed<T> {
  const max = options.maxLineChars === undefined ? MAX_LINE_CHARS : options.maxLineChars;
  return (text: string) => {
    try {
      if (typeof text !== 'string') return unrecognized(kind, 'input is not text');
      // Over-long lines are cut before any parser sees them, so no per-line regex can cost more than a line's cap.
      const capped = max === null ? { text, cut: 0 } : capLineLength(text, max);
      const r = parse(capped.text);
      const cutNote = capped.cut && max !== null ? `${capped.cut} line(s) longer than ${max / 1024} KiB were cut to their first ${max / 1024} KiB` : null;
      // Parsers keep numbers finite (NaN in a column → null). A number past double range ("1e309", or sums of
      // "1e308"s) is no real tool output, and NaN/Infinity would become null in JSON and fail output schemas.
      const bad = r.ok ? nonFinitePath(r.value, '') : null;
      if (bad !== null) return unrecognized(kind, `a number in the text is out of range (${bad || 'the value'} is not finite); the output looks altered`);
      if (!cutNote) return r;
      return r.ok ? { ...r, warnings: [...r.warnings, cutNote] } : unrecognized(kind, `${r.reason} (${cutNote})`);
    } catch (err) {
      return unrecognized(kind, `parser error: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

/** Path of the first NaN/±Infinity number inside a parsed value, or null when every number is finite. */
function nonFinitePath(v: unknown, path: string, depth = 0): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : path;
  if (v === null || typeof v !== 'object' || depth > 64) return null;
  for (const [k, x] of Object.entries(v)) {
    const p = nonFinitePath(x, `${path}${Array.isArray(v) ? `[${k}]` : `.${k}`}`, depth + 1);
    if (p !== null) return p;
  }
  return null;
}
