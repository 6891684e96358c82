// `cql-tuner logs` checks its flags without zod when they fit (ops/analyze-logs.ts logsInputFits) and loads the schema
// (ops/analyze-logs-input.ts) for anything else: what fits must pass the schema, and the schema decides the rest.
import { describe, expect, it } from 'vitest';
import { LOGS_INPUT_LIMITS, logsInputFits } from '../../mcp-server/src/ops/analyze-logs.js';
import { analyzeLogsCliInputSchema, analyzeLogsInputSchema } from '../../mcp-server/src/ops/analyze-logs-input.js';

const x = (n: number) => 'x'.repeat(n);
const { pathChars, nodeChars } = LOGS_INPUT_LIMITS;

describe('logsInputFits never lets through what the CLI schema refuses', () => {
  const cases: { paths: string[]; node?: string }[] = [
    { paths: ['/var/log/cassandra/system.log'] },
    { paths: [] },
    { paths: [''] },
    { paths: ['a', ''] },
    { paths: [x(pathChars)] },
    { paths: [x(pathChars + 1)] },
    { paths: ['a', x(pathChars + 1)] },
    { paths: ['a'], node: '' },
    { paths: ['a'], node: x(nodeChars) },
    { paths: ['a'], node: x(nodeChars + 1) },
    { paths: Array.from({ length: 40 }, (_, i) => `system.log.${i}`) },
  ];
  it.each(cases.map((c, i) => [i, c] as const))('ASCII case %i: both give the same answer', (_i, c) => {
    expect(logsInputFits(c)).toBe(analyzeLogsCliInputSchema.safeParse(c).success);
  });
  it('a path longer in UTF-16 units than in code points goes to the schema, which decides', () => {
    // zod counts code points: 2,049 of them in 4,097 units fit its limit; logsInputFits counts units and defers.
    const c = { paths: ['😀'.repeat(pathChars / 2) + 'a'] };
    expect(logsInputFits(c)).toBe(false);
    expect(analyzeLogsCliInputSchema.safeParse(c).success).toBe(true);
  });
  it('a fitting input passes the schema unchanged', () => {
    const c = { paths: ['a', 'b'], node: 'n1' };
    expect(logsInputFits(c)).toBe(true);
    expect(analyzeLogsCliInputSchema.parse(c)).toEqual(c);
  });
  it("one schema: the CLI derives its schema from the MCP tool's, which alone caps the file count (the assistant composes it)", () => {
    const many = { paths: Array.from({ length: 17 }, (_, i) => `system.log.${i}`) };
    expect(analyzeLogsCliInputSchema.safeParse(many).success).toBe(true);
    expect(analyzeLogsInputSchema.safeParse(many).success).toBe(false);
    expect(Object.keys(analyzeLogsCliInputSchema.shape)).toEqual(Object.keys(analyzeLogsInputSchema.shape));
  });
});
