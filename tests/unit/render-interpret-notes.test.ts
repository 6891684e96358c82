/**
 * interpret's text says what the parser could not read and what the output itself notes (a cut output, a negative
 * ScyllaDB counter): before, both were in the JSON only, and an operator reading the text saw a clean report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { renderInterpret } from '../../mcp-server/src/render/interpret.js';

const real = (f: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', 'real-world', f), 'utf8');

describe('interpret text shows notes and warnings', () => {
  it('a negative Space used (scylladb#682) is a note, the unclosed keyspace a warning, both before the checks', () => {
    const text = renderInterpret(interpretText(real('tablestats_scylla-negative-space-used-live_scylla682.txt')));
    const notes = text.indexOf('\nNotes:\n- keyspace1.standard1: negative "Space used"');
    const warnings = text.indexOf('\nRead with warnings:\n- the last keyspace is not closed');
    expect(notes).toBeGreaterThan(0);
    expect(warnings).toBeGreaterThan(notes);
    expect(text.indexOf('\nChecked:\n')).toBeGreaterThan(warnings);
  });

  it('past 12 items the rest are counted, not dropped silently; a clean output has neither section', () => {
    const base = interpretText('Address Rack Status State Load Owns Token\n10.0.0.1 r1 Up Normal 1 GB 50% 1');
    expect(renderInterpret(base)).not.toMatch(/Notes:|Read with warnings:/);
    const many = Array.from({ length: 15 }, (_, i) => `row ${i} not understood`);
    const text = renderInterpret({ ...base, notes: ['one note'], warnings: many });
    expect(text).toContain('\nNotes:\n- one note\n');
    expect(text.match(/^- row \d+ not understood$/gm)).toHaveLength(12);
    expect(text).toContain('- … and 3 more (--json lists them all)');
  });
});
