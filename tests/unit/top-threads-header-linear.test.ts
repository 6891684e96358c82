/** The top -H header is found in linear time: a long hostile "PID USER %CPU %CPU …" line without COMMAND at the end. */
import { describe, expect, it } from 'vitest';
import { parseTopThreads, topThreadsSignature } from '../../mcp-server/src/core/kinds/jvm-top-threads/parse.js';

describe('top -H header on a hostile line', () => {
  const line = `PID USER ${'%CPU '.repeat(20_000)}x`;
  it('the parser and the detection signature give up fast', () => {
    const t0 = Date.now();
    expect(parseTopThreads(`${line}\n1 root 20 0 1 1 1 S 5.0 0.1 0:01.00 java\n`).ok).toBe(false);
    expect(topThreadsSignature.test(line)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(500);
  });
  it('a real header still matches', () => {
    expect(topThreadsSignature.test('  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND')).toBe(true);
  });
});
