// The input of analyze_logs and of `cql-tuner logs`, apart from analyze-logs.ts so the logs verb loads zod only for an
// input that does not fit (logsInputFits), to word the refusal.
import { z } from 'zod';
import { LOGS_INPUT_LIMITS } from './analyze-logs.js';

const path = z.string().min(1).max(LOGS_INPUT_LIMITS.pathChars);

/** What the MCP tool registers: a bounded list, since the paths are composed by the assistant. */
export const analyzeLogsInputSchema = z.object({
  paths: z.array(path).min(1).max(LOGS_INPUT_LIMITS.toolFiles).describe('Log files of one node on the machine the server runs on (.gz too)'),
  node: z.string().max(LOGS_INPUT_LIMITS.nodeChars).optional().describe('The node the files belong to, as reports should name it'),
});

/** The CLI's: the operator's own arguments may name any number of files (all rotated logs of a node). */
export const analyzeLogsCliInputSchema = analyzeLogsInputSchema.extend({ paths: z.array(path).min(1) });
