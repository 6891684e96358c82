/**
 * Golden conclusions over the real-world corpus (tests/fixtures/real-world, SOURCES.tsv): for every sample, what the
 * engine concludes from it — the kind it reads, whether it could, and its findings (id and severity, worst first,
 * at most MAX_FINDINGS) — is kept in tests/golden/real-world/<split>.json. Any change in what the engine concludes on
 * real input fails here until it is reviewed and refreshed on purpose:
 *
 *   UPDATE_GOLDEN=1 npx vitest run tests/golden/real-world-golden.test.ts
 *
 * then read the diff of the JSON with the code change. This is a regression guard, not a score: `npm run realworld`
 * scores against the labelled expectations. Tuned and held-out samples are kept in separate files, so a held-out
 * change is visible as such; the held-out snapshot must never be used to tune a rule, only to see what moved.
 * The report goes through interpretText in-process (the same function `cql-tuner interpret` calls), so the whole
 * corpus takes a few seconds.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpretText } from '../../mcp-server/src/ops/interpret.js';

const CORPUS = join('tests', 'fixtures', 'real-world');
const DIR = join('tests', 'golden', 'real-world');
const update = process.env.UPDATE_GOLDEN === '1';
/** Enough to see the conclusion and what came with it; the tail of a long info list is not a conclusion. */
const MAX_FINDINGS = 12;

type Split = 'tuned' | 'heldout';

interface Golden {
  kind: string | null;
  ok: boolean;
  /** "id severity", in report order (worst first). */
  findings: string[];
  /** All findings, when more than MAX_FINDINGS were reported. */
  total?: number;
  /** Kinds of the parts, for a paste of several outputs. */
  parts?: (string | null)[];
}

function sources(): { file: string; split: Split }[] {
  const lines = readFileSync(join(CORPUS, 'SOURCES.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const header = lines[0]!.split('\t');
  const at = (name: string) => header.indexOf(name);
  return lines.slice(1).map((l) => {
    const cells = l.split('\t');
    return { file: cells[at('file')]!, split: cells[at('split')] as Split };
  });
}

function conclude(file: string): Golden {
  const r = interpretText(readFileSync(join(CORPUS, file), 'utf8'));
  const findings = r.findings.map((f) => `${f.id} ${f.severity}`);
  return {
    kind: r.kind,
    ok: r.ok,
    findings: findings.slice(0, MAX_FINDINGS),
    ...(findings.length > MAX_FINDINGS ? { total: findings.length } : {}),
    ...(r.parts ? { parts: r.parts.map((p) => p.kind) } : {}),
  };
}

/** Sorted keys, one sample per line block: a refreshed file diffs sample by sample. */
const serialise = (m: Record<string, Golden>) =>
  `${JSON.stringify(
    Object.fromEntries(
      Object.keys(m)
        .sort()
        .map((k) => [k, m[k]]),
    ),
    null,
    2,
  )}\n`;

/** What differs between two snapshots, one line per sample, so a failure reads as a review list. */
function differences(before: Record<string, Golden>, now: Record<string, Golden>): string[] {
  const out: string[] = [];
  for (const file of new Set([...Object.keys(before), ...Object.keys(now)])) {
    const a = before[file];
    const b = now[file];
    if (!a) out.push(`${file}: new sample, not in the snapshot`);
    else if (!b) out.push(`${file}: in the snapshot, no longer in SOURCES.tsv`);
    else if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${file}: was ${JSON.stringify(a)}, now ${JSON.stringify(b)}`);
  }
  return out;
}

const rows = sources();

describe.each(['tuned', 'heldout'] as const)('real-world corpus, %s split', (split) => {
  it('concludes what the reviewed snapshot says', () => {
    const mine = rows.filter((r) => r.split === split);
    expect(mine.length, `no ${split} samples in SOURCES.tsv`).toBeGreaterThan(10);
    const now = Object.fromEntries(mine.map((r) => [r.file, conclude(r.file)]));
    const file = join(DIR, `${split}.json`);
    if (update || !existsSync(file)) {
      if (!update) throw new Error(`${file} is missing: create it with UPDATE_GOLDEN=1 npx vitest run tests/golden/real-world-golden.test.ts`);
      mkdirSync(DIR, { recursive: true });
      writeFileSync(file, serialise(now));
      return;
    }
    const before = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Golden>;
    expect(differences(before, now), `conclusions changed on real input: review, then UPDATE_GOLDEN=1 npx vitest run tests/golden/`).toEqual([]);
  });
});

describe('the golden files', () => {
  it('keep the splits apart: no sample is in both, and each is where SOURCES.tsv puts it', () => {
    if (update) return;
    const tuned = JSON.parse(readFileSync(join(DIR, 'tuned.json'), 'utf8')) as Record<string, Golden>;
    const heldout = JSON.parse(readFileSync(join(DIR, 'heldout.json'), 'utf8')) as Record<string, Golden>;
    expect(Object.keys(tuned).filter((f) => f in heldout)).toEqual([]);
    const splitOf = new Map(rows.map((r) => [r.file, r.split]));
    expect(Object.keys(tuned).filter((f) => splitOf.get(f) !== 'tuned')).toEqual([]);
    expect(Object.keys(heldout).filter((f) => splitOf.get(f) !== 'heldout')).toEqual([]);
  });
});
