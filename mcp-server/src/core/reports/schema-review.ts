/**
 * What review_schema returns, as data: ops/review-schema.ts fills it, render/schema-review.ts prints it. Types only,
 * in core so the renderer depends down.
 */
import type { Finding } from '../findings.js';
import type { SchemaTableRow } from '../rules/schema.js';

export interface SchemaReview {
  source: string;
  product: 'cassandra' | 'scylla' | 'unknown';
  counts: { keyspaces: number; tables: number; indexes: number; views: number; types: number; other: number };
  tables: SchemaTableRow[];
  findings: Finding[];
  checked: { rule: string; checks: string; checked: boolean; skippedBecause?: string; findings: number }[];
  warnings: string[];
}
