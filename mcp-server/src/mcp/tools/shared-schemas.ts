import { z } from 'zod';

/** Output schema of one Finding (core/findings.ts), as every tool that reports findings returns it. */
export const findingSchema = z.object({
  id: z.string(),
  severity: z.enum(['critical', 'warning', 'info']),
  title: z.string(),
  evidence: z.array(z.string()),
  node: z.string().optional(),
  table: z.string().optional(),
  recommendation: z.string(),
  knowledgeIds: z.array(z.string()),
  confidence: z.enum(['high', 'medium', 'low']),
  sources: z.array(z.string()).optional(),
  mergedIds: z.array(z.string()).optional(),
  when: z.string().optional(),
  chain: z.object({ reason: z.string(), effects: z.array(z.record(z.string(), z.unknown())) }).optional(),
});

/** Output schema of the "what was checked, or could not be" list that goes with the findings. */
export const checkedSchema = z.array(
  z.object({ rule: z.string(), checks: z.string(), checked: z.boolean(), skippedBecause: z.string().optional(), findings: z.number() }),
);
