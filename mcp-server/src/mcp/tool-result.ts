import { describeError } from '../ops/errors.js';

/** A successful tool result: short text for the model, the full typed object as structured content. */
export function toolResult<T extends object>(text: string, structured: T) {
  return { content: [{ type: 'text' as const, text }], structuredContent: structured as Record<string, unknown> };
}

/** A failed tool call: isError with what went wrong and what to do; never a stack trace. */
export function toolError(e: unknown) {
  const d = describeError(e);
  return { content: [{ type: 'text' as const, text: `[${d.code}] ${d.message}\nFix: ${d.fix}` }], isError: true };
}
