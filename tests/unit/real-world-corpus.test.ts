import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_KINDS } from '../../mcp-server/src/core/detect.js';
import { FIXTURES_DIR } from '../helpers/corpus.js';

// Shape of the real-world corpus (tests/fixtures/real-world), not its scores: `npm run realworld` scores it.
const DIR = join(FIXTURES_DIR, 'real-world');
const HEADER = ['file', 'url', 'product_version', 'kind', 'conclusion', 'expected', 'split'] as const;
/** Files in the directory that are not samples. */
const NOT_SAMPLES = new Set(['SOURCES.tsv', 'README.md']);
/** A finding id as the rules emit them: dotted lower-case segments (topology.node-down, log.gc-pause). */
const FINDING_ID = /^[a-z]+(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

type Row = Record<(typeof HEADER)[number], string>;

function readRows(): { header: string[]; rows: Row[] } {
  const lines = readFileSync(join(DIR, 'SOURCES.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const header = lines[0]!.split('\t');
  const rows = lines.slice(1).map((line) => {
    const cells = line.split('\t');
    expect(cells, `row has ${cells.length} cells, want ${HEADER.length}: ${line.slice(0, 80)}`).toHaveLength(HEADER.length);
    return Object.fromEntries(HEADER.map((h, i) => [h, cells[i]!])) as Row;
  });
  return { header, rows };
}

/** The split is a hash of the file name, never a choice: sha1 first byte < 52 (about a fifth) is held out. */
const splitOf = (file: string) => (createHash('sha1').update(file).digest()[0]! < 52 ? 'heldout' : 'tuned');

describe('real-world corpus (tests/fixtures/real-world)', () => {
  const { header, rows } = readRows();
  const samples = readdirSync(DIR)
    .filter((f) => !NOT_SAMPLES.has(f))
    .sort();

  it('has the documented header and a sensible number of samples', () => {
    expect(header).toEqual([...HEADER]);
    expect(rows.length).toBeGreaterThanOrEqual(80);
  });

  it('every sample file has exactly one row and every row names a sample file', () => {
    const named = rows.map((r) => r.file);
    expect(new Set(named).size, 'duplicate file rows').toBe(named.length);
    expect([...named].sort()).toEqual(samples);
  });

  it('samples are non-empty regular files (no symlinks, no directories)', () => {
    for (const f of samples) {
      const st = lstatSync(join(DIR, f));
      expect(st.isFile(), `${f} is not a regular file`).toBe(true);
      expect(st.size, `${f} is empty`).toBeGreaterThan(0);
    }
  });

  it('split follows the hash rule, and both splits are populated', () => {
    for (const r of rows) expect(r.split, r.file).toBe(splitOf(r.file));
    expect(rows.filter((r) => r.split === 'heldout').length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.split === 'tuned').length).toBeGreaterThan(0);
  });

  it('urls are https and point at a page, not a site root', () => {
    for (const r of rows) {
      const u = new URL(r.url);
      expect(u.protocol, r.file).toBe('https:');
      expect(u.pathname.length, `${r.file}: ${r.url}`).toBeGreaterThan(1);
    }
  });

  it('kinds are known kind names and the expected label starts with the same kind', () => {
    for (const r of rows) {
      expect(SUPPORTED_KINDS, `${r.file}: kind ${r.kind}`).toContain(r.kind);
      const [kind, ...rest] = r.expected.split(' ');
      expect(kind, `${r.file}: expected must start with the kind`).toBe(r.kind);
      if (rest.includes('healthy')) expect(rest, `${r.file}: healthy stands alone`).toEqual(['healthy']);
      // "id~figure" asks the finding to state the thread's figure ("_" for a space)
      else for (const t of rest) expect(t.split('~')[0], `${r.file}: finding id`).toMatch(FINDING_ID);
      for (const t of rest) if (t.includes('~')) expect(t, `${r.file}: a figure after ~`).toMatch(/^[^~]+~[^~\s]+$/);
    }
  });

  it('every row carries a product and a one-line conclusion', () => {
    for (const r of rows) {
      expect(r.product_version.trim(), r.file).not.toBe('');
      expect(r.conclusion.trim().length, r.file).toBeGreaterThan(20);
      expect(r.conclusion.length, `${r.file}: conclusion should be one short line`).toBeLessThanOrEqual(300);
    }
  });
});
