/**
 * JSON text from the k8ssandra Management API (untrusted: it comes from the cluster) → a plain value, or the reason
 * it is not one. Never throws. Nesting is bounded before JSON.parse sees the text, so a hostile "[[[[…" answer
 * costs one linear scan, not a deep recursion.
 */
export const MAX_JSON_DEPTH = 32;

export type JsonRead = { ok: true; value: unknown } | { ok: false; reason: string };

/** Deepest bracket nesting outside strings; stops counting past `limit`. */
function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

export function readJson(text: unknown): JsonRead {
  if (typeof text !== 'string') return { ok: false, reason: 'the answer is not text' };
  if (!text.trim()) return { ok: false, reason: 'the answer is empty' };
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { ok: false, reason: `the JSON nests deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, reason: `not JSON (${e instanceof Error ? e.message.slice(0, 120) : 'parse error'})` };
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string field as text with control characters replaced (a hostile name must not reach a terminal raw). */
export function cleanText(v: unknown, max = 200): string | null {
  if (typeof v !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const s = v.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
