// Types for scripts/gen-knowledge.mjs (plain JS so it runs with bare node; the tests import it).
import type { KnowledgeEntry } from '../mcp-server/src/core/knowledge/types.js';

export const ROOT: string;
export const KNOWLEDGE_DIR: string;
export const OUTPUT: string;
/** True when a verified.source is pinned: "<file>@<release tag>" or "<doc URL>#<section>". */
export function verifiedSourceOk(source: string): boolean;
/** What the check prints for an entry that has no verified record. */
export const MISSING_VERIFIED: string;
export function entryProblems(entry: unknown): [string, string][];
export function loadKnowledge(dir?: string): {
  entries: { file: string; entry: KnowledgeEntry }[];
  errors: string[];
  unverified: string[];
};
export function render(entries: readonly { file: string; entry: KnowledgeEntry }[]): string;
