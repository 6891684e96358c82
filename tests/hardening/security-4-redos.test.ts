/**
 * Issue #13, class 4: no regex or loop of a parser is quadratic (catastrophic backtracking, a lazy group that
 * rescans a run of blanks, a lookup repeated for every position of a digit run…).
 *
 * Every parser (found through the registries, tests/hardening/registry.ts, plus the PostgreSQL DDL parser) and
 * interpret (detect + parse + rules) are run on inputs of 64 KiB, 256 KiB and 1 MiB made of long runs of blanks,
 * digits, dots, `=`, `|`, tabs, letters and mixes, each behind a real head of every detect kind (so the detector
 * picks that kind and its parser reads on into the run): as one long line, as many long lines, and as the
 * signature line itself extended. Linear time is asserted in two ways: every size within 2 s × size / 1 MiB
 * (at least 250 ms), and 1 MiB within 5× the time of 256 KiB (+100 ms); a quadratic parse shows 16×.
 * The sizes grow one at a time and stop at the first miss, so a quadratic regex fails in seconds, not hours.
 *
 * Knob: HARDENING_REDOS_SCALE (default 1) multiplies the time bounds (a loaded machine).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { detect, KINDS } from '../../mcp-server/src/core/detect.js';
import { parsePostgresDdl } from '../../mcp-server/src/core/parse/postgres-ddl.js';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';
import { CORPUS_DIR, FIXTURES_DIR } from '../helpers/corpus.js';
import { discoverParsers, type AnyParser } from './registry.js';
import { knob, record } from './stats.js';

const SCALE = knob('HARDENING_REDOS_SCALE', 1);
const MIB = 1024 * 1024;
const SIZES = [64 * 1024, 256 * 1024, MIB];
const budgetMs = (n: number) => SCALE * Math.max(250, (2000 * n) / MIB);
const RUNS = [' ', '1', '.', '=', '|', '\t', 'a', ' \t', '1 ', '1.', 'a=', '| ', ', ', ':'];

const rep = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
/** Hostile text of about n characters after a head. */
const VARIANTS: Record<string, (head: string, run: string, n: number) => string> = {
  'one long line': (h, r, n) => `${h}\n${rep(r, n)}x\n`,
  'many long lines': (h, r, n) => `${h}\n${rep(`${rep(r, 4000)}x\n`, n)}`,
  'signature line extended': (h, r, n) => {
    const [first, ...rest] = h.split('\n');
    return `${first}${rep(r, n)}x\n${rest.join('\n')}`;
  },
};

// The synchronous parses hold vitest's worker: yield a macrotask between tests so it answers its RPC in time.
beforeEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

const parsers = await discoverParsers();
const heads = headsByKind();

/** For each detect kind, the head (≤ 40 lines) of the smallest real output of that kind that detect still reads. */
function headsByKind(): Map<string, string> {
  const out = new Map<string, string>();
  const files: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && statSync(p).size <= 256 * 1024 && !/\.(md|tsv)$/.test(e.name)) files.push(p);
    }
  };
  walk(FIXTURES_DIR);
  walk(CORPUS_DIR);
  const texts = files.map((f) => readFileSync(f, 'utf8')).sort((a, b) => a.length - b.length);
  // findmnt --json has no sample file: its smallest real shape.
  texts.push('{"filesystems": [{"target": "/var/lib/scylla", "source": "/dev/md0", "fstype": "xfs", "options": "rw,noatime"}]}');
  for (const text of texts) {
    const d = detect(text);
    if (!d.ok || out.has(d.kind)) continue;
    const head = text.split('\n').slice(0, 40).join('\n');
    const h = detect(head);
    out.set(d.kind, h.ok && h.kind === d.kind ? head : text);
  }
  return out;
}

interface Miss {
  what: string;
  detail: string;
}

/** Runs fn on growing sizes of one hostile shape; the first size over its bound (or a throw) is a miss. */
function checkLinear(what: string, fn: AnyParser | ((t: string) => unknown), make: (n: number) => string): Miss | null {
  const ms: number[] = [];
  for (const n of SIZES) {
    const text = make(n);
    const t0 = performance.now();
    try {
      fn(text);
    } catch (e) {
      return { what, detail: `threw ${(e as Error).message.slice(0, 200)} at ${n} chars` };
    }
    const t = performance.now() - t0;
    ms.push(t);
    const so = ms.map((x) => x.toFixed(0)).join(', ');
    if (t > budgetMs(n)) return { what, detail: `${t.toFixed(0)} ms for ${n / 1024} KiB (bound ${budgetMs(n).toFixed(0)} ms); times so far ${so} ms` };
  }
  let [, quarter, full] = ms as [number, number, number];
  if (full > 5 * quarter + 100 * SCALE) {
    // One run can catch a GC pause or a busy neighbour: a suspect ratio is timed again, best of three per size.
    // Real backtracking stays quadratic in every run; noise does not.
    const best = (n: number) => {
      const text = make(n);
      let min = Infinity;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        fn(text);
        min = Math.min(min, performance.now() - t0);
      }
      return min;
    };
    quarter = best(SIZES[1]!);
    full = best(SIZES[2]!);
  }
  const ratio = (full / quarter).toFixed(1);
  const detail = `1 MiB took ${full.toFixed(0)} ms, ${ratio}× the ${quarter.toFixed(0)} ms of 256 KiB (not linear, best of 3)`;
  if (full > 5 * quarter + 100 * SCALE) return { what, detail };
  return null;
}

function runAll(targets: [string, AnyParser | ((t: string) => unknown)][], head: string, label: string): { tried: number; misses: Miss[] } {
  const misses: Miss[] = [];
  let tried = 0;
  for (const [variant, make] of Object.entries(VARIANTS)) {
    for (const run of RUNS) {
      for (const [name, fn] of targets) {
        tried++;
        const m = checkLinear(`${name} on ${label}, ${variant} of ${JSON.stringify(run)}`, fn, (n) => make(head, run, n));
        if (m) misses.push(m);
      }
    }
  }
  return { tried, misses };
}

describe('class 4: every detector and parser runs in linear time on hostile runs', () => {
  it('every detect kind has a real head that detect picks (the runs are read by the right parser)', () => {
    const missing = KINDS.map((k) => k.kind).filter((k) => !heads.has(k));
    expect(missing, 'kinds without a sample in tests/fixtures or the corpus: add one').toEqual([]);
  });

  for (const k of KINDS) {
    it(`${k.kind}: its parser(s) and interpret, behind a ${k.kind} head`, () => {
      const head = heads.get(k.kind);
      if (head === undefined) return; // reported by the test above
      const own = parsers.filter((p) => p.kinds.includes(k.kind)).map((p): [string, AnyParser] => [p.name, p.parse]);
      const { tried, misses } = runAll([...own, ['interpret', interpretText]], head, `a ${k.kind} head`);
      record({ section: 'attack', cls: '4 quadratic regex', tried, unsafe: misses.length });
      expect(misses.map((m) => `${m.what}: ${m.detail}`)).toEqual([]);
    }, 600_000);
  }

  it('every parser (and the PostgreSQL DDL parser) on bare runs, with no head', () => {
    const all: [string, AnyParser][] = [...parsers.map((p): [string, AnyParser] => [p.name, p.parse]), ['parsePostgresDdl', parsePostgresDdl]];
    const { tried, misses } = runAll(all, '', 'no head');
    record({ section: 'attack', cls: '4 quadratic regex', tried, unsafe: misses.length });
    expect(misses.map((m) => `${m.what}: ${m.detail}`)).toEqual([]);
  }, 600_000);
});

describe('class 4: over-long lines are cut before any parser sees them', () => {
  it('keeps the first 64 KiB of a line, keeps line ends as they were, and says so in a warning', async () => {
    const { capLineLength, MAX_LINE_CHARS } = await import('../../mcp-server/src/core/text.js');
    const long = 'a'.repeat(MAX_LINE_CHARS + 10);
    expect(capLineLength(`x\r\n${long}\r\ny`)).toEqual({ text: `x\r\n${'a'.repeat(MAX_LINE_CHARS)}\r\ny`, cut: 1 });
    expect(capLineLength(`${long}\r${long}`)).toEqual({ text: `${'a'.repeat(MAX_LINE_CHARS)}\r${'a'.repeat(MAX_LINE_CHARS)}`, cut: 2 });
    const fine = `${'b'.repeat(MAX_LINE_CHARS)}\n${'c'.repeat(MAX_LINE_CHARS)}`;
    expect(capLineLength(fine).text).toBe(fine);
    const head = heads.get('nodetool.tpstats')!;
    const r = parsers.find((p) => p.name === 'NODETOOL_PARSERS.tpstats')!.parse(`${head}\n${' '.repeat(MIB)}x\n`);
    expect(r.ok && r.warnings.some((w) => /1 line\(s\) longer than 64 KiB were cut to their first 64 KiB/.test(w))).toBe(true);
  });
});
