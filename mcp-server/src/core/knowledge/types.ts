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
}
