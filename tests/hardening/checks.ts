/** What every parser result must look like, whatever the input. */
import type { Parsed } from '../../mcp-server/src/core/parsed.js';

/** Paths of numbers that are NaN or ±Infinity inside a value (JSON turns them into null, zod rejects them). */
export function nonFiniteNumbers(v: unknown, path = '$', out: string[] = [], seen = new Set<object>()): string[] {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) out.push(`${path}=${v}`);
  } else if (v && typeof v === 'object') {
    if (seen.has(v)) return out;
    seen.add(v);
    for (const [k, x] of Object.entries(v)) {
      if (out.length >= 5) break;
      nonFiniteNumbers(x, `${path}.${k}`, out, seen);
    }
  }
  return out;
}

/** null when the result is a well-formed Parsed; otherwise what is wrong with it. */
export function parsedProblem(r: unknown): string | null {
  if (!r || typeof r !== 'object') return `result is ${typeof r}, not a Parsed`;
  const p = r as Parsed<unknown>;
  if (typeof p.kind !== 'string' || p.kind === '') return 'kind is not a non-empty string';
  if (p.ok === false) {
    if (typeof p.reason !== 'string' || p.reason.trim() === '') return 'ok:false without a reason';
    return null;
  }
  if (p.ok !== true) return 'ok is not a boolean';
  if (!Array.isArray(p.warnings) || p.warnings.some((w) => typeof w !== 'string')) return 'warnings is not a string[]';
  if (p.value === undefined) return 'ok:true without a value';
  try {
    JSON.stringify(p.value);
  } catch (e) {
    return `value is not JSON-serialisable: ${(e as Error).message}`;
  }
  const bad = nonFiniteNumbers(p.value);
  if (bad.length) return `value holds non-finite numbers: ${bad.join(', ')}`;
  return null;
}

/** Runs fn, measuring it; a throw becomes a problem string. */
export function timed<T>(fn: () => T): { value?: T; error?: string; ms: number } {
  const t0 = performance.now();
  try {
    const value = fn();
    return { value, ms: performance.now() - t0 };
  } catch (e) {
    return { error: `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`, ms: performance.now() - t0 };
  }
}

/** A short printable excerpt of an input for failure messages. */
export function excerpt(text: string, n = 300): string {
  return JSON.stringify(text.length > n ? `${text.slice(0, n)}…(${text.length} chars)` : text);
}
