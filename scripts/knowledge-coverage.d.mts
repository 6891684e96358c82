// Types for scripts/knowledge-coverage.mjs (plain JS so it runs with bare node; the tests import it).
import type { KnowledgeEntry, Product } from '../mcp-server/src/core/knowledge/types.js';

export interface Topic {
  topic: string;
  entries: KnowledgeEntry[];
}
export type AppliesTo = (entry: KnowledgeEntry, product: Product, version: string | null | undefined) => boolean;

export const ROOT: string;
export const KNOWLEDGE_DIR: string;
export const README: string;
export const BEGIN: string;
export const END: string;
export const COLUMNS: readonly { label: string; product: Product; version: string | null }[];
export function loadTopics(dir?: string): Topic[];
export function renderCoverage(topics: readonly Topic[], appliesTo: AppliesTo): string;
export function readmeTable(text: string): string | null;
export function replaceReadmeTable(text: string, table: string): string;
