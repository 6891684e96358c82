/**
 * Line numbers inside a parsed value (log examples' `lineNo`, jvm.options flags' `line`) count lines of the text
 * the parser saw. After cleaning or splitting a paste that text is not the paste: map them back so that evidence
 * cites the line the operator can find in what they pasted.
 */

const LINE_KEYS = new Set(['lineNo', 'line']);

/** Rewrites, in place, every integer `lineNo` / `line` field in range through map (1-based in, 1-based out). */
export function remapLineNumbers<T>(value: T, map: readonly number[]): T {
  walk(value, map, 0);
  return value;
}

function walk(v: unknown, map: readonly number[], depth: number): void {
  if (v === null || typeof v !== 'object' || depth > 32) return;
  if (Array.isArray(v)) {
    for (const x of v) walk(x, map, depth + 1);
    return;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (LINE_KEYS.has(k) && typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= map.length) o[k] = map[x - 1];
    else if (typeof x === 'object') walk(x, map, depth + 1);
  }
}

/** map ∘ inner: line i of a cleaned part → its line in the part → its line in the paste. */
export function composeLineMaps(inner: readonly number[], outer: readonly number[]): number[] {
  return inner.map((n) => outer[n - 1] ?? n);
}
