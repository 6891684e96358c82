/**
 * cassandra.yaml key changes by version (renames, unit-only changes, removals, deprecations), read from the
 * knowledge entries that carry `configKeys` rows (knowledge/config-renames.yaml). PURE.
 *
 * Stable API for other modules (audit_config, migration_review):
 *   renameOf(oldKey, toVersion?)        → the new name a pre-4.1 key has on toVersion (chains followed), or undefined
 *   renamesFor(fromVersion, toVersion)  → renames/unit changes that take effect after fromVersion, up to toVersion
 *   keyChangesFor(fromVersion, toVersion) → every change (renamed, unit, removed, deprecated) in that window
 *   oldNamesOf(newKey)                  → the old names a new key replaces
 *   keyStatus(key, version)             → what a key in a file means on that version
 */
import { allKnowledge, compareVersionText, hasKnowledge, type KnowledgeId } from '../knowledge/index.js';
import type { ConfigKeyChange } from '../knowledge/types.js';

export type { ConfigKeyChange } from '../knowledge/types.js';

/** A key change plus the knowledge entry that states it (cite it in findings). */
export interface KeyChange extends ConfigKeyChange {
  knowledgeId: KnowledgeId;
}

// Every entry id is known; the guard only narrows its type.
const ALL: readonly KeyChange[] = allKnowledge().flatMap((e) => {
  const id = e.id;
  return hasKnowledge(id) ? (e.configKeys ?? []).map((r) => ({ ...r, knowledgeId: id })) : [];
});

const BY_KEY = new Map<string, KeyChange[]>();
for (const c of ALL) BY_KEY.set(c.key, [...(BY_KEY.get(c.key) ?? []), c]);

function cmp(a: string, b: string): number {
  const c = compareVersionText(a, b);
  if (c === null) throw new Error(`config renames: cannot compare versions "${a}" and "${b}"`);
  return c;
}

/** Compares release lines: "4.1.10" is on the 4.1 line, so a change "since 4.1" applies to it. */
function atOrAfter(version: string, since: string): boolean {
  return cmp(version, since) >= 0;
}

/** Every key change row, in file order. */
export function allKeyChanges(): readonly KeyChange[] {
  return ALL;
}

function renamesOf(key: string): KeyChange[] {
  return (BY_KEY.get(key) ?? []).filter((c) => c.change === 'renamed' || c.change === 'unit');
}

/**
 * The rename of an old key. Without toVersion: the newest name (chains followed, e.g.
 * compaction_large_partition_warning_threshold_mb → compaction_large_partition_warning_threshold (4.1) →
 * partition_size_warn_threshold (5.0)). With toVersion: only steps that exist on that version.
 * Returns the last step (its `replacement` is the final name, `oldUnit` the unit of the original bare number).
 */
export function renameOf(oldKey: string, toVersion?: string): KeyChange | undefined {
  let key = oldKey;
  let first: KeyChange | undefined;
  let last: KeyChange | undefined;
  for (let hops = 0; hops < 5; hops++) {
    const steps = renamesOf(key)
      .filter((c) => toVersion === undefined || atOrAfter(toVersion, c.since))
      .sort((a, b) => cmp(b.since, a.since));
    const step = steps[0];
    if (!step || step.replacement === key) {
      if (step) last = step;
      break;
    }
    first ??= step;
    last = step;
    key = step.replacement!;
  }
  if (!last) return undefined;
  // Keep the original key and the unit its bare number had; name the final replacement.
  return first && first !== last ? { ...last, key: oldKey, oldUnit: first.oldUnit, valueType: last.valueType ?? first.valueType } : last;
}

/** Renames (and unit-only changes) whose version is after fromVersion and at or before toVersion. */
export function renamesFor(fromVersion: string, toVersion: string): KeyChange[] {
  return keyChangesFor(fromVersion, toVersion).filter((c) => c.change === 'renamed' || c.change === 'unit');
}

/** All key changes that take effect after fromVersion and at or before toVersion. */
export function keyChangesFor(fromVersion: string, toVersion: string): KeyChange[] {
  return ALL.filter((c) => !atOrAfter(fromVersion, c.since) && atOrAfter(toVersion, c.since));
}

/** The old names that a new key replaces (direct renames only). */
export function oldNamesOf(newKey: string): string[] {
  return ALL.filter((c) => c.change === 'renamed' && c.replacement === newKey).map((c) => c.key);
}

/** All new names reached by a rename. */
export function newNames(): Set<string> {
  return new Set(ALL.filter((c) => c.change === 'renamed' || c.change === 'unit').map((c) => c.replacement!));
}

export type KeyStatus =
  { status: 'current' } | { status: 'renamed'; change: KeyChange } | { status: 'removed'; change: KeyChange } | { status: 'deprecated'; change: KeyChange };

/**
 * What a key in a file means on `version`: removed (refused at startup), deprecated, renamed (old name still
 * accepted), or current. Unknown version: the newest facts apply.
 */
export function keyStatus(key: string, version?: string): KeyStatus {
  const applies = (c: KeyChange) => version === undefined || atOrAfter(version, c.since);
  const rows = (BY_KEY.get(key) ?? []).filter(applies);
  const removed = rows.find((c) => c.change === 'removed');
  if (removed) return { status: 'removed', change: removed };
  const renamed = rows.find((c) => c.change === 'renamed');
  if (renamed) return { status: 'renamed', change: renameOf(key, version) ?? renamed };
  const deprecated = rows.find((c) => c.change === 'deprecated');
  if (deprecated) return { status: 'deprecated', change: deprecated };
  return { status: 'current' };
}
