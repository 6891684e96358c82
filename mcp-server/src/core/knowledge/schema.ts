/**
 * zod schema of a knowledge entry, matching types.ts (the compile-time checks at the bottom fail the build
 * if the two drift apart). Used by the tests to validate knowledge/*.yaml; scripts/gen-knowledge.mjs runs
 * the same checks in plain JS so it can run with bare node.
 */
import { z } from 'zod';
import { parseRange } from './index.js';
import type { KnowledgeEntry } from './types.js';

/** Lower-case words joined by "." or "-": "jvm.gc.pause", "compaction.throughput.default-pre-4.0". */
export const KNOWLEDGE_ID = /^[a-z0-9]+(?:[.-][a-z0-9]+)*$/;

export const ProductSchema = z.enum(['cassandra', 'scylla', 'dse']);

export const KnowledgeSourceSchema = z
  .strictObject({
    title: z.string().min(1),
    url: z.string().min(1).optional(),
    ref: z.string().min(1).optional(),
    date: z.string().min(1).optional(),
  })
  .refine((s) => s.url !== undefined || s.ref !== undefined, { message: 'a source needs a url or a ref (repo + path)' });

const VersionRange = z.string().superRefine((r, ctx) => {
  try {
    parseRange(r);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : String(e) });
  }
});

export const ConfigKeyChangeSchema = z.strictObject({
  key: z.string().regex(/^[a-z0-9_]+$/, 'a cassandra.yaml key (lower-case, underscores)'),
  change: z.enum(['renamed', 'unit', 'removed', 'deprecated']),
  since: z.string().regex(/^\d+\.\d+(?:\.\d+)?$/, 'a version such as "4.1"'),
  replacement: z
    .string()
    .regex(/^[a-z0-9_]+$/)
    .optional(),
  valueType: z.enum(['duration', 'data-storage', 'data-rate', 'boolean', 'number']).optional(),
  oldUnit: z.enum(['ms', 's', 'minutes', 'B', 'KiB', 'MiB', 'MiB/s', 'megabits/s']).optional(),
  note: z.string().min(1).optional(),
});

/** verified: the primary source a claim was checked against ("<file>@<tag>" or "<doc URL>#<section>") and the date. */
export const VerifiedSchema = z.strictObject({
  source: z.string().min(1),
  checked: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'checked: the date of the check, YYYY-MM-DD'),
});

export const KnowledgeEntrySchema = z
  .strictObject({
    id: z.string().regex(KNOWLEDGE_ID, 'id: lower-case words joined by "." or "-"'),
    statement: z.string().min(1),
    value: z.union([z.number(), z.string(), z.boolean()]).optional(),
    thresholds: z
      .strictObject({
        warning: z.number().optional(),
        critical: z.number().optional(),
        direction: z.enum(['above', 'below']).optional(),
      })
      .optional(),
    unit: z.string().min(1).optional(),
    appliesTo: z.array(z.strictObject({ product: ProductSchema, versions: VersionRange })).min(1),
    sources: z.array(KnowledgeSourceSchema).min(1),
    rationale: z.string().min(1),
    related: z.array(z.string().regex(KNOWLEDGE_ID)).optional(),
    tags: z.array(z.string().min(1)).optional(),
    configKeys: z.array(ConfigKeyChangeSchema).min(1).optional(),
    verified: VerifiedSchema.optional(),
  })
  .superRefine((e, ctx) => {
    if (e.value !== undefined && e.thresholds !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'an entry states a value or thresholds, not both' });
    }
    for (const [i, k] of (e.configKeys ?? []).entries()) {
      if ((k.change === 'renamed' || k.change === 'unit') && !k.replacement) {
        ctx.addIssue({ code: 'custom', path: ['configKeys', i, 'replacement'], message: `${k.change} needs the new name in replacement` });
      }
    }
    const t = e.thresholds;
    if (t) {
      if (t.warning === undefined && t.critical === undefined) {
        ctx.addIssue({ code: 'custom', path: ['thresholds'], message: 'thresholds need a warning or a critical limit' });
      }
      if (t.warning !== undefined && t.critical !== undefined) {
        const below = t.direction === 'below';
        if (below ? t.critical > t.warning : t.critical < t.warning) {
          ctx.addIssue({
            code: 'custom',
            path: ['thresholds', 'critical'],
            message: below ? 'direction "below": critical must be ≤ warning' : 'direction "above": critical must be ≥ warning',
          });
        }
      }
    }
  });

export type KnowledgeEntryParsed = z.infer<typeof KnowledgeEntrySchema>;

// Compile-time: the schema's type and types.ts accept each other.
const _fromSchema: KnowledgeEntry = {} as KnowledgeEntryParsed;
const _fromType: KnowledgeEntryParsed = {} as KnowledgeEntry;
void _fromSchema;
void _fromType;
