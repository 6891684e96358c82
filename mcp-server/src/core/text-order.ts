/**
 * Orders two strings by their UTF-16 code units: a fixed order for ids, pool, table and node names. Not
 * localeCompare: its first call loads ICU's collator, ~2.4 MiB more peak RSS for `cql-tuner logs` (measured on the
 * 100 MB log of bench/sperf.mjs), and these names are ASCII, where a locale order adds nothing an operator reads.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
