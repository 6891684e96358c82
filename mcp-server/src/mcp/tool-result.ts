import { describeError } from '../ops/errors.js';

/**
 * A successful tool result: short text for the model, the full typed object as structured content.
 * A result holding NaN or ±Infinity (an input of zero or 1e-300 divided by, or overflowed) would fail the SDK's
 * output-schema check or turn into null in JSON, and the client would get a protocol error instead of an answer:
 * such a result becomes a tool error that still carries the text and names the numbers that are not finite.
 */
export function toolResult<T extends object>(text: string, structured: T) {
  const bad = nonFinitePaths(structured);
  if (bad.length) {
    const note =
      `[NON_FINITE_RESULT] ${bad.length === MAX_PATHS ? 'at least ' : ''}${bad.length} number(s) of this result are not finite (${bad.join(', ')}): ` +
      'an input is zero, tiny or huge, so a division or a power overflowed; the text above is as computed, the structured result is withheld.\n' +
      'Fix: Check the inputs behind those numbers (a zero duration or throughput, a value like 1e-300) and call again.';
    return { content: [{ type: 'text' as const, text: `${text}\n\n${note}` }], isError: true };
  }
  return { content: [{ type: 'text' as const, text }], structuredContent: structured as Record<string, unknown> };
}

/** A failed tool call: isError with what went wrong and what to do; never a stack trace. */
export function toolError(e: unknown) {
  const d = describeError(e);
  return { content: [{ type: 'text' as const, text: `[${d.code}] ${d.message}\nFix: ${d.fix}` }], isError: true };
}

const MAX_PATHS = 5;

/** Paths ("vnodes.steps[0].minutes = Infinity") of the first NaN/±Infinity numbers in a value. */
export function nonFinitePaths(v: unknown, path = '', out: string[] = [], seen = new Set<object>(), depth = 0): string[] {
  if (out.length >= MAX_PATHS) return out;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) out.push(`${path || 'the result'} = ${v}`);
    return out;
  }
  if (v === null || typeof v !== 'object' || seen.has(v) || depth > 64) return out;
  seen.add(v);
  if (Array.isArray(v)) v.forEach((x, i) => nonFinitePaths(x, `${path}[${i}]`, out, seen, depth + 1));
  else for (const [k, x] of Object.entries(v)) nonFinitePaths(x, path ? `${path}.${k}` : k, out, seen, depth + 1);
  return out;
}
