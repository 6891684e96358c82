// The schema of `cql-tuner logs` input, apart from analyze-logs.ts so the logs verb loads zod only for an input
// that does not fit (logsInputFits), to word the refusal.
import { z } from 'zod';
import { LOGS_INPUT_LIMITS } from './analyze-logs.js';

export const analyzeLogsInputSchema = z.object({
  files: z.array(z.string().min(1).max(LOGS_INPUT_LIMITS.pathChars)).min(1),
  node: z.string().max(LOGS_INPUT_LIMITS.nodeChars).optional(),
});
