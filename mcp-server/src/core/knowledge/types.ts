/**
 * One fact of the knowledge pack (knowledge/*.yaml → entries.generated.ts). Numbers live here, with where
 * they come from and which versions they hold for; rules and skills cite the id.
 */
export type Product = 'cassandra' | 'scylla' | 'dse';

export interface KnowledgeSource {
  title: string;
  /** Public URL, or a code path such as "apache/cassandra src/java/org/apache/cassandra/config/Config.java". */
  url?: string;
  ref?: string;
  /** When the source was published or the code version it describes (YYYY, YYYY-MM or YYYY-MM-DD, or a version). */
  date?: string;
}

/** One cassandra.yaml key change (knowledge/config-renames.yaml); read through core/config/renames.ts. */
export interface ConfigKeyChange {
  /** The key as written in the older file. */
  key: string;
  /** renamed: new name; unit: same name, the value now takes a unit; removed: refused; deprecated: still parsed. */
  change: 'renamed' | 'unit' | 'removed' | 'deprecated';
  /** First version with the change, e.g. "4.1". */
  since: string;
  /** renamed/unit: the new name; removed/deprecated: what to use instead, when there is something. */
  replacement?: string;
  /** The kind of value under the new name. */
  valueType?: 'duration' | 'data-storage' | 'data-rate' | 'boolean' | 'number';
  /** What a bare number under the old name meant: ms, s, minutes, B, KiB, MiB, MiB/s, megabits/s. */
  oldUnit?: 'ms' | 's' | 'minutes' | 'B' | 'KiB' | 'MiB' | 'MiB/s' | 'megabits/s';
  note?: string;
}

/** Where a claim was verified: "<file path>@<tag>" (e.g. "schema/schema.hh@scylla-2025.1.0") or "<doc URL>#<section>". */
export interface KnowledgeVerification {
  source: string;
  /** Date of the check, YYYY-MM-DD. */
  checked: string;
}

export interface KnowledgeEntry {
  id: string;
  statement: string;
  /** A single value (a default, a limit) … */
  value?: number | string | boolean;
  /** … or rule thresholds: at or above warning → warning, at or above critical → critical (below for "min" kinds). */
  thresholds?: { warning?: number; critical?: number; direction?: 'above' | 'below' };
  unit?: string;
  /** Products and version ranges, e.g. { product: cassandra, versions: ">=4.0 <5.0" } or "*". */
  appliesTo: { product: Product; versions: string }[];
  sources: KnowledgeSource[];
  rationale: string;
  related?: string[];
  tags?: string[];
  /** The primary source the claim was last checked against, and when: an audit trail, not a citation list. */
  verified?: KnowledgeVerification;
  /** Data rows for configuration key changes (renames, removals, deprecations by version). */
  configKeys?: ConfigKeyChange[];
}
