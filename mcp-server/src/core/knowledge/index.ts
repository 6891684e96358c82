/**
 * The knowledge pack at run time: look-ups by id over the entries generated from knowledge/*.yaml
 * (scripts/gen-knowledge.mjs → entries.generated.ts). PURE: no fs, no env, no clock.
 *
 * Rules call knowledge/threshold/valueOf with a literal id, at module level or inside run(); an unknown id
 * throws at once, so a typo fails the first test that touches the rule. Skills and commands cite the
 * same ids as `kb:<id>`; tests/unit/knowledge-entries.test.ts checks that every cited id exists.
 */
import { ENTRIES, type KnowledgeId } from './entries.generated.js';
export type { KnowledgeId } from './entries.generated.js';
import type { KnowledgeEntry, Product } from './types.js';

export type { KnowledgeEntry, KnowledgeSource, Product } from './types.js';

export interface Threshold {
  warning?: number;
  critical?: number;
  /** "above": at or above the limit is bad; "below": at or below the limit is bad. Defaults to "above". */
  direction: 'above' | 'below';
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as Record<string, unknown>)) deepFreeze(v);
  }
  return o;
}

const BY_ID: ReadonlyMap<string, KnowledgeEntry> = (() => {
  const m = new Map<string, KnowledgeEntry>();
  for (const e of ENTRIES) {
    if (m.has(e.id)) throw new Error(`knowledge: duplicate id "${e.id}" in entries.generated.ts (re-run node scripts/gen-knowledge.mjs)`);
    m.set(e.id, deepFreeze(e));
  }
  Object.freeze(ENTRIES);
  return m;
})();

function unknownId(id: string): Error {
  const prefix = id.split('.')[0] ?? '';
  const near = [...BY_ID.keys()].filter((k) => k.startsWith(`${prefix}.`)).slice(0, 8);
  return new Error(
    `knowledge: unknown id "${id}"${near.length ? `; ids under "${prefix}.": ${near.join(', ')}` : ''} (add it to knowledge/*.yaml and run node scripts/gen-knowledge.mjs)`,
  );
}

/** The entry with this id; throws a clear Error for an unknown id. */
export function knowledge(id: KnowledgeId): KnowledgeEntry {
  const e = BY_ID.get(id);
  if (!e) throw unknownId(id);
  return e;
}

/** True when the id exists (for code that must not throw, e.g. rendering a cited id, or an id read from data). */
export function hasKnowledge(id: string): id is KnowledgeId {
  return BY_ID.has(id);
}

/** An operator's threshold overrides (core/rules/policy.ts): knowledge id → the warning/critical to use instead. */
export type ThresholdOverrides = ReadonlyMap<string, { warning?: number; critical?: number }>;

/**
 * The thresholds of an entry, direction defaulted to "above", with the overrides given for it (rules get theirs
 * from their RuleContext, core/rules/rule.ts); throws when the entry has none.
 */
export function threshold(id: KnowledgeId, overrides?: ThresholdOverrides): Threshold {
  const e = knowledge(id);
  if (!e.thresholds)
    throw new Error(
      `knowledge: "${id}" has no thresholds (it states ${e.value !== undefined ? 'a value' : 'a fact without a number'}); use valueOf() or knowledge()`,
    );
  const t: Threshold = { direction: e.thresholds.direction ?? 'above' };
  if (e.thresholds.warning !== undefined) t.warning = e.thresholds.warning;
  if (e.thresholds.critical !== undefined) t.critical = e.thresholds.critical;
  const o = overrides?.get(id);
  if (o?.warning !== undefined) t.warning = o.warning;
  if (o?.critical !== undefined) t.critical = o.critical;
  return t;
}

/** The single value of an entry (a default, a limit, a name); throws when the entry has none. */
export function valueOf(id: KnowledgeId): number | string | boolean {
  const e = knowledge(id);
  if (e.value === undefined)
    throw new Error(`knowledge: "${id}" has no value (it states ${e.thresholds ? 'thresholds' : 'a fact without a number'}); use threshold() or knowledge()`);
  return e.value;
}

/** valueOf() for entries whose value is a number; throws when it is not. */
export function numberOf(id: KnowledgeId): number {
  const v = valueOf(id);
  if (typeof v !== 'number') throw new Error(`knowledge: "${id}" has a ${typeof v} value, not a number`);
  return v;
}

/** Every entry, sorted by id. */
export function allKnowledge(): readonly KnowledgeEntry[] {
  return ENTRIES;
}

// ---------------------------------------------------------------------------------------------------------
// Version ranges. Grammar (whitespace-separated clauses are ANDed, "||" separates alternatives):
//   "*"                 any version
//   "4.1" | "4.1.x"     that release line: >=4.1 <4.2 (a bare version is a prefix; "=4.1" means the same)
//   ">=4.0 <5.0"        comparators >=, >, <=, < against versions of 1–4 numeric parts; a written version
//                       stands for its whole line, so "<=4.1" includes 4.1.9 and ">4.1" starts at 4.2
//   ">=2024.1"          ScyllaDB year-based releases compare the same way
//   "<4.0 || >=5.0"     alternatives
// Versions compare part by part as numbers, missing parts count as 0 (so "4.0" = "4.0.0" and "5.0-beta1"
// counts as 5.0.0: a pre-release belongs to the release it precedes).

type Version = readonly number[];
interface Bound {
  v: Version;
  inclusive: boolean;
}
/** One alternative: an interval; an absent bound is unbounded. */
export interface VersionInterval {
  lo?: Bound;
  hi?: Bound;
}

const CLAUSE = /^(>=|<=|>|<|=)?(\d+(?:\.\d+){0,3})(\.[x*])?$/;

/** The numeric parts of a version string ("4.1.10", "5.0-beta1", "2024.1.3", "6.2.0-0.2024…"); null if none. */
export function parseVersion(version: string): Version | null {
  const m = /(\d+(?:\.\d+)*)/.exec(version);
  if (!m?.[1]) return null;
  return m[1].split('.').map((p) => Number(p));
}

export function compareVersions(a: Version, b: Version): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/**
 * The one comparison of two version strings ("4.1.10" vs "4.1.9", "6.2.3" vs "2025.1.0"): part by part as numbers,
 * never as text. Null when either has no numeric version in it.
 */
export function compareVersionText(a: string, b: string): number | null {
  const va = parseVersion(a);
  const vb = parseVersion(b);
  return va && vb ? compareVersions(va, vb) : null;
}

/** The oldest of some version strings by number (mid-upgrade the oldest node decides); those without a version are left out. */
export function oldestVersion(versions: readonly string[]): string | undefined {
  const known = versions.filter((v) => parseVersion(v) !== null);
  return [...known].sort((a, b) => compareVersionText(a, b)!)[0];
}

/** Parses a range into its alternatives; throws with the offending clause when the syntax is wrong. */
export function parseRange(range: string): VersionInterval[] {
  const text = range.trim();
  if (!text) throw new Error('version range is empty');
  return text.split('||').map((altText) => {
    const alt = altText.trim();
    if (alt === '*') return {};
    if (!alt) throw new Error(`version range "${range}" has an empty alternative`);
    const iv: VersionInterval = {};
    for (const clause of alt.split(/\s+/)) {
      const m = CLAUSE.exec(clause);
      if (!m?.[2]) throw new Error(`version range "${range}": cannot read "${clause}" (use "*", "4.1", ">=4.0 <5.0", ">=2024.1")`);
      const op = m[1] ?? '';
      const v = m[2].split('.').map(Number);
      const tighten = (which: 'lo' | 'hi', b: Bound) => {
        const cur = iv[which];
        if (!cur) return void (iv[which] = b);
        const c = compareVersions(b.v, cur.v);
        const tighter = which === 'lo' ? c > 0 || (c === 0 && !b.inclusive) : c < 0 || (c === 0 && !b.inclusive);
        if (tighter) iv[which] = b;
      };
      // A version as written covers its whole line ("4.1" = every 4.1.x), as in semver's partial versions:
      // ">=4.1" starts at 4.1.0, "<4.1" stops before it, "<=4.1" includes all of 4.1.x, ">4.1" starts at 4.2.
      const next = [...v.slice(0, -1), (v[v.length - 1] ?? 0) + 1];
      if (op === '>=') tighten('lo', { v, inclusive: true });
      else if (op === '>') tighten('lo', { v: next, inclusive: true });
      else if (op === '<=') tighten('hi', { v: next, inclusive: false });
      else if (op === '<') tighten('hi', { v, inclusive: false });
      else {
        // Bare or "=" version, or "4.1.x": the release line, [v, next).
        tighten('lo', { v, inclusive: true });
        tighten('hi', { v: next, inclusive: false });
      }
    }
    return iv;
  });
}

function inInterval(v: Version, iv: VersionInterval): boolean {
  if (iv.lo) {
    const c = compareVersions(v, iv.lo.v);
    if (c < 0 || (c === 0 && !iv.lo.inclusive)) return false;
  }
  if (iv.hi) {
    const c = compareVersions(v, iv.hi.v);
    if (c > 0 || (c === 0 && !iv.hi.inclusive)) return false;
  }
  return true;
}

/** True when the version lies in the range. Throws on a malformed range or an unreadable version. */
export function versionInRange(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (!v) throw new Error(`cannot read a version number in "${version}"`);
  return parseRange(range).some((iv) => inInterval(v, iv));
}

function intervalsOverlap(a: VersionInterval, b: VersionInterval): boolean {
  // The larger lower bound must not pass the smaller upper bound.
  const lo = !a.lo
    ? b.lo
    : !b.lo
      ? a.lo
      : (() => {
          const c = compareVersions(a.lo.v, b.lo.v);
          return c > 0 ? a.lo : c < 0 ? b.lo : { v: a.lo.v, inclusive: a.lo.inclusive && b.lo.inclusive };
        })();
  const hi = !a.hi
    ? b.hi
    : !b.hi
      ? a.hi
      : (() => {
          const c = compareVersions(a.hi.v, b.hi.v);
          return c < 0 ? a.hi : c > 0 ? b.hi : { v: a.hi.v, inclusive: a.hi.inclusive && b.hi.inclusive };
        })();
  if (!lo || !hi) return true;
  const c = compareVersions(lo.v, hi.v);
  return c < 0 || (c === 0 && lo.inclusive && hi.inclusive);
}

/** True when some version lies in both ranges. */
export function rangesOverlap(a: string, b: string): boolean {
  const ia = parseRange(a);
  const ib = parseRange(b);
  return ia.some((x) => ib.some((y) => intervalsOverlap(x, y)));
}

/**
 * Whether the entry holds for this product and version. With an unknown version (null, undefined or no
 * number in it) the answer is whether the product is listed at all: the caller must then say "unknown
 * version" in its report rather than guess.
 */
export function appliesTo(entry: KnowledgeEntry, product: Product, version: string | null | undefined): boolean {
  const forProduct = entry.appliesTo.filter((a) => a.product === product);
  if (forProduct.length === 0) return false;
  const v = version ? parseVersion(version) : null;
  if (!v) return true;
  return forProduct.some((a) => parseRange(a.versions).some((iv) => inInterval(v, iv)));
}

/** Entries that hold for this product and version (see appliesTo for an unknown version). */
export function knowledgeFor(product: Product, version: string | null | undefined): KnowledgeEntry[] {
  return ENTRIES.filter((e) => appliesTo(e, product, version));
}
