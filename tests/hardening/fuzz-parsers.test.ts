/**
 * Property-based fuzzing of every parser (found through the registries), detect and interpret:
 * random text and bytes, token soups, real samples mutated (truncated, shuffled, hostile numbers, CRLF,
 * decimal commas, NULs, 200 kB lines), and every real sample truncated at every line.
 * Each call must return a well-formed result (ok:false with a non-empty reason when it cannot read the text),
 * never throw, and finish within a per-input bound.
 *
 * Knobs: HARDENING_FUZZ_RUNS (cases per parser, default 10000), HARDENING_MAX_MS (per-input bound, default
 * 2000), HARDENING_SEED (fast-check seed, default fixed), HARDENING_MAX_CUTS (truncation points per sample).
 */
import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { detect, SUPPORTED_KINDS } from '../../mcp-server/src/core/detect.js';
import { interpretText, type InterpretReport } from '../../mcp-server/src/ops/interpret.js';
import { renderInterpret } from '../../mcp-server/src/render/interpret.js';
import { excerpt, parsedProblem, timed } from './checks.js';
import { capSample, fuzzInputArb, type FuzzInput } from './mutations.js';
import { discoverParsers, type ParserEntry } from './registry.js';
import { lineCuts, loadSamples, type Sample } from './samples.js';
import { knob, record } from './stats.js';

const RUNS = knob('HARDENING_FUZZ_RUNS', 10_000);
const MAX_MS = knob('HARDENING_MAX_MS', 2_000);
const SEED = knob('HARDENING_SEED', 0x5eed);
const MAX_CUTS = knob('HARDENING_MAX_CUTS', 80);
// Mutating a 200 kB sample 10,000 times costs minutes; the head of a sample holds its structure.
const SAMPLE_CHARS = 24_000;

const parsers = await discoverParsers();

// The properties are synchronous: yield a macrotask between tests so the worker answers vitest's RPC in time.
beforeEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
const samples = loadSamples();

function samplesFor(p: ParserEntry): string[] {
  const own = samples.filter((s) => s.kind !== null && p.kinds.includes(s.kind));
  // A parser with no sample of its own kind yet (new work) is fed every sample: still real structure.
  return (own.length ? own : samples).map((s) => capSample(s.text, SAMPLE_CHARS));
}

/** fc.check without shrinking; a failure is thrown with the property's own short message, not the whole input. */
function check<T>(prop: fc.IProperty<T>): void {
  const d = fc.check(prop, { numRuns: RUNS, seed: SEED, endOnFailure: true });
  if (d.failed) {
    const err = d.errorInstance instanceof Error ? d.errorInstance.message : String(d.errorInstance);
    throw new Error(`failed after ${d.numRuns} cases (seed ${d.seed}, path ${d.counterexamplePath}): ${err.slice(0, 1500)}`);
  }
}

function interpretProblem(r: InterpretReport): string | null {
  if (typeof r.summary !== 'string' || r.summary.trim() === '') return 'empty summary';
  if (typeof r.ok !== 'boolean') return 'ok is not a boolean';
  if (!r.ok && r.kind !== null) return 'ok:false with a kind';
  if (r.ok && (typeof r.kind !== 'string' || r.kind === '')) return 'ok:true without a kind';
  if (!Array.isArray(r.findings) || !Array.isArray(r.checked) || !Array.isArray(r.warnings)) return 'findings/checked/warnings not arrays';
  for (const f of r.findings) {
    if (typeof f.id !== 'string' || !f.id || !['critical', 'warning', 'info'].includes(f.severity) || !Array.isArray(f.evidence))
      return `malformed finding ${JSON.stringify(f).slice(0, 200)}`;
  }
  JSON.stringify(r);
  const md = renderInterpret(r);
  if (typeof md !== 'string' || md.trim() === '') return 'renderInterpret gave no text';
  return null;
}

describe('fuzzing every parser', () => {
  beforeAll(() => {
    // The registries must be found: an empty list would make every property vacuous.
    expect(parsers.length).toBeGreaterThanOrEqual(20);
    for (const registry of ['NODETOOL_PARSERS', 'STORAGE_PARSERS', 'STRESS_PARSERS', 'CONFIG_PARSERS', 'KINDS']) {
      expect(
        parsers.some((p) => p.name.startsWith(`${registry}.`)),
        registry,
      ).toBe(true);
    }
  });

  for (const p of parsers) {
    it(`${p.name}: ${RUNS} hostile inputs, no throw, well-formed result, < ${MAX_MS} ms each`, () => {
      let maxMs = 0;
      let cases = 0;
      const pool = samplesFor(p);
      check(
        fc.property(fuzzInputArb(pool), (input: FuzzInput) => {
          cases++;
          const t = timed(() => p.parse(input.text));
          maxMs = Math.max(maxMs, t.ms);
          if (t.error) throw new Error(`${t.error} on ${excerpt(input.text)}`);
          const problem = parsedProblem(t.value);
          if (problem) throw new Error(`${problem} on ${excerpt(input.text)}`);
          if (t.ms > MAX_MS) throw new Error(`took ${t.ms.toFixed(0)} ms on ${excerpt(input.text)}`);
        }),
      );
      record({ section: 'fuzz', target: p.name, cases, failures: 0, maxMs: Math.round(maxMs) });
    }, 600_000);
  }
});

describe('truncation of every real sample at every line', () => {
  const byKind = new Map(parsers.flatMap((p) => p.kinds.map((k) => [k, p] as const)));
  // Groups of samples, so no single test blocks the worker for long (vitest's RPC times out past ~60 s).
  const groups: Sample[][] = [];
  for (let i = 0; i < samples.length; i += 40) groups.push(samples.slice(i, i + 40));
  let total = 0;

  it('most real samples are recognised whole (the truncations start from real structure)', () => {
    expect(samples.filter((s) => s.kind !== null).length).toBeGreaterThan(samples.length * 0.8);
  });

  groups.forEach((group, g) => {
    it(`samples ${g * 40 + 1}–${g * 40 + group.length}: own parser, detect and interpret stay total on every prefix`, () => {
      const problems: string[] = [];
      let cases = 0;
      let maxMs = 0;
      for (const s of group) {
        const own = s.kind ? byKind.get(s.kind) : undefined;
        for (const cut of lineCuts(s.text, MAX_CUTS)) {
          const prefix = s.text.slice(0, cut);
          cases++;
          for (const [what, run] of [
            [`${own?.name}`, own ? () => parsedProblem(own.parse(prefix)) : null],
            ['detect', () => detectProblem(prefix)],
            ['interpret', () => interpretProblem(interpretText(prefix))],
          ] as const) {
            if (!run) continue;
            const t = timed(run);
            maxMs = Math.max(maxMs, t.ms);
            const problem = t.error ?? t.value ?? (t.ms > MAX_MS ? `took ${t.ms.toFixed(0)} ms` : null);
            if (problem && problems.length < 20) problems.push(`${what} on ${s.name} cut at char ${cut}: ${problem}`);
          }
        }
      }
      total += cases;
      record({
        section: 'fuzz',
        target: `truncations, samples ${g * 40 + 1}–${g * 40 + group.length} (own parser + detect + interpret)`,
        cases,
        failures: problems.length,
        maxMs: Math.round(maxMs),
      });
      expect(problems).toEqual([]);
    }, 600_000);
  });

  it('truncated at enough points to mean something', () => {
    expect(total).toBeGreaterThan(samples.length);
  });
});

function detectProblem(text: string): string | null {
  const d = detect(text);
  if (d.ok) {
    if (!SUPPORTED_KINDS.includes(d.kind)) return `unknown kind ${d.kind}`;
    return d.parsed.ok ? parsedProblem(d.parsed) : 'ok detection with a failed parse';
  }
  if (typeof d.reason !== 'string' || !d.reason) return 'failed detection without a reason';
  if (d.tried.some((t) => !t.reason)) return 'a tried kind without a reason';
  return null;
}

describe('detect and interpret under fuzzing', () => {
  const pool = samples.map((s) => capSample(s.text, SAMPLE_CHARS));

  it(`detect: ${RUNS} inputs`, () => {
    let maxMs = 0;
    check(
      fc.property(fuzzInputArb(pool), (input) => {
        const t = timed(() => detectProblem(input.text));
        maxMs = Math.max(maxMs, t.ms);
        const problem = t.error ?? t.value ?? (t.ms > MAX_MS ? `took ${t.ms.toFixed(0)} ms` : null);
        if (problem) throw new Error(`${problem} on ${excerpt(input.text)}`);
      }),
    );
    record({ section: 'fuzz', target: 'detect', cases: RUNS, failures: 0, maxMs: Math.round(maxMs) });
  }, 600_000);

  it(`interpret: ${RUNS} inputs, a readable report every time`, () => {
    let maxMs = 0;
    let unrecognisedRandom = 0;
    let random = 0;
    check(
      fc.property(fuzzInputArb(pool), (input) => {
        const t = timed(() => {
          const r = interpretText(input.text);
          if (input.origin === 'random') {
            random++;
            if (!r.ok) unrecognisedRandom++;
          }
          return interpretProblem(r);
        });
        maxMs = Math.max(maxMs, t.ms);
        const problem = t.error ?? t.value ?? (t.ms > MAX_MS ? `took ${t.ms.toFixed(0)} ms` : null);
        if (problem) throw new Error(`${problem} on ${excerpt(input.text)}`);
      }),
    );
    record({ section: 'fuzz', target: 'interpret', cases: RUNS, failures: 0, maxMs: Math.round(maxMs) });
    // Random bytes are not a Cassandra output: interpret must say so, not invent a kind.
    expect(unrecognisedRandom).toBe(random);
  }, 600_000);
});
