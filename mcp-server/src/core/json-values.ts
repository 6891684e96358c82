/** Typed reads of values from parsed JSON (a tool's report, an API answer): the value when it has that type, else null. */

export const finiteNumber = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const stringOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
