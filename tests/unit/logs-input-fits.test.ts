// `cql-tuner logs` checks its flags without zod when they fit (ops/analyze-logs.ts logsInputFits) and loads the schema
// (ops/analyze-logs-input.ts) for anything else: what fits must pass the schema, and the schema decides the rest.
import { describe, expect, it } from 'vitest';
import { LOGS_INPUT_LIMITS, logsInputFits } from '../../mcp-server/src/ops/analyze-logs.js';
import { analyzeLogsInputSchema } from '../../mcp-server/src/ops/analyze-logs-input.js';

const x = (n: number) => 'x'.repeat(n);
const { pathChars, nodeChars } = LOGS_INPUT_LIMITS;

describe('logsInputFits never lets through what analyzeLogsInputSchema refuses', () => {
  const cases: { files: string[]; node?: string }[] = [
    { files: ['/var/log/cassandra/system.log'] },
    { files: [] },
    { files: [''] },
    { files: ['a', ''] },
    { files: [x(pathChars)] },
    { files: [x(pathChars + 1)] },
    { files: ['a', x(pathChars + 1)] },
    { files: ['a'], node: '' },
    { files: ['a'], node: x(nodeChars) },
    { files: ['a'], node: x(nodeChars + 1) },
  ];
  it.each(cases.map((c, i) => [i, c] as const))('ASCII case %i: both give the same answer', (_i, c) => {
    expect(logsInputFits(c)).toBe(analyzeLogsInputSchema.safeParse(c).success);
  });
  it('a path longer in UTF-16 units than in code points goes to the schema, which decides', () => {
    // zod counts code points: 2,049 of them in 4,097 units fit its limit; logsInputFits counts units and defers.
    const c = { files: ['😀'.repeat(pathChars / 2) + 'a'] };
    expect(logsInputFits(c)).toBe(false);
    expect(analyzeLogsInputSchema.safeParse(c).success).toBe(true);
  });
  it('a fitting input passes the schema unchanged', () => {
    const c = { files: ['a', 'b'], node: 'n1' };
    expect(logsInputFits(c)).toBe(true);
    expect(analyzeLogsInputSchema.parse(c)).toEqual(c);
  });
});
