/**
 * Array helpers that stay linear and never spread an array into call arguments: `Math.max(...xs)` and
 * `a.push(...xs)` throw RangeError (stack overflow) past roughly 100k elements, and a pasted output can hold that
 * many rows. `map.set(k, [...old, x])` copies the list at every step (quadratic): use pushTo.
 */

/** The largest number, or -Infinity for none (as Math.max()). */
export function maxOf(xs: readonly number[]): number {
  let m = -Infinity;
  for (const x of xs) m = x > m || Number.isNaN(x) ? x : m;
  return m;
}

/** The smallest number, or Infinity for none (as Math.min()). */
export function minOf(xs: readonly number[]): number {
  let m = Infinity;
  for (const x of xs) m = x < m || Number.isNaN(x) ? x : m;
  return m;
}

/** Appends every item to target (in place), however many. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const x of items) target.push(x);
  return target;
}

/** Appends x to the list under key, creating it. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, x: V): void {
  const list = map.get(key);
  if (list) list.push(x);
  else map.set(key, [x]);
}

/** One line for each of the first `max` items, then one saying how many more there were (evidence of a 100k-node ring). */
export function linesCapped<T>(items: readonly T[], max: number, line: (x: T) => string, what: string): string[] {
  const out = items.slice(0, max).map(line);
  if (items.length > max) out.push(`… and ${items.length - max} more ${what}`);
  return out;
}
