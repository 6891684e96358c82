/**
 * Repeats across the files of one node's stream (debug.log repeating system.log): the last file of a stream is not
 * remembered, so a single file costs no hashing, and a repeat in any later file is still found.
 */
import { describe, expect, it } from 'vitest';
import { LogAccumulator } from '../../mcp-server/src/core/parse/logs/index.js';
import { SeenLines } from '../../mcp-server/src/core/parse/logs/seen-lines.js';

const GC = 'INFO  [Service Thread] 2024-05-01 00:00:01,000 GCInspector.java:284 - G1 Young Generation GC in 412ms.  G1 Eden Space: 1 -> 0;';
const GC2 = GC.replace('00:00:01,000', '00:00:02,000');

function read(files: string[], sources?: number) {
  const acc = new LogAccumulator(sources === undefined ? {} : { sources });
  files.forEach((text, i) => {
    if (i > 0) acc.nextSource();
    acc.push(`${text}\n`);
  });
  const r = acc.end();
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

describe('SeenLines across the files of a stream', () => {
  it('a line not remembered is never reported as a repeat, and a remembered one is, from a later file only', () => {
    const seen = new SeenLines();
    expect(seen.repeatsEarlier(GC, 0, false)).toBe(false);
    expect(seen.repeatsEarlier(GC, 1, false)).toBe(false); // nothing was kept
    expect(seen.repeatsEarlier(GC, 0)).toBe(false);
    expect(seen.repeatsEarlier(GC, 0)).toBe(false); // the same file: two events
    expect(seen.repeatsEarlier(GC, 1, false)).toBe(true);
  });

  it('with the file count given, a repeat in the second or the third file is counted once; one file counts both lines', () => {
    for (const sources of [undefined, 3]) {
      const l = read([GC, GC2, `${GC}\n${GC2}`], sources);
      expect(l.gc.pauses, `sources ${sources}`).toBe(2);
      expect(l.lines.duplicates).toBe(2);
    }
    const one = read([`${GC}\n${GC}`], 1);
    expect(one.gc.pauses).toBe(2);
    expect(one.lines.duplicates).toBe(0);
  });
});
